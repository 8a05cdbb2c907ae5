"""What a card in play says now: the one place that answers it (tarnished-star-en, Tokens and
Card Notes; FAQ Q1, Q3, Q6).

- An **eagle token** on the card, or on the card it lies under, *empties* it: no firepower
  value, no icons, no text (no triggers, abilities, static effects, limit exemption or "cannot
  be moved"); `state.eagle[uid]`, copied onto the cards lying under the card that gets it.
- A **silent battlefield** (`state.silent_bf`, -1 = none; the San Manzanillo Prison while the
  marker is there, FAQ Q6): its cards keep printed firepower and icons but no text, except
  those whose own text names the place (`speaks_at`); whether cards *played* there lose
  theirs too is the switch `prison-silence` (`spec.silences_plays`).
- A card lying face down under another (the Strongbox's) has no text either.

`board.py`'s firepower and column-counting loops inline these lookups (a comment names the
function here); everything else calls these functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deckbuilder.engine.codes import SLOT_UNDER
from deckbuilder.engine.state import State


def battlefield_of(state: State, uid: int) -> int:
    """The battlefield (the open range is `n_bf`) of a card in play, -1 when not in play."""
    for index, row in enumerate(state.rows):
        if uid in row:
            return index >> 1
    return -1


def is_emptied(state: State, uid: int) -> bool:
    """An eagle token lies on this card or on the card it lies under: no value, no icons,
    no text."""
    return bool(state.eagle[uid])


def has_value(state: State, uid: int) -> bool:
    """Does the card's printed firepower (and its power tokens) count? (Only an eagle token
    takes it: a silent battlefield keeps printed firepower, FAQ Q6.)"""
    return not state.eagle[uid]


def text_applies(state: State, uid: int, bf: int = -1) -> bool:
    """Does this card's text apply now: its triggers, abilities, static effects, limit
    exemptions and "cannot be moved"? `bf`: its battlefield when the caller knows it
    (else it is looked up, only while a silent battlefield exists)."""
    if state.eagle[uid]:
        return False
    placed = state.placed[uid] if uid < len(state.placed) else None
    if placed is not None and placed.slot == SLOT_UNDER and placed.hidden:
        return False
    silent = state.silent_bf
    if silent < 0:
        return True
    if bf < 0:
        bf = battlefield_of(state, uid)
    return bf != silent or state.spec.card_def[uid].speaks_silenced


def counts_toward_limit(state: State, uid: int, mode_counts: bool, bf: int) -> bool:
    """Does a card in a column count toward its card limit? Its printed "not counted toward
    the card limit" is text: an emptied card, or one at a silent battlefield, counts."""
    return mode_counts or bool(state.eagle[uid]) or (
        bf == state.silent_bf and not state.spec.card_def[uid].speaks_silenced)


def is_movable(state: State, uid: int, printed_movable: bool) -> bool:
    """"This card cannot be moved" is text: an emptied card can be moved and discarded from
    play (FAQ Q3: "you can always voluntarily remove the card that the eagle token is on")."""
    return printed_movable or not text_applies(state, uid)


def speaks_at(record: Any, battlefield: str,
              placements: Mapping[str, tuple[str, str]]) -> bool:
    """Does the card's own text name this battlefield (a placement the game names after it,
    a battlefield it may not be used at or costs nothing at, a condition on the marker being
    there)? Such a card keeps its text where texts are ignored."""
    if battlefield in (*record.not_at, *record.cost_waived_at):
        return True
    named = placements.get(record.placement)
    if named is not None and named[0] == battlefield:
        return True
    steps = [*record.effect, *(step for mode in record.modes for step in mode.effect),
             *(step for trigger in record.triggers for step in trigger.steps),
             *(step for ability in record.abilities for step in ability.steps)]
    return any(_names(step, battlefield) for step in steps)


def _names(step: object, battlefield: str) -> bool:
    condition = getattr(step, "condition", None)
    if condition is not None and (battlefield in condition.marker_at
                                  or condition.marker_before == battlefield):
        return True
    return any(_names(inner, battlefield) for inner in getattr(step, "steps", None) or ())


def eagle_proof(category: str, faction: str) -> bool:
    """May the eagle token NOT be placed on such a card (tarnished-star-en, Tokens and Card
    Notes)? Bandit cards, location cards and the neutral event cards a module deals."""
    return category == "location" or faction == "neutral"

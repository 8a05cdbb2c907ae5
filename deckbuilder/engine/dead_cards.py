"""Cards that can do nothing in a set-up (legal to hold, never playable here), so a player is
told rather than find them silently dead: every mode lies only at a battlefield the set-up has
not (Revolver's San Manzanillo Prison), or all the card does is act on named cards that are
dead or in neither deck (Pull the bars out with a horse, for Double the guard).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckbuilder.engine.card_steps import TargetFilter
from deckbuilder.engine.codes import PLACE_NAMED, SLOT_BESIDE, SLOT_NONE
from deckbuilder.engine.expansion_steps import run_only_if

if TYPE_CHECKING:
    from deckbuilder.engine.compiled import GameSpec


def _targets_named(steps: tuple) -> frozenset[int] | None:
    """The named cards the steps act on, when acting on them is all they do (None: they do
    something else too)."""
    named: set[int] = set()
    for runner, params in steps:
        if runner is run_only_if:
            inner = _targets_named(params[1])
            if inner is None:
                return None
            named |= inner
            continue
        target = params[0] if isinstance(params, tuple) and params else None
        if not isinstance(target, TargetFilter) or target.cards is None:
            return None
        named |= target.cards
    return frozenset(named) if named else None


def dead_cards(spec: GameSpec) -> dict[int, str]:
    """Card definition -> why it can do nothing, for the cards of both decks in this spec."""
    in_play = sorted(set(spec.deck_defs[0]) | set(spec.deck_defs[1]))
    # what can come into play at all: the decks' cards and the modules' own (the guard, ...)
    held = set(in_play) | {spec.def_of[uid] for uid in spec.extra_uids}
    dead: dict[int, str] = {}
    for definition in in_play:
        card = spec.defs[definition]
        placed = [m for m in card.modes if m.slot not in (SLOT_NONE, SLOT_BESIDE)]
        if placed and len(placed) == len(card.modes) and card.placement == PLACE_NAMED \
                and card.named_bf < 0:
            dead[definition] = (f"it may be placed only in {card.named_place}, which this "
                                "set-up has not")
    for definition in in_play:
        if definition in dead:
            continue
        card = spec.defs[definition]
        targets = [_targets_named(mode.effect) for mode in card.modes]
        if card.modes and all(t is not None for t in targets):
            named = frozenset().union(*(t for t in targets if t is not None))
            if named and all(d in dead or d not in held for d in named):
                names = ", ".join(sorted(spec.defs[d].name for d in named))
                why = "which can do nothing here" if any(d in dead for d in named) else \
                    "which neither deck holds"
                dead[definition] = f"all it does is act on {names}, {why}"
    return dead

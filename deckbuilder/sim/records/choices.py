"""The choices of a decision as every face lists them: by kind, in one order, each with a key
that names its card, so a card keeps its key from one decision to the next while it is
offered. The kinds and cards are read from the action table's ranges (engine/actions.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from deckbuilder.engine.actions import (
    ACCEPT,
    BF_BASE,
    CHARACTER_BASE,
    IN_PLAY_BASE,
    MODE_BASE,
    PASS,
    USE_PIECE,
)
from deckbuilder.engine.state import State

#: Where each kind of answer stands in a decision's list (a kind not named: 0, first: the
#: decision's own answers, a battlefield, a target, a card to pay with ...).
KIND_RANK = {"play": 1, "ability": 2, "piece": 2, "game-piece": 2, "discard-own": 3,
             "pass": 4}
#: Each kind's label, as the faces print it above its choices.
KIND_WORDS = {
    "play": "play a card", "ability": "use a card's ability", "piece": "use a table piece",
    "game-piece": "the game's own choices", "discard-own": "give up one of your own cards",
    "pass": "pass", "battlefield": "choose a battlefield", "mode": "choose how to play it",
    "character": "choose a character", "target": "choose a target", "pay": "choose how to pay",
    "card": "choose a card", "accept": "accept",
}
#: The kinds whose choice gives up one of the player's own cards: asked once more.
GIVING_UP = frozenset({"discard-own"})
#: The start of a key, by kind: a play's key is its card's id alone, another kind's starts
#: with the kind (`use-`, `drop-`, `pay-deputy`, `target-jack-colty` ...).
KEY_PREFIX = {"play": "", "ability": "use-", "discard-own": "drop-"}


def action_group(state: State, action: int) -> str:
    """What kind of answer an action is (a key of `KIND_WORDS`, or "other")."""
    layout = state.spec.layout
    if action == PASS:
        return "pass"
    if action == USE_PIECE:
        return "piece"
    if action == ACCEPT:
        return "accept"
    ranges = ((MODE_BASE, "battlefield"), (CHARACTER_BASE, "mode"), (IN_PLAY_BASE, "character"),
              (layout.own_base, "target"), (layout.ability_base, "discard-own"),
              (layout.play_base, "ability"), (layout.pay_base, "play"),
              (layout.card_base, "pay"), (layout.game_base, "card"), (layout.size, "game-piece"))
    if action >= BF_BASE:
        for end, group in ranges:
            if action < end:
                return group
    return "other"


def action_card_id(state: State, action: int) -> str | None:
    """The catalog id of the card (or character) an action names, if any."""
    spec = state.spec
    layout = spec.layout
    if layout.play_base <= action < layout.game_base:
        return str(spec.defs[spec.action_def[action]].id)
    if layout.ability_base <= action < layout.play_base:
        slots = (layout.play_base - layout.ability_base) // (layout.own_base - IN_PLAY_BASE)
        uid = (action - layout.ability_base) // slots  # a card's abilities lie together
        return str(spec.uid_id(uid))
    if IN_PLAY_BASE <= action < layout.ability_base:
        uid = (action - IN_PLAY_BASE) % (layout.own_base - IN_PLAY_BASE)
        return str(spec.uid_id(uid))
    if CHARACTER_BASE <= action < IN_PLAY_BASE:
        index = action - CHARACTER_BASE
        return str(spec.characters[index].id) if index < len(spec.characters) else None
    if MODE_BASE <= action < CHARACTER_BASE and state.pending_data \
            and isinstance(state.pending_data[0], int):  # a game's own data names no card
        return str(spec.card_def[state.pending_data[0]].id)
    if BF_BASE <= action < MODE_BASE:
        index = action - BF_BASE
        return str(spec.bfs[index].id) if index < len(spec.bfs) else None
    if layout.game_base <= action < layout.size:
        return spec.game_rules.game_action_record(state, action - layout.game_base)
    return None


def kind_words(group: str) -> str:
    return KIND_WORDS.get(group, "choose")


def in_kind_order(groups: Sequence[str]) -> list[int]:
    """The positions of a decision's choices by kind, the engine's order within a kind."""
    return sorted(range(len(groups)), key=lambda at: KIND_RANK.get(groups[at], 0))


def choice_keys(kinds_and_cards: Sequence[tuple[str, str | None]]) -> list[str]:
    """A key for each choice (kind, card id): the id, prefixed by its kind but for a play
    (`deputy`, `drop-deputy`), else the kind; a second of the same key gets `-2`, and so on."""
    seen: Counter[str] = Counter()
    keys = []
    for group, card in kinds_and_cards:
        base = KEY_PREFIX.get(group, f"{group}-") + card if card else group
        seen[base] += 1
        keys.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return keys

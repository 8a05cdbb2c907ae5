"""Table pieces the expansions add: cards lying under other cards (`attach`), cards unaffected
by row limits (`unaffected-by`), cards arriving at a battlefield. `board.py`, which acts on
them, imports this module (never the other way round).
"""

from __future__ import annotations

from typing import Final

from deckbuilder.engine.codes import SLOT_UNDER
from deckbuilder.engine.state import State

# Target / move-card `where: previous`: the battlefield before the current (or moved) one.
WHERE_PREVIOUS: Final = 5


def attached_to(state: State, host: int, index: int) -> list[int]:
    """The cards lying under `host`, which sits in row `index`."""
    placed = state.placed
    found = []
    for uid in state.rows[index]:
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        if mode.slot == SLOT_UNDER and mode.host == host:
            found.append(uid)
    return found


def host_of(state: State, uid: int) -> int:
    """The card `uid` lies under, or -1."""
    mode = state.placed[uid] if 0 <= uid < state.spec.n_cards else None
    return mode.host if mode is not None and mode.slot == SLOT_UNDER else -1


def is_hidden(state: State, uid: int) -> bool:
    """Does card `uid` lie face down under another card (only its owner may look at it)?"""
    mode = state.placed[uid]
    return mode is not None and mode.slot == SLOT_UNDER and mode.hidden


# -- cards under a character card (not in play: Module B's Garrotte under Santiago) ---------
def take_out_of_zones(state: State, uid: int) -> None:
    """Take card `uid` out of whatever zone holds it (a card in play must be lifted first,
    `board.lift`; one in no zone, an extra instance not placed yet, is left as it is)."""
    owner = state.spec.owner[uid]
    if uid in state.limbo:
        state.limbo.remove(uid)
        return
    for zones in (state.hands, state.decks, state.discards, state.removed):
        if uid in zones[owner]:
            zones[owner].remove(uid)
            return
    state.under_characters = tuple(pair for pair in state.under_characters if pair[1] != uid)


def put_under_character(state: State, uid: int, character: int) -> None:
    """Put card `uid` under character card `character` (he need not be in play: the Garrotte
    lies under Santiago in the prison), out of play, hands and decks, seen by everyone."""
    if state.placed[uid] is not None:
        raise ValueError(f"{state.spec.uid_name(uid)} is in play: lift it first")
    take_out_of_zones(state, uid)
    state.under_characters = (*state.under_characters, (character, uid))
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} is put under "
                   f"{state.spec.characters[character].name}")


def cards_under_character(state: State, character: int) -> list[int]:
    """The cards lying under character card `character`, in the order they were put there."""
    return [uid for index, uid in state.under_characters if index == character]


def take_from_character(state: State, uid: int, to: str = "hand") -> None:
    """Card `uid` leaves the character card it lies under, to its owner's `to` zone
    ("hand", "discard", "removed", or "deck-top")."""
    if all(under != uid for _, under in state.under_characters):
        raise ValueError(f"{state.spec.uid_name(uid)} lies under no character")
    state.under_characters = tuple(pair for pair in state.under_characters if pair[1] != uid)
    owner = state.spec.owner[uid]
    zone = {"hand": state.hands, "discard": state.discards, "removed": state.removed,
            "deck-top": state.decks}[to]
    zone[owner].append(uid)
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} is taken from under its character "
                   f"to the {to}")

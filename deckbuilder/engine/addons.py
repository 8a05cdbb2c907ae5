"""Table pieces the expansions add: cards lying under other cards (the `attach` step), cards
unaffected by row limits (the `unaffected-by` step), and cards arriving at a battlefield
(the card-arrives-here trigger).

Kept apart from `board.py`, which imports this module; the few functions here that need the
board's primitives import them when called (they run only in games with such cards).
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.state import State

# A card lying under another card in play (the `attach` step): no column, never a target.
SLOT_UNDER = 4
# Target / move-card `where: previous`: the battlefield before the current (or moved) one.
WHERE_PREVIOUS = 5


class AttachedMode:
    """The mode of a card lying under another card in play (its host): the mode it was
    played in, without a column, plus the host's instance id. Immutable once made, so clones
    share it like any other mode."""

    __slots__ = ("counts", "effect", "firepower", "host", "index", "marker_req", "name",
                 "needs", "play", "row_limit", "slot")

    def __init__(self, mode: Any, host: int) -> None:
        self.index = mode.index
        self.name = mode.name
        self.play = mode.play
        self.firepower = mode.firepower
        self.effect = mode.effect
        self.marker_req = None
        self.needs = ()
        self.slot = SLOT_UNDER
        self.counts = False
        self.row_limit = -1
        self.host = host


def attached_to(state: State, host: int, index: int) -> list[int]:
    """The cards lying under `host`, which sits in row `index`."""
    placed = state.placed
    return [uid for uid in state.rows[index]
            if placed[uid].slot == SLOT_UNDER and placed[uid].host == host]


def host_of(state: State, uid: int) -> int:
    """The card `uid` lies under, or -1."""
    mode = state.placed[uid] if 0 <= uid < state.spec.n_cards else None
    return mode.host if mode is not None and mode.slot == SLOT_UNDER else -1


def unaffected(state: State, card: Any, owner: int, limiter: int, bf: int) -> bool:
    """Is `owner`'s `card` unaffected by the row limit of card `limiter` (unaffected-by)?"""
    from deckbuilder.engine.board import targets

    return any(limiter in targets(state, target, (owner, -1, bf)) for target in card.immune)


def limited_count(state: State, bf: int, side: int, limiter: int) -> int:
    """`side`'s cards at `bf` that count toward the row limit of card `limiter`."""
    from deckbuilder.engine.board import SLOT_OWN, column_count

    count = column_count(state, bf, side, limiter)
    card_def = state.spec.card_def
    placed = state.placed
    for uid in state.rows[2 * bf + side]:
        card = card_def[uid]
        mode = placed[uid]
        if card.immune is not None and mode.slot == SLOT_OWN and mode.counts and \
                unaffected(state, card, side, limiter, bf):
            count -= 1
    return count


def arrived(state: State, uid: int, bf: int) -> None:
    """Card `uid` came into play at (or was moved to) `bf`: queue the card-arrives-here
    triggers of the cards at that battlefield that watch for it."""
    spec = state.spec
    watched = spec.arrival_defs
    if watched is None:
        return
    definition = spec.def_of[uid]
    if watched and definition not in watched:
        return
    from deckbuilder.engine.board import find_row, push_steps

    placed = state.placed
    for watcher in spec.arrival_watchers:
        if watcher == uid or placed[watcher] is None or state.eagle[watcher] or \
                placed[watcher].slot == SLOT_UNDER or find_row(state, watcher) >> 1 != bf:
            continue
        for cards, steps in spec.card_def[watcher].arrivals:
            if cards is None or definition in cards:
                push_steps(state, steps, (spec.owner[watcher], watcher, bf))

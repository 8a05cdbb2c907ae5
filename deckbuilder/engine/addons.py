"""Table pieces the expansions add: cards lying under other cards (the `attach` step), cards
unaffected by row limits (the `unaffected-by` step), and cards arriving at a battlefield
(the card-arrives-here trigger).

The board's functions that act on these pieces (row limits with exceptions, arrivals) live in
`board.py`, which imports this module (never the other way round).
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

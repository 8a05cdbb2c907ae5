"""Moves a player would laugh at, counted over whole games: the bot ladder's sanity check
(`calibrate.py`; a developer's measure, so it lives beside the benchmarks, not in the package).

One kind is counted today, the **pointless discard**: a player discards his own card from
play (the play-phase action "discard own X from play", `engine/play.py`) when

1. the card gave firepower at that moment (an emptied card, one with an eagle token on it,
   gives none: getting rid of it is never pointless, Tarnished Star FAQ Q3), and
2. before his play phase ends, the column it left (his, at the marker's battlefield) takes
   no card it could not have taken had that card stayed: the column was open before the
   discard (neither at its card limit nor closed by a row limit) and never fills up to its
   card limit afterwards in that phase.

So the gang making room under its 3-card limit for a card it then plays is not counted, and
neither is McReady opening a column a row limit had closed; McReady, who has no card limit,
discarding a lawman and playing on (or passing) is. A discard is judged when the phase ends
(the player passes, the turn or the marker's battlefield changes, or the game ends).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from deckbuilder.catalog import Catalog
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.board import card_firepower, column_count, column_has_room
from deckbuilder.engine.state import State
from deckbuilder.protocol import Bot

__all__ = ["DiscardWatch", "GameSanity", "play_watched", "watched_game"]


@dataclass
class _Discard:
    player: int
    bf: int
    card: str
    closed: bool  # the column had no room before it
    count_after: int  # cards counting in the column right after it
    needed: bool = False  # a card took a place it made


@dataclass
class DiscardWatch:
    """Follows one game decision by decision (`before` each action is applied, `after` it)
    and counts each side's discards from play and the pointless ones among them."""

    discards: list[int] = field(default_factory=lambda: [0, 0])
    pointless: list[int] = field(default_factory=lambda: [0, 0])
    pointless_cards: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    _open: list[_Discard] = field(default_factory=list)
    _phase: tuple[int, int] = (-1, -1)  # (turn, marker's battlefield) of the open discards

    def before(self, state: State, action: int) -> None:
        layout = state.spec.layout
        if state.pending_kind != K_MAIN:
            return
        player = state.pending_player
        if action == PASS:
            self._close_player(state, player)
            return
        if not layout.own_base <= action < layout.ability_base:
            return
        uid = action - layout.own_base
        self.discards[player] += 1
        if card_firepower(state, uid) <= 0:
            return  # an emptied card: nothing is lost (FAQ Q3)
        bf = state.marker_bf
        if self._open and self._phase != (state.turn, bf):
            self._close_all(state)
        self._phase = (state.turn, bf)
        closed = not column_has_room(state, bf, player)
        self._open.append(_Discard(player, bf, state.spec.card_def[uid].name, closed,
                                   column_count(state, bf, player) - 1))

    def after(self, state: State) -> None:
        if not self._open:
            return
        if state.is_terminal() or self._phase != (state.turn, state.marker_bf):
            self._close_all(state)
            return
        limit = state.spec.column_limit
        for discard in self._open:
            count = column_count(state, discard.bf, discard.player)
            if count > discard.count_after and (discard.closed
                                                or count >= limit[discard.player]):
                discard.needed = True

    def _close_player(self, state: State, player: int) -> None:
        self._settle([d for d in self._open if d.player == player])
        self._open = [d for d in self._open if d.player != player]

    def _close_all(self, state: State) -> None:
        self._settle(self._open)
        self._open = []

    def _settle(self, discards: list[_Discard]) -> None:
        for discard in discards:
            if not discard.needed:
                self.pointless[discard.player] += 1
                cards = self.pointless_cards[discard.player]
                cards[discard.card] = cards.get(discard.card, 0) + 1

    def finish(self, state: State) -> None:
        self._close_all(state)


@dataclass(frozen=True)
class GameSanity:
    """One game's counts, per side (player 0, player 1)."""

    seed: int
    discards: tuple[int, int]
    pointless: tuple[int, int]
    pointless_cards: tuple[dict[str, int], dict[str, int]]
    winner: int | None


def play_watched(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random],
                 seed: int = 0) -> GameSanity:
    """Play `state` to the end with `bots` (one per side), counting the discards."""
    watch = DiscardWatch()
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].choose(state, rngs[player])
        watch.before(state, action)
        state.apply(action)
        watch.after(state)
    watch.finish(state)
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    return GameSanity(seed, (watch.discards[0], watch.discards[1]),
                      (watch.pointless[0], watch.pointless[1]),
                      (watch.pointless_cards[0], watch.pointless_cards[1]),
                      outcome.winner)


def watched_game(game: str, decks: tuple[dict[str, int], dict[str, int]],
                 bot_specs: tuple[str, str], seed: int,
                 catalog: Catalog | None = None) -> GameSanity:
    """Play one seeded game of `game` between the two bots (the bots' streams seeded as the
    simulator seeds them) and count its discards."""
    from deckbuilder.bots import make_bot
    from deckbuilder.games import get_game, new_game
    from deckbuilder.sim.runs.seeds import bot_seed

    heuristics = get_game(game).heuristics
    bots = [make_bot(spec, heuristics) for spec in bot_specs]
    rngs = [random.Random(bot_seed(seed, player)) for player in (0, 1)]
    state = new_game(list(decks), seed, catalog=catalog, game=game)
    return play_watched(state, bots, rngs, seed)

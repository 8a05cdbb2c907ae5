"""The games `optimize` plays: every deck on the same numbered seeds, against every opponent
of the field, scored from the deck's seat.

One *paired unit* is one seed index played against each opponent: its score is the weighted
mean of those games' scores (a win 1, a draw a half, a loss 0). Every candidate and the deck
itself play the same units, so the difference of two decks' scores on a unit is the decks'
and not the draw's; with one opponent a unit is one game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.sim.runs.aligned import seat_orders
from deckbuilder.sim.runs.runner import (
    DeckItems,
    Executor,
    GameJob,
    GameResult,
    deck_items,
    run_games,
    switch_items,
)
from deckbuilder.sim.runs.seeds import game_seed


@dataclass(frozen=True)
class Opponent:
    """One deck of the field the deck is improved against, and how much it counts."""

    name: str
    cards: Mapping[str, int]
    weight: float = 1.0


@dataclass(frozen=True)
class TableSettings:
    """What every game shares: the seats, the bots, the rules, the master seed."""

    side: int
    opponents: Sequence[Opponent]
    bots: tuple[str, str]  # (the deck's bot, the opponents' bot)
    seed: int
    game: str
    ruleset: str | None
    switches: Mapping[str, str] | None
    modules: Sequence[str]
    max_turns: int


def score(result: GameResult, side: int) -> float:
    """A win is 1, a draw a half, a loss 0 (from the deck's seat)."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == side else 0.0


class Table:
    """Plays the units the search asks for, counting the games against the budget. Every
    deck is laid out along the deck under study (`sim.runs.aligned`), so a candidate's game draws
    what the deck's own game on that seed draws until a swapped card comes up: the paired
    difference then measures the swap, not the luck of two different shuffles."""

    def __init__(self, settings: TableSettings, executor: Executor,
                 reference: Mapping[str, int]) -> None:
        self.settings = settings
        self.executor = executor
        self.reference = dict(reference)
        self.games = 0
        total = sum(opponent.weight for opponent in settings.opponents)
        self.weights = [opponent.weight / total for opponent in settings.opponents]
        self.opponents: list[DeckItems] = [deck_items(o.cards) for o in settings.opponents]
        s = settings
        mine, theirs = s.bots
        self.bots = (mine, theirs) if s.side == 0 else (theirs, mine)
        self.switches = switch_items(s.switches)
        self.modules = tuple(sorted(s.modules))
        #: the games kept whole (label -> results in (unit, opponent) order), for labels
        #: asked to be kept: the explanation of a suggestion reads them
        self.kept: dict[str, list[GameResult]] = {}

    @property
    def games_per_unit(self) -> int:
        return len(self.opponents)

    def seed_of(self, index: int, offset: int = 0) -> int:
        """The seed of unit `index` (every opponent is met on that seed)."""
        return game_seed(self.settings.seed, offset + index)

    def play(self, decks: Sequence[tuple[str, Mapping[str, int], range]], offset: int = 0,
             keep: Sequence[str] = ()) -> dict[str, list[float]]:
        """For each (label, deck, unit indices): the units' scores, in index order."""
        s = self.settings
        jobs: list[GameJob] = []
        for label, cards, indices in decks:
            items = deck_items(cards)
            orders = seat_orders(cards, self.reference, s.side)
            for index in indices:
                seed = self.seed_of(index, offset)
                for which, opponent in enumerate(self.opponents):
                    pair = (items, opponent) if s.side == 0 else (opponent, items)
                    jobs.append(GameJob(
                        index=index * len(self.opponents) + which, seed=seed, decks=pair,
                        bots=self.bots, label=label, ruleset=s.ruleset, game=s.game,
                        max_turns=s.max_turns, switches=self.switches, modules=self.modules,
                        orders=orders))
        self.games += len(jobs)
        results: dict[str, list[GameResult]] = {label: [] for label, _, _ in decks}
        for result in run_games(jobs, self.executor):
            results[result.label].append(result)
        for label in keep:
            if label in results:
                self.kept.setdefault(label, []).extend(results[label])
        per = len(self.opponents)
        return {label: [sum(weight * score(game, s.side) for weight, game in
                            zip(self.weights, games[start:start + per], strict=True))
                        for start in range(0, len(games), per)]
                for label, games in results.items()}

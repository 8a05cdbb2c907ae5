"""The games `optimize` plays: every deck on the same numbered seeds against every opponent
of the field, scored from the deck's seat. A *paired unit* is one seed against each opponent,
scored as the weighted mean of its games (a win 1, a draw a half, a loss 0).
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
class OptimizeSettings:
    """What the search plays with: the opponent (or a weighted field), the bots, the rules,
    the budget (games in all)."""

    side: int  # the deck's seat
    opponent: Mapping[str, int] | None = None
    bot: str = "greedy"
    opponent_bot: str = "greedy"
    budget: int = 4000
    seed: int = 1
    game: str = "revolver"
    ruleset: str | None = None
    switches: Mapping[str, str] | None = None
    modules: Sequence[str] = ()
    max_turns: int = 200
    #: the opponents, weighted; when given, `opponent` is not used
    field: Sequence[Opponent] = ()

    def opponents(self) -> list[Opponent]:
        if self.field:
            return list(self.field)
        if self.opponent is None:
            raise ValueError("an opponent or a field is needed")
        return [Opponent("opponent", self.opponent, 1.0)]


def score(result: GameResult, side: int) -> float:
    """A win is 1, a draw a half, a loss 0 (from the deck's seat)."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == side else 0.0


class Table:
    """Plays the units the search asks for, counting the games against the budget; every deck
    is laid out along the deck under study (`sim.runs.aligned`), so a paired difference
    measures the swap, not the luck of two shuffles."""

    def __init__(self, settings: OptimizeSettings, executor: Executor,
                 reference: Mapping[str, int]) -> None:
        self.settings = settings
        self.executor = executor
        self.reference = dict(reference)
        self.games = 0
        field = settings.opponents()
        total = sum(opponent.weight for opponent in field)
        self.weights = [opponent.weight / total for opponent in field]
        self.opponents: list[DeckItems] = [deck_items(o.cards) for o in field]
        mine, theirs = settings.bot, settings.opponent_bot
        self.bots = (mine, theirs) if settings.side == 0 else (theirs, mine)
        self.switches = switch_items(settings.switches)
        self.modules = tuple(sorted(settings.modules))
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

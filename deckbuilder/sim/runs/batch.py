"""`simulate`: a deck against an opponent over many seeded games, optionally paired with a
baseline deck on the same seeds. The run keeps running statistics (`sim.runs.tally`), so a
million games hold as much memory as a thousand; `keep_results=True` keeps the games too:

    >>> from deckbuilder import load_catalog
    >>> catalog = load_catalog()
    >>> run = simulate(Contestant("Colty", catalog.base_deck("revolver", "colty"), "random"),
    ...                Contestant("McReady", catalog.base_deck("revolver", "mcready"), "random"),
    ...                side=0, games=4, seed=1, keep_results=True)
    >>> sum(run.tally.deck.wins) + run.tally.deck.draws, [result.index for result in run.results]
    (4, [0, 1, 2, 3])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.bots import is_reproducible, make_bot
from deckbuilder.games import get_game
from deckbuilder.protocol import Evaluator
from deckbuilder.sim.runs.aligned import seat_orders
from deckbuilder.sim.runs.runner import (
    Executor,
    GameJob,
    GameResult,
    NewGame,
    SwitchItems,
    deck_items,
    make_executor,
    play_one,
    start_game,
    switch_items,
)
from deckbuilder.sim.runs.seeds import game_seed
from deckbuilder.sim.runs.tally import RunTally


@dataclass(frozen=True)
class Contestant:
    """A deck and the bot that plays it: results always measure the two together."""

    name: str
    cards: Mapping[str, int]
    bot: str = "greedy"


@dataclass(frozen=True)
class SimulationConfig:
    deck: Contestant
    opponent: Contestant
    side: int  # the deck's seat: 0 plays first (Colty in Revolver)
    games: int
    seed: int
    baseline: Contestant | None = None
    ruleset: str | None = None
    game: str = "revolver"
    max_turns: int = 200
    switches: SwitchItems = ()  # as `GameJob`'s
    modules: tuple[str, ...] = ()


class ResultsNotKept(RuntimeError):
    """A run's per-game results were asked for, but the run kept only its statistics."""


@dataclass
class SimulationRun:
    """A finished simulation: its settings, statistics and (`keep_results=True`) its games."""

    config: SimulationConfig
    tally: RunTally
    kept: tuple[list[GameResult], list[GameResult]] | None = None

    @property
    def results(self) -> list[GameResult]:
        return self._kept()[0]

    @property
    def baseline_results(self) -> list[GameResult]:
        return self._kept()[1]

    def _kept(self) -> tuple[list[GameResult], list[GameResult]]:
        if self.kept is None:
            raise ResultsNotKept("this run kept its statistics, not its games: "
                                 "simulate(..., keep_results=True) keeps every GameResult")
        return self.kept

    @property
    def reproducible(self) -> bool:
        contestants = [self.config.deck, self.config.opponent, self.config.baseline]
        return all(is_reproducible(c.bot) for c in contestants if c is not None)


def iter_specs(config: SimulationConfig, new_game: NewGame | None = None,
               evaluate: Evaluator | None = None) -> Iterator[GameJob]:
    """One spec per game (and per baseline game, on the same seed right after it), built
    lazily: a huge batch starts at once, and a pair's two games come back close together."""
    entries = [("deck", config.deck)]
    if config.baseline is not None:
        entries.append(("baseline", config.baseline))
    opponent_items = deck_items(config.opponent.cards)
    setups = []
    for label, contestant in entries:
        items = deck_items(contestant.cards)
        decks = (items, opponent_items) if config.side == 0 else (opponent_items, items)
        bots = ((contestant.bot, config.opponent.bot) if config.side == 0
                else (config.opponent.bot, contestant.bot))
        # The baseline lies like the deck but for the cards they differ in (`sim.runs.aligned`)
        # (a stand-in game of the tests deals its own way).
        orders = (seat_orders(contestant.cards, config.deck.cards, config.side)
                  if new_game is None else (None, None))
        setups.append((label, decks, bots, orders))
    for index in range(config.games):
        seed = game_seed(config.seed, index)
        for label, decks, bots, orders in setups:
            yield GameJob(index=index, seed=seed, decks=decks, bots=bots, label=label,
                          ruleset=config.ruleset, game=config.game,
                          max_turns=config.max_turns, new_game=new_game, evaluate=evaluate,
                          switches=config.switches, modules=config.modules, orders=orders)


def build_specs(config: SimulationConfig, new_game: NewGame | None = None,
                evaluate: Evaluator | None = None) -> list[GameJob]:
    """Every spec of `iter_specs` as a list (for small batches and tests)."""
    return list(iter_specs(config, new_game, evaluate))


def check_playable(specs: Iterable[GameJob]) -> None:
    """Fail once, here, with the engine's message, rather than once per game in the workers
    (the first game of each set-up is started: they differ by deck, not by seed)."""
    seen: set[tuple[object, ...]] = set()
    for spec in specs:
        key = (spec.decks, spec.ruleset, spec.game, spec.switches, spec.modules)
        if key not in seen:
            seen.add(key)
            start_game(spec)
            for bot in spec.bots:
                make_bot(bot, spec.evaluate if spec.evaluate is not None
                         else get_game(spec.game).heuristics)


def simulate(
    deck: Contestant,
    opponent: Contestant,
    *,
    side: int,
    games: int,
    seed: int,
    baseline: Contestant | None = None,
    ruleset: str | None = None,
    game: str = "revolver",
    max_turns: int = 200,
    workers: int = 1,
    executor: Executor | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    new_game: NewGame | None = None,
    evaluate: Evaluator | None = None,
    switches: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
    keep_results: bool = False,
) -> SimulationRun:
    """Play `games` seeded games of `deck` (in seat `side`) against `opponent`: the same results
    for any `workers` or `executor`. `new_game` and `evaluate` replace the engine (tests)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    config = SimulationConfig(deck, opponent, side, games, seed, baseline, ruleset, game,
                              max_turns, switch_items(switches), tuple(sorted(modules)))
    # the first game of the deck (and of the baseline): one per distinct set-up
    check_playable(iter_specs(dataclasses.replace(config, games=1), new_game, evaluate))
    tally = RunTally(side, games, paired=baseline is not None)
    kept: tuple[list[GameResult], list[GameResult]] | None = ([], []) if keep_results else None
    runner = executor or make_executor(workers)
    for result in runner.map(play_one, iter_specs(config, new_game, evaluate)):
        tally.add(result)
        if kept is not None:
            kept[result.label == "baseline"].append(result)
        if on_result is not None:
            on_result(result)
    if kept is not None:
        for results in kept:
            results.sort(key=lambda result: result.index)
    return SimulationRun(config, tally, kept)

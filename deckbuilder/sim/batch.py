"""`simulate`: a deck against an opponent over many seeded games, optionally paired with a
baseline deck on the same seeds.

    >>> from deckbuilder import load_catalog
    >>> catalog = load_catalog()
    >>> run = simulate(Contestant("Colty", catalog.base_deck("revolver", "colty"), "random"),
    ...                Contestant("McReady", catalog.base_deck("revolver", "mcready"), "random"),
    ...                side=0, games=4, seed=1)
    >>> [result.index for result in run.results]
    [0, 1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from deckbuilder.bots import is_reproducible, make_bot
from deckbuilder.games import get_game
from deckbuilder.protocol import Evaluator
from deckbuilder.sim.runner import (
    Executor,
    GameJob,
    GameResult,
    NewGame,
    SwitchItems,
    deck_items,
    make_executor,
    run_games,
    start_game,
    switch_items,
)
from deckbuilder.sim.seeds import game_seed


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
    #: single rule switches over the ruleset, as `switch_items` (sorted pairs)
    switches: SwitchItems = ()
    #: the modules in use (sorted ids)
    modules: tuple[str, ...] = ()


@dataclass
class SimulationRun:
    config: SimulationConfig
    results: list[GameResult]
    baseline_results: list[GameResult] = field(default_factory=list)

    @property
    def reproducible(self) -> bool:
        contestants = [self.config.deck, self.config.opponent, self.config.baseline]
        return all(is_reproducible(c.bot) for c in contestants if c is not None)


def build_specs(config: SimulationConfig, new_game: NewGame | None = None,
                evaluate: Evaluator | None = None) -> list[GameJob]:
    """One spec per game (and per baseline game, on the same seeds: paired)."""
    entries = [("deck", config.deck)]
    if config.baseline is not None:
        entries.append(("baseline", config.baseline))
    opponent_items = deck_items(config.opponent.cards)
    specs: list[GameJob] = []
    for label, contestant in entries:
        items = deck_items(contestant.cards)
        decks = (items, opponent_items) if config.side == 0 else (opponent_items, items)
        bots = ((contestant.bot, config.opponent.bot) if config.side == 0
                else (config.opponent.bot, contestant.bot))
        specs.extend(
            GameJob(index=index, seed=game_seed(config.seed, index), decks=decks, bots=bots,
                     label=label, ruleset=config.ruleset, game=config.game,
                     max_turns=config.max_turns, new_game=new_game, evaluate=evaluate,
                     switches=config.switches, modules=config.modules)
            for index in range(config.games)
        )
    return specs


def check_playable(specs: list[GameJob]) -> None:
    """Fail once, here, with the engine's message, rather than once per game in the workers."""
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
) -> SimulationRun:
    """Play `games` seeded games of `deck` (in seat `side`) against `opponent`, under
    `ruleset` (None: the game's own) with single rule `switches` (switch id -> variant).

    The same (seed, games) give the same results for any `workers` or `executor`.
    `new_game`/`evaluate` replace the real engine (tests use a toy game).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    config = SimulationConfig(deck, opponent, side, games, seed, baseline, ruleset, game,
                              max_turns, switch_items(switches), tuple(sorted(modules)))
    specs = build_specs(config, new_game, evaluate)
    check_playable(specs)
    results = run_games(specs, executor or make_executor(workers), on_result)
    return SimulationRun(
        config,
        [result for result in results if result.label == "deck"],
        [result for result in results if result.label == "baseline"],
    )

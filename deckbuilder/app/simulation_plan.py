"""A simulation read, checked and played the one way `deckbuilder simulate`, the web
simulator and `deckbuilder.simulate` ask for it: the same one-line refusals, the same
report, so for the same seed all show the same numbers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.app.data_notes import deck_data_notes, result_data
from deckbuilder.app.endings import ending_words
from deckbuilder.app.play_decks import SimDeck, load_side_deck, load_sim_deck, side_of_deck
from deckbuilder.app.results import Settings
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.switches import module_titles
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource
from deckbuilder.games import Game, dead_card_warnings, get_game
from deckbuilder.sim import Contestant, build_report, simulate
from deckbuilder.sim.reports.sensitivity import (
    CHECKED_CARDS,
    DEFAULT_GAMES,
    Setup,
    check_sensitivity,
    planned_moves,
)
from deckbuilder.sim.runs.batch import SimulationConfig, build_specs, check_playable
from deckbuilder.sim.runs.runner import Executor, GameResult, prime_catalog, switch_items

#: Games from which a simulation uses every core unless told otherwise (a pool of processes
#: costs a fraction of a second to start; results are the same either way).
PARALLEL_FROM = 200
#: The sensitivity check `simulate` runs unasked: the cards that matter most it moves, and
#: the games per moved value (at most), when it plays no more games than the run itself.
AUTO_CARDS = 2
AUTO_GAMES = 100


def default_workers(games: int) -> int:
    """One process per core for a batch worth the start-up of a pool, else this process."""
    return 0 if games >= PARALLEL_FROM else 1


@dataclass(frozen=True)
class SimulationPlan:
    """What to play: the decks resolved and checked, the settings read, the warnings found."""

    catalog: Catalog
    game: Game  # the game's registry entry
    deck: SimDeck
    opponent: SimDeck
    baseline: SimDeck | None
    side: int
    settings: Settings
    precision: float
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Games to play, the baseline's included."""
        return self.settings.games * (2 if self.baseline is not None else 1)


def plan_simulation(catalog: Catalog, deck: DeckSource, vs: DeckSource | None,
                    baseline: DeckSource | None, options: PlayOptions, precision: float = 0.02,
                    vs_option: str = "--vs") -> SimulationPlan:
    """Read the decks (however given; the opponent defaults to the other side's base deck),
    check they can meet (sides, one game), read the settings, and collect the warnings and
    notes; the first problem raises its one-line error (`vs_option` names the opponent)."""
    prime_catalog(catalog)
    supply = options.supply(catalog)
    played = load_sim_deck(deck, catalog, options.allow_illegal, supply=supply)
    side, players = side_of_deck(played)
    opponent = load_side_deck(players[1 - side] if vs is None else vs, players[1 - side],
                              played.game, vs_option, catalog, options.allow_illegal, supply)
    compared = None if baseline is None else load_side_deck(
        baseline, played.faction, played.game, "--baseline", catalog, options.allow_illegal,
        supply)
    wanted = options.settings(catalog, played.game)
    warnings = [w for d in (played, opponent, compared) if d is not None for w in d.warnings]
    seated = [played.cards, opponent.cards] if side == 0 else [opponent.cards, played.cards]
    warnings += dead_card_warnings(seated, catalog, played.game, wanted.modules)
    return SimulationPlan(catalog, get_game(played.game), played, opponent, compared, side,
                          wanted, precision, warnings,
                          [*deck_data_notes(played.cards, catalog), f"decks {supply.sentence}"])


def contestants(plan: SimulationPlan) -> tuple[Contestant, Contestant, Contestant | None]:
    """The deck, the opponent and the baseline (or None) as the library plays them."""
    bot = plan.settings.bot
    baseline = None if plan.baseline is None else Contestant(
        plan.baseline.name, plan.baseline.cards, bot)
    return (Contestant(plan.deck.name, plan.deck.cards, bot),
            Contestant(plan.opponent.name, plan.opponent.cards, plan.settings.opponent_bot),
            baseline)


def check_plan(plan: SimulationPlan) -> None:
    """Set up the first game (and build the bots) now, so that a ruleset, module or bot
    option the engine refuses is a one-line answer before any game is played."""
    deck, opponent, baseline = contestants(plan)
    wanted = plan.settings
    first_game = SimulationConfig(deck, opponent, plan.side, 1, wanted.seed, baseline,
                                  wanted.ruleset, plan.deck.game, wanted.max_turns,
                                  switch_items(wanted.switches), tuple(sorted(wanted.modules)))
    check_playable(build_specs(first_game))


def simulation_report(plan: SimulationPlan, executor: Executor,
                      on_result: Callable[[GameResult], None] | None = None) -> dict[str, Any]:
    """Play the plan on `executor`; its report as `simulate --json` prints it."""
    deck, opponent, baseline = contestants(plan)
    wanted = plan.settings
    run = simulate(deck, opponent, side=plan.side, games=wanted.games, seed=wanted.seed,
                   ruleset=wanted.ruleset, game=plan.deck.game, max_turns=wanted.max_turns,
                   baseline=baseline, switches=dict(wanted.switches), modules=wanted.modules,
                   executor=executor, on_result=on_result)
    names = plan.catalog.card_names()
    report = build_report(run, plan.game.side_names, names, plan.precision)
    report["title"] = plan.game.title
    report["switches"] = dict(plan.settings.switches)
    report["modules"] = sorted(plan.settings.modules)
    report["module_names"] = module_titles(plan.catalog, plan.deck.game, report["modules"])
    report["terminations"] = [str(termination) for termination in plan.game.terminations]
    for row in report["endings"]:  # "the last border token is gone", not border_emptied
        row["words"] = ending_words(row["termination"])
    report["warnings"] = plan.warnings
    report["notes"] = plan.notes
    report["supply"] = plan.settings.supply
    # what the result rests on (unconfirmed values, the cards that matter most, the data)
    played = [plan.deck, plan.opponent, *([plan.baseline] if plan.baseline else [])]
    report.update(result_data(plan.catalog, [each.cards for each in played], report))
    return report


def _checked_cards(report: Mapping[str, Any], cards: int) -> list[str]:
    """The cards a sensitivity check moves: the first of the report's `matter_most`."""
    return [card["id"] for card in report["rests_on"]["matter_most"][:cards]]


def sensitivity_cost(plan: SimulationPlan, report: Mapping[str, Any], games: int,
                     cards: int = CHECKED_CARDS) -> int:
    """The games `simulate --sensitivity N` plays on top of the run (said before playing)."""
    return games * (len(planned_moves(plan.catalog, _checked_cards(report, cards))) + 1)


def planned_sensitivity(plan: SimulationPlan, report: dict[str, Any], asked: bool | None,
                        games: int = DEFAULT_GAMES) -> tuple[int, int]:
    """The games per moved value and the cards of the check to run (0 games: none). Unasked
    (None), the `AUTO_CARDS` check when it plays no more games than the run, else a note."""
    if asked is not None:
        return (games if asked else 0), CHECKED_CARDS
    games = min(plan.settings.games, AUTO_GAMES)
    cost = sensitivity_cost(plan, report, games, AUTO_CARDS)
    if cost <= plan.settings.games:
        return games, AUTO_CARDS
    report["notes"] = [*report.get("notes", []), (
        f"sensitivity not checked unasked: moving the {AUTO_CARDS} cards that matter most "
        f"would play {cost} more games, more than the run's {plan.settings.games}; "
        "--sensitivity runs it")]
    return 0, AUTO_CARDS


def add_sensitivity(plan: SimulationPlan, report: dict[str, Any], games: int,
                    workers: int = 1, on_result: Callable[[GameResult], None] | None = None,
                    cards: int = CHECKED_CARDS) -> dict[str, Any]:
    """Run the sensitivity check of a `simulate` report into its `rests_on`."""
    deck, opponent, _ = contestants(plan)
    wanted = plan.settings
    setup = Setup(deck, opponent, plan.side, wanted.seed, wanted.ruleset, plan.deck.game,
                  wanted.max_turns, dict(wanted.switches), tuple(sorted(wanted.modules)))
    checked = check_sensitivity(plan.catalog, setup, _checked_cards(report, cards), games,
                                workers, on_result)
    report["rests_on"]["sensitivity"] = checked
    return dict(checked)

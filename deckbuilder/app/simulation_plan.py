"""A simulation read and checked the one way both faces of the tool read it.

`deckbuilder simulate` and the web simulator take the same inputs (decks as a file or a
faction, bots, games, seed, ruleset, switches, modules), refuse the same mistakes with the
same one-line messages, play through the library's `simulate` and add the same fields to
its report; so for the same seed both show the same numbers. Only how they ask (options or
a form) and how they show the result (a terminal or a page) differ.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.app.data_notes import deck_data_notes, result_data
from deckbuilder.app.endings import ending_words
from deckbuilder.app.json_values import as_plain_json
from deckbuilder.app.play_decks import SimDeck, load_side_deck, load_sim_deck
from deckbuilder.app.switches import module_titles, parse_switches, read_modules
from deckbuilder.errors import DeckError
from deckbuilder.games import dead_card_warnings, get_game
from deckbuilder.sim import Contestant, build_report, simulate
from deckbuilder.sim.runs.batch import SimulationConfig, build_specs, check_playable
from deckbuilder.sim.runs.runner import prime_catalog, switch_items

__all__ = ["PARALLEL_FROM", "SimulationPlan", "as_plain_json", "check_plan", "contestants",
           "default_workers", "plan_simulation", "run_plan", "simulation_report"]

#: Games from which a simulation uses every core unless told otherwise (a pool of processes
#: costs a fraction of a second to start; results are the same either way).
PARALLEL_FROM = 200


def default_workers(games: int) -> int:
    """One process per core for a batch worth the start-up of a pool, else this process."""
    return 0 if games >= PARALLEL_FROM else 1


@dataclass
class SimulationPlan:
    """What to play: the decks resolved and checked, the rules read, the warnings found."""

    catalog: Any
    game: Any  # the game's registry entry
    deck: SimDeck
    opponent: SimDeck
    baseline: SimDeck | None
    bot: str
    opponent_bot: str
    side: int
    games: int
    seed: int
    ruleset: str
    switches: dict[str, str]
    modules: tuple[str, ...]
    max_turns: int
    precision: float
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Games to play, the baseline's included."""
        return self.games * (2 if self.baseline is not None else 1)


def plan_simulation(catalog: Any, deck_text: str, vs_text: str | None,
                    baseline_text: str | None, *, bot: str, opponent_bot: str, games: int,
                    seed: int, ruleset: str | None, switch_texts: Sequence[str],
                    modules: Sequence[str], max_turns: int, precision: float,
                    allow_illegal: bool = False) -> SimulationPlan:
    """Read the decks (a file or a faction name each), check they can meet (sides, one
    game), read the rules, and collect the warnings and notes; the first problem raises its
    one-line error."""
    prime_catalog(catalog)
    deck = load_sim_deck(deck_text, catalog, allow_illegal)
    game = get_game(deck.game)
    players = game.side_names
    if deck.faction not in players:
        raise DeckError(f"'{deck.faction}' is not a side of {deck.game}: nothing to play",
                        fix=f"simulate a deck of {' or '.join(players)}")
    side = players.index(deck.faction)
    opponent = load_side_deck(vs_text or players[1 - side], players[1 - side], deck.game,
                              "--vs", catalog, allow_illegal)
    baseline = None if baseline_text is None else load_side_deck(
        baseline_text, deck.faction, deck.game, "--baseline", catalog, allow_illegal)
    switches = parse_switches(list(switch_texts), catalog, deck.game)
    module_ids = read_modules(modules, catalog, deck.game)  # by letter, id or name
    warnings = [w for d in (deck, opponent, baseline) if d is not None for w in d.warnings]
    seated = [deck.cards, opponent.cards] if side == 0 else [opponent.cards, deck.cards]
    warnings += dead_card_warnings(seated, catalog, deck.game, module_ids)
    return SimulationPlan(catalog, game, deck, opponent, baseline, bot, opponent_bot, side,
                          games, seed, ruleset or game.default_ruleset, switches,
                          module_ids, max_turns, precision, warnings,
                          deck_data_notes(deck.cards, catalog))


def contestants(plan: SimulationPlan) -> tuple[Any, Any, Any | None]:
    """The deck, the opponent and the baseline (or None) as the library plays them."""
    baseline = None if plan.baseline is None else Contestant(
        plan.baseline.name, plan.baseline.cards, plan.bot)
    return (Contestant(plan.deck.name, plan.deck.cards, plan.bot),
            Contestant(plan.opponent.name, plan.opponent.cards, plan.opponent_bot), baseline)


def check_plan(plan: SimulationPlan) -> None:
    """Set up the first game (and build the bots) now, so that a ruleset, module or bot
    option the engine refuses is a one-line answer before any game is played."""
    deck, opponent, baseline = contestants(plan)
    first_game = SimulationConfig(deck, opponent, plan.side, 1, plan.seed, baseline,
                                  plan.ruleset, plan.deck.game, plan.max_turns,
                                  switch_items(plan.switches), tuple(sorted(plan.modules)))
    check_playable(build_specs(first_game))


def run_plan(plan: SimulationPlan, executor: Any,
             on_result: Callable[[Any], None] | None = None) -> Any:
    """Play the plan on `executor`; the library's `SimulationRun`."""
    deck, opponent, baseline = contestants(plan)
    return simulate(deck, opponent, side=plan.side, games=plan.games, seed=plan.seed,
                    ruleset=plan.ruleset, game=plan.deck.game, max_turns=plan.max_turns,
                    baseline=baseline, switches=plan.switches, modules=plan.modules,
                    executor=executor, on_result=on_result)


def simulation_report(plan: SimulationPlan, run: Any) -> dict[str, Any]:
    """The report of a run as `simulate --json` prints it: `build_report` and the fields
    the tool adds."""
    names = plan.catalog.card_names()
    report = build_report(run, plan.game.side_names, names, plan.precision)
    report["title"] = plan.game.title
    report["switches"] = plan.switches
    report["modules"] = sorted(plan.modules)
    report["module_names"] = module_titles(plan.catalog, plan.deck.game, sorted(plan.modules))
    report["terminations"] = [str(termination) for termination in plan.game.terminations]
    for row in report["endings"]:  # "the last border token is gone", not border_emptied
        row["words"] = ending_words(row["termination"])
    report["warnings"] = plan.warnings
    report["notes"] = plan.notes
    # what the result rests on (unconfirmed values, the cards that matter most, the data)
    played = [plan.deck, plan.opponent, *([plan.baseline] if plan.baseline else [])]
    report.update(result_data(plan.catalog, [each.cards for each in played], report))
    return report

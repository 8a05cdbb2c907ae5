"""`deckbuilder.simulate`: a deck against one opponent, as a typed result of the service the
command line and the web simulator use (`app.simulation_plan`); `report` keeps the
`simulate --json` report whole.

    >>> result = simulate("mcready", games=4, seed=1, bot="random")
    >>> result.side, result.opponent_side, result.wins + result.draws + result.losses
    ('mcready', 'colty', 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from deckbuilder.api.keywords import SimulateKeywords, asked
from deckbuilder.app.bot_checks import check_simulation
from deckbuilder.app.data_notes import add_sensitivity, planned_sensitivity
from deckbuilder.app.results import (
    Ending,
    Lengths,
    Settings,
    SimulationResult,
    card_figures,
    frozen_mapping,
)
from deckbuilder.app.running import games_on
from deckbuilder.app.simulation_plan import plan_simulation, simulation_report
from deckbuilder.decks import DeckSource
from deckbuilder.sim.runs.stats import Interval, Summary

__all__ = ["simulate"]


def simulate(deck: DeckSource, against: DeckSource | None = None,
             **given: Unpack[SimulateKeywords]) -> SimulationResult:
    """Play `deck` against `against` (default: the other side's base deck) `games` times on
    seeds that follow from `seed`. Decks: a loaded deck, a `Deck`, a path, a packaged deck's
    name or a faction (its base deck); the seat follows from the faction. Bad input raises
    a `DeckbuilderError` whose `str()` is one line."""
    run = asked(given, SimulateKeywords, "simulate")
    plan = plan_simulation(run.catalog, deck, against, None, run.options, vs_option="against")
    with games_on(run.workers, run.executor) as runner:
        report = simulation_report(plan, runner, run.on_result)
        check_simulation(plan, report, run.check_bot, runner)  # whether the verdict holds
    games, cards = planned_sensitivity(plan, report, None)  # what it rests on, where cheap
    if games:
        add_sensitivity(plan, report, games, run.workers if run.executor is None else 1,
                        cards=cards)
    return _result(report, plan.settings)


def _summary(data: Mapping[str, float]) -> Summary:
    return Summary(data["mean"], data["median"], data["min"], data["max"], data["p10"],
                   data["p90"])


def _result(report: Mapping[str, Any], used: Settings) -> SimulationResult:
    seat = int(report["deck"]["seat"])
    mine = report["sides"][seat]
    games = int(report["games"])
    wins, draws = int(mine["wins"]), int(report["draws"]["games"])
    endings = tuple(Ending(str(row["termination"]), str(row["words"]), int(row["games"]),
                           float(row["share"]), frozen_mapping(row["winners"]))
                    for row in report["endings"])
    length = report["length"]
    return SimulationResult(
        deck=str(report["deck"]["name"]), opponent=str(report["opponent"]["name"]),
        side=str(report["deck"]["faction"]), opponent_side=str(report["opponent"]["faction"]),
        games=games, wins=wins, draws=draws, losses=games - wins - draws,
        win_rate=Interval(**mine["win_rate"]),
        endings=frozen_mapping({ending.termination: ending.games for ending in endings}),
        ending_details=endings,
        lengths=Lengths(_summary(length["turns"]), _summary(length["decisions"]),
                        tuple((int(turns), int(count))
                              for turns, count in length["turn_counts"])),
        cards=card_figures(report["cards"]["deck"]),
        opponent_cards=card_figures(report["cards"]["opponent"]),
        settings=used, reproducible=bool(report["reproducible"]),
        warnings=tuple(report["warnings"]), notes=tuple(report["notes"]),
        note=str(report["note"]), card_note=str(report["cards"]["note"]),
        report=frozen_mapping(report))

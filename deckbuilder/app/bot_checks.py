"""Every verdict says whether it holds: `simulate`, gauntlets, `tournament` and `optimize`
ask their question again with a stronger bot (`--check-bot`, `sim.reports.bot_check`) on the
run's first seeds, and add both answers to the report (`bot_check`), or a note saying why
not; every face calls these, so all carry the same answer."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from deckbuilder.app.data_notes import swap_rests_on
from deckbuilder.app.field_runs import (
    GauntletPlan,
    TournamentPlan,
    run_gauntlet_plan,
    run_tournament_plan,
)
from deckbuilder.app.results import GauntletResult, TournamentResult, frozen_mapping
from deckbuilder.app.simulation_plan import SimulationPlan, simulation_report
from deckbuilder.catalog import Catalog
from deckbuilder.games import get_game
from deckbuilder.sim.optimiser.optimize import OptimizeResult, replay_gain
from deckbuilder.sim.reports.bot_check import (
    CHECK_GAMES,
    AgreementJson,
    BotCheckJson,
    ComparedJson,
    agreement,
    compare,
    not_checked,
    rated,
    wanted_check,
)
from deckbuilder.sim.reports.optimize_report import swaps_text
from deckbuilder.sim.runs.runner import Executor, GameResult
from deckbuilder.sim.runs.stats import paired_difference

Plan = TypeVar("Plan", SimulationPlan, GauntletPlan, TournamentPlan)
Ran = TypeVar("Ran", GauntletResult, TournamentResult)
OnResult = Callable[[GameResult], None] | None
WINS = ("wins more often than not", "loses more often than not")


def _checked(plan: Plan, bot: str, games: int) -> Plan:
    settings = dataclasses.replace(plan.settings, bot=bot, opponent_bot=bot, games=games)
    return dataclasses.replace(plan, settings=settings)


def _finish(report: dict[str, Any], bots: tuple[str, str], games: int,
            compared: list[ComparedJson], agreed: list[AgreementJson] | None = None
            ) -> BotCheckJson:
    check: BotCheckJson = {"bots": list(bots), "games": games, "compared": compared,
                           "agreement": agreed or []}
    report["bot_check"] = check
    return check


def _bot(report: dict[str, Any], asked: str | None, bot: str, games: int,
         total: int) -> str | None:
    """The check's bot, or None with a note in the report saying why not."""
    chosen = wanted_check(asked, bot, games, total)
    if chosen is None:
        report["bot_check"] = None
        report["notes"] = [*report.get("notes", []), not_checked(asked, bot, total)]
    return chosen


def check_simulation(plan: SimulationPlan, report: dict[str, Any], asked: str | None,
                     executor: Executor, on_result: OnResult = None) -> BotCheckJson | None:
    """The deck's win rate against the opponent again with the stronger bot (both seats)."""
    games = min(plan.settings.games, CHECK_GAMES)
    if (bot := _bot(report, asked, plan.settings.bot, plan.settings.games, games)) is None:
        return None
    checked = _checked(dataclasses.replace(plan, baseline=None), bot, games)
    again = simulation_report(checked, executor, on_result)
    seat = plan.side
    compared = [compare(f"{plan.deck.name} against {plan.opponent.name}",
                        report["sides"][seat]["win_rate"], again["sides"][seat]["win_rate"],
                        0.5, WINS)]
    return _finish(report, (plan.settings.bot, bot), games, compared)


def check_gauntlet(plan: GauntletPlan, report: dict[str, Any], asked: str | None,
                   executor: Executor, on_result: OnResult = None) -> BotCheckJson | None:
    """The deck's win rate against each opponent and the field again with the stronger bot."""
    games = min(plan.settings.games, CHECK_GAMES)
    total = games * len(plan.opponents.entries)
    if (bot := _bot(report, asked, plan.settings.bot, plan.settings.games, total)) is None:
        return None
    again = run_gauntlet_plan(_checked(plan, bot, games), executor, on_result).report
    compared = [compare(f"{plan.deck.name} against {row['name']}", row["win_rate"],
                        other["win_rate"], 0.5, WINS)
                for row, other in zip(report["opponents"], again["opponents"], strict=True)]
    compared.append(compare(f"{plan.deck.name} against the field",
                            report["field"]["win_rate"], again["field"]["win_rate"], 0.5, WINS))
    return _finish(report, (plan.settings.bot, bot), total, compared)


def check_tournament(plan: TournamentPlan, report: dict[str, Any], asked: str | None,
                     executor: Executor, on_result: OnResult = None) -> BotCheckJson | None:
    """The tournament again with the stronger bot: the rank agreement within each side."""
    games = min(plan.settings.games, CHECK_GAMES)
    total = games * plan.total // plan.settings.games
    if (bot := _bot(report, asked, plan.settings.bot, plan.settings.games, total)) is None:
        return None
    again = run_tournament_plan(_checked(plan, bot, games), executor, on_result).report
    sides = get_game(plan.settings.game).side_names
    agreed = [agreement(side, rated(report["standings"], side),
                        rated(again["standings"], side)) for side in sides]
    return _finish(report, (plan.settings.bot, bot), total, [], agreed)


def checked(result: Ran, check: Callable[[Any, dict[str, Any], str | None, Executor],
                                         BotCheckJson | None],
            plan: GauntletPlan | TournamentPlan, asked: str | None, executor: Executor) -> Ran:
    """A gauntlet's or tournament's typed result with `check`'s answer in its report."""
    report = dict(result.report)
    check(plan, report, asked, executor)
    return dataclasses.replace(result, report=frozen_mapping(report))


def check_swap(result: OptimizeResult, report: dict[str, Any], asked: str | None,
               executor: Executor, described: str) -> BotCheckJson | None:
    """The best swap's gain again with the stronger bot, on the first confirmation seeds."""
    best, settings = result.best, result.settings
    assert best is not None  # `check_optimized` asks only when there is a best swap
    units = min(len(best.confirmed), CHECK_GAMES)
    per = len(settings.opponents())
    if (bot := _bot(report, asked, settings.bot, settings.budget, 2 * units * per)) is None:
        return None
    gains = replay_gain(result, best, executor, units, (bot, bot))
    compared = [compare(f"the gain of {described}", result.difference(best).as_dict(),
                        paired_difference(gains, [0.0] * units).as_dict(), 0.0,
                        ("better", "worse"))]
    return _finish(report, (settings.bot, bot), 2 * units * per, compared)


def check_optimized(result: OptimizeResult, catalog: Catalog, asked: str | None,
                    executor: Executor, workers: int) -> dict[str, Any]:
    """What `optimize`'s best swap rests on (`gain_rests_on`) and whether it holds."""
    checks: dict[str, Any] = {"notes": [], "bot_check": None}
    if result.best is not None:
        check_swap(result, checks, asked, executor, swaps_text(result.best, catalog))
    checks["gain_rests_on"] = swap_rests_on(result, catalog, workers)
    return checks

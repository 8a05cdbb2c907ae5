"""`deckbuilder tournament`: every deck of one side against every deck of the other."""

from __future__ import annotations

from typing import Annotated

import typer

from deckbuilder.app.bot_checks import check_tournament
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.field_runs import plan_tournament, run_tournament_plan
from deckbuilder.app.simulation_plan import PARALLEL_FROM
from deckbuilder.commands import completion
from deckbuilder.commands import game_options as option
from deckbuilder.commands.choices import BOT
from deckbuilder.commands.common import AsJson, error_console, guarded, warn
from deckbuilder.commands.simulate import (
    checked,
    present_report,
    progress_bar,
)
from deckbuilder.sim.reports.bot_check import CHECK_GAMES
from deckbuilder.sim.reports.report_files import check_outputs
from deckbuilder.sim.reports.tournament_report import print_tournament


@guarded
@option.with_running
def tournament(
    decks: Annotated[list[str], typer.Argument(
        help="deck files, packaged decks, factions (their base decks) or folders of decks, "
             "of one game; a side given no deck is played by its base deck",
        show_default=False, autocompletion=completion.complete_deck)],
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, help="games per pairing")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="master seed: same seed, same results")] = 1,
    bot: Annotated[str, typer.Option(
        "--bot", **BOT.option(), help="the bot every deck is played by")] = "greedy",
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", min=0,
        help="processes; 0: one per core; default: one per core from "
             f"{PARALLEL_FROM} games in all, else 1 (results do not change)")] = None,
    *,
    running: option.Running,
    as_json: AsJson = False,
    allow_illegal: Annotated[bool, typer.Option(
        "--allow-illegal", help="play decks that break the deck-building rules (with a "
                                "warning) instead of refusing them")] = False,
    report_path: option.ReportPath = None,
    charts_dir: option.ChartsDir = None,
    boxes: option.Boxes = None,
    collection: option.CollectionFile = None,
    check_bot: option.CheckBot = None,
) -> None:
    """Play every deck of one side against every deck of the other; ranking and ratings.

    Each pairing plays the same seeds; decks are ranked by a Bradley-Terry rating fitted
    from the results, with 95% intervals. The same --seed gives the same results for any
    --workers or Dask cluster. Every deck is judged against one copy of each product unless
    --boxes N, --collection FILE or --switch card-copies=any-number says otherwise.
    """
    check_outputs(report_path, charts_dir)  # before the games: no waiting for an error
    plan = plan_tournament(project_catalog(), decks, running.play(
        games, seed, bot, None, allow_illegal, boxes, collection))
    for warning in plan.warnings:
        warn(warning)
    with running.executor(running.workers(workers, plan.total)) as executor:
        with progress_bar(error_console.is_terminal, plan.total) as tick:
            report = dict(run_tournament_plan(plan, executor, tick).report)
        checked(lambda tick: check_tournament(plan, report, check_bot, executor, tick),
                min(plan.settings.games, CHECK_GAMES) * plan.total // plan.settings.games)
    present_report("tournament", report, report_path, charts_dir, as_json,
                   print_tournament)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)

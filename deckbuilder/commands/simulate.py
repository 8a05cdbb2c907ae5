"""`deckbuilder simulate`: play a deck many times against an opponent and report the odds."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from deckbuilder.app.bot_checks import OnResult, check_gauntlet, check_simulation
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.field import is_field, single_opponent
from deckbuilder.app.field_runs import plan_gauntlet, run_gauntlet_plan
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.simulation_plan import (
    AUTO_CARDS,
    PARALLEL_FROM,
    add_sensitivity,
    plan_simulation,
    planned_sensitivity,
    sensitivity_cost,
    simulation_report,
)
from deckbuilder.app.spellings import side_ids
from deckbuilder.commands import completion
from deckbuilder.commands.choices import BOT, BOT_LIST
from deckbuilder.commands.common import (
    AsJson,
    error_console,
    guarded,
    plain_console,
    print_json,
    safe,
    tell,
    warn,
)
from deckbuilder.commands.game_options import (
    Boxes,
    ChartsDir,
    CheckBot,
    CollectionFile,
    ReportPath,
    Running,
    with_running,
)
from deckbuilder.commands.play_setup import either
from deckbuilder.errors import DeckError
from deckbuilder.sim import print_report
from deckbuilder.sim.reports.bot_check import CHECK_GAMES, BotCheckJson
from deckbuilder.sim.reports.report_files import check_outputs, write_outputs
from deckbuilder.sim.reports.sensitivity import CHECKED_CARDS, DEFAULT_GAMES, MOVED_FIELDS
from deckbuilder.sim.reports.tournament_report import print_gauntlet

#: What a run played with progress shown returns (a run, a report, a check).


@guarded
@with_running
def simulate(
    deck: Annotated[str, typer.Argument(
        help=f"a deck file, or a faction name ({', '.join(side_ids())}) for its base deck",
        show_default=False, autocompletion=completion.complete_deck)],
    vs: Annotated[list[str] | None, typer.Option(
        "--vs", help="the opponent's deck file, packaged deck or faction; default: the other "
                     "base deck. Repeat it, or name a folder of decks, for a gauntlet against "
                     "each and against the field; DECK@2 weighs a deck double in the field",
        autocompletion=completion.complete_opponent)
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games to play")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="master seed: same seed, same results")] = 1,
    bot: Annotated[str, typer.Option(
        "--bot", **BOT.option(),
        help=f"the deck's bot: {BOT_LIST}")] = "greedy",
    opponent_bot: Annotated[str | None, typer.Option(
        "--opponent-bot", **BOT.option(),
        help="the opponent's bot; default: the same as --bot")] = None,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", help="a deck of the same faction to compare with, on the same seeds",
        autocompletion=completion.complete_deck)] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", min=0,
        help="processes; 0: one per core; default: one per core from "
             f"{PARALLEL_FROM} games, else 1 (results do not change)")] = None,
    *,
    running: Running,
    precision: Annotated[float, typer.Option(
        "--precision", min=0.001, max=0.5,
        help="report the games needed for this +- precision of the win rate")] = 0.02,
    as_json: AsJson = False,
    allow_illegal: Annotated[bool, typer.Option(
        "--allow-illegal", help="simulate a deck that breaks the deck-building rules (with a "
                                "warning) instead of refusing it")] = False,
    report_path: ReportPath = None,
    charts_dir: ChartsDir = None,
    sensitivity: Annotated[bool | None, typer.Option(
        "--sensitivity/--no-sensitivity", show_default=False,
        help="move each unconfirmed "
             f"{either([name.replace('_', ' ') for name in MOVED_FIELDS])} value of the "
             f"{CHECKED_CARDS} cards that matter most one down and one up, and say how far "
             "the win rate moves (plays --sensitivity-games games per moved value, and says "
             f"how many before playing); unasked, the {AUTO_CARDS} cards that matter most "
             "are moved when that plays no more games than the run; --no-sensitivity: "
             "never")] = None,
    sensitivity_games: Annotated[int, typer.Option(
        "--sensitivity-games", min=1, help="games per moved value for --sensitivity, on "
                                           "this run's first seeds")] = DEFAULT_GAMES,
    boxes: Boxes = None,
    collection: CollectionFile = None,
    check_bot: CheckBot = None,
) -> None:
    """Play DECK against an opponent over many seeded games; win rates with 95% intervals.

    The results measure the deck and the bots together. The same --seed gives the same
    results for any --workers. Every deck is judged against one copy of each product unless
    --boxes N, --collection FILE or --switch card-copies=any-number says otherwise.
    """
    workers = running.workers(workers, games * len(vs or [None]))
    options = running.play(games, seed, bot, opponent_bot or bot, allow_illegal, boxes,
                           collection)
    if vs and is_field(vs):
        if sensitivity:
            raise DeckError("--sensitivity moves values against one opponent, not a field",
                            fix="give one --vs with --sensitivity, or leave --sensitivity out")
        _gauntlet(deck, vs, baseline, workers, options, as_json, running,
                  report_path, charts_dir, check_bot)
        return
    _simulate(deck, single_opponent(vs), baseline, workers, options, precision, as_json,
              running, report_path=report_path, charts_dir=charts_dir,
              sensitivity=(sensitivity, sensitivity_games), check_bot=check_bot)


def _simulate(
    deck_text: str, vs: str | None, baseline_text: str | None, workers: int,
    options: PlayOptions, precision: float, as_json: bool, running: Running,
    report_path: Path | None = None, charts_dir: Path | None = None,
    sensitivity: tuple[bool | None, int] = (None, DEFAULT_GAMES),
    check_bot: str | None = None,
) -> None:
    check_outputs(report_path, charts_dir)  # before the games: no waiting for an error
    plan = plan_simulation(project_catalog(), deck_text, vs, baseline_text, options, precision)
    for warning in plan.warnings:
        warn(warning)
    show_progress = error_console.is_terminal  # on stderr: stdout may be piped, or JSON
    with running.executor(workers) as executor:
        with progress_bar(show_progress, plan.total) as tick:
            report = simulation_report(plan, executor, tick)
        checked(lambda tick: check_simulation(plan, report, check_bot, executor, tick),
                min(plan.settings.games, CHECK_GAMES))
    games, cards = planned_sensitivity(plan, report, *sensitivity)
    if games:  # on this machine's processes, never on Dask
        cost = sensitivity_cost(plan, report, games, cards)
        tell(f"sensitivity: {cost} more games ({games} unmoved and as many for each of "
             f"{cost // games - 1} moves)")
        with progress_bar(show_progress, cost) as tick:
            add_sensitivity(plan, report, games, running.own_workers(workers), tick, cards)
    present_report("simulate", report, report_path, charts_dir, as_json, print_report)


def _gauntlet(deck_text: str, vs: list[str], baseline: str | None, workers: int,
              options: PlayOptions, as_json: bool, running: Running,
              report_path: Path | None, charts_dir: Path | None,
              check_bot: str | None = None) -> None:
    if baseline is not None:
        raise DeckError("--baseline compares two decks against one opponent, not a field",
                        fix="give one --vs with --baseline, or leave --baseline out")
    check_outputs(report_path, charts_dir)
    plan = plan_gauntlet(project_catalog(), deck_text, vs, options)
    for warning in plan.warnings:
        warn(warning)
    with running.executor(workers) as executor:
        with progress_bar(error_console.is_terminal, plan.total) as tick:
            report = dict(run_gauntlet_plan(plan, executor, tick).report)
        checked(lambda tick: check_gauntlet(plan, report, check_bot, executor, tick),
                min(plan.settings.games, CHECK_GAMES) * len(plan.opponents.entries))
    present_report("gauntlet", report, report_path, charts_dir, as_json, print_gauntlet)


def present_report(kind: str, report: Mapping[str, object], report_path: Path | None,
                   charts_dir: Path | None, as_json: bool,
                   print_text: Callable[..., None]) -> None:
    """A report's files written, then the report printed as JSON or, escaped, as text with
    its notes (a tournament's text says them itself)."""
    for path in write_outputs(kind, report, report_path, charts_dir):
        tell(f"wrote {path}")
    if as_json:
        print_json(report)
        return
    print_text(plain_console, _shown(report))
    for note in cast("list[str]", report["notes"]) if kind != "tournament" else ():
        plain_console.print(f"note: {safe(note)}")


def checked(check: Callable[[OnResult], BotCheckJson | None], total: int) -> None:
    """Run a bot check with progress shown; say on stderr what it cost (the report holds
    no figure of the machine's)."""
    started = time.perf_counter()
    with progress_bar(error_console.is_terminal, total) as tick:
        found = check(tick)
    if found is not None:
        tell(f"check: {found['games']} games with {found['bots'][1]} took "
             f"{time.perf_counter() - started:.1f} s")


@contextmanager
def progress_bar(show: bool, total: int) -> Iterator[OnResult]:
    """A bar on stderr over `total` games, and the `on_result` that moves it (None: no bar);
    the run is called by its caller, so its `on_result` keyword is type-checked."""
    if not show:
        yield None
        return
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=error_console,
                  transient=True) as progress:
        task = progress.add_task("playing", total=total)
        yield lambda _result: progress.advance(task)


def _shown(data: object) -> Any:
    """The report with every string escaped for the terminal (names come from files)."""
    if isinstance(data, str):
        return safe(data)
    if isinstance(data, dict):
        return {key: _shown(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_shown(item) for item in data]
    return data


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)

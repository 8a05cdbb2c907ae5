"""The options of the commands that play games, declared once so that they agree:
`ruleset: Ruleset = None` in a signature is its `--ruleset`. The helps are rich markup."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from deckbuilder.app.running import PlayOptions
from deckbuilder.app.simulation_plan import default_workers
from deckbuilder.commands import completion
from deckbuilder.commands.choices import BOT, RULESET
from deckbuilder.sim.reports.bot_check import AUTO_FROM, AUTO_MOST, CHECK_BOT, CHECK_GAMES
from deckbuilder.sim.runs.executors import open_executor
from deckbuilder.sim.runs.runner import Executor

Ruleset = Annotated[str | None, typer.Option(
    "--ruleset", **RULESET.option(),
    help="rule variant id (see `deckbuilder rules`); default: the game's own")]
Switches = Annotated[list[str] | None, typer.Option(
    "--switch", help="ID=VALUE: one rule switch over the ruleset (repeatable; see "
                     "`deckbuilder rules`)",
    autocompletion=completion.complete_switch)]
#: read by deckbuilder.app.switches.read_modules
Modules = Annotated[list[str] | None, typer.Option(
    "--module", help="a module to play with, by letter (A), id or name (repeatable; see "
                     "`deckbuilder rules`)",
    autocompletion=completion.complete_module)]
#: the supply every deck is judged against (deckbuilder.legality.supply.deck_supply)
Boxes = Annotated[int | None, typer.Option(
    "--boxes", min=1, metavar="N",
    help="judge decks against N copies of every product (default: one)")]
CollectionFile = Annotated[Path | None, typer.Option(
    "--collection", help="judge decks against a collection file: what you own")]
MaxTurns = Annotated[int, typer.Option(
    "--max-turns", min=1, help="a game this long is stopped and counted as a draw")]
#: deckbuilder.sim.reports.report_files
ReportPath = Annotated[Path | None, typer.Option(
    "--report", show_default=False,
    help="write a self-contained HTML report with charts to this .html file (no extra "
         "needed)")]
ChartsDir = Annotated[Path | None, typer.Option(
    "--charts", show_default=False,
    help="write the report's charts as PNG files into this folder (pip install "
         "\"revolver-deckbuilder\\[plots]\")")]
#: `--check-bot`, for `simulate`, `tournament` and `optimize` alike.
CheckBot = Annotated[str | None, typer.Option(
    "--check-bot", show_default=False, autocompletion=BOT.complete,
    help=f"ask the verdict again with this bot on the run's first seeds (at most {CHECK_GAMES} "
         f"games a pairing) and say whether it holds; default: {CHECK_BOT}, unasked only in "
         f"the compiled build, for runs of {AUTO_FROM}+ games a pairing and at most "
         f"{AUTO_MOST} check games (its time is said on stderr); none: no check")]


@dataclass(frozen=True)
class Running:
    """Where and under which rules the games are played: the options `simulate`,
    `tournament` and `optimize` share, declared once (`with_running`)."""

    #: deckbuilder.sim.runs.dask_executor
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", show_default=False,
        help="play the games on the Dask cluster at this scheduler address (tcp://HOST:8786) "
             "or scheduler file; its workers need the same card sets and overlay (results do "
             "not change)")] = None
    local_dask: Annotated[bool, typer.Option(
        "--dask", help="play the games on a local Dask cluster of --workers processes (needs "
                       "the dask extra: pip install \"revolver-deckbuilder\\[dask]\")")] = False
    ruleset: Ruleset = None
    switch: Switches = None
    module: Modules = None
    max_turns: MaxTurns = 200

    def play(self, games: int, seed: int, bot: str, opponent_bot: str | None,
             allow_illegal: bool, boxes: int | None, collection: Path | None) -> PlayOptions:
        return PlayOptions(games, seed, bot, opponent_bot, self.ruleset, self.switch or [],
                           self.module or [], self.max_turns, allow_illegal, boxes, collection)

    def workers(self, given: int | None, games: int) -> int:
        """--workers, by default one per core on Dask or from PARALLEL_FROM games, else 1."""
        return given if given is not None else 0 if self.local_dask else default_workers(games)

    def executor(self, workers: int) -> AbstractContextManager[Executor]:
        return open_executor(workers, self.scheduler, self.local_dask)

    def own_workers(self, workers: int) -> int:
        """The processes of this machine for runs never sent to Dask (0: one per core)."""
        return workers if self.scheduler is None and not self.local_dask else 0


def with_running(command: Callable[..., None]) -> Callable[..., None]:
    """`command` with its `running` parameter read by typer (from `inspect.signature`, which
    honours `__signature__`) as Running's options, in its place, and given to it as one."""
    shared = inspect.signature(Running, eval_str=True).parameters
    signature = inspect.signature(command, eval_str=True)
    declare: Callable[..., Running] = Running

    @functools.wraps(command)
    def wrapper(**given: object) -> None:
        command(**{name: value for name, value in given.items() if name not in shared},
                running=declare(**{name: given[name] for name in shared}))

    wrapper.__signature__ = signature.replace(parameters=[  # type: ignore[attr-defined]
        option for parameter in signature.parameters.values()
        for option in (shared.values() if parameter.name == "running" else [parameter])])
    return wrapper

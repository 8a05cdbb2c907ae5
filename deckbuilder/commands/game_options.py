"""The options of the commands that play games, declared once so that they agree:
`ruleset: Ruleset = None` in a signature is its `--ruleset`. The helps are rich markup."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckbuilder.commands import completion
from deckbuilder.commands.choices import BOT, RULESET
from deckbuilder.sim.reports.bot_check import AUTO_FROM, AUTO_MOST, CHECK_BOT, CHECK_GAMES

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
#: deckbuilder.sim.runs.dask_executor
Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", show_default=False,
    help="play the games on the Dask cluster at this scheduler address (tcp://HOST:8786) or "
         "scheduler file; its workers need the same card sets and overlay (results do not "
         "change)")]
LocalDask = Annotated[bool, typer.Option(
    "--dask", help="play the games on a local Dask cluster of --workers processes (needs the "
                   "dask extra: pip install \"revolver-deckbuilder\\[dask]\")")]
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

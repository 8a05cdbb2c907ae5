"""A deck against a field of opponents in the browser: `deckbuilder simulate DECK --vs A --vs B`
(a gauntlet). The decks are read and the games played by the shared `app.field_runs`, so the
page's JSON is the command's `--json` for the same seed (tests/test_faces_agree.py compares
them); the page shows the same rows as the command's report page (`gauntlet_html`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from markupsafe import Markup
from pydantic import JsonValue

from deckbuilder.app.bot_checks import check_gauntlet
from deckbuilder.app.field_runs import GauntletPlan, run_gauntlet_plan
from deckbuilder.app.json_values import as_plain_json
from deckbuilder.app.simulation_plan import default_workers
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.field_json import GauntletReport
from deckbuilder.sim.runs.runner import GameResult
from deckbuilder.web.pages import fragment


def play_field(plan: GauntletPlan, on_result: Callable[[GameResult], None] | None = None
               ) -> dict[str, JsonValue]:
    """Play the field on the executor the command would choose; its `--json` report."""
    from deckbuilder.sim.runs.executors import open_executor

    # The server runs threads: its workers start from a fresh process, not a fork of it.
    with open_executor(default_workers(plan.total), start_method="forkserver") as executor:
        report = dict(run_gauntlet_plan(plan, executor, on_result).report)
        check_gauntlet(plan, report, None, executor)  # whether it holds, where cheap
    return as_plain_json(report)


def is_field_report(report: Mapping[str, object]) -> bool:
    """Is this a gauntlet's report (a simulation's has no field)?"""
    return "field" in report and "opponents" in report


def field_fragment(report: Mapping[str, object], job_id: str) -> str:
    """The field's results as HTML: its chart (the same SVG as `--report`) and its rows."""
    from deckbuilder.sim.reports.charts import render_svg
    from deckbuilder.sim.reports.html_report import interval_text, rate
    from deckbuilder.sim.reports.tournament_report import gauntlet_charts

    data = cast(GauntletReport, report)
    # render_svg escapes every text it draws (names come from files): the SVG is markup
    charts = [{"svg": Markup(render_svg(chart)), "caption": chart.caption}
              for chart in gauntlet_charts(data)]
    return fragment("simulate_field.html", report=data, charts=charts, job_id=job_id,
                    verdict=verdict_lines(data),
                    rate=rate, interval_text=interval_text)


def field_html(report: Mapping[str, object]) -> str:
    """The same page `--report FILE.html` writes for a gauntlet."""
    from deckbuilder.sim.reports.tournament_report import gauntlet_html

    return gauntlet_html(cast(GauntletReport, report))

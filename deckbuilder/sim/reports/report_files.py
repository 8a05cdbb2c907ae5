"""`--report FILE.html` and `--charts DIR` of `simulate` and `optimize`: checked before any
game is played (a missing extra or a wrong file name costs no waiting), written after."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import cast

from deckbuilder.sim.reports.charts import optimize_charts, simulate_charts
from deckbuilder.sim.reports.optimize_json import OptimizeReport
from deckbuilder.sim.reports.simulate_json import SimulationReport


def check_outputs(report_path: Path | None, charts_dir: Path | None) -> None:
    """Fail now, in one line, if the outputs asked for cannot be written."""
    if report_path is not None:
        from deckbuilder.sim.reports.html_report import check_report_path

        check_report_path(report_path)
    if charts_dir is not None:
        from deckbuilder.sim.reports.png_charts import require_matplotlib

        require_matplotlib()


def write_outputs(kind: str, data: Mapping[str, object], report_path: Path | None,
                  charts_dir: Path | None) -> list[Path]:
    """Write the HTML report and the PNG charts of a `simulate` or `optimize` (`kind`)
    report; returns the files written."""
    from deckbuilder.sim.reports import html_report

    # the report of the kind named: "simulate" or "optimize"
    simulated, optimized = cast(SimulationReport, data), cast(OptimizeReport, data)
    written: list[Path] = []
    if report_path is not None:
        page = (html_report.simulate_html(simulated) if kind == "simulate"
                else html_report.optimize_html(optimized))
        html_report.write_html(report_path, page)
        written.append(Path(report_path))
    if charts_dir is not None:
        from deckbuilder.sim.reports.png_charts import write_charts

        charts = (simulate_charts(simulated) if kind == "simulate"
                  else optimize_charts(optimized))
        written.extend(write_charts(charts, charts_dir))
    return written

"""`--report FILE.html` and `--charts DIR` of `simulate`, `optimize` and `tournament`: checked
before any game is played (a missing extra or a wrong file name costs no waiting), written after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.sim.reports.charts import Chart, optimize_charts, simulate_charts


def check_outputs(report_path: Path | None, charts_dir: Path | None) -> None:
    # a report path that is not an .html file is refused: a typo must not replace a deck
    if report_path is not None and Path(report_path).suffix.lower() not in (".html", ".htm"):
        raise DeckbuilderError("the report is an HTML file", Location(Path(report_path)),
                               "give a file name ending in .html")
    if charts_dir is not None:
        from deckbuilder.sim.reports.png_charts import require_matplotlib

        require_matplotlib()


def write_outputs(kind: str, data: object, report_path: Path | None,
                  charts_dir: Path | None) -> list[Path]:
    """Write the page and the PNG charts of a report of `kind`; the files written."""
    from deckbuilder.sim.reports import html_report, tournament_report
    from deckbuilder.writing import atomic_write_text

    faces: dict[str, tuple[Callable[..., str], Callable[..., list[Chart]]]] = {
        "simulate": (html_report.simulate_html, simulate_charts),
        "optimize": (html_report.optimize_html, optimize_charts),
        "gauntlet": (tournament_report.gauntlet_html, tournament_report.gauntlet_charts),
        "tournament": (tournament_report.tournament_html, tournament_report.tournament_charts),
    }
    page, charts = faces[kind]  # each reads the report of the kind named
    written: list[Path] = []
    check_outputs(report_path, None)
    if report_path is not None:
        atomic_write_text(report_path, page(data))
        written.append(Path(report_path))
    if charts_dir is not None:
        from deckbuilder.sim.reports.png_charts import write_charts

        written.extend(write_charts(charts(data), charts_dir))
    return written

"""`--charts DIR`: the report's charts (`sim.reports.charts`, as the page draws them in SVG) as
PNG files, drawn with matplotlib, an optional extra: `pip install "revolver-deckbuilder[plots]"`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.sim.reports.charts import Chart
from deckbuilder.sim.reports.svg_charts import percent, short
from deckbuilder.writing import atomic_write_bytes

if TYPE_CHECKING:  # the plots extra is optional
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

INSTALL = 'pip install "revolver-deckbuilder[plots]"'


def require_matplotlib() -> ModuleType:
    """The pyplot module on a file-only backend, or a one-line error naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DeckbuilderError("--charts needs matplotlib, which is not installed",
                               fix=INSTALL) from None
    return plt


def _percent_axis(axis: Axis, signed: bool) -> None:
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: percent(value, signed)))


def _draw(plt: ModuleType, chart: Chart) -> Figure:
    if chart.kind == "line":
        figure, axes = plt.subplots(figsize=(8, 4))
        games = [p["games"] for p in chart.points]
        axes.fill_between(games, [p["low"] for p in chart.points],
                          [p["high"] for p in chart.points], alpha=0.4,
                          label="95% interval")
        axes.plot(games, [p["estimate"] for p in chart.points], label="estimate")
        if chart.reference is not None:
            axes.axhline(chart.reference, color="grey", linestyle="--", linewidth=1)
        axes.set_ylim(*chart.value_range)
        axes.set_xlabel(chart.x_label)
        _percent_axis(axes.yaxis, chart.signed)
        axes.legend(loc="best")
    elif chart.kind == "intervals":
        rows = list(chart.rows)
        figure, axes = plt.subplots(figsize=(8, 1 + 0.35 * max(1, len(rows))))
        positions = list(range(len(rows)))[::-1]
        for y, row in zip(positions, rows, strict=True):
            axes.plot([row.low, row.high], [y, y], linewidth=5, alpha=0.5,
                      solid_capstyle="round", color="tab:blue")
            axes.plot([row.estimate], [y], "o", color="tab:blue")
            axes.annotate(row.note, (1.01, y), xycoords=("axes fraction", "data"),
                          va="center", fontsize=8, color="grey")
        if chart.reference is not None:
            axes.axvline(chart.reference, color="grey", linestyle="--", linewidth=1)
        axes.set_yticks(positions, [short(row.label, 45) for row in rows])
        axes.set_xlim(*chart.value_range)
        _percent_axis(axes.xaxis, chart.signed)
    else:
        labels = [label for label, _ in chart.bars]
        figure, axes = plt.subplots(figsize=(8, 1 + 0.3 * max(1, len(labels))))
        positions = list(range(len(labels)))[::-1]
        axes.barh(positions, [value for _, value in chart.bars])
        axes.set_yticks(positions, [short(label, 45) for label in labels])
        axes.set_xlabel(chart.x_label)
    axes.set_title(chart.title)
    figure.tight_layout()
    return figure


def write_charts(charts: Sequence[Chart], folder: Path) -> list[Path]:
    plt = require_matplotlib()
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DeckbuilderError(f"cannot create the charts folder: {error.strerror}",
                               Location(folder), "choose a folder you can write to") from None
    written = []
    for chart in charts:
        figure = _draw(plt, chart)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
        plt.close(figure)
        path = folder / f"{chart.name}.png"
        # the project's writer: whole or not at all, the mode as for every other file
        atomic_write_bytes(path, buffer.getvalue())
        written.append(path)
    return written

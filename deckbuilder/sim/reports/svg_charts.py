"""Small charts as inline SVG text, so the HTML report needs no plotting library: a line with
its 95% band, rows of intervals (the width of each bar is what a reader must see) and bars.
Every text drawn comes from the caller and is escaped here: card names come from files."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 720
FONT = "font-family:sans-serif;font-size:12px"
BAND = "#9ecae1"
LINE = "#08519c"
BAR = "#6baed6"
MUTED = "#888888"


@dataclass(frozen=True)
class IntervalRow:
    """One row of an interval chart; `note` is drawn at the right ("4/5 games")."""

    label: str
    estimate: float
    low: float
    high: float
    note: str = ""


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" style="{FONT}"{extra}>'
            f"{escape(text)}</text>")


def _svg(height: float, body: Sequence[str], title: str) -> str:
    label = escape(title, quote=True)
    return (f'<svg width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}" role="img" aria-label="{label}">'
            f"<title>{escape(title)}</title>"
            + _text(WIDTH / 2, 16, title, "middle", ' font-weight="bold"')
            + "".join(body) + "</svg>")


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw),
               default=10 * magnitude)
    first = math.ceil(low / step - 1e-9) * step
    values = []
    value = first
    while value <= high + 1e-9:
        values.append(round(value, 10))
        value += step
    return values


def short(label: str, most: int = 30) -> str:
    return label if len(label) <= most else label[:most - 1] + "…"


def percent(value: float, signed: bool = False) -> str:
    text = f"{100 * value:+.0f}" if signed else f"{100 * value:.0f}"
    return text + ("" if signed else "%")


def line_band(points: Sequence[Mapping[str, float]], *, title: str, x_label: str = "games",
              y_range: tuple[float, float] = (0.0, 1.0), signed: bool = False,
              reference: float | None = None) -> str:
    """The estimate after each number of games as a line, its 95% interval as a band."""
    height, left, right, top, bottom = 300, 60, 20, 30, 45
    if not points:
        return _svg(60, [_text(WIDTH / 2, 40, "no games", "middle")], title)
    y_low, y_high = y_range
    last = max(point["games"] for point in points)

    def x(games: float) -> float:
        return left + (WIDTH - left - right) * (games / last if last else 0)

    def y(value: float) -> float:
        value = min(max(value, y_low), y_high)
        return top + (height - top - bottom) * (1 - (value - y_low) / (y_high - y_low))

    body = []
    for tick in _ticks(y_low, y_high):
        body.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y(tick):.1f}" '
                    f'y2="{y(tick):.1f}" stroke="#eeeeee"/>')
        body.append(_text(left - 6, y(tick) + 4, percent(tick, signed), "end"))
    for tick in _ticks(0, last):
        if tick == int(tick):
            body.append(_text(x(tick), height - bottom + 16, f"{int(tick)}", "middle"))
    upper = " ".join(f"{x(p['games']):.1f},{y(p['high']):.1f}" for p in points)
    lower = " ".join(f"{x(p['games']):.1f},{y(p['low']):.1f}" for p in reversed(points))
    body.append(f'<polygon points="{upper} {lower}" fill="{BAND}" fill-opacity="0.6" '
                'stroke="none"/>')
    if reference is not None:
        body.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y(reference):.1f}" '
                    f'y2="{y(reference):.1f}" stroke="{MUTED}" stroke-dasharray="4 3"/>')
    line = " ".join(f"{x(p['games']):.1f},{y(p['estimate']):.1f}" for p in points)
    body.append(f'<polyline points="{line}" fill="none" stroke="{LINE}" stroke-width="2"/>')
    body.append(_text(WIDTH / 2, height - 8, f"{x_label} (shaded: 95% interval)", "middle"))
    return _svg(height, body, title)


def interval_rows(rows: Sequence[IntervalRow], *, title: str,
                  x_range: tuple[float, float] = (0.0, 1.0), signed: bool = False,
                  reference: float | None = None) -> str:
    """A dot and a bar per row: a rate from five games draws a long bar, which is the point."""
    row_height, top, bottom, left, right = 22, 30, 30, 200, 110
    height = top + bottom + row_height * max(1, len(rows))
    x_low, x_high = x_range

    def x(value: float) -> float:
        value = min(max(value, x_low), x_high)
        return left + (WIDTH - left - right) * (value - x_low) / (x_high - x_low)

    body = []
    for tick in _ticks(x_low, x_high):
        body.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{top}" '
                    f'y2="{height - bottom}" stroke="#eeeeee"/>')
        body.append(_text(x(tick), height - bottom + 16, percent(tick, signed), "middle"))
    if reference is not None:
        body.append(f'<line x1="{x(reference):.1f}" x2="{x(reference):.1f}" y1="{top}" '
                    f'y2="{height - bottom}" stroke="{MUTED}" stroke-dasharray="4 3"/>')
    for index, row in enumerate(rows):
        middle = top + row_height * index + row_height / 2
        body.append(_text(left - 8, middle + 4, short(row.label), "end"))
        body.append(f'<line x1="{x(row.low):.1f}" x2="{x(row.high):.1f}" y1="{middle:.1f}" '
                    f'y2="{middle:.1f}" stroke="{BAR}" stroke-width="6" '
                    'stroke-linecap="round"/>')
        body.append(f'<circle cx="{x(row.estimate):.1f}" cy="{middle:.1f}" r="4" '
                    f'fill="{LINE}"/>')
        body.append(_text(WIDTH - right + 8, middle + 4, row.note, "start",
                          f' fill="{MUTED}"'))
    if not rows:
        body.append(_text(WIDTH / 2, top + 15, "nothing to show", "middle"))
    return _svg(height, body, title)


def bars(rows: Sequence[tuple[str, float]], *, title: str, value_label: str = "games") -> str:
    row_height, top, bottom, left, right = 20, 30, 25, 200, 80
    height = top + bottom + row_height * max(1, len(rows))
    largest = max((value for _, value in rows), default=0) or 1
    body = []
    for index, (label, value) in enumerate(rows):
        middle = top + row_height * index + row_height / 2
        length = (WIDTH - left - right) * value / largest
        body.append(_text(left - 8, middle + 4, label, "end"))
        body.append(f'<rect x="{left}" y="{middle - 7:.1f}" width="{length:.1f}" height="14" '
                    f'fill="{BAR}"/>')
        body.append(_text(left + length + 6, middle + 4, f"{value:g}"))
    body.append(_text(WIDTH / 2, height - 6, value_label, "middle", f' fill="{MUTED}"'))
    return _svg(height, body, title)


def length_bins(turn_counts: Sequence[Sequence[int]], most: int = 20) -> list[tuple[str, int]]:
    """[turns, games] pairs grouped into at most `most` ranges of turns."""
    if not turn_counts:
        return []
    shortest, longest = turn_counts[0][0], turn_counts[-1][0]
    width = max(1, math.ceil((longest - shortest + 1) / most))
    bins: dict[int, int] = {}
    for turns, games in turn_counts:
        start = shortest + (turns - shortest) // width * width
        bins[start] = bins.get(start, 0) + games
    return [(f"{start} turns" if width == 1 else f"{start}-{start + width - 1} turns", games)
            for start, games in sorted(bins.items())]

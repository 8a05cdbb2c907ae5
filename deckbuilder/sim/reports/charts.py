"""What the report charts show, from the JSON reports: the page draws them as SVG
(`svg_charts`), `--charts` as PNG (`png_charts`), both from one `Chart` list, so they agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.sim.reports.optimize_json import OptimizeJson
from deckbuilder.sim.reports.simulate_json import SimulationReport
from deckbuilder.sim.reports.svg_charts import IntervalRow, length_bins

#: Rows drawn at most in one interval chart (the tables hold every row).
MOST_ROWS = 25


@dataclass(frozen=True)
class Chart:
    """One chart: `kind` is "line" (points with a band), "intervals" or "bars"."""

    name: str  # a file stem: win-rate, cards, ...
    kind: str
    title: str
    points: Sequence[Mapping[str, float]] = ()
    rows: Sequence[IntervalRow] = ()
    bars: Sequence[tuple[str, float]] = ()
    value_range: tuple[float, float] = (0.0, 1.0)
    signed: bool = False
    reference: float | None = None
    x_label: str = "games"
    caption: str = ""


def signed_range(lows: Sequence[float], highs: Sequence[float]) -> tuple[float, float]:
    """A range around every interval and zero, padded a little, within [-1, 1]."""
    low = min([0.0, *lows])
    high = max([0.0, *highs])
    pad = max(0.02, (high - low) * 0.08)
    return max(-1.0, low - pad), min(1.0, high + pad)


def simulate_charts(report: SimulationReport) -> list[Chart]:
    deck = report["deck"]["name"]
    charts = [Chart(
        "win-rate", "line", f"Win rate of {deck} as games accumulate",
        points=report.get("progress", []), reference=0.5,
        caption="The line is the win rate after that many games; the band its 95% interval. "
                "A narrow band is a settled estimate.")]
    baseline = report.get("baseline")
    if baseline and baseline.get("progress"):
        points = baseline["progress"]
        charts.append(Chart(
            "baseline-difference", "line",
            f"{deck} minus {baseline['deck']}, paired on the same seeds",
            points=points, signed=True, reference=0.0,
            value_range=signed_range([p["low"] for p in points[len(points) // 10:]],
                                     [p["high"] for p in points[len(points) // 10:]]),
            caption="Difference in win rate (points) as games accumulate, with its 95% "
                    "interval; the dashed line is no difference."))
    played = [(row, when) for row in report["cards"]["deck"] if (when := row.get("when_played"))]
    played.sort(key=lambda pair: (-pair[0]["games_played"], pair[0]["id"]))
    overall = next((side["win_rate"]["estimate"] for side in report["sides"]
                    if side["is_deck_under_test"]), None)
    charts.append(Chart(
        "cards", "intervals", f"Win rate of {deck} in games where the card was played",
        rows=[IntervalRow(row["name"], when["estimate"], when["low"], when["high"],
                          f"{row['wins_when_played']}/{row['games_played']} games")
              for row, when in played[:MOST_ROWS]],
        reference=overall,
        caption="Dot: win rate in the games the card was played; bar: its 95% interval; at "
                "the right the wins and games behind it. A card played in few games has a "
                "long bar: its rate says little. Dashed: the deck's overall win rate. A "
                "correlation, not the card's value."))
    charts.append(Chart(
        "game-length", "bars", "Game length",
        bars=length_bins(report["length"].get("turn_counts", [])), x_label="games"))
    charts.append(Chart(
        "endings", "bars", "How games ended",
        bars=[(row.get("words") or row["termination"], row["games"])
              for row in report["endings"]],
        x_label="games"))
    return charts


def optimize_charts(data: OptimizeJson) -> list[Chart]:
    rows = [IntervalRow("; ".join(s.text for s in f.swaps), f.difference["estimate"],
                        f.difference["low"], f.difference["high"],
                        f"{f.confirmation_games} games")
            for f in data.finalists]
    charts = [Chart(
        "finalists", "intervals", "Finalists: win-rate difference against the deck",
        rows=rows, signed=True, reference=0.0,
        value_range=signed_range([r.low for r in rows], [r.high for r in rows]),
        caption="Measured on fresh seeds after the search chose them: dot the difference, "
                "bar its 95% interval. Entirely right of the dashed line: better.")]
    raced = sorted(data.race, key=lambda c: (-c.games, -c.difference["estimate"], c.label))
    race_rows = [IntervalRow(
        "; ".join(s.text for s in c.swaps), c.difference["estimate"], c.difference["low"],
        c.difference["high"], f"{c.games} games" + (" (dropped)" if c.dropped_after else ""))
        for c in raced[:MOST_ROWS]]
    if race_rows:
        charts.append(Chart(
            "candidates", "intervals", "Candidates during the search (most games first)",
            rows=race_rows, signed=True, reference=0.0,
            value_range=signed_range([r.low for r in race_rows], [r.high for r in race_rows]),
            caption="The paired difference each candidate showed in the racing games that "
                    "chose the finalists (optimistic for the best ones: the winner's curse)."))
    return charts


def render_svg(chart: Chart) -> str:
    from deckbuilder.sim.reports import svg_charts

    if chart.kind == "line":
        return svg_charts.line_band(chart.points, title=chart.title, x_label=chart.x_label,
                                    y_range=chart.value_range, signed=chart.signed,
                                    reference=chart.reference)
    if chart.kind == "intervals":
        return svg_charts.interval_rows(chart.rows, title=chart.title,
                                        x_range=chart.value_range, signed=chart.signed,
                                        reference=chart.reference)
    return svg_charts.bars(chart.bars, title=chart.title, value_label=chart.x_label)

"""A report a player can open: one HTML file, charts inline as SVG, nothing fetched, no
script. It reads only the JSON reports, so it shows the numbers `--json` prints; every text
from a file (deck and card names, notes, warnings) is escaped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from deckbuilder.build import build_line
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.charts import Chart, optimize_charts, render_svg, simulate_charts
from deckbuilder.sim.reports.optimize_json import OptimizeReport
from deckbuilder.sim.reports.optimize_report import explanation_lines
from deckbuilder.sim.reports.optimize_report import points as signed_points
from deckbuilder.sim.reports.report import (
    ENDING_HEADERS,
    ending_rows,
    game_length,
    interval_text,
    optimize_settings_rows,
    rate,
    settings_rows,
    summary,
    unreproducible,
)
from deckbuilder.sim.reports.sensitivity import points_interval
from deckbuilder.sim.reports.simulate_json import CardRowJson, SimulationReport

STYLE = """
body { font-family: sans-serif; max-width: 960px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.verdict { font-size: 1.1em; padding: 0.6em 1em; background: #f0f5fa;
           border-left: 4px solid #08519c; }
.note, figcaption { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; }
.scroll { overflow-x: auto; max-width: 100%; }
svg { max-width: 100%; height: auto; }
table.settings th, table.settings td { text-align: left; vertical-align: top; }
table.settings th { font-weight: normal; color: #555; white-space: nowrap; }
"""


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def counted(successes: int, trials: int) -> str:
    return "-" if trials <= 0 else f"{rate(successes / trials)} ({successes}/{trials})"


def _table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    head = "".join(f"<th>{_e(header)}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    # a wide table scrolls inside its box at phone width instead of widening the page
    return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            "</table></div>")


def _figure(chart: Chart) -> str:
    caption = f"<figcaption>{_e(chart.caption)}</figcaption>" if chart.caption else ""
    return f'<figure id="chart-{_e(chart.name)}">{render_svg(chart)}{caption}</figure>'


def _page(title: str, body: Sequence[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{_e(title)}</h1>" + "\n".join(body) + "</body></html>\n")


def _paragraphs(texts: Iterable[str], css: str = "note") -> list[str]:
    return [f'<p class="{css}">{_e(text)}</p>' for text in texts]


def _settings(rows: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<tr><th scope=\"row\">{_e(label)}</th><td>{_e(value)}</td></tr>"
                    for label, value in rows)
    return (f'<h2 id="settings">Settings</h2><table class="settings"><tbody>{items}'
            "</tbody></table>")


# -- simulate --------------------------------------------------------------------------------
def _card_rows(rows: Sequence[CardRowJson]) -> list[list[object]]:
    return [[row["name"], row["copies"], f"{row['drawn_per_game']:.2f}",
             f"{row['played_per_game']:.2f}", row["games_played"],
             counted(row["wins_when_played"], row["games_played"]),
             interval_text(row.get("when_played")),
             counted(row["wins_when_not_played"], row["games_not_played"]),
             interval_text(row.get("when_not_played"))]
            for row in rows]


CARD_HEADERS = ("card", "copies", "drawn per game", "played per game", "games played",
                "win rate when played", "95% interval", "win rate when not played",
                "95% interval")


def simulate_html(report: SimulationReport) -> str:
    deck, opponent = report["deck"], report["opponent"]
    charts = {chart.name: chart for chart in simulate_charts(report)}
    title = f"{deck['name']} against {opponent['name']}"
    games = report["games"]
    body = [
        f"<p>{_e(summary(report))}</p>",
        _settings(settings_rows(report)),
        "<h2>Wins</h2>",
        _table(("seat", "faction", "deck", "bot", "wins", "games", "win rate", "95% interval"),
               [[side["seat"], side["faction"], side["deck"], side["bot"], side["wins"], games,
                 rate(side["win_rate"]["estimate"]), interval_text(side["win_rate"])]
                for side in report["sides"]]
               + [["", "draw", "", "", report["draws"]["games"], games,
                   rate(report["draws"]["rate"]), ""]]),
        _figure(charts["win-rate"]),
    ]
    baseline = report.get("baseline")
    if baseline:
        body += [
            "<h2>Against the baseline</h2>",
            f'<p class="verdict">{_e(baseline["verdict"])}.</p>',
            f"<p>Baseline {_e(baseline['deck'])} (bot {_e(baseline['bot'])}) wins "
            f"{_e(counted(baseline['wins'], games))} {_e(interval_text(baseline['win_rate']))}"
            f"; difference (deck minus baseline) {points_interval(baseline['difference'])}"
            f"; {_e(baseline['games_with_different_winner'])} games had a different "
            f"winner. Method: {_e(baseline['method'])}.</p>",
        ]
        if "baseline-difference" in charts:
            body.append(_figure(charts["baseline-difference"]))
    body += [
        f"<h2>Cards of {_e(deck['name'])}</h2>",
        _figure(charts["cards"]),
        _table(CARD_HEADERS, _card_rows(report["cards"]["deck"])),
        *_paragraphs([report["cards"]["note"]]),
        f"<details><summary>Cards of {_e(opponent['name'])}</summary>"
        + _table(CARD_HEADERS, _card_rows(report["cards"]["opponent"])) + "</details>",
        "<h2>Game length and endings</h2>",
        f"<p>{_e(game_length(report))}</p>",
        _figure(charts["game-length"]),
        _table(ENDING_HEADERS, ending_rows(report)),
        _figure(charts["endings"]),
    ]
    precision = report["precision"]
    body += [
        "<h2>Precision</h2>",
        f"<p>The deck's win rate is known to ±{100 * precision['deck_win_rate_half_width']:.1f}"
        " points (95%).</p>",
        _table(("precision (points)", "games needed", "games needed, worst case"),
               [[f"±{100 * row['precision']:g}", row["games_needed"],
                 row["games_needed_worst_case"]] for row in precision["targets"]]),
    ]
    if not report.get("reproducible", True):
        body += _paragraphs([unreproducible()])
    body += rests_on_html(report)
    body += _paragraphs([f"warning: {w}" for w in report.get("warnings", [])])
    body += _paragraphs([f"note: {n}" for n in report.get("notes", [])])
    body += _paragraphs([report["note"]])
    if "build" in report:
        body += _paragraphs([build_line(report["build"])])
    return _page(title, body)


def rests_on_html(report: Mapping[str, object]) -> list[str]:
    lines = verdict_lines(report)
    return ['<h2 id="rests-on">What this result rests on, and whether it holds</h2>',
            *_paragraphs(lines)] if lines else []


# -- optimize --------------------------------------------------------------------------------
def optimize_html(data: OptimizeReport) -> str:
    charts = {chart.name: chart for chart in optimize_charts(data)}
    finalists = data.finalists
    body = [
        f"<p>{_e(data.candidates)} legal candidates near {_e(data.deck)}, {_e(data.games)} "
        f"games played (budget {_e(data.budget)}), seed {_e(data.seed)}, bots "
        f"{_e(data.bot)} against {_e(data.opponent_bot)}.</p>",
        _settings(optimize_settings_rows(data)),
        *_paragraphs([f"How the estimate is kept honest: {data.selection}."]),
    ]
    if finalists:
        body += [f'<p class="verdict">{_e(finalists[0].verdict)}.</p>',
                 "<h2>Finalists</h2>", _figure(charts["finalists"]),
                 _table(("rank", "swaps", "difference (points)", "95% interval",
                         "confirmation games", "difference while racing", "racing games"),
                        [[rank, "; ".join(s.text for s in f.swaps),
                          signed_points(f.difference["estimate"]),
                          f"[{signed_points(f.difference['low'])}, "
                          f"{signed_points(f.difference['high'])}]",
                          f.confirmation_games, signed_points(f.selection_difference["estimate"]),
                          f.selection_games]
                         for rank, f in enumerate(finalists, start=1)])]
    else:
        body += _paragraphs(["No legal swap was found near this deck."], "verdict")
    if "candidates" in charts:
        body += ["<h2>The search</h2>", _figure(charts["candidates"])]
    body += _paragraphs([f"What the budget bought: {data.advice}"])
    explanation = data.explanation
    if explanation:  # why the best swap is best, as the text report says it
        items = "".join(f"<li>{_e(line.strip())}</li>"
                        for line in explanation_lines(explanation))
        body += [f"<h2>Why {_e('; '.join(s.text for s in explanation.swaps))}</h2>",
                 f"<p>From the confirmation games (fresh seeds).</p><ul>{items}</ul>",
                 *_paragraphs([f"{explanation.replay_note}."])]
    body += rests_on_html(vars(data))
    if data.output:
        body += _paragraphs([f"The best deck was written to {data.output}."])
    body += _paragraphs([build_line(None)])  # the build that played: this process's
    return _page(f"optimize {data.deck}", body)

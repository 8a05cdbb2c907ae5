"""Reports of gauntlets and tournaments: plain data for `--json`, tables for the terminal,
and a page with pictures for `--report` (charts as in `simulate`'s page: `sim.reports.charts`,
drawn inline by `svg_charts`, or as PNG files by `png_charts` for `--charts`).

The text and the page read only the JSON data, so all three show the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from deckbuilder.build import build_facts, build_line
from deckbuilder.sim.rankings.gauntlet import GauntletResult, Setup
from deckbuilder.sim.rankings.ratings import ELO_SCALE
from deckbuilder.sim.rankings.tournament import TournamentResult
from deckbuilder.sim.reports import html_report
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.charts import Chart
from deckbuilder.sim.reports.field_json import FieldJson, GauntletReport, TournamentReport
from deckbuilder.sim.reports.html_report import interval_text, rate
from deckbuilder.sim.reports.report import NOTE, modules_text, switches_text
from deckbuilder.sim.reports.svg_charts import IntervalRow

SEEDS_NOTE = ("Every pairing is played on the same seeds (game i of each pairing deals from "
              "the same seed), so the rows differ by the decks, not by the deal.")


def _setup_json(setup: Setup) -> dict[str, object]:
    return {"game": setup.game, "ruleset": setup.ruleset, "switches": dict(setup.switches),
            "modules": list(setup.modules), "max_turns": setup.max_turns}


# -- gauntlet --------------------------------------------------------------------------------
def gauntlet_json(result: GauntletResult) -> dict[str, Any]:
    """A gauntlet as `simulate --vs A --vs B --json` prints it."""
    weakest = result.weakest
    return {
        "kind": "gauntlet", "note": NOTE, "seeds_note": SEEDS_NOTE, "build": build_facts(),
        **_setup_json(result.setup),
        "seed": result.seed, "games_per_opponent": result.games,
        "games": result.games * len(result.matchups), "reproducible": result.reproducible,
        "deck": {"name": result.deck, "faction": result.side, "bot": result.bot},
        "opponent_faction": result.opponent_side,
        "opponents": [{
            "name": row.opponent, "bot": row.bot, "share": row.weight, "games": row.games,
            "wins": row.wins, "draws": row.draws, "losses": row.losses,
            "win_rate": row.win_rate.as_dict(), "mean_turns": row.mean_turns,
            "endings": [{"termination": ending, "games": count}
                        for ending, count in row.endings],
            "cards": list(row.cards),
        } for row in result.matchups],
        "field": {"win_rate": result.field_win_rate.as_dict(), "method": result.field_method,
                  "weakest": weakest.opponent},
    }


def _settings_rows(data: FieldJson, decks: str) -> list[tuple[str, str]]:
    return [("game", str(data.get("title", data["game"]))), ("decks", decks),
            ("ruleset", str(data["ruleset"])), ("rule switches", switches_text(data)),
            ("modules", modules_text(data)),
            ("seed", f"{data['seed']} (the same seed plays the same games)"),
            ("turn cap", f"{data['max_turns']} turns (a longer game is a draw)")]


def _gauntlet_decks(data: GauntletReport) -> str:
    deck = data["deck"]
    return (f"{deck['name']} ({deck['faction']}, bot {deck['bot']}) against "
            f"{len(data['opponents'])} {data['opponent_faction']} decks, "
            f"{data['games_per_opponent']} games each")


def short_rate(interval: Mapping[str, float]) -> str:
    """"50% [15, 85]": a win rate and its interval in whole points, narrow enough for a table
    in an 80-column terminal (the JSON and HTML reports keep the decimals)."""
    return (f"{100 * interval['estimate']:.0f}% "
            f"[{100 * interval['low']:.0f}, {100 * interval['high']:.0f}]")


def print_gauntlet(console: Console, data: GauntletReport) -> None:
    """The gauntlet for people: one row per opponent, the field last."""
    for label, value in _settings_rows(data, _gauntlet_decks(data)):
        console.print(f"{label}: {value}", markup=False, highlight=False)
    bots = {row["bot"] for row in data["opponents"]}
    one_bot = len(bots) == 1
    title = f"{data['deck']['name']} against each opponent" + (
        f" (bot {next(iter(bots))})" if one_bot else "")
    table = Table("opponent", *(() if one_bot else ("bot",)), "weight", "won-drawn-lost",
                  "win rate [95% CI]", "turns", title=title)
    for row in data["opponents"]:
        table.add_row(row["name"], *(() if one_bot else (row["bot"],)),
                      f"{100 * row['share']:.0f}%",
                      f"{row['wins']}-{row['draws']}-{row['losses']}",
                      short_rate(row["win_rate"]), f"{row['mean_turns']:.1f}")
    field = data["field"]
    table.add_row("the field (weighted)", *(() if one_bot else ("",)), "100%", "",
                  short_rate(field["win_rate"]), "")
    console.print(table)
    console.print(f"Weakest against: {field['weakest']}. Field: {field['method']}.",
                  markup=False, highlight=False)
    _caveats(console, data)


def _caveats(console: Console, data: GauntletReport | TournamentReport) -> None:
    for line in verdict_lines(data):  # what the result rests on, whether it holds
        console.print(line, markup=False, highlight=False)
    if not data["reproducible"]:
        console.print("Warning: a bot has a time budget (ms=...), so these results depend on "
                      "the machine's speed and are not reproducible from the seed.",
                      markup=False)
    console.print(data["seeds_note"], markup=False, highlight=False)
    console.print(f"Note: {data['note']}", markup=False, highlight=False)
    console.print(build_line(data.get("build")), markup=False, highlight=False)


def gauntlet_charts(data: GauntletReport) -> list[Chart]:
    rows = [IntervalRow(row["name"], row["win_rate"]["estimate"], row["win_rate"]["low"],
                        row["win_rate"]["high"], f"{row['wins']}/{row['games']} games")
            for row in data["opponents"]]
    field = data["field"]["win_rate"]
    rows.append(IntervalRow("the field (weighted)", field["estimate"], field["low"],
                            field["high"], f"{data['games']} games"))
    return [Chart("opponents", "intervals",
                  f"Win rate of {data['deck']['name']} against each opponent",
                  rows=rows, reference=0.5,
                  caption="Dot: the win rate; bar: its 95% interval; the last row the whole "
                          "field, weighted. Dashed: half the games.")]


def gauntlet_html(data: GauntletReport) -> str:
    """The gauntlet as a page."""
    field = data["field"]
    body = [
        f"<p>{html_report._e(_gauntlet_decks(data))}.</p>",
        html_report._settings(_settings_rows(data, _gauntlet_decks(data))),
        f'<p class="verdict">Against the field: {rate(field["win_rate"]["estimate"])} '
        f"{interval_text(field['win_rate'])}; weakest against "
        f"{html_report._e(field['weakest'])}.</p>",
        *[html_report._figure(chart) for chart in gauntlet_charts(data)],
        html_report._table(
            ("opponent", "bot", "weight", "won", "drawn", "lost", "win rate", "95% interval",
             "turns", "how games ended"),
            [[row["name"], row["bot"], f"{100 * row['share']:.0f}%", row["wins"],
              row["draws"], row["losses"], rate(row["win_rate"]["estimate"]),
              interval_text(row["win_rate"]), f"{row['mean_turns']:.1f}",
              ", ".join(f"{e.get('words') or e['termination']} {e['games']}"
                        for e in row["endings"])]
             for row in data["opponents"]]),
        *html_report._paragraphs([f"Field: {field['method']}."]),
    ]
    body += _page_notes(data)
    return html_report._page(f"{data['deck']['name']} against the field", body)


def _page_notes(data: GauntletReport | TournamentReport) -> list[str]:
    texts = [f"warning: {w}" for w in data.get("warnings", [])]
    if not data["reproducible"]:
        texts.append("Warning: a bot has a time budget, so these results depend on the "
                     "machine's speed and are not reproducible from the seed.")
    texts += [f"note: {n}" for n in data.get("notes", [])]
    return [*html_report.rests_on_html(data),
            *html_report._paragraphs([*texts, data["seeds_note"], data["note"],
                                      build_line(data.get("build"))])]


# -- tournament ------------------------------------------------------------------------------
def tournament_json(result: TournamentResult) -> dict[str, object]:
    """A tournament as `deckbuilder tournament --json` prints it."""
    return {
        "kind": "tournament", "note": NOTE, "seeds_note": SEEDS_NOTE, "build": build_facts(),
        **_setup_json(result.setup), "sides": list(result.sides),
        "seed": result.seed, "games_per_pairing": result.games,
        "games": result.games * len(result.pairings), "reproducible": result.reproducible,
        "standings": [{
            "rank": row.rank, "deck": row.deck, "faction": row.side, "bot": row.bot,
            "games": row.games, "wins": row.wins, "draws": row.draws, "losses": row.losses,
            "win_rate": row.win_rate.as_dict(), "rating": row.rating.as_dict(),
            "cards": list(row.cards),
        } for row in result.standings],
        "pairings": [{
            "first": row.first, "second": row.second, "games": row.games,
            "first_wins": row.first_wins, "second_wins": row.second_wins, "draws": row.draws,
            "first_win_rate": row.first_win_rate.as_dict(),
        } for row in result.pairings],
        "rating_method": result.rating_method, "win_rate_method": result.win_rate_method,
        "notes": list(result.notes),
    }


def _tournament_decks(data: TournamentReport) -> str:
    count = {side: sum(1 for row in data["standings"] if row["faction"] == side)
             for side in data["sides"]}
    first, second = data["sides"]
    return (f"{count[first]} {first} against {count[second]} {second} decks, "
            f"{data['games_per_pairing']} games per pairing, {data['games']} games in all")


def _rating(interval: Mapping[str, float]) -> str:
    return (f"{interval['estimate']:+.0f} [{interval['low']:+.0f}, "
            f"{interval['high']:+.0f}]")


def _matrix(data: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """Rows: the first side's decks; columns: the second's; cells: the row deck's wins."""
    first, second = data["sides"]
    rows = [row["deck"] for row in data["standings"] if row["faction"] == first]
    columns = [row["deck"] for row in data["standings"] if row["faction"] == second]
    cells = {(p["first"], p["second"]): p for p in data["pairings"]}
    return columns, [[deck] + [
        f"{rate(cells[(deck, col)]['first_win_rate']['estimate'])} "
        f"({cells[(deck, col)]['first_wins']}/{cells[(deck, col)]['games']})"
        for col in columns] for deck in rows]


def print_tournament(console: Console, data: TournamentReport) -> None:
    """The tournament for people: the standings, then every pairing."""
    for label, value in _settings_rows(data, _tournament_decks(data)):
        console.print(f"{label}: {value}", markup=False, highlight=False)
    bots = {row["bot"] for row in data["standings"]}
    one_bot = len(bots) == 1
    table = Table("rank", "deck", "side", *(() if one_bot else ("bot",)), "games",
                  "win rate [95% CI]", "rating [95% CI]",
                  title="Standings (best rating first)"
                  + (f"; bot {next(iter(bots))}" if one_bot else ""))
    for row in data["standings"]:
        table.add_row(str(row["rank"]), row["deck"], row["faction"],
                      *(() if one_bot else (row["bot"],)), str(row["games"]),
                      short_rate(row["win_rate"]), _rating(row["rating"]))
    console.print(table)
    columns, rows = _matrix(data)
    first, second = data["sides"]
    matrix = Table(f"{first} \\ {second}", *columns,
                   title=f"Pairings: how often the {first} deck (row) won")
    for cells in rows:
        matrix.add_row(*cells)
    console.print(matrix)
    console.print(f"Rating: {data['rating_method']}.", markup=False, highlight=False)
    console.print(f"Win rate: {data['win_rate_method']}.", markup=False, highlight=False)
    console.print("Ratings across the two sides also hold each side's own advantage: "
                  "compare decks of one side.", markup=False, highlight=False)
    for note in data.get("notes", []):
        console.print(f"note: {note}", markup=False, highlight=False)
    _caveats(console, data)


def _expected(points: float) -> float:
    """A rating as the share of games it wins against a deck rated 0 (the decks' mean)."""
    return 1 / (1 + math.exp(-points / ELO_SCALE))


def tournament_charts(data: TournamentReport) -> list[Chart]:
    standings = data["standings"]
    return [
        Chart("ratings", "intervals",
              "Rating: the share of games each deck would win against an average deck",
              rows=[IntervalRow(row["deck"],
                                _expected(row["rating"]["estimate"]),
                                _expected(row["rating"]["low"]),
                                _expected(row["rating"]["high"]),
                                f"{row['rating']['estimate']:+.0f} Elo")
                    for row in standings],
              reference=0.5,
              caption="The Bradley-Terry rating of each deck (Elo points at the right) as "
                      "the share of games the model expects it to win against a deck rated "
                      "at the tournament's mean; bar: 95% interval. Dashed: even."),
        Chart("win-rates", "intervals", "Win rate against the other side's decks",
              rows=[IntervalRow(row["deck"], row["win_rate"]["estimate"],
                                row["win_rate"]["low"], row["win_rate"]["high"],
                                f"{row['wins']}/{row['games']} games")
                    for row in standings],
              reference=0.5,
              caption="Dot: the win rate over the deck's games; bar: its 95% interval."),
    ]


def tournament_html(data: TournamentReport) -> str:
    """The tournament as a page."""
    columns, rows = _matrix(data)
    first, second = data["sides"]
    best = data["standings"][0]
    body = [
        f"<p>{html_report._e(_tournament_decks(data))}.</p>",
        html_report._settings(_settings_rows(data, _tournament_decks(data))),
        f'<p class="verdict">Best rated: {html_report._e(best["deck"])} '
        f"({html_report._e(best['faction'])}), {_rating(best['rating'])} Elo points.</p>",
        '<h2 id="standings">Standings</h2>',
        *[html_report._figure(chart) for chart in tournament_charts(data)],
        html_report._table(
            ("rank", "deck", "side", "bot", "games", "won", "drawn", "lost", "win rate",
             "95% interval", "rating", "95% interval"),
            [[row["rank"], row["deck"], row["faction"], row["bot"], row["games"], row["wins"],
              row["draws"], row["losses"], rate(row["win_rate"]["estimate"]),
              interval_text(row["win_rate"]), f"{row['rating']['estimate']:+.0f}",
              f"[{row['rating']['low']:+.0f}, {row['rating']['high']:+.0f}]"]
             for row in data["standings"]]),
        '<h2 id="pairings">Pairings</h2>',
        *html_report._paragraphs([f"How often the {first} deck of the row beat the "
                                  f"{second} deck of the column."]),
        html_report._table((f"{first} \\ {second}", *columns), rows),
        *html_report._paragraphs([
            f"Rating: {data['rating_method']}.", f"Win rate: {data['win_rate_method']}.",
            "Ratings across the two sides also hold each side's own advantage: compare "
            "decks of one side."]),
    ]
    body += _page_notes(data)
    return html_report._page("Tournament", body)

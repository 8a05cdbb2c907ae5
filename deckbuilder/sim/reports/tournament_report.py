"""Reports of gauntlets and tournaments: `--json`'s data, and the terminal's tables and the
`--report` page drawn from that data alone, so every face shows the same numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from rich.console import Console
from rich.table import Table

from deckbuilder.build import build_facts, build_line
from deckbuilder.sim.rankings.gauntlet import GauntletResult, Setup
from deckbuilder.sim.rankings.ratings import expected_share
from deckbuilder.sim.rankings.tournament import TournamentResult
from deckbuilder.sim.reports import html_report
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.charts import Chart
from deckbuilder.sim.reports.field_json import FieldJson, GauntletReport, TournamentReport
from deckbuilder.sim.reports.report import (
    NOTE,
    interval_text,
    modules_text,
    rate,
    switches_text,
    text_table,
    unreproducible,
)
from deckbuilder.sim.reports.svg_charts import IntervalRow

SEEDS_NOTE = ("Every pairing is played on the same seeds (game i of each pairing deals from "
              "the same seed), so the rows differ by the decks, not by the deal.")


def _setup_json(setup: Setup) -> dict[str, object]:
    return {"game": setup.game, "ruleset": setup.ruleset, "switches": dict(setup.switches),
            "modules": list(setup.modules), "max_turns": setup.max_turns}


# -- gauntlet --------------------------------------------------------------------------------
def gauntlet_json(result: GauntletResult) -> dict[str, Any]:
    """A gauntlet as `simulate --vs A --vs B --json` prints it."""
    weakest = min(result.matchups, key=lambda row: (row.win_rate.estimate, row.opponent))
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
            ("ruleset", str(data["ruleset"])), ("rule switches", switches_text(data["switches"])),
            ("modules", modules_text(data["modules"], data.get("module_names"))),
            ("seed", f"{data['seed']} (the same seed plays the same games)"),
            ("turn cap", f"{data['max_turns']} turns (a longer game is a draw)")]


def _gauntlet_decks(data: GauntletReport) -> str:
    deck = data["deck"]
    return (f"{deck['name']} ({deck['faction']}, bot {deck['bot']}) against "
            f"{len(data['opponents'])} {data['opponent_faction']} decks, "
            f"{data['games_per_opponent']} games each")


def short_rate(interval: Mapping[str, float]) -> str:
    """"50% [15, 85]": narrow enough for an 80-column terminal's table."""
    return (f"{100 * interval['estimate']:.0f}% "
            f"[{100 * interval['low']:.0f}, {100 * interval['high']:.0f}]")


def _one_bot(rows: Sequence[Mapping[str, object]]) -> str | None:
    """The bot of every row, if one: the terminal's table then names it once, in its title."""
    bots = {row["bot"] for row in rows}
    return str(next(iter(bots))) if len(bots) == 1 else None


def _say(console: Console, line: str, highlight: bool = False) -> None:
    console.print(line, markup=False, highlight=highlight)


def _print_field(console: Console, data: GauntletReport | TournamentReport, decks: str,
                 tables: Sequence[Table], lines: Sequence[str]) -> None:
    """A gauntlet's or a tournament's text: its settings, tables, lines and caveats."""
    for label, value in _settings_rows(data, decks):
        _say(console, f"{label}: {value}")
    for table in tables:
        console.print(table)
    for line in lines:
        _say(console, line)
    for line in verdict_lines(data):  # what the result rests on, whether it holds
        _say(console, line)
    if not data["reproducible"]:
        _say(console, unreproducible(" (ms=...)"), True)
    for line in (data["seeds_note"], f"Note: {data['note']}", build_line(data.get("build"))):
        _say(console, line)


def _field_page(title: str, data: GauntletReport | TournamentReport, decks: str,
                verdict: str, parts: Sequence[str]) -> str:
    """A gauntlet's or a tournament's page: what was played, the verdict, `parts`, notes."""
    texts = [f"warning: {w}" for w in data.get("warnings", [])]
    if not data["reproducible"]:
        texts.append(unreproducible())
    texts += [f"note: {n}" for n in data.get("notes", [])]
    return html_report._page(title, [
        f"<p>{html_report._e(decks)}.</p>", html_report._settings(_settings_rows(data, decks)),
        *html_report._paragraphs([verdict], "verdict"), *parts,
        *html_report.rests_on_html(data),
        *html_report._paragraphs([*texts, data["seeds_note"], data["note"],
                                  build_line(data.get("build"))])])


def print_gauntlet(console: Console, data: GauntletReport) -> None:
    """The gauntlet for people: one row per opponent, the field last."""
    bot = _one_bot(data["opponents"])
    bot_column = () if bot else ("bot",)
    field = data["field"]
    table = text_table(
        ("opponent", *bot_column, "weight", "won-drawn-lost", "win rate [95% CI]", "turns"),
        [*([row["name"], *(() if bot else (row["bot"],)), f"{100 * row['share']:.0f}%",
            f"{row['wins']}-{row['draws']}-{row['losses']}", short_rate(row["win_rate"]),
            f"{row['mean_turns']:.1f}"] for row in data["opponents"]),
         ["the field (weighted)", *("" for _ in bot_column), "100%", "",
          short_rate(field["win_rate"]), ""]],
        f"{data['deck']['name']} against each opponent" + (f" (bot {bot})" if bot else ""))
    _print_field(console, data, _gauntlet_decks(data), [table],
                 [f"Weakest against: {field['weakest']}. Field: {field['method']}."])


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
    field = data["field"]
    return _field_page(
        f"{data['deck']['name']} against the field", data, _gauntlet_decks(data),
        f"Against the field: {rate(field['win_rate']['estimate'])} "
        f"{interval_text(field['win_rate'])}; weakest against {field['weakest']}.",
        [*[html_report._figure(chart) for chart in gauntlet_charts(data)],
         html_report._table(
             ("opponent", "bot", "weight", "won", "drawn", "lost", "win rate", "95% interval",
              "turns", "how games ended"),
             [[row["name"], row["bot"], f"{100 * row['share']:.0f}%", row["wins"],
               row["draws"], row["losses"], rate(row["win_rate"]["estimate"]),
               interval_text(row["win_rate"]), f"{row['mean_turns']:.1f}",
               ", ".join(f"{e.get('words') or e['termination']} {e['games']}"
                         for e in row["endings"])]
              for row in data["opponents"]]),
         *html_report._paragraphs([f"Field: {field['method']}."])])


# -- tournament ------------------------------------------------------------------------------
def tournament_json(result: TournamentResult) -> dict[str, object]:
    """A tournament as `deckbuilder tournament --json` prints it."""
    return {
        "kind": "tournament", "note": NOTE, "seeds_note": SEEDS_NOTE, "build": build_facts(),
        **_setup_json(result.setup), "sides": list(result.sides),
        "seed": result.seed, "games_per_pairing": result.games,
        "games": result.games * len(result.pairings), "reproducible": result.reproducible,
        "standings": [{**{"faction" if key == "side" else key: value
                          for key, value in asdict(row).items()}, "cards": list(row.cards)}
                      for row in result.standings],
        "pairings": [{**asdict(row), "first_win_rate": row.first_win_rate.as_dict()}
                     for row in result.pairings],
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
    """The pairings, one table for both faces: how often each row's deck won."""
    first, second = data["sides"]
    rows = [row["deck"] for row in data["standings"] if row["faction"] == first]
    columns = [row["deck"] for row in data["standings"] if row["faction"] == second]
    cells = {(p["first"], p["second"]): p for p in data["pairings"]}
    return [f"{first} \\ {second}", *columns], [[deck] + [
        f"{rate(cells[(deck, col)]['first_win_rate']['estimate'])} "
        f"({cells[(deck, col)]['first_wins']}/{cells[(deck, col)]['games']})"
        for col in columns] for deck in rows]


def _methods(data: TournamentReport) -> list[str]:
    return [f"Rating: {data['rating_method']}.", f"Win rate: {data['win_rate_method']}.",
            "Ratings across the two sides also hold each side's own advantage: compare "
            "decks of one side."]


def print_tournament(console: Console, data: TournamentReport) -> None:
    """The tournament for people: the standings, then every pairing."""
    bot = _one_bot(data["standings"])
    standings = text_table(
        ("rank", "deck", "side", *(() if bot else ("bot",)), "games", "win rate [95% CI]",
         "rating [95% CI]"),
        [[row["rank"], row["deck"], row["faction"], *(() if bot else (row["bot"],)),
          row["games"], short_rate(row["win_rate"]), _rating(row["rating"])]
         for row in data["standings"]],
        "Standings (best rating first)" + (f"; bot {bot}" if bot else ""))
    matrix = text_table(*_matrix(data), f"Pairings: how often the {data['sides'][0]} deck "
                                        "(row) won")
    _print_field(console, data, _tournament_decks(data), [standings, matrix],
                 [*_methods(data), *(f"note: {note}" for note in data.get("notes", []))])


def tournament_charts(data: TournamentReport) -> list[Chart]:
    standings = data["standings"]
    return [
        Chart("ratings", "intervals",
              "Rating: the share of games each deck would win against an average deck",
              rows=[IntervalRow(row["deck"],
                                expected_share(row["rating"]["estimate"]),
                                expected_share(row["rating"]["low"]),
                                expected_share(row["rating"]["high"]),
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
    first, second = data["sides"]
    best = data["standings"][0]
    return _field_page("Tournament", data, _tournament_decks(data),
                       f"Best rated: {best['deck']} ({best['faction']}), "
                       f"{_rating(best['rating'])} Elo points.", [
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
        html_report._table(*_matrix(data)),
        *html_report._paragraphs(_methods(data))])

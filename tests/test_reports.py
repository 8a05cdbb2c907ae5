"""Reports a player can look at: the HTML page (self-contained, escaped, the JSON's numbers),
PNG charts (an optional extra), the verdict in words and counts beside small samples."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import sys
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

import pytest
import toy_game as toy
from json_shapes import shape_problems
from pydantic import TypeAdapter, ValidationError
from rich.console import Console
from typer.testing import CliRunner

from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.sim import Contestant, build_report, print_report, simulate
from deckbuilder.sim.reports.charts import optimize_charts, simulate_charts
from deckbuilder.sim.reports.field_json import GauntletReport, TournamentReport
from deckbuilder.sim.reports.html_report import optimize_html, simulate_html
from deckbuilder.sim.reports.optimize_json import OptimizeReport, json_of
from deckbuilder.sim.reports.report import count_percent, verdict
from deckbuilder.sim.reports.simulate_json import SimulationReport
from deckbuilder.sim.runs.stats import wilson_interval

runner = CliRunner()
_read_optimize = TypeAdapter(OptimizeReport).validate_python
PLAYERS = toy.PLAYER_NAMES["toy"]
SLOW_DECK = {"step-1": 8, "guard": 6, "double": 6}
HOSTILE = "<script>alert(1)</script>"


def toy_report(games: int, baseline: dict[str, int] | None = None,
               names: dict[str, str] | None = None, deck_name: str = "racer") -> dict:
    run = simulate(Contestant(deck_name, toy.TOY_DECK, "greedy"),
                   Contestant("rival", toy.TOY_DECK, "random"), side=0, games=games, seed=5,
                   new_game=toy.new_game, evaluate=toy.evaluate, game="toy", ruleset="toy",
                   baseline=None if baseline is None else Contestant("slow", baseline))
    return build_report(run, PLAYERS, names or {})


class Cells(HTMLParser):
    """Every table cell's text, and every src/href value, of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.links: list[str] = []
        self.tags: set[str] = set()
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.links += [value or "" for name, value in attrs if name in ("src", "href")]
        if tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(page: str) -> Cells:
    cells = Cells()
    cells.feed(page)
    return cells


def assert_self_contained(page: str) -> None:
    cells = parse(page)
    assert not [link for link in cells.links if re.match(r"\s*(https?:)?//", link)]
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "script" not in cells.tags and "iframe" not in cells.tags
    assert "@import" not in page and "url(" not in page


# -- the HTML page ---------------------------------------------------------------------------
def _hostile_deck(tmp_path: Path) -> Path:
    cards = default_catalog().base_deck("revolver", "colty")
    path = tmp_path / "deck.yaml"
    path.write_text(f"name: '{HOSTILE}'\ngame: revolver\nfaction: colty\ncards:\n"
                    + "".join(f"  {card}: {copies}\n" for card, copies in cards.items()),
                    encoding="utf-8")
    return path


def test_the_html_report_is_self_contained_escaped_and_holds_the_json_numbers(
        tmp_path: Path) -> None:
    deck = _hostile_deck(tmp_path)
    common = ["simulate", str(deck), "-n", "12", "--seed", "4", "--workers", "1"]
    as_json = runner.invoke(app, [*common, "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    page_path = tmp_path / "report.html"
    written = runner.invoke(app, [*common, "--report", str(page_path)])
    assert written.exit_code == 0, written.output
    page = page_path.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    cells = parse(page)
    assert "<svg" in page  # the charts are inline

    mine = next(side for side in data["sides"] if side["is_deck_under_test"])
    rate = mine["win_rate"]
    row_start = cells.cells.index(HOSTILE)  # the deck's row of the wins table
    row = cells.cells[row_start - 2:row_start + 6]
    assert row[4] == str(mine["wins"]) and row[5] == str(data["games"])
    assert row[6] == f"{100 * rate['estimate']:.1f}%"
    assert row[7] == f"[{100 * rate['low']:.1f}%, {100 * rate['high']:.1f}%]"
    for card in data["cards"]["deck"]:
        assert card["name"] in cells.cells
        if card["games_played"]:
            shown = f"({card['wins_when_played']}/{card['games_played']})"
            assert any(cell.endswith(shown) for cell in cells.cells), card["name"]
    for ending in data["endings"]:
        assert ending.get("words", ending["termination"]) in cells.cells  # words, not ids


def test_a_hostile_name_is_drawn_as_text_in_tables_and_charts() -> None:
    report = toy_report(20, SLOW_DECK, names={"shot": HOSTILE},
                        deck_name="<img src='https://example.com/x.png'>")
    page = simulate_html(report)
    assert_self_contained(page)
    assert "<script" not in page.lower() and "<img" not in page
    assert page.count("&lt;script&gt;") >= 2  # the cards table and the cards chart


def test_a_small_sample_card_shows_its_count_and_a_wide_interval() -> None:
    report = toy_report(5)
    small = [row for row in report["cards"]["deck"] if 0 < row["games_played"] <= 5]
    assert small
    row = small[0]
    wins, games = row["wins_when_played"], row["games_played"]
    low, high = wilson_interval(wins, games)
    assert high - low > 0.3  # five games say little, and the interval says so
    page = simulate_html(report)
    assert f"({wins}/{games})" in page
    assert f"[{100 * low:.1f}%, {100 * high:.1f}%]" in page
    cards_chart = next(chart for chart in simulate_charts(report) if chart.name == "cards")
    drawn = next(r for r in cards_chart.rows if r.label == row["name"])
    assert (drawn.low, drawn.high) == pytest.approx((low, high))
    assert f"{wins}/{games} games" in drawn.note and f"{wins}/{games} games" in page


def test_the_running_win_rate_ends_at_the_reported_rate() -> None:
    report = toy_report(90, SLOW_DECK)
    progress = report["progress"]
    games = [point["games"] for point in progress]
    assert games == sorted(set(games)) and games[-1] == 90 and games[0] >= 1
    mine = next(side for side in report["sides"] if side["is_deck_under_test"])
    assert progress[-1]["wins"] == mine["wins"]
    assert progress[-1]["estimate"] == pytest.approx(mine["win_rate"]["estimate"])
    assert all(p["low"] <= p["estimate"] <= p["high"] for p in progress)
    # the interval narrows as games accumulate
    assert progress[-1]["high"] - progress[-1]["low"] < progress[0]["high"] - progress[0]["low"]
    paired = report["baseline"]["progress"][-1]
    assert paired["estimate"] == pytest.approx(report["baseline"]["difference"]["estimate"])
    assert paired["high"] == pytest.approx(report["baseline"]["difference"]["high"])
    assert sum(games for _, games in report["length"]["turn_counts"]) == 90


def test_a_report_path_that_is_not_html_is_refused_before_any_game(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("not touched\n", encoding="utf-8")
    result = runner.invoke(app, ["simulate", "colty", "-n", "5", "--report", str(deck)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert deck.read_text(encoding="utf-8") == "not touched\n"


def test_the_optimize_report_shows_the_finalists_with_their_intervals(tmp_path: Path) -> None:
    common = ["optimize", "mcready", "--out", "deputy", "--budget", "120", "--seed", "5",
              "--bot", "random", "--workers", "1"]
    as_json = runner.invoke(app, [*common, "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    page_path = tmp_path / "optimize.html"
    result = runner.invoke(app, [*common, "--report", str(page_path)])
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf-8")
    assert_self_contained(page)
    cells = parse(page).cells
    assert data["finalists"] and data["race"]
    for finalist in data["finalists"]:
        label = "; ".join(swap["text"] for swap in finalist["swaps"])
        difference = finalist["difference"]
        assert label in cells
        assert f"[{100 * difference['low']:+.1f}, {100 * difference['high']:+.1f}]" in cells
        assert finalist["verdict"].startswith("the deck with ")
    read = _read_optimize(data)
    chart = optimize_charts(read)[0]
    assert [row.note for row in chart.rows] == [
        f"{f['confirmation_games']} games" for f in data["finalists"]]
    assert "&lt;b&gt;" in optimize_html(dataclasses.replace(read, deck="<b>mine</b>"))
    # what the budget bought, as the text report says it, and its words escaped
    assert html.escape(data["advice"]) in page
    assert "&lt;i&gt;" in optimize_html(dataclasses.replace(read, advice="<i>x</i>"))


# -- words -----------------------------------------------------------------------------------
def test_the_verdict_says_which_deck_is_better_or_that_they_are_not_told_apart() -> None:
    worse = verdict("deck B", "deck A", {"estimate": -0.04, "low": -0.07, "high": -0.01})
    assert worse == ("deck B wins 4 points less often than deck A, between 1 and 7 points, "
                     "95%: deck A is better")
    better = verdict("deck B", "deck A", {"estimate": 0.052, "low": 0.021, "high": 0.083})
    assert better.startswith("deck B wins 5.2 points more often than deck A, between 2.1 and "
                             "8.3 points") and better.endswith("deck B is better")
    undecided = verdict("deck B", "deck A", {"estimate": 0.01, "low": -0.02, "high": 0.04})
    assert "not told apart" in undecided and "is better" not in undecided
    assert "2 points less and 4 more" in undecided


def test_the_text_report_gives_the_verdict_and_counts_beside_small_samples() -> None:
    report = toy_report(40, SLOW_DECK)
    output = StringIO()
    print_report(Console(file=output, width=200), report)
    text = output.getvalue()
    difference = report["baseline"]["difference"]
    assert difference["low"] > 0  # the slow deck is the worse racer
    assert "Verdict: racer wins" in text and "racer is better" in text
    row = next(r for r in report["cards"]["deck"] if r["games_played"])
    assert count_percent(row["wins_when_played"], row["games_played"]) in text
    assert count_percent(4, 5) == "80% (4/5)"
    assert count_percent(400, 500) == "80.0%"  # a large sample needs no count
    assert count_percent(0, 0) == "-"


def test_the_simulate_json_has_the_shape_the_text_page_and_charts_read() -> None:
    """`SimulationReport` is what the readers are type-checked against; the JSON
    `simulate --json` prints (a baseline's fields and the tool's own included) has it."""
    printed = runner.invoke(app, ["simulate", "colty", "--vs", "mcready", "--baseline", "colty",
                                  "-n", "6", "--seed", "3", "--workers", "1", "--json"])
    assert printed.exit_code == 0, printed.output
    report = json.loads(printed.stdout)
    assert report["baseline"] is not None and "title" in report and "rests_on" in report
    assert shape_problems(SimulationReport, report) == []
    assert shape_problems(SimulationReport, {**report, "games": "6"}) == [
        "report.games is not <class 'int'>: '6'"]


def test_the_gauntlet_and_tournament_json_have_the_shapes_their_readers_read() -> None:
    gauntlet = runner.invoke(app, ["simulate", "colty", "--vs", "mcready", "--vs",
                                   "example-mcready-pinkertons", "-n", "2", "--workers", "1",
                                   "--json"])
    tournament = runner.invoke(app, ["tournament", "colty", "example-colty-fan-the-gun",
                                     "mcready", "--games", "2", "--workers", "1", "--json"])
    assert gauntlet.exit_code == 0 and tournament.exit_code == 0, gauntlet.output
    assert shape_problems(GauntletReport, json.loads(gauntlet.stdout)) == []
    assert shape_problems(TournamentReport, json.loads(tournament.stdout)) == []
    assert shape_problems(GauntletReport, json.loads(tournament.stdout))  # another kind


def test_the_optimize_json_has_the_shape_its_page_and_charts_read() -> None:
    printed = runner.invoke(app, ["optimize", "colty", "--vs", "mcready", "--budget", "150",
                                  "--workers", "1", "--json"])
    assert printed.exit_code == 0, printed.output
    report = json.loads(printed.stdout)
    assert "explanation" in report and "build" not in report
    assert json_of(_read_optimize(report)) == report  # its fields, in its order, all of them
    with pytest.raises(ValidationError, match="deck"):
        _read_optimize({**report, "deck": None})


# -- PNG charts ------------------------------------------------------------------------------
def test_png_charts_are_written_with_matplotlib(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    folder = tmp_path / "charts"
    result = runner.invoke(app, ["simulate", "colty", "-n", "8", "--workers", "1",
                                 "--baseline", "colty", "--charts", str(folder)])
    assert result.exit_code == 0, result.output
    names = sorted(path.name for path in folder.iterdir())
    assert names == sorted(["win-rate.png", "baseline-difference.png", "cards.png",
                            "game-length.png", "endings.png"])
    for path in folder.iterdir():
        assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and path.stat().st_size > 1000


def test_charts_without_matplotlib_is_one_line_naming_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "matplotlib"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    folder = tmp_path / "charts"
    result = runner.invoke(app, ["simulate", "colty", "-n", "5000", "--charts", str(folder)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and 'pip install "revolver-deckbuilder[plots]"' in lines[0]
    assert not folder.exists()
    # the HTML report needs no matplotlib
    page = tmp_path / "r.html"
    assert runner.invoke(app, ["simulate", "colty", "-n", "4", "--workers", "1",
                               "--report", str(page)]).exit_code == 0
    assert page.exists()

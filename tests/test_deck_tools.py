"""Deck tools a player reaches for (issue 21): `deck stats`, the deck sheet to print (`deck
export --format html|pdf`, the editor's /deck/sheet), forum posts read back by `deck
import`, web share links read by `deck import` (old links too), `deck rename`, and the web
editor's statistics panel and sample hand."""

from __future__ import annotations

import base64
import json
import re
import threading
import time
import zlib
from collections.abc import Iterator
from math import comb
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.deck_sheet import find_chromium
from deckbuilder.cli import app
from deckbuilder.decks import load_deck
from deckbuilder.web.app import create_app
from deckbuilder.web.config import WebConfig
from deckbuilder.web.deck_state import share_code, state_from_loaded, state_from_share_code
from deckbuilder.writing import editing

runner = CliRunner()


def deck(*args: str | Path):
    return runner.invoke(app, ["deck", *map(str, args)])


@pytest.fixture
def rangers(tmp_path: Path) -> Path:
    """The McReady base deck with two Deputies swapped for two Texas Rangers, a comment kept."""
    path = tmp_path / "rangers.yaml"
    assert deck("new", "mcready", "-o", path, "--name", "Rangers").exit_code == 0
    assert deck("swap", path, "--out", "deputy", "--in", "texas ranger", "--count", 2
                ).exit_code == 0
    path.write_text(path.read_text(encoding="utf-8") + "# my own note\n", encoding="utf-8")
    return path


def at_least_one(size: int, copies: int, seen: int) -> float:
    return 1 - comb(size - copies, seen) / comb(size, seen)


# -- deck stats ----------------------------------------------------------------------------
def test_stats_counts_add_up_and_the_odds_are_the_hypergeometric_ones(rangers: Path) -> None:
    result = deck("stats", rangers, "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["total"] == 62
    for key in ("by_category", "by_play", "by_set", "cost_curve"):
        assert sum(stats[key].values()) == 62, key
    deputy = next(row for row in stats["odds"] if row["key"] == "deputy")
    assert deputy["copies"] == 8
    hand, turn_two = deputy["by_turn"][0], deputy["by_turn"][2]
    assert hand["cards_seen"] == 5 and turn_two["cards_seen"] == 9
    assert hand["chance"] == pytest.approx(at_least_one(62, 8, 5), abs=1e-6)
    assert turn_two["chance"] == pytest.approx(at_least_one(62, 8, 9), abs=1e-6)
    changes = stats["changes"]
    assert changes["out"] == [{"card": "deputy", "name": "Deputy", "count": 2}]
    assert changes["in"][0]["card"] == "texas-ranger" and changes["in"][0]["count"] == 2


def test_stats_in_words_fit_80_columns_and_say_what_changed(rangers: Path) -> None:
    result = deck("stats", rangers)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    assert "  out: 2x Deputy" in lines and "  in:  2x Texas Ranger" in lines
    deputy = next(line for line in lines if line.startswith("Deputy "))
    assert f"{at_least_one(62, 8, 5) * 100:.1f}%" in deputy
    assert any(line.startswith("cost curve") for line in lines)


def test_stats_for_one_card_and_a_card_the_deck_lacks(rangers: Path) -> None:
    result = deck("stats", rangers, "--card", "Texas Ranger", "--turns", "2")
    assert result.exit_code == 0, result.output
    assert "Texas Ranger" in result.stdout and "Cowboy " not in result.stdout
    assert "turn 2" in result.stdout and "turn 3" not in result.stdout
    missing = deck("stats", rangers, "--card", "Pinkerton Agent")
    assert missing.exit_code == 2
    assert len(missing.stderr.strip().splitlines()) == 1


# -- forum posts and share links -------------------------------------------------------------
@pytest.mark.parametrize("output_format", ["markdown", "bbcode"])
def test_a_forum_post_imports_as_the_same_deck(rangers: Path, tmp_path: Path,
                                               output_format: str) -> None:
    post = tmp_path / f"post.{output_format}"
    result = deck("export", rangers, "--format", output_format, "-o", post)
    assert result.exit_code == 0, result.output
    text = post.read_text(encoding="utf-8")
    assert ("### Character" in text) if output_format == "markdown" else ("[b]" in text)
    back = tmp_path / "back.yaml"
    imported = deck("import", post, "-o", back)
    assert imported.exit_code == 0, imported.output
    catalog = project_catalog(None)
    original, again = load_deck(rangers, catalog), load_deck(back, catalog)
    assert again.counts() == original.counts()
    assert (again.name, again.faction) == ("Rangers", "mcready")


def _old_web_share_code(state, catalog) -> str:
    """The share code as the editor made it before its codec moved to shared_lists (links
    already handed out must keep opening)."""
    base = catalog.base_deck(state.game, state.faction)
    counts: dict[str, int] = {}
    for key, count in state.cards:
        entry = catalog.find(key, state.game)
        counts[entry.id] = counts.get(entry.id, 0) + count
    data = {"v": 1, "f": state.faction, "n": state.name,
            "o": {c: n - counts.get(c, 0) for c, n in base.items() if n > counts.get(c, 0)},
            "i": {c: n - base.get(c, 0) for c, n in counts.items() if n > base.get(c, 0)},
            "s": state.sets}
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def test_share_links_old_and_new_open_in_the_editor_and_in_deck_import(
        rangers: Path, tmp_path: Path) -> None:
    catalog = project_catalog(None)
    original = load_deck(rangers, catalog)
    state = state_from_loaded(original)
    old_code = _old_web_share_code(state, catalog)
    assert share_code(state, catalog) == old_code  # the one codec writes what links held
    reopened = state_from_share_code(old_code, catalog)
    assert reopened.name == "Rangers"
    assert sum(count for _, count in reopened.cards) == 62
    out = tmp_path / "from-link.yaml"
    result = deck("import", f"http://127.0.0.1:8000/deck?share={old_code}", "-o", out)
    assert result.exit_code == 0, result.output
    assert load_deck(out, catalog).counts() == original.counts()
    bare = deck("import", old_code, "-o", tmp_path / "from-code.yaml")
    assert bare.exit_code == 0, bare.output
    broken = deck("import", f"http://host/deck?share={old_code[:-8]}", "-o", tmp_path / "x.yaml")
    assert broken.exit_code == 2 and "share link" in broken.stderr
    assert not (tmp_path / "x.yaml").exists()


# -- the deck sheet ---------------------------------------------------------------------------
def test_the_html_sheet_groups_and_counts_the_cards_with_replacements_and_verdict(
        rangers: Path) -> None:
    result = deck("export", rangers, "--format", "html")
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("<!doctype html>") and "@media print" in page
    assert 'id="sheet-verdict">LEGAL<' in page and 'id="sheet-total">62 cards<' in page
    headings = dict(re.findall(r"<h3>(\w+) \((\d+)\)</h3>", page))
    assert sum(map(int, headings.values())) == 62
    assert headings["Character"] == "31"
    assert "2× Deputy → <strong>Texas Ranger</strong>" in page
    assert ">8×</td><td>Deputy</td>" in page


def test_the_sheet_escapes_what_the_deck_holds(rangers: Path) -> None:
    assert deck("rename", rangers, "<script>alert(1)</script> & co").exit_code == 0
    page = deck("export", rangers, "--format", "html").stdout
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium to print with")
def test_the_pdf_sheet_is_printed_by_chromium(rangers: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "rangers.pdf"
    result = deck("export", rangers, "--format", "pdf", "-o", pdf)
    assert result.exit_code == 0, result.output
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"/Type /Page" in data


def test_pdf_without_chromium_or_without_out_is_one_line(
        rangers: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_out = deck("export", rangers, "--format", "pdf")
    assert no_out.exit_code == 2 and "--out" in no_out.stderr
    monkeypatch.setenv("DECKBUILDER_CHROMIUM", str(tmp_path / "no-such-chromium"))
    result = deck("export", rangers, "--format", "pdf", "-o", tmp_path / "x.pdf")
    assert result.exit_code == 2
    assert "no Chromium" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.pdf").exists()


# -- rename ----------------------------------------------------------------------------------
def test_rename_changes_only_the_name(rangers: Path) -> None:
    before = rangers.read_text(encoding="utf-8")
    result = deck("rename", rangers, "Rangers at dawn")
    assert result.exit_code == 0, result.output
    after = rangers.read_text(encoding="utf-8")
    assert "name: Rangers at dawn" in after and "# my own note" in after
    assert after.replace("Rangers at dawn", "Rangers") == before
    catalog = project_catalog(None)
    assert load_deck(rangers, catalog).name == "Rangers at dawn"


def test_a_name_with_a_line_break_round_trips_and_an_empty_one_is_refused(
        rangers: Path) -> None:
    assert deck("rename", rangers, "Two\nlines").exit_code == 0
    assert load_deck(rangers, project_catalog(None)).name == "Two\nlines"
    before = rangers.read_text(encoding="utf-8")
    empty = deck("rename", rangers, "  ")
    assert empty.exit_code == 2 and len(empty.stderr.strip().splitlines()) == 1
    assert rangers.read_text(encoding="utf-8") == before


def test_rename_waits_for_a_deck_being_edited(rangers: Path) -> None:
    results: list[int] = []
    with editing(rangers):
        worker = threading.Thread(
            target=lambda: results.append(deck("rename", rangers, "Later").exit_code))
        worker.start()
        time.sleep(0.5)
        assert "name: Later" not in rangers.read_text(encoding="utf-8")
    worker.join(30)
    assert results == [0] and "name: Later" in rangers.read_text(encoding="utf-8")


# -- the web editor's statistics, hand and sheet ---------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    folder = tmp_path / "decks"
    folder.mkdir()
    with TestClient(create_app(WebConfig(deck_folder=folder)),
                    base_url="http://localhost") as test:
        yield test


def _state_of(page: str) -> dict:
    import html

    return json.loads(html.unescape(re.search(r'data-state="([^"]*)"', page)[1]))


def test_the_editor_shows_the_statistics_and_faces_on_names(client: TestClient) -> None:
    page = client.get("/deck", params={"base": "mcready"}).text
    assert 'id="stats-curve"' in page and 'id="odds-table"' in page
    deputy_row = re.search(r'<tr data-odds="card:deputy".*?</tr>', page, re.DOTALL)[0]
    assert f"{at_least_one(62, 10, 5) * 100:.1f}%" in deputy_row
    assert 'data-face="deputy" data-game="revolver"' in page  # the deck table's name


def test_a_sample_hand_is_five_cards_of_the_deck(client: TestClient) -> None:
    state = _state_of(client.get("/deck", params={"base": "esteban"}).text)
    keys = {key for key, _ in state["cards"]}
    for _ in range(3):
        answer = client.post("/api/deck/hand", json={"deck": state}).json()
        assert len(answer["hand"]) == 5
        assert {card["card"] for card in answer["hand"]} <= keys
        assert answer["html"].count("data-face=") == 5


def test_the_editor_sheet_is_the_exported_sheet(client: TestClient, rangers: Path) -> None:
    catalog = project_catalog(None)
    code = share_code(state_from_loaded(load_deck(rangers, catalog)), catalog)
    sheet = client.get("/deck/sheet", params={"share": code})
    assert sheet.status_code == 200
    exported = deck("export", rangers, "--format", "html").stdout
    # the same page; a deck from a link lists its added cards after the base deck's
    assert sorted(sheet.text.splitlines()) == sorted(exported.splitlines())

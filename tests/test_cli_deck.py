"""`deckbuilder deck new|swap|diff|import|export` through the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "decks"
RANGERS = FIXTURES / "rangers.yaml"
RANGERS_LIST = FIXTURES / "lists" / "rangers.txt"

runner = CliRunner()


@pytest.fixture(autouse=True)
def synthetic_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "PACKAGED_SETS", FIXTURES / "sets")


def deck(*args: str | Path):
    return runner.invoke(app, ["deck", *map(str, args)])


def copy_of(source: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(source, tmp_path / source.name))


# -- new ------------------------------------------------------------------------------------
def test_new_writes_a_legal_base_deck(tmp_path):
    out = tmp_path / "mcready.yaml"
    result = deck("new", "mcready", "-o", out)
    assert result.exit_code == 0, result.output
    assert "62 cards" in result.stdout
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0


def test_new_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "mine.yaml"
    out.write_text("keep me\n")
    result = deck("new", "colty", "-o", out)
    assert result.exit_code == 2
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "keep me\n"
    assert deck("new", "colty", "-o", out, "--force").exit_code == 0
    assert "faction: colty" in out.read_text()


def test_new_refuses_an_unknown_faction(tmp_path):
    result = deck("new", "frontier", "-o", tmp_path / "f.yaml")
    assert result.exit_code == 2
    assert "has no base deck" in result.stderr and "colty" in result.stderr


# -- swap -----------------------------------------------------------------------------------
def test_swap_edits_in_place_and_tells_whether_the_deck_is_legal(tmp_path):
    path = copy_of(RANGERS, tmp_path)
    before = path.read_text()
    result = deck("swap", path, "--out", "Sharps Rifle", "--in", "Volcanic pistol")
    assert result.exit_code == 0, result.output
    assert "1x Sharps Rifle -> Volcanic pistol" in result.stdout
    assert "the deck is legal" in result.stdout
    assert path.read_text() == before.replace(
        "  mini-sharps-rifle: 20\n",
        "  mini-sharps-rifle: 19\n  mini-volcanic-pistol: 1               # Volcanic pistol\n",
    )


def test_swap_into_an_illegal_deck_still_writes_and_says_why(tmp_path):
    path = copy_of(RANGERS, tmp_path)
    result = deck("swap", path, "--out", "mini-sharps-rifle", "--in", "Texas Ranger")
    assert result.exit_code == 1  # the swap is written; the deck is not legal yet
    assert "not legal yet" in result.stdout and "like-for-like" in result.stdout
    assert "mini-texas-ranger: 3" in path.read_text()


def test_swap_re_pairs_the_wildcard_so_an_action_can_take_a_firepower_slot(tmp_path):
    # Rangers has a vantage point (rule D) for a Buffalo Stampede. Double the guard (action)
    # for a Sharps Rifle is still legal: the action takes the Stampede's place and the
    # vantage point the rifle's.
    path = copy_of(RANGERS, tmp_path)
    result = deck("swap", path, "--out", "mini-sharps-rifle", "--in", "Double the guard")
    assert "the deck is legal" in result.stdout
    pairs = json.loads(runner.invoke(app, ["validate", str(path), "--json"]).stdout)
    assert {"out": "mini-sharps-rifle", "in": "mini-vantage-point"} in pairs["replacements"]


def test_swap_refuses_when_the_deck_lacks_the_copies(tmp_path):
    path = copy_of(RANGERS, tmp_path)
    before = path.read_text()
    result = deck("swap", path, "--out", "mini-texas-ranger", "--in", "mini-tracker",
                  "--count", "3")
    assert result.exit_code == 2
    assert "has 2 copies of Texas Ranger" in result.stderr
    assert f"{path}:9" in result.stderr
    assert path.read_text() == before


# -- diff -----------------------------------------------------------------------------------
def test_diff_shows_cards_out_and_in(tmp_path):
    base = tmp_path / "base.yaml"
    deck("new", "mcready", "-o", base)
    result = deck("diff", base, RANGERS)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "- 2x Representative of the Law (mini-representative-of-the-law)" in lines
    assert "+ 2x Texas Ranger (mini-texas-ranger)" in lines
    assert "3 cards out, 3 cards in" in lines
    data = json.loads(deck("diff", RANGERS, base, "--json").stdout)
    assert {"card": "mini-texas-ranger", "name": "Texas Ranger", "count": 2} in data["out"]


def test_diff_of_a_deck_with_itself_is_empty():
    result = deck("diff", RANGERS, RANGERS)
    assert result.exit_code == 0 and "same cards" in result.stdout


# -- import and export ----------------------------------------------------------------------
def test_import_labels_every_line_and_exits_1_when_some_need_attention(tmp_path):
    out = tmp_path / "imported.yaml"
    result = deck("import", RANGERS_LIST, "-o", out)
    assert result.exit_code == 1
    shown = {line.split()[0]: line for line in result.stdout.splitlines() if ".txt:" in line}
    assert "unknown" in shown["rangers.txt:5"] and "did you mean Texas Ranger" in shown[
        "rangers.txt:5"]
    assert "merged" in shown["rangers.txt:10"] and "now 10x Fire at will boys" in shown[
        "rangers.txt:10"]
    assert "bad-count" in shown["rangers.txt:12"]
    assert "ok" in shown["rangers.txt:13"] and "no count: 1" in shown["rangers.txt:13"]
    assert out.exists() and "mini-fire-at-will: 10" in out.read_text()


def test_import_json_gives_one_label_per_line(tmp_path):
    result = deck("import", RANGERS_LIST, "-o", tmp_path / "d.yaml", "--json")
    data = json.loads(result.stdout)
    assert len(data["lines"]) == len(RANGERS_LIST.read_text().splitlines())
    assert [line["status"] for line in data["lines"]][:5] == [
        "header", "header", "ok", "ok", "unknown"]
    assert data["faction"] == "mcready"


def test_import_refuses_to_overwrite(tmp_path):
    out = tmp_path / "d.yaml"
    out.write_text("mine\n")
    result = deck("import", RANGERS_LIST, "-o", out)
    assert result.exit_code == 2 and out.read_text() == "mine\n"


def test_export_then_import_round_trips_a_legal_deck(tmp_path):
    listing = tmp_path / "rangers.txt"
    exported = deck("export", RANGERS)
    assert exported.exit_code == 0
    assert "2x Texas Ranger" in exported.stdout.splitlines()
    assert deck("export", RANGERS, "-o", listing).exit_code == 0
    assert listing.read_text() == exported.stdout
    out = tmp_path / "back.yaml"
    result = deck("import", listing, "-o", out)
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    assert deck("diff", RANGERS, out).stdout.strip() == "the decks hold the same cards"


def test_import_faction_option_overrides_the_header(tmp_path):
    listing = tmp_path / "l.txt"
    listing.write_text("# faction: colty\n20x .38 Special\n")
    out = tmp_path / "d.yaml"
    deck("import", listing, "-o", out, "--faction", "mcready")
    assert "faction: mcready" in out.read_text()

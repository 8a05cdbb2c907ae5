"""`deckbuilder validate` through the CLI: verdicts, file:line, --json shape, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "decks"
RANGERS = FIXTURES / "rangers.yaml"
EVERY_PROBLEM = FIXTURES / "every-problem.yaml"
BROKEN = FIXTURES / "broken.yaml"
BASE_ONLY = FIXTURES / "collections" / "base-only.yaml"

runner = CliRunner()


@pytest.fixture(autouse=True)
def synthetic_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """The synthetic test sets play the packaged data (the user folder is empty: conftest)."""
    monkeypatch.setattr(paths, "PACKAGED_SETS", FIXTURES / "sets")


def run(*args: str | Path):
    return runner.invoke(app, ["validate", *map(str, args)])


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_legal_deck_exits_0_and_shows_its_replacement_pairs():
    result = run(RANGERS)
    assert result.exit_code == 0, result.output
    assert "LEGAL" in result.stdout and "ILLEGAL" not in result.stdout
    assert "2x Representative of the Law -> Texas Ranger" in result.stdout
    assert "1x Buffalo Stampede -> Rock-strewn vantage point" in result.stdout


def test_an_illegal_deck_exits_1_and_names_each_entry_by_file_and_line():
    result = run(EVERY_PROBLEM)
    assert result.exit_code == 1
    assert "ILLEGAL" in result.stdout
    assert f"{EVERY_PROBLEM}:{line_of(EVERY_PROBLEM, 'Texs Ranger')}  unknown-card" in result.stdout
    assert f"{EVERY_PROBLEM}:{line_of(EVERY_PROBLEM, 'Clarence')}  unique-copies" in result.stdout
    assert "fix: did you mean Texas Ranger" in result.stdout


def test_an_unreadable_file_exits_2_but_the_other_decks_are_still_checked():
    result = run(BROKEN, RANGERS)
    assert result.exit_code == 2
    assert f"{BROKEN}:" in result.stderr and "invalid YAML" in result.stderr
    assert "LEGAL" in result.stdout and str(RANGERS) in result.stdout


def test_a_missing_file_exits_2(tmp_path):
    result = run(tmp_path / "nowhere.yaml")
    assert result.exit_code == 2
    assert "file not found" in result.stderr


def test_one_illegal_deck_among_legal_ones_exits_1():
    assert run(RANGERS, EVERY_PROBLEM, RANGERS).exit_code == 1


def test_json_for_one_deck_is_an_object_of_the_documented_shape():
    result = run(EVERY_PROBLEM, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert set(report) == {"file", "legal", "violations", "replacements", "pairs", "warnings",
                           "notes", "name", "game", "faction", "spellings", "supply"}
    assert isinstance(report["warnings"], list)
    assert report["file"] == str(EVERY_PROBLEM) and report["legal"] is False
    for violation in report["violations"]:
        assert set(violation) == {"code", "rule", "message", "cards", "line", "fix"}
        assert isinstance(violation["cards"], list)
    unknown = next(v for v in report["violations"] if v["code"] == "unknown-card")
    assert unknown["cards"] == ["Texs Ranger"]
    assert unknown["line"] == line_of(EVERY_PROBLEM, "Texs Ranger")


def test_json_for_several_decks_is_a_list_in_order_with_pairs_as_out_and_in():
    result = run(RANGERS, BROKEN, "--json")
    assert result.exit_code == 2
    first, second = json.loads(result.stdout)
    assert first["legal"] is True and first["violations"] == []
    assert sorted(tuple(pair.items()) for pair in first["replacements"]) == sorted([
        (("out", "mini-representative-of-the-law"), ("in", "mini-texas-ranger")),
        (("out", "mini-representative-of-the-law"), ("in", "mini-texas-ranger")),
        (("out", "mini-buffalo-stampede"), ("in", "mini-vantage-point")),
    ])
    assert second["file"] == str(BROKEN) and second["legal"] is None
    assert second["error"]["line"] >= 5  # the unclosed [ on line 5 (or where it ends)
    assert "invalid YAML" in second["error"]["message"]


def test_with_a_collection_every_code_comes_out_together():
    result = run(EVERY_PROBLEM, "--collection", BASE_ONLY, "--json")
    codes = {v["code"] for v in json.loads(result.stdout)["violations"]}
    assert codes == {
        "deck-size", "unknown-card", "wrong-faction", "not-deckable", "base-copies-exceeded",
        "gunslinger-replaced", "like-for-like", "unique-copies", "set-unavailable",
        "set-requires", "not-owned",
    }


def test_an_unreadable_collection_exits_2(tmp_path):
    collection = tmp_path / "c.yaml"
    collection.write_text("sets:\n  mini-basse: 1\n")
    result = run(RANGERS, "--collection", collection)
    assert result.exit_code == 2
    assert "mini-basse" in result.stderr


def test_revolver_2_violations_say_module_d_applies_by_analogy(tmp_path):
    deck = tmp_path / "r2.yaml"
    deck.write_text("name: r2\ngame: revolver2\nfaction: esteban\ncards:\n  mini-rifle: 40\n")
    result = run(deck, "--json")
    assert result.exit_code == 1
    violations = json.loads(result.stdout)["violations"]
    assert {v["code"] for v in violations} == {"deck-size", "gunslinger-replaced"}
    assert all("Module D (applied to Revolver 2 by analogy)" in v["rule"] for v in violations)


def test_a_deck_with_a_faction_that_has_no_base_deck_exits_2(tmp_path):
    deck = tmp_path / "f.yaml"
    deck.write_text("name: f\ngame: revolver\nfaction: frontier\ncards:\n  Strongbox: 1\n")
    result = run(deck)
    assert result.exit_code == 2
    assert "no base deck" in result.stderr


def test_every_packaged_deck_is_legal_with_the_real_card_data(monkeypatch):
    monkeypatch.setattr(paths, "PACKAGED_SETS", paths.PACKAGE_DATA / "expansions")
    decks = sorted(paths.PACKAGED_DECKS.glob("*.yaml"))
    assert any(deck.name.startswith("example-") for deck in decks)
    result = run(*decks, "--json")
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)
    assert len(reports) == len(decks) and all(report["legal"] for report in reports)
    examples = [r for r in reports if Path(r["file"]).name.startswith("example-")]
    assert all(len(r["replacements"]) >= 5 for r in examples)

"""`deckbuilder simulate` through the CLI, on the real engine and the packaged base decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app

BASE_DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
runner = CliRunner()


def run(*args: str | Path):
    return runner.invoke(app, ["simulate", *map(str, args)])


def run_json(*args: str | Path) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def write_deck(folder: Path, name: str, faction: str, cards: dict[str, int]) -> Path:
    lines = [f"name: {name}", "game: revolver", f"faction: {faction}", "cards:"]
    lines += [f"  {card}: {copies}" for card, copies in cards.items()]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_json_report_shape_and_arithmetic() -> None:
    report = run_json("colty", "--games", "12", "--seed", "4", "--bot", "greedy",
                      "--opponent-bot", "random")
    assert report["games"] == 12 and report["seed"] == 4 and report["reproducible"]
    assert report["deck"] == {"name": "colty base deck", "faction": "colty", "seat": 0,
                              "bot": "greedy"}
    assert report["opponent"]["faction"] == "mcready"
    assert report["opponent"]["bot"] == "random"
    colty, mcready = report["sides"]
    assert (colty["faction"], mcready["faction"]) == ("colty", "mcready")
    assert colty["wins"] + mcready["wins"] + report["draws"]["games"] == 12
    for side in report["sides"]:
        interval = side["win_rate"]
        assert 0 <= interval["low"] <= interval["estimate"] <= interval["high"] <= 1
    assert sum(row["games"] for row in report["endings"]) == 12
    base = build_catalog().base_deck("revolver", "colty")
    cards = {row["id"]: row for row in report["cards"]["deck"]}
    assert set(base) <= set(cards)
    assert all(cards[card]["copies"] == copies for card, copies in base.items())
    assert sum(row["drawn_per_game"] for row in cards.values()) > 5  # at least the opening hand
    assert report["length"]["turns"]["mean"] > 0
    assert {row["precision"] for row in report["precision"]["targets"]} >= {0.01, 0.02, 0.05}
    assert report["baseline"] is None and report["warnings"] == []
    assert "deck and the bots together" in report["note"]


def test_the_same_seed_gives_the_same_report_for_any_worker_count() -> None:
    options = ("mcready", "--games", "16", "--seed", "9", "--bot", "random")
    assert run_json(*options, "--workers", "1") == run_json(*options, "--workers", "2")


def test_a_large_batch_uses_every_core_unless_told_and_reports_the_same() -> None:
    """Without --workers, a batch worth a pool of processes gets one per core; a small one
    stays in this process (a pool would cost more than it saves). Either way the report is
    the one --workers 1 gives."""
    from deckbuilder.app.simulation_plan import PARALLEL_FROM, default_workers

    assert default_workers(PARALLEL_FROM) == 0 and default_workers(PARALLEL_FROM - 1) == 1
    options = ("colty", "--games", str(PARALLEL_FROM), "--seed", "4", "--bot", "random")
    assert run_json(*options) == run_json(*options, "--workers", "1")


def test_a_deck_file_compared_with_its_own_base_deck_on_paired_seeds(tmp_path: Path) -> None:
    report = run_json(BASE_DECKS / "colty-base.yaml", "--baseline", "colty", "--games", "10",
                      "--bot", "random")
    baseline = report["baseline"]
    assert baseline["difference"] == {"estimate": 0.0, "low": 0.0, "high": 0.0}
    assert baseline["games_with_different_winner"] == 0
    assert baseline["wins"] == report["sides"][0]["wins"]


def test_text_report_names_intervals_endings_and_the_caveat() -> None:
    result = run("colty", "--games", "6", "--bot", "random")
    assert result.exit_code == 0, result.output
    for words in ("Wilson 95%", "How games ended", "Game length", "Precision",
                  "deck and the bots together"):
        assert words in result.stdout


def short_colty_deck(tmp_path: Path) -> Path:
    """The colty base deck one card short: illegal (deck-size), playable."""
    short = dict(build_catalog().base_deck("revolver", "colty"))
    card = next(iter(short))
    short[card] -= 1
    if not short[card]:
        del short[card]
    return write_deck(tmp_path, "short", "colty", short)


def test_an_illegal_deck_is_refused_with_the_validators_report(tmp_path: Path) -> None:
    path = short_colty_deck(tmp_path)
    refused = run(path, "--games", "4", "--bot", "random")
    assert refused.exit_code == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a legal deck: deck-size" in lines[0]
    assert str(path) in lines[0] and "--allow-illegal" in lines[0]


def test_an_illegal_deck_is_simulated_with_a_warning_when_allowed(tmp_path: Path) -> None:
    path = short_colty_deck(tmp_path)
    result = run(path, "--games", "4", "--bot", "random", "--json", "--allow-illegal")
    assert result.exit_code == 0, result.stderr
    assert "warning:" in result.stderr and "not a legal deck" in result.stderr
    assert json.loads(result.stdout)["warnings"]


def test_an_unknown_card_is_refused_with_its_line(tmp_path: Path) -> None:
    path = write_deck(tmp_path, "typo", "colty", {"38-special": 10, "Gatlin Gun": 2})
    result = run(path, "--games", "2")
    assert result.exit_code == 2
    assert f"{path}:6" in result.stderr and "Gatling Gun" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("colty", "--vs", "colty"), "--vs must be a mcready deck"),
        (("colty", "--baseline", "mcready"), "--baseline must be a colty deck"),
        (("colty", "--bot", "minimax"), "unknown bot"),
        (("colty", "--opponent-bot", "search:rollouts=x"), "not a number"),
        (("no-such-deck.yaml",), "no-such-deck.yaml"),
        (("colty", "--ruleset", "nonsense"), "unknown ruleset"),
        (("colty", "--vs", "mapache"), "--vs got a revolver2 deck (mapache), but the game is "
                                       "revolver: both decks must be of one game"),
        ((BASE_DECKS / "esteban-base.yaml", "--baseline", "colty"),
         "--baseline got a revolver deck (colty), but the game is revolver2"),
        (("colty", "--switch", "skinny-token"), "--switch 'skinny-token' is not ID=VALUE"),
        (("colty", "--switch", "skinny-token=lucky"), "'lucky' is not a reading of skinny-token"),
        (("colty", "--switch", "poker-tie=replay"), "revolver has no rule switch 'poker-tie'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: tuple[str, ...], words: str) -> None:
    result = run(*args, "--games", "2")
    assert result.exit_code == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


UNPLAYABLE_SET = """\
id: test-unwritten
name: Test unwritten
version: "1.0"
game: revolver
kind: homebrew
requires: [revolver-base]
cards:
  - id: test-unwritten-gunman
    name: Test unwritten gunman
    faction: colty
    category: firepower
    play: firepower
    copies: 1
    firepower: 1
    chip: black
    effect:
      - do: manual
        text: A text no step of the vocabulary says.
"""


def test_a_deck_with_a_card_the_engine_cannot_play_is_refused(tmp_path: Path,
                                                              user_home: Path) -> None:
    """Every packaged card plays (each unknown text has a marked reading), so the refusal
    is shown with a homebrew card whose effect the vocabulary cannot say."""
    (user_home / "sets").mkdir(parents=True)
    (user_home / "sets" / "test-unwritten.yaml").write_text(UNPLAYABLE_SET, encoding="utf-8")
    cards = dict(build_catalog().base_deck("revolver", "colty"))
    cards["38-special"] -= 1
    cards["test-unwritten-gunman"] = 1
    result = run(write_deck(tmp_path, "odd", "colty", cards), "--games", "2", "--allow-illegal")
    assert result.exit_code == 2, result.output
    assert "Test unwritten gunman" in result.stderr or "test-unwritten-gunman" in result.stderr

"""Every verdict says whether it holds with another bot (`--check-bot`) and what it rests on
(the range over the unconfirmed values). The planted flip plays the opponent with the random
bot in the run and both seats with greedy in the check: the check's bot then changes the
verdict as a stronger bot would, at a greedy game's cost. Games are few: the CPU is shared."""

from __future__ import annotations

import json
from typing import Any

import pytest
from json_shapes import shape_problems
from pydantic import TypeAdapter
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.sim.reports.bot_check import agreement, compare, verdict_lines
from deckbuilder.sim.reports.optimize_json import OptimizeReport, json_of
from deckbuilder.sim.reports.sensitivity import (
    MovedJson,
    moved_scores,
    range_sentence,
    value_range,
)
from deckbuilder.sim.reports.simulate_json import SimulationReport
from deckbuilder.sim.runs.runner import engine_catalog

runner = CliRunner()
WORDS = ("wins", "loses")


def run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--workers", "1", "--json"])
    assert result.exit_code == 0, result.stdout + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def interval(low: float, high: float) -> dict[str, float]:
    return {"estimate": (low + high) / 2, "low": low, "high": high}


def test_a_verdict_holds_changes_or_cannot_be_told() -> None:
    assert compare("x", interval(.6, .7), interval(.55, .8), .5, WORDS)["holds"] == "holds"
    flipped = compare("x", interval(.6, .7), interval(.3, .4), .5, WORDS)
    assert (flipped["holds"], flipped["first_says"], flipped["second_says"]) == (
        "changes", "wins", "loses")
    assert compare("x", interval(.6, .7), interval(.4, .65), .5, WORDS)["holds"] == \
        "cannot be told"  # the intervals overlap
    assert compare("x", interval(.6, .7), interval(.45, .55), .5, WORDS)["holds"] == \
        "changes"  # told apart from the first, though not from even


def test_the_rank_agreement_counts_pairs_within_a_side() -> None:
    found = agreement("colty", {"a": 3.0, "b": 2.0, "c": 1.0}, {"a": 1.0, "b": 2.0, "c": 0.0})
    assert (found["pairs"], found["agreeing"], found["flipped"]) == (3, 2, [["a", "b"]])


def _moved(*changes: float) -> list[MovedJson]:
    return [{"field": "cost", "from": 1, "to": 1 + step, "difference": interval(c, c),
             "games_with_different_winner": 0}
            for step, c in zip((-1, 1), changes, strict=False)]


def test_an_unconfirmed_value_that_decides_the_gain_is_named_so() -> None:
    catalog = build_catalog()
    decided = value_range(catalog, 0.05, {"deputy": _moved(0.03, -0.09)}, 0.0)
    assert (decided["low"], decided["high"]) == pytest.approx((-0.04, 0.08))
    said = range_sentence("+5.0 points", decided, lambda gain: f"{100 * gain:+.1f}")
    assert said == ("+5.0 points, resting on Deputy's cost (unconfirmed): -4.0 to +8.0 over its "
                    "plausible values (each one down and one up); the verdict rests on it")
    held = value_range(catalog, 0.05, {"deputy": _moved(0.01, -0.02)}, 0.0)
    assert not held["verdict_rests_on_them"]
    assert "the verdict rests" not in range_sentence("+5.0 points", held, str)
    nothing = value_range(catalog, 0.05, {}, 0.0)
    assert range_sentence("+5.0 points", nothing, str).endswith(
        "resting on no unconfirmed whole-number value of those cards")


def test_the_moved_values_reach_what_is_measured() -> None:
    """A planted gain that is the deputy's cost less 1.5 points: the unconfirmed cost (1)
    decides its sign, and the sentence says the verdict rests on it."""
    catalog = build_catalog()

    def gain(_executor: object) -> list[float]:
        return [engine_catalog().entries["deputy"].record.cost - 1.5] * 3

    before = engine_catalog()
    unmoved, rows = moved_scores(catalog, ["deputy"], gain)
    assert engine_catalog() is before  # the catalog in force is put back
    span = value_range(catalog, unmoved[0], rows, 0.0)
    assert (span["unmoved"], span["low"], span["high"]) == (-0.5, -1.5, 0.5)
    assert range_sentence("-0.5", span, str).endswith("the verdict rests on it")


def test_the_check_flips_a_verdict_the_opponents_bot_made() -> None:
    common = ("simulate", "example-mcready-pinkertons", "--vs", "colty", "-n", "40", "--bot",
              "greedy", "--opponent-bot", "random", "--no-sensitivity")
    report = run_json(*common, "--check-bot", "greedy")
    assert shape_problems(SimulationReport, report) == []
    check = report["bot_check"]
    assert check["bots"] == ["greedy", "greedy"] and check["games"] == 40
    (row,) = check["compared"]
    assert row["first_says"] == "wins more often than not"
    assert row["second_says"] == "loses more often than not"
    assert row["holds"] == "changes"
    assert any("the verdict changes" in line for line in verdict_lines(report))
    unchecked = run_json(*common, "--check-bot", "none")
    assert unchecked["bot_check"] is None
    assert "not checked with a stronger bot (--check-bot none)" in unchecked["notes"]
    unchecked["notes"].remove("not checked with a stronger bot (--check-bot none)")
    del report["bot_check"], unchecked["bot_check"]
    assert report == unchecked  # the check changes no number of the run


def test_a_verdict_both_bots_tell_alike_holds() -> None:
    report = run_json("simulate", "colty", "--vs", "example-mcready-pinkertons", "-n", "40",
                      "--bot", "greedy", "--opponent-bot", "random", "--no-sensitivity",
                      "--check-bot", "greedy")
    assert report["bot_check"]["compared"][0]["holds"] == "holds"


def test_a_tournament_gives_the_rank_agreement_within_each_side() -> None:
    report = run_json("tournament", "colty", "example-colty-fan-the-gun", "mcready",
                      "example-mcready-pinkertons", "-n", "3", "--bot", "random",
                      "--check-bot", "greedy")
    sides = {row["side"]: row for row in report["bot_check"]["agreement"]}
    assert set(sides) == {"colty", "mcready"}
    assert all(row["pairs"] == 1 and row["agreeing"] + len(row["flipped"]) == 1
               for row in sides.values())
    assert report["bot_check"]["games"] == 12


def test_a_gauntlet_checks_each_opponent_and_the_field() -> None:
    report = run_json("simulate", "colty", "--vs", "mcready", "--vs",
                      "example-mcready-pinkertons", "-n", "3", "--bot", "random",
                      "--check-bot", "greedy")
    assert [row["what"].split(" against ")[1] for row in report["bot_check"]["compared"]] == [
        "mcready base deck", "McReady's Pinkertons (example)", "the field"]


def test_optimize_says_what_the_gain_rests_on_and_whether_it_holds() -> None:
    report = run_json("optimize", "mcready", "--budget", "60", "--bot", "random",
                      "--check-bot", "greedy")
    assert json_of(TypeAdapter(OptimizeReport).validate_python(report)) == report
    gain = report["gain_rests_on"]
    assert gain["sentence"].startswith(f"{100 * gain['unmoved']:+.1f} points on the first ")
    assert gain["low"] <= gain["unmoved"] <= gain["high"]
    (row,) = report["bot_check"]["compared"]
    assert row["what"].startswith("the gain of ") and row["centre"] == 0.0

"""Golden transcripts: a few seeded games written out in full (every action, every logged event,
the final position). A rules change that alters any of them shows up here as a diff.

When the change is intended, regenerate the files and review the diff before committing:

    DECKBUILDER_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.sim.transcript import golden_text
from deckbuilder.writing import atomic_write_text

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("DECKBUILDER_REGEN_GOLDEN") == "1"

#: name -> (seed, colty bot, mcready bot)
GAMES = {
    "random-vs-random-seed-1": (1, "random", "random"),
    "random-vs-random-seed-7": (7, "random", "random"),
    "greedy-vs-greedy-seed-3": (3, "greedy", "greedy"),
}


def transcript(seed: int, colty_bot: str, mcready_bot: str) -> str:
    catalog = build_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    return golden_text(decks, seed, (colty_bot, mcready_bot), catalog=catalog)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(*GAMES[name])
    if REGENERATE:
        atomic_write_text(path, text)
    assert path.exists(), f"no {path.name}: run with DECKBUILDER_REGEN_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(), text.splitlines(),
                                    f"golden/{path.name}", "this engine", lineterm="", n=2)
        shown = list(diff)[:60]
        pytest.fail("the game no longer plays as recorded (if intended, regenerate with "
                    "DECKBUILDER_REGEN_GOLDEN=1 and review):\n" + "\n".join(shown))


def test_golden_transcripts_ignore_the_global_random_state() -> None:
    random.seed(12345)
    first = transcript(*GAMES["random-vs-random-seed-1"])
    random.seed(54321)
    random.random()
    assert transcript(*GAMES["random-vs-random-seed-1"]) == first


def test_golden_transcripts_show_the_whole_game() -> None:
    text = (GOLDEN / "greedy-vs-greedy-seed-3.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# golden transcript: seed 3, bots greedy vs greedy, ruleset rulebook-en"
    assert "-- turn 1: colty" in lines
    assert any(line.split()[1:2] == ["mcready"] and line.split()[0].isdigit() for line in lines)
    assert "# final position" in lines
    assert lines[-1].startswith("game over: ")

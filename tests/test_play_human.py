"""`deckbuilder play --human SIDE`, driven as a person would drive it: through a real
pseudo-terminal, reading up to each prompt and typing an answer."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.commands.choice_prompt import GIVE_UP_QUESTION, PROMPT_END
from deckbuilder.commands.human_play import EXIT_ABANDONED
from deckbuilder.sim.records.session import replay_record
from deckbuilder.sim.records.transcript import read_record

#: Long enough for a loaded machine; a whole game takes a second or two.
TIMEOUT = 60.0
PROMPT = re.compile(r"\[1-(\d+), \? q\]" + re.escape(PROMPT_END) + r"$")
#: Asked once more before a choice that gives up one's own card: the drivers say yes.
GIVE_UP = re.compile(re.escape(GIVE_UP_QUESTION) + r"$")


class Terminal:
    """One `deckbuilder` process on a pseudo-terminal: what it printed, and typing into it."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "deckbuilder", *args], stdin=slave, stdout=slave,
            stderr=slave, close_fds=True, env={**os.environ, "COLUMNS": "200"})
        os.close(slave)
        self.output = ""
        self.seen = 0  # how much of the output the last `until_prompt` consumed

    def _read(self, deadline: float) -> bool:
        """Read what is there; False once the process has closed the terminal."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.time()))
        if not ready:
            raise AssertionError(f"no output for {TIMEOUT}s; so far:\n{self.output[-2000:]}")
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the other end is closed
            return False
        if not data:
            return False
        self.output += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def until_prompt(self) -> int | None:
        """Read up to the next prompt: the number of actions it offers (None: it ended); a
        choice that gives up one's own card is confirmed on the way."""
        deadline = time.time() + TIMEOUT
        while True:
            giving_up = GIVE_UP.search(self.output[self.seen:])
            if giving_up is not None:
                self.seen += giving_up.end()
                self.type("y\n")
                continue
            match = PROMPT.search(self.output[self.seen:])
            if match is not None:
                self.seen += match.end()
                return int(match.group(1))
            if not self._read(deadline):
                return None

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self) -> int:
        """Read to the end; the exit code."""
        deadline = time.time() + TIMEOUT
        while self._read(deadline):
            pass
        code = self.process.wait(timeout=TIMEOUT)
        os.close(self.master)
        return code


@pytest.mark.parametrize("side", ["McReady", "mapache"])
def test_a_whole_game_against_the_random_bot(tmp_path: Path, side: str) -> None:
    record = tmp_path / "game.jsonl"
    terminal = Terminal("play", "--human", side, "--bots", "random", "--seed", "3",
                        "--record", str(record))
    prompts = 0
    while (offered := terminal.until_prompt()) is not None:
        prompts += 1
        assert offered >= 1
        terminal.type(f"{1 + prompts % offered}\n")  # not always the first: play some cards
    assert terminal.finish() == 0, terminal.output[-3000:]
    out = terminal.output
    me = side.lower()
    other = {"mcready": "colty", "mapache": "esteban"}[me]
    assert prompts > 5
    assert f"you are {me}" in out and "your hand (" in out and "your decision:" in out
    assert "  1. " in out  # the actions, numbered
    assert re.search(rf"{other} draws \d+ cards?", out)  # the opponent's draws, unnamed
    assert "result: " in out and f"recorded to {record}" in out
    assert "Traceback" not in out
    saved = read_record(record)
    assert saved.bots[me] == "human" and saved.bots[other] == "random"
    assert replay_record(saved, build_catalog()).mismatch is None


CHOICE = re.compile(r"^\s+\d+\. \[([^\]]+)\] (.+)$", re.MULTILINE)


def _decision(terminal: Terminal) -> dict[str, str]:
    """Up to the next prompt: each choice's key and its words, as the decision lists them."""
    start = terminal.seen
    assert terminal.until_prompt() is not None
    return dict(CHOICE.findall(terminal.output[start:terminal.seen]))


def test_keys_keep_their_meaning_and_giving_up_a_card_is_asked_once_more() -> None:
    """Mapache's first play phase (seed 5): a card keeps its key from one decision to the
    next, plays come before giving up one's own card and passing, and giving up Rurales is
    asked once more: no keeps it (the same decision again), yes discards it."""
    terminal = Terminal("play", "--game", "revolver2", "--human", "mapache", "--seed", "5")
    for _ in range(3):  # the poker tournament
        _decision(terminal)
        terminal.type("1\n")
    before = _decision(terminal)
    assert list(before)[-1] == "pass" and "rurales" in before
    terminal.type("rurales\n")  # by its key
    after = _decision(terminal)
    kept = set(before) & set(after)
    assert kept - {"pass"} and all(before[key] == after[key] for key in kept)
    keys = list(after)
    assert keys.index("drop-rurales") > max(keys.index(key) for key in keys
                                            if not key.startswith("drop-") and key != "pass")
    terminal.type("drop-rurales\n")
    deadline = time.time() + TIMEOUT
    while not GIVE_UP.search(terminal.output[terminal.seen:]):
        assert terminal._read(deadline)
    terminal.seen = len(terminal.output)
    terminal.type("n\n")  # keeps the card: the same decision is asked again
    assert _decision(terminal) == after
    terminal.type("drop-rurales\n")
    assert "mapache discards his Rurales from play" not in terminal.output
    assert "drop-rurales" not in _decision(terminal)  # yes, said on the way (until_prompt)
    assert "mapache discards his Rurales from play" in terminal.output
    terminal.type("q\n")
    assert terminal.finish() == EXIT_ABANDONED


def test_bad_answers_are_asked_again_and_q_quits(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    terminal = Terminal("play", "--human", "colty", "--bots", "random", "--seed", "2",
                        "--record", str(record))
    offered = terminal.until_prompt()
    assert offered is not None
    for bad in ("banana", "0", str(offered + 1), "-1"):
        terminal.type(f"{bad}\n")
        assert terminal.until_prompt() == offered  # the same decision, asked again
        assert f"'{bad}' is not one of the actions: give a number from 1 to {offered}" \
            in terminal.output
    terminal.type("?\n")
    assert terminal.until_prompt() == offered
    assert terminal.output.count("your decision: play phase") >= 2  # shown again
    terminal.type("q\n")
    assert terminal.finish() == EXIT_ABANDONED
    assert "you quit: the game is left at turn 1; no record written" in terminal.output
    assert not record.exists()
    assert "Traceback" not in terminal.output


def test_the_end_of_the_input_ends_the_game_cleanly() -> None:
    terminal = Terminal("play", "--human", "mcready", "--bots", "random", "--seed", "4")
    assert terminal.until_prompt() is not None
    terminal.type("1\n")
    assert terminal.until_prompt() is not None
    terminal.type("\x04")  # Ctrl-D at the start of a line: the end of the input
    assert terminal.finish() == EXIT_ABANDONED
    assert "end of input: the game is left at turn" in terminal.output
    assert "Traceback" not in terminal.output


def test_options_that_do_not_fit_a_human_game_are_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from deckbuilder.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["play", "--human", "colty", "--json"])
    assert result.exit_code == 2 and "--json is for games between bots" in result.output
    result = runner.invoke(app, ["play", "--human", "mapache", "--game", "revolver"])
    assert result.exit_code == 2
    assert "--human mapache is a side of revolver2, but the game is revolver" in result.output
    result = runner.invoke(app, ["play", "--human", "nobody"])
    assert result.exit_code == 2 and "unknown faction 'nobody'" in result.output
    existing = tmp_path / "kept.jsonl"
    existing.write_text("mine\n", encoding="utf-8")
    result = runner.invoke(app, ["play", "--human", "colty", "--record", str(existing)])
    assert result.exit_code == 2 and "already exists" in result.output
    assert existing.read_text(encoding="utf-8") == "mine\n"
    # a Revolver 2 side names the game: no --game needed; the input here is empty (EOF)
    result = runner.invoke(app, ["play", "--human", "Padre Esteban", "--bots", "random"],
                           input="")
    assert result.exit_code == EXIT_ABANDONED
    assert "Revolver 2" in result.output and "you are esteban" in result.output


def test_poker_cards_are_chosen_by_their_values_and_each_round_says_why() -> None:
    """Revolver 2's poker tournament in the terminal: each choice shows the card's value and
    set-up effect as the data states it (marked unconfirmed), `? N` prints the card, and each
    round's line says what was shown and why it was won."""
    catalog = build_catalog()
    terminal = Terminal("play", "--game", "revolver2", "--human", "esteban", "--seed", "3")
    offered = terminal.until_prompt()
    assert offered is not None
    choices = re.findall(r"^\s+(\d+)\. \[[^]]+\] show (.+?) - (.+)$", terminal.output, re.MULTILINE)
    assert len(choices) == offered
    by_name = {entry.record.name: entry.record for entry in catalog.entries.values()
               if getattr(entry.record, "poker", None) is not None}
    for _, name, summary in choices:
        poker = by_name[name].poker
        shown = "cheat" if poker.cheat else str(poker.value)
        assert f"poker value {shown}?" in summary  # the value, marked unconfirmed
    terminal.type("? 1\n")
    assert terminal.until_prompt() == offered
    face = terminal.output[terminal.output.rindex("? 1"):]
    assert "names no card" not in face
    assert "Poker value" in face and choices[0][1] in face
    terminal.type("1\n")
    assert terminal.until_prompt() is not None
    round_line = re.search(r"poker: esteban shows (.+?) \((.+?)\), mapache shows .+? \((.+?)\): "
                           r"(.+?); (\w+) wins the round", terminal.output)
    assert round_line is not None, terminal.output[-3000:]
    assert round_line.group(1) == choices[0][1]
    assert re.search(r"beats|cheats|a tie", round_line.group(4))
    terminal.type("q\n")
    assert terminal.finish() == EXIT_ABANDONED


PASS_PROMPT = re.compile(r"(\w+): press Enter when only you can see the screen \(q quits\)"
                         + re.escape(PROMPT_END) + r"$")


@pytest.mark.parametrize(("game", "sides"), [("revolver", ("colty", "mcready")),
                                             ("revolver2", ("esteban", "mapache"))])
def test_two_people_at_one_screen(tmp_path: Path, game: str, sides: tuple[str, str]) -> None:
    """`play --human A --human B`: the screen is cleared and the device passed between their
    turns; each sees his own hand and only a count of the other's draws."""
    record = tmp_path / "game.jsonl"
    terminal = Terminal("play", "--game", game, "--human", sides[0], "--human", sides[1],
                        "--seed", "5", "--record", str(record), "--max-turns", "12")
    passes = 0
    answered = 0
    deadline = time.time() + TIMEOUT
    while True:
        waiting = terminal.output[terminal.seen:]
        turn_over = PASS_PROMPT.search(waiting)
        prompt = PROMPT.search(waiting)
        giving_up = GIVE_UP.search(waiting)
        if giving_up:
            terminal.seen += giving_up.end()
            terminal.type("y\n")
            continue
        if turn_over:
            terminal.seen += turn_over.end()
            passes += 1
            terminal.type("\n")
            continue
        if prompt:
            terminal.seen += prompt.end()
            answered += 1
            terminal.type(f"{1 + answered % int(prompt.group(1))}\n")
            continue
        if not terminal._read(deadline):
            break
    assert terminal.finish() == 0, terminal.output[-3000:]
    out = terminal.output
    assert passes >= 4
    # every turn's screen is cleared before the device changes hands
    assert out.count("\x1b[2J") == passes
    screens = out.split("\x1b[2J")
    for screen in screens[1:]:
        passed_to = re.search(r"press Enter", screen) and re.search(
            r"-- pass the device to .+ --\n(\w+): press Enter", screen)
        assert passed_to is not None
        side = passed_to.group(1)
        other = sides[1 - sides.index(side)]
        # this person is shown his own position, and the other's draws only as counts
        assert f"you are {side}" in screen or "game over" in screen or "final position" in screen
        assert f"you are {other}" not in screen
        assert not re.search(rf"^\s+{other} draws (?!\d+ cards?$)", screen, re.MULTILINE)
    saved = read_record(record)
    assert saved.bots == {sides[0]: "human", sides[1]: "human"}
    assert replay_record(saved, build_catalog()).mismatch is None

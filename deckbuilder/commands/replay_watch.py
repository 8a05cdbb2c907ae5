"""`deckbuilder replay FILE --watch`: step through a recorded game in the terminal, the same
steps as the web viewer (`sim.records.replay_steps`); `--step N`: one position.
"""

from __future__ import annotations

from pathlib import Path

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.endings import outcome_sentence
from deckbuilder.app.table_words import PlayerWords
from deckbuilder.catalog import Catalog
from deckbuilder.commands.choice_prompt import LEAVE_WORDS, PROMPT_END, SHOWN_ANSWER, say_events
from deckbuilder.commands.common import EXIT_OK, console, print_json, typed_line
from deckbuilder.commands.common import say as _say
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game
from deckbuilder.sim.records.replay_steps import EVERYTHING, ReplayStepError, ReplaySteps
from deckbuilder.sim.records.session_view import view_lines
from deckbuilder.sim.records.transcript import read_record

KEYS = "Enter/n next, p back, t N turn N, s N step N, v {}/{}/all viewer, q quits"


def _read(prompt: str) -> str | None:
    """One line typed, stripped; None at the end of the input or Ctrl-C."""
    try:
        line = typed_line(prompt)
    except KeyboardInterrupt:
        line = ""
    if not line:
        console.print("")
        return None
    return line.strip()


class Watcher:
    """Where the person is in the game (step, viewer) and what a key does to it."""

    def __init__(self, steps: ReplaySteps, catalog: Catalog) -> None:
        self.steps = steps
        self.words = PlayerWords(catalog)
        self.viewer = steps.viewer_named(None)  # the only person at the table, or everything
        self.position = 0

    def viewer_name(self) -> str:
        return "everything" if self.viewer is None else self.steps.names[self.viewer]

    def show(self) -> None:
        steps = self.steps
        position = self.position
        turn = steps.turns[position]
        _say("")
        _say(f"-- step {position} of {steps.last}, "
             + ("before the first turn" if turn == 0 else f"turn {turn}")
             + f"; seen by {self.viewer_name()} --")
        wanted = position - 1 if position else None
        say_events(event for event in steps.log(self.viewer) if event.index == wanted)
        if position and not any(event.index == wanted for event in steps.log(self.viewer)):
            _say(f"{steps.mover(position)} decides (what, this viewer does not see)")
        if position == steps.last and steps.record.ended_by_table:
            record = steps.record
            _say(f"-- the table ended here: "
                 f"{outcome_sentence(record.winner, record.termination, record.turns)} --")
        for line in view_lines(steps.view(position, self.viewer), self.words):
            _say(f"  {line}")

    def key(self, answer: str) -> bool:
        """Apply one line typed; False when it asks to quit."""
        words = answer.lower().split()
        if words and words[0] in LEAVE_WORDS:
            return False
        complaint = self._move(words, answer)
        if complaint is None:
            self.show()
        else:
            _say(complaint)
        return True

    def _move(self, words: list[str], answer: str) -> str | None:
        """Move as the words say; None when moved, else what works instead."""
        steps = self.steps
        if not words or words[0] in ("n", "next"):
            if self.position == steps.last:
                return "the game is over here: p goes back, q quits"
            self.position += 1
        elif words[0] in ("p", "prev", "previous", "b", "back"):
            if self.position == 0:
                return "this is the set-up, before the first step: n goes on"
            self.position -= 1
        elif words[0] in ("t", "s") and len(words) == 2 and words[1].isascii() \
                and words[1].isdigit() and len(words[1]) < 7:
            number, turns = int(words[1]), steps.turn_numbers()
            if words[0] == "t" and number not in turns:
                return f"no turn {number}: the game has turns {turns[0]} to {turns[-1]}"
            if words[0] == "s" and number > steps.last:
                return f"no step {number}: the game has steps 0 to {steps.last}"
            self.position = steps.position_of_turn(number) if words[0] == "t" else number
        elif words[0] == "v" and len(words) == 2:
            try:  # a side's name (or 0 / 1), as the web viewer's `?viewer=` reads it
                self.viewer = EVERYTHING if words[1] in ("a", "all") else \
                    steps.viewer_named(words[1])
            except ReplayStepError:
                return f"v {steps.names[0]}, v {steps.names[1]} (or v 0, v 1) or v all " \
                       "(everything)"
        else:
            shown = answer if len(answer) <= SHOWN_ANSWER else answer[:SHOWN_ANSWER] + "..."
            return f"'{shown}' is not a key here: {KEYS.format(*steps.names)}"
        return None


def show_step(path: Path, step: int, viewer: str | None, as_json: bool) -> int:
    """`replay FILE --step N [--viewer V]`: one position as `--watch` shows it (or as JSON)."""
    catalog = project_catalog()
    steps = ReplaySteps(read_record(path), catalog)
    seen = steps.viewer_named(viewer)
    if as_json:
        print_json(steps.at(step, seen).to_json())
        return EXIT_OK
    watcher = Watcher(steps, catalog)
    watcher.position, watcher.viewer = steps.checked(step), seen
    watcher.show()
    return EXIT_OK


def watch(path: Path, as_json: bool = False, start: int = 0) -> int:
    """Step through the record from step `start` as the keys say, until q."""
    if as_json:
        raise DeckbuilderError("--watch steps through the game in the terminal; --json is a "
                               "summary", fix="leave out --json, or give --step N for one "
                                              "position as JSON")
    record = read_record(path)
    catalog = project_catalog()
    steps = ReplaySteps(record, catalog)
    game = get_game(record.game)
    _say(f"watching {path}: {game.title}, seed {record.seed}, "
         + ", ".join(f"{who} ({bot})" for who, bot in record.bots.items())
         + f"; {outcome_sentence(record.winner, record.termination, record.turns)}, "
           f"{steps.last} steps")
    _say(f"keys: {KEYS.format(*steps.names)}")
    watcher = Watcher(steps, catalog)
    watcher.position = steps.checked(start)
    watcher.show()
    while True:
        answer = _read(f"step {watcher.position}/{steps.last} "
                       f"({watcher.viewer_name()}){PROMPT_END}")
        if answer is None or not watcher.key(answer):
            return EXIT_OK

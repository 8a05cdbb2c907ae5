"""`deckbuilder join LINK`: play a seat of a web table for two people from the terminal,
through the table API (`app.table_client`, whose answers are checked before anything is
drawn). The keyboard is read by a thread of its own while the wait for the other seat runs
in another, so `q` or Ctrl-C leaves a wait at once.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterator
from typing import IO, Annotated, NoReturn

import typer

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.table_answers import TableState
from deckbuilder.app.table_client import Refused, TableClient, TableClientError
from deckbuilder.app.table_words import PlayerWords
from deckbuilder.catalog import Catalog
from deckbuilder.commands import choice_prompt as asking
from deckbuilder.commands.choice_prompt import LEAVE_WORDS, PROMPT_END
from deckbuilder.commands.common import EXIT_FAILED, EXIT_OK, console, guarded, safe
from deckbuilder.commands.common import say as _say
from deckbuilder.sim.records.session import Event
from deckbuilder.sim.records.session_view import view_lines

#: The exit code of a table left before its end (the seat can come back by its link).
EXIT_LEFT = 130
RESIGN = "resign"
#: What the keyboard's inbox carries: a line typed (None: the keyboard is closed), or the
#: end of a wait for the other seat (None, or the error the wait ended with).
LINE, MOVED = "line", "moved"
Message = tuple[str, str | BaseException | None]


@guarded
def join(
    link: Annotated[str, typer.Argument(
        metavar="LINK", show_default=False,
        help="the seat's link the table's page shows (http://HOST:PORT/friends/TOKEN)")],
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="leave out the account of the game, not the position")] = False,
) -> None:
    """Sit at a web table for two people by its link, and play that seat in the terminal.

    At each of your decisions: the position as you see it, the actions numbered, a prompt (a
    number; ? shows the position again, ? N the card of action N, w why a card in hand is
    not offered, r resigns, q leaves: come back with your seat's link). While the other
    person decides, it waits for his move (q leaves then too).
    """
    client = TableClient(link)
    catalog = project_catalog()
    keyboard = Keyboard(sys.stdin)
    try:
        state = client.join()
    except Refused as refused:  # a seat taken already: one line that offers to watch
        if refused.watch is None:
            raise
        raise TableClientError(f"{refused}; to watch the table instead: deckbuilder join "
                               f"{refused.watch}") from None
    commitment = state.commitment
    _greet(client, state)
    shown = 0  # events already printed
    told: set[str] = set()  # notices already printed
    while True:
        shown = _show_log(state, shown, quiet)
        for notice in state.notices:
            if notice not in told:
                told.add(notice)
                _say(f"notice: {notice}")
        if state.over:
            raise typer.Exit(_show_end(client, state, commitment))
        if not state.your_turn:
            _say(f"waiting for {state.to_move or 'the other seat'} ... (q leaves)")
            _wait(client, state.version, keyboard)
            state = client.state(shown)
            continue
        answer = _ask(state, catalog, keyboard)
        if answer == RESIGN:
            state = client.resign()
            continue
        try:
            state = client.act(state.step, int(answer))
        except Refused as refused:
            if refused.state is None:
                raise
            _say(str(refused))
            state = client.state(shown)


def _greet(client: TableClient, state: TableState) -> None:
    if client.resume_link is not None:
        _say(f"to continue elsewhere: deckbuilder join {client.resume_link}; keep it secret "
             "(whoever has it plays your seat; the invitation you came with is spent)")
    if state.seat is None:
        _say("this is a spectator's link: you watch the game (q leaves)")
    _say(state.heading)
    if state.commitment is not None:
        _say(f"the deal's commitment: {state.commitment}; check it after the game with "
             f"deckbuilder replay RECORD --check-deal {state.commitment}")
    if state.seat is not None:
        _say(f"you play {state.seat}: answer with the number of an action; ? shows the "
             "position again, ? N the card of action N, w why a card is not offered, r "
             "resigns, q leaves (your seat's link brings you back)")


def _show_log(state: TableState, shown: int, quiet: bool) -> int:
    """Print the events not printed yet; how many are printed now."""
    asking.say_events(
        Event(entry.index, entry.player, entry.action, tuple(entry.lines), entry.turn)
        for offset, entry in enumerate(state.log)
        if state.log_start + offset >= shown and not quiet)
    return max(shown, state.log_next)


def _show_end(client: TableClient, state: TableState, commitment: str | None) -> int:
    """How the table ended; EXIT_FAILED when the seed it reveals does not match its commitment."""
    ended = state.ended.end if state.ended is not None else None
    _say(f"result: {state.outcome or ended or 'the table has ended'}")
    if state.record is not None and state.record.startswith("/"):
        _say(f"the game's record: {client.server}{state.record}")
    matches = None if commitment is None else state.deal_matches(commitment)
    if matches is False:
        _say(f"warning: the seed the table reveals ({state.seed}) does not match the "
             f"commitment shown at the start ({commitment}): the game was not dealt from "
             "the seed the table committed to")
        return EXIT_FAILED
    if matches:
        _say(f"the deal: seed {state.seed}, which matches the commitment shown at the start")
    return EXIT_OK


def _ask(state: TableState, catalog: Catalog, keyboard: Keyboard) -> int | str:
    choices = state.choices
    _show_position(state, catalog)

    def read(asked: str) -> str:
        return _read(asked, keyboard)

    def resign() -> str | None:
        sure = read("resign: the other side wins. Sure? [y/N]" + PROMPT_END)
        return RESIGN if sure.strip().lower() in ("y", "yes") else None

    return asking.ask_action(
        f"{state.seat} [1-{len(choices)}, ? r q]{PROMPT_END}", choices,
        state.view.model_dump() if state.view else {}, read, _say,
        show=lambda: _show_position(state, catalog),
        show_card=lambda asked: asking.show_card(asked, choices, catalog, _say),
        commands={**dict.fromkeys(LEAVE_WORDS, _leave), "r": resign, "resign": resign},
        wrong="? shows the position, ? N a card, w why a card is not offered, r resigns, "
              "q leaves")


def _show_position(state: TableState, catalog: Catalog) -> None:
    position = [] if state.view is None else view_lines(  # (a decision always has one)
        state.view.model_dump(by_alias=True), PlayerWords(catalog))
    for line in asking.decision_lines(position, state.decision, [(
            choice.group, choice.key or str(number), choice.text + (
                f" - {choice.summary}" if choice.summary else ""))
            for number, choice in enumerate(state.choices, start=1)]):
        _say(line)


class Keyboard:
    """The lines typed, read by a thread of its own into `inbox` (which `_wait` reads too)."""

    def __init__(self, stream: IO[str]) -> None:
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.closed = False
        threading.Thread(target=self._read, args=(stream,), name="keyboard",
                         daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in _typed_lines(stream):
            self.inbox.put((LINE, line))
        self.closed = True

    def next(self) -> Message:
        """(LINE, text), (LINE, None) once closed and read, or (MOVED, error or None)."""
        while True:
            try:
                return self.inbox.get(timeout=0.25)
            except queue.Empty:
                if self.closed:
                    return LINE, None


def _typed_lines(stream: IO[str]) -> Iterator[str]:
    """The lines of `stream`, read unbuffered: a thread blocked in a buffered read would hold
    the stream's lock when the command exits."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        yield from iter(stream.readline, "")
        return
    pending = b""
    while True:
        try:
            data = os.read(descriptor, 4096)
        except OSError:
            data = b""
        if not data:
            if pending:
                yield pending.decode("utf-8", errors="replace")
            return
        *lines, pending = (pending + data).split(b"\n")
        for line in lines:
            yield line.decode("utf-8", errors="replace")


def _wait(client: TableClient, version: int, keyboard: Keyboard) -> None:
    """Until the table changes past `version` (a long poll in a thread of its own)."""

    def poll() -> None:
        try:
            client.wait(version)
        except BaseException as error:  # handed to the main thread, raised there
            keyboard.inbox.put((MOVED, error))
        else:
            keyboard.inbox.put((MOVED, None))

    threading.Thread(target=poll, name="wait", daemon=True).start()
    try:
        while True:
            kind, value = keyboard.next()
            if kind == MOVED:
                if isinstance(value, BaseException):
                    raise value
                return
            typed = value.strip().lower() if isinstance(value, str) else ""
            if typed in LEAVE_WORDS:
                _leave()
            if typed:
                _say("the other seat decides now: wait for his move, or q to leave")
    except KeyboardInterrupt:
        _leave()


def _read(prompt: str, keyboard: Keyboard) -> str:
    console.print(safe(prompt), end="", markup=False)
    console.file.flush()
    try:
        kind, line = keyboard.next()
    except KeyboardInterrupt:
        _leave()
    if kind != LINE or line is None:
        _leave()
    return str(line)


def _leave() -> NoReturn:
    console.print("")
    _say("you left the table; your seat's link brings you back")
    raise typer.Exit(EXIT_LEFT)


def register(app: typer.Typer) -> None:
    app.command("join")(join)

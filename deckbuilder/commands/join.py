"""`deckbuilder join LINK`: sit at a web table for two people from the terminal.

The friend who made the table (`deckbuilder serve`, /friends) sends a seat's link; this
command plays that seat through the table API (`app.table_client`): the position as the seat
sees it, the numbered actions with their cards' costs and firepower, a prompt, and while the
other person thinks, a wait that ends when he has moved.

The table's answers are checked before anything is drawn (`app.table_answers`), and every
text from them is escaped on its way to the terminal (`safe`). The keyboard is read by a
thread of its own (`Keyboard`) while the wait runs in another, so `q` or Ctrl-C leaves a
wait at once.
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
from deckbuilder.app.table_answers import Choice, TableState
from deckbuilder.app.table_client import Refused, TableClient, TableClientError
from deckbuilder.app.table_words import PlayerWords, worded_line
from deckbuilder.card_face import face, face_text
from deckbuilder.catalog import Catalog
from deckbuilder.commands import choice_prompt as asking
from deckbuilder.commands.card_detail import text_width
from deckbuilder.commands.common import EXIT_FAILED, EXIT_OK, console, guarded, safe
from deckbuilder.commands.common import say as _say
from deckbuilder.sim.records.session import Event
from deckbuilder.sim.records.session_view import view_lines

#: The exit code of a table left before its end (the seat can come back by its link).
EXIT_LEFT = 130
PROMPT_END = "> "
LEAVE_WORDS = ("q", "quit", "exit")
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
    state = _take_seat(client)
    commitment = state.commitment
    _greet(client, state)
    shown = 0  # events already printed
    told: set[str] = set()  # notices already printed
    while True:
        shown = _show_log(state, shown, quiet)
        _show_notices(state, told)
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


def _take_seat(client: TableClient) -> TableState:
    """Join; a seat someone else took already is one line that offers to watch instead."""
    try:
        return client.join()
    except Refused as refused:
        if refused.watch is None:
            raise
        raise TableClientError(f"{refused}; to watch the table instead: deckbuilder join "
                               f"{refused.watch}") from None


def _greet(client: TableClient, state: TableState) -> None:
    """The seat's own link (once, when an invitation was exchanged for it), the table, the
    deal's commitment, and how to answer."""
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
    """Print the events of `state` not printed yet; how many are printed now."""
    for offset, entry in enumerate(state.log):
        if state.log_start + offset < shown or quiet:
            continue
        event = Event(entry.index, entry.player, entry.action, tuple(entry.lines), entry.turn)
        for line in event.text_lines():
            _say(worded_line(line))
    return max(shown, state.log_next)


def _show_notices(state: TableState, told: set[str]) -> None:
    """The table's notices (a seat played from a new place ...), each once."""
    for notice in state.notices:
        if notice not in told:
            told.add(notice)
            _say(f"notice: {notice}")


def _show_end(client: TableClient, state: TableState, commitment: str | None) -> int:
    """How the table ended, its record, and whether the seed it reveals is the one it
    committed to at the start (EXIT_FAILED when it is not)."""
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
    """The position, the actions and the prompt, until a number (an action), RESIGN."""
    choices = state.choices
    _show_position(state, catalog)
    for line in asking.why_hint(state.view.model_dump() if state.view else {}):
        _say(f"  {line}")
    prompt = f"{state.seat} [1-{len(choices)}, ? r q]{PROMPT_END}"
    while True:
        answer = _read(prompt, keyboard).strip().lower()
        if answer in LEAVE_WORDS:
            _leave()
        if answer in ("r", "resign"):
            sure = _read("resign: the other side wins. Sure? [y/N]" + PROMPT_END, keyboard)
            if sure.strip().lower() in ("y", "yes"):
                return RESIGN
            continue
        if answer in ("?", "h", "help"):
            _show_position(state, catalog)
            continue
        if answer.startswith("?"):
            _show_card(choices, answer[1:].strip(), catalog)
            continue
        if answer in asking.WHY_ANSWERS:
            for line in asking.why_lines(state.view.model_dump() if state.view else {}):
                _say(f"  {line}")
            continue
        at = asking.chosen(answer, [choice.key for choice in choices])
        if at is not None:
            if asking.confirmed(choices[at].group, choices[at].text,
                         lambda asked: _read(asked, keyboard), _say):
                return choices[at].action
            continue
        if answer:
            _say(f"'{answer[:40]}' is not one of the actions: give a number from 1 to "
                 f"{len(choices)} or a key in [ ] (? shows the position, ? N a card, w why "
                 f"a card is not offered, r resigns, q leaves)")


def _show_position(state: TableState, catalog: Catalog) -> None:
    _say("")
    if state.view is not None:  # (a decision always has one: the model checks it)
        for line in view_lines(state.view.model_dump(by_alias=True), PlayerWords(catalog)):
            _say(f"  {line}")
    _say(f"your decision: {state.decision}")
    for line in asking.choice_lines([(choice.group, choice.key or str(number), choice.text + (
            f" - {choice.summary}" if choice.summary else ""))
            for number, choice in enumerate(state.choices, start=1)]):
        _say(f"  {line}")


def _show_card(choices: list[Choice], asked: str, catalog: Catalog) -> None:
    at = asking.chosen(asked, [choice.key for choice in choices])
    if at is None:
        _say(f"? N shows the card of action N (1 to {len(choices)}), or ? KEY")
        return
    record = choices[at].record
    entry = catalog.entries.get(record) if record else None
    if entry is None:
        _say(f"action {at + 1} names no card")
        return
    for line in face_text(face(entry, catalog), max(text_width() - 2, 40)):
        _say(f"  {line}")


# -- the keyboard and the wait --------------------------------------------------------------
class Keyboard:
    """The lines the person types, read by a thread of its own into `inbox`. A wait for the
    other seat reads the same inbox, so a `q` typed while waiting is read at once."""

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
        """What comes next: (LINE, text), (LINE, None) once the keyboard is closed and all
        it sent is read, or (MOVED, error or None). Ctrl-C interrupts the wait for it."""
        while True:
            try:
                return self.inbox.get(timeout=0.25)
            except queue.Empty:
                if self.closed:
                    return LINE, None


def _typed_lines(stream: IO[str]) -> Iterator[str]:
    """The lines of `stream`: read from its file descriptor where it has one (a thread
    blocked in a buffered read would hold the stream's lock when the command exits)."""
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
    """Until the table changes past `version`: the long poll runs in a thread of its own
    while the keyboard is read, so `q` (or Ctrl-C) leaves at once."""

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
    """Leave the table (the seat's link brings its player back)."""
    console.print("")
    _say("you left the table; your seat's link brings you back")
    raise typer.Exit(EXIT_LEFT)


def register(app: typer.Typer) -> None:
    app.command("join")(join)

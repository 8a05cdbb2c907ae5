"""`deckbuilder join LINK`: sit at a web table for two people from the terminal.

The friend who made the table (`deckbuilder serve`, /friends) sends a seat's link; this
command plays that seat through the table API (`app.table_client`): the position as the seat
sees it, the numbered actions with their cards' costs and firepower, a prompt, and while the
other person thinks, a wait that ends when he has moved.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.table_client import Refused, TableClient
from deckbuilder.app.table_words import PlayerWords, worded_line
from deckbuilder.card_face import face, face_text
from deckbuilder.commands.card_detail import text_width
from deckbuilder.commands.common import EXIT_OK, console, guarded, safe
from deckbuilder.sim.session import Event
from deckbuilder.sim.session_view import view_lines

#: The exit code of a table left before its end (the seat can come back by its link).
EXIT_LEFT = 130
PROMPT_END = "> "


def _say(text: str) -> None:
    console.print(safe(text), markup=False, highlight=False)


def join(
    link: Annotated[str, typer.Argument(
        metavar="LINK", show_default=False,
        help="the seat's link the table's page shows (http://HOST:PORT/friends/TOKEN)")],
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="leave out the account of the game, not the position")] = False,
) -> None:
    """Sit at a web table for two people by its link, and play that seat in the terminal.

    At each of your decisions: the position as you see it, the actions numbered, a prompt (a
    number; ? shows the position again, ? N the card of action N, r resigns, q leaves: come
    back with the same link). While the other person decides, it waits for his move.
    """
    raise typer.Exit(guarded(_join)(link, quiet))


def _join(link: str, quiet: bool) -> int:
    client = TableClient(link)
    catalog = project_catalog()
    state = client.join()
    if state.get("seat") is None:
        _say("this is a spectator's link: it only watches (open it in the web app)")
    _say(str(state.get("heading", "")))
    _say(f"you play {state.get('seat')}: answer with the number of an action; ? shows the "
         "position again, ? N the card of action N, r resigns, q leaves (the same link "
         "brings you back)")
    shown = 0  # events already printed
    while True:
        shown = _show_log(state, shown, quiet)
        if state["over"]:
            _say(f"result: {state.get('outcome') or state.get('ended')}")
            return EXIT_OK
        if not state["your_turn"]:
            _say(f"waiting for {state.get('to_move') or 'the other seat'} ...")
            client.wait(int(state["version"]))
            state = client.state(shown)
            continue
        answer = _ask(state, catalog)
        if isinstance(answer, str):  # "resign"
            state = client.resign()
            continue
        try:
            state = client.act(int(state["step"]), answer)
        except Refused as refused:
            _say(f"the table says: {refused}")
            if refused.state is None:
                raise
            state = client.state(shown)


def _show_log(state: dict[str, Any], shown: int, quiet: bool) -> int:
    """Print the events of `state` not printed yet; how many are printed now."""
    start = int(state.get("log_start", 0))
    for offset, entry in enumerate(state.get("log", [])):
        if start + offset < shown or quiet:
            continue
        event = Event(entry.get("index"), entry.get("player"), entry.get("action"),
                      tuple(entry.get("lines", ())), int(entry.get("turn", 0)))
        for line in event.text_lines():
            _say(worded_line(line))
    return max(shown, int(state.get("log_next", shown)))


def _ask(state: dict[str, Any], catalog: Any) -> int | str:
    """The position, the actions and the prompt, until a number (an action), "resign"."""
    choices = state["choices"]
    _show_position(state, catalog)
    prompt = f"{state['seat']} [1-{len(choices)}, ? r q]{PROMPT_END}"
    while True:
        answer = _read(prompt).strip().lower()
        if answer in ("q", "quit", "exit"):
            raise typer.Exit(EXIT_LEFT)
        if answer in ("r", "resign"):
            if _read("resign: the other side wins. Sure? [y/N]" + PROMPT_END).strip().lower() \
                    in ("y", "yes"):
                return "resign"
            continue
        if answer in ("?", "h", "help"):
            _show_position(state, catalog)
            continue
        if answer.startswith("?"):
            _show_card(choices, answer[1:].strip(), catalog)
            continue
        if answer.isascii() and answer.isdigit() and 1 <= int(answer[:6]) <= len(choices):
            return int(choices[int(answer) - 1]["action"])
        if answer:
            _say(f"'{answer[:40]}' is not one of the actions: give a number from 1 to "
                 f"{len(choices)} (? shows the position, ? N a card, r resigns, q leaves)")


def _show_position(state: dict[str, Any], catalog: Any) -> None:
    _say("")
    for line in view_lines(state["view"], PlayerWords(catalog)):
        _say(f"  {line}")
    _say(f"your decision: {state['decision']}")
    choices = state["choices"]
    width = len(str(len(choices)))
    for number, choice in enumerate(choices, start=1):
        summary = choice.get("summary") or ""
        _say(f"  {number:>{width}}. {choice['text']}" + (f" - {summary}" if summary else ""))


def _show_card(choices: list[dict[str, Any]], asked: str, catalog: Any) -> None:
    if not (asked.isascii() and asked.isdigit() and 1 <= int(asked[:6]) <= len(choices)):
        _say(f"? N shows the card of action N (1 to {len(choices)})")
        return
    record = choices[int(asked) - 1].get("record")
    entry = catalog.entries.get(record) if record else None
    if entry is None:
        _say(f"action {asked} names no card")
        return
    for line in face_text(face(entry, catalog), max(text_width() - 2, 40)):
        _say(f"  {line}")


def _read(prompt: str) -> str:
    console.print(safe(prompt), end="", markup=False)
    console.file.flush()
    try:
        line = input()
    except EOFError:
        console.print("")
        raise typer.Exit(EXIT_LEFT) from None
    except KeyboardInterrupt:
        console.print("")
        raise typer.Exit(EXIT_LEFT) from None
    return line


def register(app: typer.Typer) -> None:
    app.command("join")(join)

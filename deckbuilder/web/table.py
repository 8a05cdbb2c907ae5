"""The game table: play a bot in the browser, or watch two bots play, through `GameSession`
(what `play --human` drives). The page only receives what its seat may see; the record,
which holds every secret, is offered once the game is over.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.endings import outcome_sentence
from deckbuilder.app.json_values import json_object
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.records.session import Event, GameSession
from deckbuilder.sim.records.take_back import can_take_back, take_back
from deckbuilder.web.config import WebConfig, config_of
from deckbuilder.web.faces import linked_lines
from deckbuilder.web.kept import Kept, held_by
from deckbuilder.web.pages import fragment, offered_after_the_end, render
from deckbuilder.web.simulator import (
    SimulationInputError,
    bot_spec,
    number,
    page_choices,
)
from deckbuilder.web.table_form import form_game, form_setup
from deckbuilder.web.table_view import board_fragment, choice_row

#: Games kept in memory at once; the least recently used goes when a new one needs room.
MAX_SESSIONS = 32
#: A game nobody touched for this long is forgotten.
IDLE_SECONDS = 3600.0
#: Bot moves one "step" request may ask for while watching two bots.
MAX_STEPS = 200
WATCH = "watch"


@dataclass
class TableSession:
    """One game at the table: the session, the person's seat (None: two bots), the words."""

    id: str
    session: GameSession
    human: int | None
    heading: str
    seed: int
    catalog: Catalog  # the catalog the game was set up from: names, faces, summaries
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)

    @property
    def watching(self) -> bool:
        return self.human is None


def sessions_of(app: Starlette) -> Kept[TableSession]:
    """The app's games by id, bounded in number and expiring."""
    return held_by(app, "table_sessions", lambda: Kept[TableSession](MAX_SESSIONS, IDLE_SECONDS))


class TableError(DeckbuilderError):
    """A request the table refuses (a step while a person must decide ...)."""


class NoSuchGame(TableError):
    status = 404


# -- a new game ------------------------------------------------------------------------------
def new_session(config: WebConfig, form: Any) -> TableSession:
    """The form's game as `deckbuilder play [--human SIDE]` would set it up: the decks read
    and checked by the command's functions, then a `GameSession` at a new table."""
    from deckbuilder.sim.records.session import HUMAN

    name, game = form_game(form)
    sides = game.side_names
    seat_text = str(form.get("seat") or sides[0]).strip().lower()
    if seat_text not in (*sides, WATCH):
        raise SimulationInputError(f"unknown seat '{seat_text[:40]}'",
                                   fix=f"take {' or '.join(sides)}, or watch two bots")
    human = None if seat_text == WATCH else sides.index(seat_text)
    seed = number(form, "seed", secrets.randbelow(1_000_000), -10**18, 10**18)
    allow_illegal = str(form.get("allow_illegal") or "") in ("on", "true", "1")
    setup = form_setup(config, form, name, game, allow_illegal)
    seats = [HUMAN if player == human else bot_spec(str(form.get(f"bot{player}") or ""),
                                                    f"{sides[player]}'s bot")
             for player in (0, 1)]
    session = setup.session(seed, seats, "auto" if human is not None else None)
    session.advance(max_steps=0 if human is None else None)  # the bots move up to the person
    heading = setup.heading([", you" if seat == HUMAN else f", bot {seat}" for seat in seats],
                            seed)
    return TableSession(secrets.token_urlsafe(12), session, human, heading, seed, setup.catalog)


# -- what the page gets ----------------------------------------------------------------------
def table_state(entry: TableSession, events: Iterable[Event]) -> dict[str, Any]:
    """The board, the person's legal actions (only when it is his decision) and the new log
    lines (as text, and cut into pieces that name records), as the page's script puts them
    in place."""
    session = entry.session
    # the person's own view; watching bots, everything (no seat is a person's: nothing to hide)
    view = entry.session.view(entry.human)
    mine = entry.human is not None and session.waiting_for() == entry.human
    groups: dict[str, list[dict[str, object]]] = {}  # in the engine's order, grouped
    for choice in session.choices() if mine else []:
        groups.setdefault(choice.group, []).append(choice_row(choice, entry.catalog))
    over, record = session.is_over(), session.record
    # "mapache wins: the guardians are wiped out (after 23 turns)", "" before the end
    outcome = outcome_sentence(record.winner, record.termination, record.turns) if over else ""
    lines = [line for event in events for line in event.text_lines()]
    return {
        "session": entry.id,
        "board": board_fragment(view, entry.catalog, entry.watching, outcome),
        "actions": fragment("play_actions.html", groups=groups, over=over,
                            watching=entry.watching, decision=session.decision(),
                            waiting=not mine and not over, session_id=entry.id,
                            outcome=outcome, game=session.game,
                            can_take_back=entry.human is not None and can_take_back(session)),
        "log": lines,
        "log_segments": linked_lines(entry.catalog, session.game, lines),
        "game": session.game,
        "over": over,
        "outcome": outcome if over else None,
        "turn": view["turn"],
        # why the cards in hand not offered cannot be played (engine/why_not.py), as the board
        "not_offered": view.get("not_offered", []),
        "record": f"/api/play/{entry.id}/record.jsonl" if over else None,
    }


# -- routes ----------------------------------------------------------------------------------
def _entry(request: Request) -> TableSession:
    entry = sessions_of(request.app).get(request.path_params["session_id"])
    if entry is None:
        raise NoSuchGame("no game with that id (it ended long ago, or the server restarted)",
                         fix="start a new game at /play")
    return entry


async def play_page(request: Request) -> Response:
    choices = await asyncio.to_thread(page_choices, config_of(request))
    return render(request, "play.html", title="Play", choices=choices)


async def table_page(request: Request) -> Response:
    entry = _entry(request)
    state = await asyncio.to_thread(_snapshot, entry)
    # both are this module's own templates, rendered with every name escaped: markup
    return render(request, "play_table.html", title="Game table", state=state,
                  board=Markup(state["board"]), actions=Markup(state["actions"]),
                  heading=entry.heading, watching=entry.watching)


async def start_game(request: Request) -> Response:
    entry = sessions_of(request.app).put(await asyncio.to_thread(
        new_session, config_of(request), await request.form()))
    url = f"/play/{entry.id}"
    if "application/json" not in request.headers.get("accept", ""):
        return RedirectResponse(url, status_code=303)  # a form sent without the script
    return JSONResponse({"session": entry.id, "url": url})


async def _action_of(request: Request) -> object:
    if request.headers.get("content-type", "").startswith("application/json"):
        return json_object(await request.body(), TableError, 'send {"action": N}').get("action")
    return (await request.form()).get("action")


def _act(entry: TableSession, action: object) -> dict[str, object]:
    with entry.lock:
        if entry.human is None:
            raise TableError("two bots play this game: nobody takes actions",
                             fix="use Step or Auto-play")
        try:
            chosen = int(str(action).strip())
        except ValueError:
            raise TableError(f"action '{str(action)[:20]}' is not a number",
                             fix="click one of the action buttons") from None
        events = entry.session.act(chosen, entry.human)
        return table_state(entry, events)


async def act(request: Request) -> Response:
    entry = _entry(request)
    action = await _action_of(request)
    return JSONResponse(await asyncio.to_thread(_act, entry, action))


def _take_back(entry: TableSession) -> dict[str, object]:
    """The game played again without the person's last decision (sim/records/take_back.py); the
    whole log again, as the moves taken back leave it (`reset_log`)."""
    with entry.lock:
        if entry.human is None:
            raise TableError("two bots play this game: there is no move of yours to take back",
                             fix="use Step or Auto-play")
        take_back(entry.session, entry.catalog)
        return {**table_state(entry, entry.session.events(entry.human)), "reset_log": True}


async def take_back_move(request: Request) -> Response:
    return JSONResponse(await asyncio.to_thread(_take_back, _entry(request)))


def _step(entry: TableSession, steps: int) -> dict[str, object]:
    with entry.lock:
        if entry.human is not None:
            raise TableError("you play this game: the bot moves after your action",
                             fix="click one of your actions")
        return table_state(entry, entry.session.advance(max_steps=steps))


async def step(request: Request) -> Response:
    entry = _entry(request)
    steps = number(await request.form(), "steps", 1, 1, MAX_STEPS)
    return JSONResponse(await asyncio.to_thread(_step, entry, steps))


async def state(request: Request) -> Response:
    return JSONResponse(await asyncio.to_thread(_snapshot, _entry(request)))


def _snapshot(entry: TableSession) -> dict[str, Any]:
    """The whole table, the log from the start (a reload); waits for a bot that is thinking."""
    with entry.lock:
        return table_state(entry, entry.session.events(entry.human))


async def record(request: Request) -> Response:
    """The finished game as `deckbuilder play --record` writes it, for `deckbuilder replay`
    (never before the end: the record holds the opponent's hand and the deck order)."""
    entry = _entry(request)
    text = await asyncio.to_thread(_record_text, entry)
    if text is None:
        return offered_after_the_end(TableError, "the record", "the game is over", request)
    return Response(text, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="game-{entry.seed}.jsonl"'})


def _record_text(entry: TableSession) -> str | None:
    with entry.lock:
        return entry.session.record_jsonl() if entry.session.is_over() else None


ROUTES: list[BaseRoute] = [
    Route("/play", play_page, name="play"),
    Route("/play/{session_id:str}", table_page, name="table"),
    Route("/api/play", start_game, methods=["POST"], name="play_start"),
    Route("/api/play/{session_id:str}", state, name="play_state"),
    Route("/api/play/{session_id:str}/act", act, methods=["POST"], name="play_act"),
    Route("/api/play/{session_id:str}/step", step, methods=["POST"], name="play_step"),
    Route("/api/play/{session_id:str}/take-back", take_back_move, methods=["POST"],
          name="play_take_back"),
    Route("/api/play/{session_id:str}/record.jsonl", record, name="play_record"),
]

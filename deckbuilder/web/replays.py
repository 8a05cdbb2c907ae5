"""Replays to watch: a finished game's record (the bot table's, a friend table's, an upload,
a file of the deck folder) stepped through as either seat saw it, or everything, on the
table's own board. The same game opened again reuses its replay.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.endings import outcome_sentence
from deckbuilder.app.table_words import PlayerWords
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.sim.records.replay_steps import EVERYTHING_NAME, ReplaySteps
from deckbuilder.sim.records.session_view import view_lines
from deckbuilder.sim.records.transcript import GameRecord, parse_record, read_record
from deckbuilder.web.config import config_of, deck_files, resolve_deck_path
from deckbuilder.web.deck_files import named_as
from deckbuilder.web.faces import linked_lines, linked_segments, name_index
from deckbuilder.web.kept import Kept, held_by
from deckbuilder.web.pages import error_response, offered_after_the_end, render
from deckbuilder.web.table import sessions_of
from deckbuilder.web.table_view import board_fragment

#: Replays kept at once; the least recently used goes when a new one needs room.
MAX_REPLAYS = 16
#: A replay nobody looked at for this long is forgotten.
IDLE_SECONDS = 3600.0
#: The largest record the page takes (a game of 200 turns is some 30 KB).
MAX_UPLOAD_BYTES = 512 * 1024
#: The record files the replay page lists from the deck folder, and how many at most.
RECORD_SUFFIXES = (".jsonl",)
MOST_RECORDS_LISTED = 200
T = TypeVar("T")


class ReplayInputError(DeckbuilderError):
    """A record, step or viewer the replay pages refuse."""


class ReplayNotFound(ReplayInputError):
    status = 404


def _found(opened: T | None, what: str, why: str, fix: str) -> T:
    """`opened`, or the answer that there is no such WHAT open (WHY, as the fix says)."""
    if opened is None:
        raise ReplayNotFound(f"no {what} with that id ({why})", fix=fix)
    return opened


@dataclass
class Replay:
    """One opened record: its steps, where it came from, and the catalog that names cards."""

    id: str
    steps: ReplaySteps
    source: str
    catalog: Catalog
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)

    @property
    def record(self) -> GameRecord:
        return self.steps.record

    def heading(self) -> str:
        record = self.record
        sides = " against ".join(f"{name} ({record.bots.get(name, '?')})"
                                 for name in self.steps.names)
        return (f"{self.source}: seed {record.seed}, ruleset {record.ruleset}"
                + "".join(f", module {module}" for module in record.modules) + f"; {sides}")


class ReplayStore(Kept[Replay]):
    """The open replays by id, bounded in number and expiring; one per source key."""

    def __init__(self) -> None:
        super().__init__(MAX_REPLAYS, IDLE_SECONDS)
        self._keys: dict[Any, str] = {}  # a source's key -> its replay's id
        self._keys_lock = threading.Lock()

    def add(self, key: object, steps: ReplaySteps, source: str, catalog: Catalog) -> Replay:
        replay = self.put(Replay(secrets.token_urlsafe(12), steps, source, catalog))
        if key is not None:
            with self._keys_lock:
                self._keys = {k: rid for k, rid in self._keys.items() if rid in self}
                self._keys[key] = replay.id
        return replay

    def by_key(self, key: object) -> Replay | None:
        with self._keys_lock:
            found = self._keys.get(key)
        return None if found is None else self.get(found)


def store_of(app: Starlette) -> ReplayStore:
    return held_by(app, "replay_store", ReplayStore)


# -- opening a record -----------------------------------------------------------------------
def _open(request: Request, key: Any, source: str, load: Callable[[], GameRecord]) -> Replay:
    """The replay of `key` (opened before; None: never reused), or `load()`'s record opened
    now."""
    store = store_of(request.app)
    found = store.by_key(key)
    if found is not None:
        return found
    catalog = config_of(request).catalog()
    return store.add(key, ReplaySteps(load(), catalog), source, catalog)


async def _opened(request: Request, key: Any, source: str,
                  load: Callable[[], GameRecord]) -> Response:
    """`_open` in a thread, answered with the replay's address (a record it refuses: 400)."""
    replay = await asyncio.to_thread(_open, request, key, source, load)
    url = f"/replays/{replay.id}"
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse({"replay": replay.id, "url": url})
    return RedirectResponse(url, status_code=303)


def record_of_upload(data: bytes, filename: str) -> GameRecord:
    """An uploaded record, read as a file is (`parse_record`: JSON lines, bounded numbers,
    every field checked); its errors name the uploaded file."""
    shown = (PurePosixPath(filename.replace("\\", "/")).name or "upload.jsonl")[:80]
    if not data.strip():
        raise ReplayInputError("no record was sent", Location(shown),
                               "choose a .jsonl file written by `deckbuilder play --record`")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ReplayInputError(f"the record is {len(data):,} bytes; the limit is "
                               f"{MAX_UPLOAD_BYTES:,}", Location(shown),
                               "give a record written by `deckbuilder play --record`")
    return parse_record(data, shown)


# -- what the page gets ---------------------------------------------------------------------
def step_of(replay: Replay, text: str | None, turn_text: str | None = None) -> int:
    """The position a query names: `step` (0 to the last), or the first of `turn`."""
    steps = replay.steps
    if turn_text is not None and turn_text.strip():
        return steps.position_of_turn(_whole(turn_text, "turn"))
    if text is None or not text.strip():
        return 0
    return steps.checked(_whole(text, "step"))


def _whole(text: str, what: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.lstrip("-").isdigit() or len(text) > 9:
        raise ReplayInputError(f"{what} '{text[:20]}' is not a whole number",
                               fix=f"give the {what} as a number")
    return int(text)


def step_state(replay: Replay, position: int, viewer: int | None) -> dict[str, object]:
    """One step for the page: the view `viewer` had (`view`) and its board, what was done
    to reach it (as he could read it), and with everything open the whole position in words
    (the same view's lines, as the terminal draws them)."""
    steps = replay.steps
    record = replay.record
    # the last position says how the game ended: the game's own ending, or the table's (a
    # resignation, an abandoned table)
    outcome = outcome_sentence(record.winner, record.termination, record.turns) \
        if position == steps.last else ""
    with replay.lock:
        seen = steps.at(position, viewer)
        board = board_fragment(seen.view, replay.catalog, True, outcome)
        whole = view_lines(seen.view, PlayerWords(replay.catalog)) if viewer is None else []
    return {"replay": replay.id, **seen.to_json(), "board": board,
            "whole": linked_lines(replay.catalog, steps.game, whole)}


def log_state(replay: Replay, viewer: int | None) -> dict[str, object]:
    """The game's whole log as `viewer` could read it, each line with its step (-1: the
    set-up): the page shows the lines of the steps before the one shown."""
    names = name_index(replay.catalog, replay.steps.game)
    with replay.lock:
        events = replay.steps.log(viewer)
    lines = [{"step": -1 if event.index is None else event.index, "text": line,
              "segments": linked_segments(line, names)}
             for event in events for line in event.text_lines()]
    return {"replay": replay.id,
            "viewer": EVERYTHING_NAME if viewer is None else replay.steps.names[viewer],
            "lines": lines}


def turn_choices(replay: Replay) -> list[dict[str, object]]:
    steps = replay.steps
    return [{"turn": turn, "step": steps.position_of_turn(turn),
             "label": "before the first turn" if turn == 0 else f"turn {turn}"}
            for turn in steps.turn_numbers()]


# -- routes ---------------------------------------------------------------------------------
async def replays_page(request: Request) -> Response:
    # the `.jsonl` files of the deck folder (three folders deep, hidden ones left out)
    files = await asyncio.to_thread(deck_files, config_of(request), RECORD_SUFFIXES)
    return render(request, "replays.html", title="Replays", files=files[:MOST_RECORDS_LISTED],
                  limit=MAX_UPLOAD_BYTES)


async def upload(request: Request) -> Response:
    """A record sent by the page: a form's `record` file, or the file as the request body."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=4)
        sent = form.get("record")
        if sent is None or isinstance(sent, str):
            raise ReplayInputError("no record file in the form",
                                   fix="choose a .jsonl file written by "
                                       "`deckbuilder play --record`")
        data = await sent.read(MAX_UPLOAD_BYTES + 1)
        filename = sent.filename or "upload.jsonl"
    else:
        data = await request.body()
        filename = request.headers.get("x-filename", "upload.jsonl")
    record = await asyncio.to_thread(record_of_upload, data, filename)
    return await _opened(request, None, f"uploaded {record.source.path}" if record.source
                         else "uploaded record", lambda: record)


async def from_table(request: Request) -> Response:
    """The replay of a finished game at the table (the record is offered only at the end)."""
    entry = _found(sessions_of(request.app).get(request.path_params["session_id"]), "game",
                   "it ended long ago, or the server restarted",
                   "download a game's record at its end, then open it at /replays")
    with entry.lock:
        session = entry.session
        if not session.is_over():
            return offered_after_the_end(ReplayInputError, "the replay", "the game is over",
                                         request)
        record = dataclasses.replace(session.record, steps=list(session.record.steps))
    return await _opened(request, ("table", entry.id, len(record.steps)),
                         "a game at the table", lambda: record)


async def from_friend_table(request: Request) -> Response:
    """The replay of a finished table for two people, by any of its links (a seat's or the
    spectator's): offered once the table has ended, as its record is."""
    from deckbuilder.web.friends import store_of as friend_tables
    from deckbuilder.web.friends.routes import record_text

    try:
        table, _ = await asyncio.to_thread(friend_tables(request.app).find,
                                           request.path_params["token"])
    except DeckbuilderError as error:
        return error_response(error, 404, request)
    with table.lock:
        text = record_text(table)
    if text is None:
        return offered_after_the_end(ReplayInputError, "the replay", "the table has ended",
                                     request)
    return await _opened(
        request, ("friends", table.id, table.step), "a table for two people",
        lambda: record_of_upload(text.encode("utf-8"), f"table-{table.id}.jsonl"))


async def from_file(request: Request) -> Response:
    """A record file of the deck folder (`?path=games/first.jsonl`)."""
    config = config_of(request)
    name = request.query_params.get("path", "")
    path = resolve_deck_path(config, name, RECORD_SUFFIXES, "name a .jsonl record inside the "
                             "deck folder, e.g. games/first.jsonl")
    try:
        info = await asyncio.to_thread(os.stat, path)
    except FileNotFoundError:
        raise ReplayNotFound("no such record file", Location(name[:80]),
                             "pick one of the files /replays lists") from None
    return await _opened(request, ("file", str(path), info.st_mtime_ns, info.st_size),
                         f"file {name}", lambda: _read_named(path, name))


def _read_named(path: Path, name: str) -> GameRecord:
    """`read_record`, its errors naming the file as the deck folder knows it."""
    with named_as(name, path):
        return read_record(path)


def _replay_route(handler: Callable[[Request, Replay, int | None], Awaitable[Response]],
                  ) -> Callable[[Request], Awaitable[Response]]:
    """A route of one open replay, handed it and the viewer asked for (`?viewer=`)."""
    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        replay = _found(store_of(request.app).get(request.path_params["replay_id"]), "replay",
                        "it was closed after an hour unseen, or the server restarted",
                        "open the record again at /replays")
        return await handler(request, replay,
                             replay.steps.viewer_named(request.query_params.get("viewer")))

    return route


@_replay_route
async def viewer_page(request: Request, replay: Replay, viewer: int | None) -> Response:
    position = step_of(replay, request.query_params.get("step"), request.query_params.get("turn"))
    state = await asyncio.to_thread(step_state, replay, position, viewer)
    log = await asyncio.to_thread(log_state, replay, viewer)
    steps = replay.steps
    # the board is this app's own template, rendered with every name escaped: markup
    return render(request, "replay.html", title="Replay", replay=replay, state=state,
                  board=Markup(state["board"]), log=log, turns=turn_choices(replay),
                  viewers=[*steps.names, EVERYTHING_NAME], heading=replay.heading(),
                  outcome=outcome_sentence(replay.record.winner, replay.record.termination,
                                           replay.record.turns))


@_replay_route
async def step_api(request: Request, replay: Replay, viewer: int | None) -> Response:
    position = step_of(replay, request.query_params.get("step"), request.query_params.get("turn"))
    return JSONResponse(await asyncio.to_thread(step_state, replay, position, viewer))


@_replay_route
async def log_api(request: Request, replay: Replay, viewer: int | None) -> Response:
    return JSONResponse(await asyncio.to_thread(log_state, replay, viewer))


ROUTES: list[BaseRoute] = [
    Route("/replays", replays_page, name="replays"),
    Route("/replays/file", from_file, name="replay_file"),
    Route("/replays/play/{session_id:str}", from_table, name="replay_table"),
    Route("/replays/friends/{token:str}", from_friend_table, name="replay_friend_table"),
    Route("/replays/{replay_id:str}", viewer_page, name="replay"),
    Route("/api/replays", upload, methods=["POST"], name="replay_upload"),
    Route("/api/replays/{replay_id:str}/step", step_api, name="replay_step"),
    Route("/api/replays/{replay_id:str}/log", log_api, name="replay_log"),
]

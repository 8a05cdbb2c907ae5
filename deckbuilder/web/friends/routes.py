"""The friend tables' pages and JSON API (docs/reference/table-api.md): every answer is one
role's state (`seats.seat_state`), and its stream of Server-Sent Events sends it again at every
change. An invitation's page takes the seat only by a POST, so that a chat app's preview of the
link takes nothing.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, NamedTuple

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from deckbuilder.app.json_values import json_object
from deckbuilder.errors import DeckbuilderError
from deckbuilder.web.config import WebConfig, config_of
from deckbuilder.web.friends.clients import client_of, remember_client
from deckbuilder.web.friends.seats import seat_state
from deckbuilder.web.friends.setup import FormOfJson, new_table
from deckbuilder.web.friends.tables import (
    SPECTATOR,
    FriendTable,
    FriendTableError,
    InvitationLink,
    SeatTaken,
    TableStore,
    ended_record,
)
from deckbuilder.web.kept import held_by
from deckbuilder.web.pages import (
    error_line,
    error_response,
    offered_after_the_end,
    render,
    wants_json,
)
from deckbuilder.web.trust import LOOPBACK_NAMES, host_name

#: The most events one `?max_events=` asks for (a long poll asks for 1).
MOST_EVENTS = 1000
#: How often an event stream looks at the table, and how often a quiet one says it is alive.
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 10.0
#: A stream ends after this long; EventSource reconnects at once (the `retry:` delay).
STREAM_SECONDS = 300.0
RETRY_MS = 1500


# -- the store of this app -------------------------------------------------------------------
def store_of(app: Starlette) -> TableStore:
    """The app's tables (`WebConfig.tables_folder`, else $DECKBUILDER_HOME/tables), read
    when first asked for (at start: a restarted server knows its links at once)."""
    from deckbuilder.paths import user_home

    config: WebConfig = app.state.config
    return held_by(app, "friend_tables", lambda: TableStore(
        config.tables_folder or user_home() / "tables", config.catalog, config.table_idle_seconds,
        retention_seconds=config.table_retention_seconds,
        tables_per_client=config.tables_per_client))


# -- reading requests ------------------------------------------------------------------------
class _Link(NamedTuple):
    """What a request's table link opens: the store, the table, the link's role and token."""
    store: TableStore
    table: FriendTable
    role: str
    token: str


def _found(request: Request) -> _Link:
    store, token = store_of(request.app), request.path_params["token"]
    return _Link(store, *store.find(token), token)


def _at_table(handler: Callable[[Request, _Link], Awaitable[Response]],
              ) -> Callable[[Request], Awaitable[Response]]:
    """A route of a table's link: the link found first, and a refusal in one line."""
    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        try:
            return await handler(request, await asyncio.to_thread(_found, request))
        except DeckbuilderError as error:
            return _refusal(request, error)

    return route


async def _json_body(request: Request) -> dict[str, Any]:
    if not request.headers.get("content-type", "").startswith("application/json"):
        form = await request.form()
        return {key: form.get(key) for key in form}
    return json_object(await request.body(), FriendTableError,
                       'send a JSON object such as {"step": N, "action": A}')


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 10 else None


def _since(request: Request) -> int:
    return _count(request.headers.get("last-event-id") or request.query_params.get("since")
                  or "") or 0


def _snapshot(request: Request, link: _Link, since: int | None = None,
              html: bool | None = None) -> dict[str, Any]:
    """The role's state, with the links it may pass on: for the creator the invitation while
    nobody has taken it (never the seat's secret), for a seat the spectator's link."""
    store, table, role, token = link
    since = _since(request) if since is None else since
    html = request.query_params.get("html") in ("1", "true") if html is None else html
    with table.lock:
        state = seat_state(table, role, since, store.clock(), f"/api/tables/{token}", html,
                           config_of(request).catalog())
        invitation = store.derived_token(table, "invitation")
        if (role == table.header.get("creator") and table.invited is not None
                and invitation is not None and table.invited not in table.joined
                and not state["over"]):
            state["invitations"] = {table.invited: _url(request, "friends", invitation)}
        watch = store.derived_token(table, "spectator")
        if role != SPECTATOR and watch is not None:
            state["watch"] = _url(request, "friends", watch)
    return state


def _url(request: Request, where: str, token: str) -> str:
    """A link's page ("friends") or API ("api/tables") address on this server."""
    return f"{str(request.base_url).rstrip('/')}/{where}/{token}"


def _refusal(request: Request, error: DeckbuilderError) -> Response:
    """The error in one line; an invitation's names the spectator's link as `watch`."""
    if isinstance(error, InvitationLink) and error.watch and wants_json(request):
        return JSONResponse({"error": error_line(error),
                             "watch": _url(request, "friends", error.watch)},
                            status_code=error.status)
    return error_response(error, request=request)


# -- pages -----------------------------------------------------------------------------------
def network_note(request: Request) -> dict[str, Any]:
    """What it takes to let a friend on another computer in, for the pages to say."""
    config = config_of(request)
    host = host_name(request.headers.get("host", "127.0.0.1"))
    return {"loopback": host in LOOPBACK_NAMES, "host": host, "port": config.port or 8765}


async def new_table_page(request: Request) -> Response:
    from deckbuilder.web.simulator import page_choices

    config = config_of(request)
    choices = await asyncio.to_thread(page_choices, config)
    return remember_client(request, render(
        request, "friend_new.html", title="Play a friend", choices=choices,
        allow_illegal=config.allow_illegal, network=network_note(request)))


async def table_page(request: Request) -> Response:
    """A seat's or the spectator's table; an invitation's page (`invitation_page`)."""
    try:
        link = await asyncio.to_thread(_found, request)
        await asyncio.to_thread(link.store.join, link.table, link.role)
        state = await asyncio.to_thread(_snapshot, request, link, 0, True)
    except InvitationLink as error:
        return await invitation_page(request, error)
    html = state["html"]
    # the board and actions are this package's and the table's own templates, escaped
    return remember_client(request, render(
        request, "friend_table.html", title="Table", state=state,
        board=Markup(html["board"]), actions=Markup(html["actions"]), token=link.token,
        seat_link=_url(request, "friends", link.token),
        network=network_note(request), spectator=link.role == SPECTATOR))


async def invitation_page(request: Request, error: InvitationLink) -> Response:
    """An invitation: a button that takes the seat, or, once it is spent, where to watch."""
    store = store_of(request.app)
    token = request.path_params["token"]
    table, role = await asyncio.to_thread(store.find, token, True)
    watch = _url(request, "friends", error.watch) if error.watch else None
    taken = isinstance(error, SeatTaken)
    return remember_client(request, render(
        request, "friend_invitation.html", status_code=error.status if taken else 200,
        title="Invitation", heading=table.header.get("heading", ""), role=role, token=token,
        watch=watch, taken=taken, message=error_line(error),
        commitment=(table.deal or {}).get("commitment")))


async def take_seat(request: Request) -> Response:
    """The invitation page's button: the seat taken, and its own page (its secret's address)."""
    store = store_of(request.app)
    token = request.path_params["token"]
    try:
        _, _, secret = await asyncio.to_thread(store.take, token, client_of(request))
    except InvitationLink as error:
        return await invitation_page(request, error)
    return remember_client(request, RedirectResponse(f"/friends/{secret or token}",
                                                     status_code=303))


# -- the API ---------------------------------------------------------------------------------
async def create_table(request: Request) -> Response:
    """A new table; the creator's seat link, the invitation and the spectator's."""
    config = config_of(request)
    if request.headers.get("content-type", "").startswith("application/json"):
        form: object = FormOfJson(await _json_body(request))
    else:
        form = await request.form()
    made = await asyncio.to_thread(new_table, config, form)
    store = store_of(request.app)
    await asyncio.to_thread(store.sweep)
    table, tokens = await asyncio.to_thread(
        store.create, made.session, made.creator, made.heading, made.deck_names,
        request.client.host if request.client else None)
    url = f"/friends/{tokens[made.creator]}"
    if "application/json" not in request.headers.get("accept", "") and not isinstance(
            form, FormOfJson):
        # a form sent without the script
        return remember_client(request, RedirectResponse(url, status_code=303))
    return remember_client(request, JSONResponse({
        "table": table.id, "seat": made.creator, "token": tokens[made.creator], "url": url,
        "links": {role: _url(request, "friends", token) for role, token in tokens.items()},
        "tokens": tokens, "invitation": table.invited,
        "commitment": (table.deal or {}).get("commitment"),
        "api": {role: _url(request, "api/tables", token) for role, token in tokens.items()},
    }, status_code=201))


@_at_table
async def table_state(request: Request, link: _Link) -> Response:
    """The link's state (`?since=N`: the log from event N on; `?html=1`: the page's pieces)."""
    link.store.touch(link.table, link.role)
    return JSONResponse(await asyncio.to_thread(_snapshot, request, link))


async def join_table(request: Request) -> Response:
    """Take the link's seat (a client's first call); an invitation is exchanged for the
    seat's own secret, sent in this answer only."""
    store = store_of(request.app)
    try:
        table, role, secret = await asyncio.to_thread(
            store.take, request.path_params["token"], client_of(request))
        link = _Link(store, table, role, secret or request.path_params["token"])
        state = await asyncio.to_thread(_snapshot, request, link, 0)
    except DeckbuilderError as error:
        return _refusal(request, error)
    if secret is not None:
        state.update(seat_token=secret, seat_url=_url(request, "friends", secret),
                     seat_api=_url(request, "api/tables", secret))
    return JSONResponse(state)


@_at_table
async def act(request: Request, link: _Link) -> Response:
    """`{"step": N, "action": A}`: the seat's answer to the decision of step N."""
    try:
        body = await _json_body(request)
        moved = await asyncio.to_thread(link.store.act, link.table, link.role, body.get("step"),
                                        body.get("action"), client_of(request))
    except DeckbuilderError as error:
        state = await asyncio.to_thread(_snapshot, request, link)
        return JSONResponse({"error": error_line(error), "state": state},
                            status_code=int(getattr(error, "status", 400)))
    state = await asyncio.to_thread(_snapshot, request, link)
    state["repeated"] = not moved
    return JSONResponse(state)


@_at_table
async def resign(request: Request, link: _Link) -> Response:
    await asyncio.to_thread(link.store.resign, link.table, link.role, client_of(request))
    return JSONResponse(await asyncio.to_thread(_snapshot, request, link))


@_at_table
async def events(request: Request, link: _Link) -> Response:
    """The link's state again at every change of the table, as Server-Sent Events."""
    text = request.query_params.get("max_events", "")
    max_events = min(int(text), MOST_EVENTS) if text.isdigit() and int(text) > 0 else None
    snapshot = functools.partial(_snapshot, request, link)
    after = _count(request.query_params.get("after", ""))
    return StreamingResponse(
        table_events(link.store, link.table, link.role, snapshot, _since(request), max_events,
                     after),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def table_events(store: TableStore, table: FriendTable, role: str,
                       snapshot: Callable[[int], dict[str, Any]], since: int,
                       max_events: int | None, after: int | None = None
                       ) -> AsyncIterator[str]:
    """One listener's stream until the table ends, `max_events` states, or `STREAM_SECONDS`:
    `snapshot(since)` is its state with the log from event `since` on (in a thread: an action
    may hold the table's lock); with `after` (a version it has), the first state waits for a
    change past it. A state's `id:` is the log's length, so a reconnecting browser
    (`Last-Event-ID`) gets only what it missed; a comment keeps proxies from closing a quiet
    stream, and listening keeps the seat at the table."""
    yield f"retry: {RETRY_MS}\n\n"
    sent_mark: tuple[object, ...] | None = None
    if after is not None:  # a long poll: what the listener has counts as sent
        now = store.clock()
        sent_mark = (after, *(table.present(side, now) for side in table.sides))
    sent = 0
    started = beat = time.monotonic()
    while time.monotonic() - started < STREAM_SECONDS:
        store.touch(table, role)
        now = store.clock()
        mark = (table.version, *(table.present(side, now) for side in table.sides))
        if mark != sent_mark:  # a change at the table, or a seat came or went
            state = await asyncio.to_thread(snapshot, since)
            sent_mark, since = mark, state["log_next"]
            yield f"id: {since}\nevent: state\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"
            sent += 1
            beat = time.monotonic()
            if state["over"] or (max_events is not None and sent >= max_events):
                return
        elif time.monotonic() - beat > HEARTBEAT_SECONDS:
            beat = time.monotonic()
            yield ": at the table\n\n"
        await asyncio.sleep(POLL_SECONDS)


@_at_table
async def record(request: Request, link: _Link) -> Response:
    """The game as `deckbuilder play --record` writes it, once the table has ended."""
    with link.table.lock:
        text = record_text(link.table)
    if text is None:
        return offered_after_the_end(FriendTableError, "the record", "the table has ended",
                                     request)
    return Response(text, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="table-{link.table.id}.jsonl"'})


def record_text(table: FriendTable) -> str | None:
    """The record's JSON lines once the table has ended (`tables.ended_record`)."""
    record = ended_record(table)
    return None if record is None else record.to_jsonl()


ROUTES: list[BaseRoute] = [
    Route("/friends", new_table_page, name="friends"),
    Route("/friends/{token:str}", table_page, name="friend_table"),
    Route("/friends/{token:str}", take_seat, methods=["POST"], name="friend_take_seat"),
    Route("/api/tables", create_table, methods=["POST"], name="tables_create"),
    Route("/api/tables/{token:str}", table_state, name="tables_state"),
    Route("/api/tables/{token:str}/join", join_table, methods=["POST"], name="tables_join"),
    Route("/api/tables/{token:str}/act", act, methods=["POST"], name="tables_act"),
    Route("/api/tables/{token:str}/resign", resign, methods=["POST"], name="tables_resign"),
    Route("/api/tables/{token:str}/events", events, name="tables_events"),
    Route("/api/tables/{token:str}/record.jsonl", record, name="tables_record"),
]

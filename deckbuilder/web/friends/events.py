"""A table's changes as Server-Sent Events: each link's page (or a bot) gets its own state
again whenever the table changes (a move, a seat joined, came or went).

Each state's `id:` is the number of log events the listener has, so a reconnecting browser
(`Last-Event-ID`) is sent only the log it missed. A comment every few seconds keeps proxies
from closing a quiet stream; listening keeps the seat "at the table".
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from deckbuilder.web.friends.tables import FriendTable, TableStore

#: How often the stream looks at the table, and how often a quiet one says it is alive.
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 10.0
#: A stream ends after this long; EventSource reconnects at once (the `retry:` delay).
STREAM_SECONDS = 300.0
RETRY_MS = 1500


async def table_events(store: TableStore, table: FriendTable, role: str,
                       snapshot: Callable[[int], dict[str, Any]], since: int,
                       max_events: int | None, after: int | None = None
                       ) -> AsyncIterator[str]:
    """The stream of one listener until the table ends, `max_events` states, or
    `STREAM_SECONDS`: `snapshot(since)` is its state with the log from event `since` on (in a
    thread: an action may hold the table's lock); with `after` (a version the listener has),
    the first state waits for a change past it."""
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

"""A client of the web app's table API (docs/reference/table-api.md): join a seat by its
link, read the seat's state, act, and wait for the other seat. `deckbuilder join URL` plays
through it in the terminal; a script may use it too.

Only the standard library (urllib): the command line needs no web extra to join a table.
Every failure is one `TableClientError` line: what happened and what to do.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from deckbuilder.errors import DeckbuilderError

#: How long one long poll may wait for the other seat (the server ends it sooner).
WAIT_SECONDS = 330.0
#: How long an ordinary request may take.
REQUEST_SECONDS = 30.0
#: The most bytes an answer may have (a state is a few tens of KB).
MOST_BYTES = 8_000_000


class TableClientError(DeckbuilderError):
    """The table could not be reached, or it refused a request."""


class Refused(TableClientError):
    """The table answered with a refusal (`status`), and the table's state as it is now."""

    def __init__(self, message: str, status: int, state: dict[str, Any] | None) -> None:
        super().__init__(message, fix="look at the table again")
        self.status = status
        self.state = state


def table_api(link: str) -> str:
    """The API address of a table link: `http://HOST:PORT/friends/TOKEN` (the page) or
    `.../api/tables/TOKEN` (the API) -> `http://HOST:PORT/api/tables/TOKEN`.

    >>> table_api("http://127.0.0.1:8765/friends/abc_DEF-1")
    'http://127.0.0.1:8765/api/tables/abc_DEF-1'
    """
    parts = urllib.parse.urlsplit(link.strip())
    pieces = [piece for piece in parts.path.split("/") if piece]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(pieces) < 2 \
            or pieces[-2] not in ("friends", "tables") \
            or not all(c.isalnum() or c in "-_" for c in pieces[-1]):
        shown = link if len(link) <= 80 and link.isprintable() else repr(link[:80])
        raise TableClientError(f"'{shown}' is not a table link",
                               fix="give the link the table's page shows, "
                                   "e.g. http://127.0.0.1:8765/friends/TOKEN")
    return f"{parts.scheme}://{parts.netloc}/api/tables/{pieces[-1]}"


class TableClient:
    """One seat (or a spectator) of one table, by its link."""

    def __init__(self, link: str) -> None:
        self.api = table_api(link)

    def join(self) -> dict[str, Any]:
        """Take the seat; the state."""
        return self._call("/join", {})

    def state(self, since: int = 0) -> dict[str, Any]:
        """The seat's state, with the log from event `since` on."""
        return self._call(f"?since={since}")

    def act(self, step: int, action: int) -> dict[str, Any]:
        """Answer the decision of `step` with `action`; the new state. A refusal
        (`Refused`) carries the table's state as it is now."""
        return self._call("/act", {"step": step, "action": action})

    def resign(self) -> dict[str, Any]:
        return self._call("/resign", {})

    def wait(self, version: int) -> None:
        """Return when the table has changed past `version` (or the server ended the wait:
        look again either way)."""
        self._call(f"/events?max_events=1&after={version}", raw=True, timeout=WAIT_SECONDS)

    def _call(self, path: str, body: dict[str, Any] | None = None, *, raw: bool = False,
              timeout: float = REQUEST_SECONDS) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, headers={
            "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                text = answer.read(MOST_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise TableClientError(f"cannot reach the table at {self.api}: {reason}",
                                   fix="check the link and that the server is running") \
                from None
        if raw:
            return {}
        if len(text) > MOST_BYTES:
            raise TableClientError("the table's answer is too large", fix="check the link")
        return _json_object(text)


def _refusal(error: urllib.error.HTTPError) -> TableClientError:
    try:
        answer = _json_object(error.read(MOST_BYTES))
    except TableClientError:
        answer = {}
    message = str(answer.get("error") or f"the table answered {error.code} {error.reason}")
    state = answer.get("state")
    return Refused(message, error.code, state if isinstance(state, dict) else None)


def _json_object(text: bytes) -> dict[str, Any]:
    try:
        value = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TableClientError("the table's answer is not JSON",
                               fix="check that the link is a deckbuilder table's") from None
    if not isinstance(value, dict):
        raise TableClientError("the table's answer is not a JSON object",
                               fix="check that the link is a deckbuilder table's")
    return value

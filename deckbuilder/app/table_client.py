"""A client of the web app's table API (docs/reference/table-api.md), for `deckbuilder join`.
A link may name any server, so every answer is untrusted input: read with bounds (size, time,
no redirects) and checked against `app.table_answers` before use. Every request names this
process (`CLIENT_HEADER`), so the table can tell both seats when a seat is played from
somewhere new. Only the standard library: joining needs no web extra.
"""

from __future__ import annotations

import http.client
import json
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping

from deckbuilder.app.table_answers import (
    TOKEN_PATTERN,
    AnswerError,
    Refusal,
    TableState,
    decode_answer,
    read_answer,
)
from deckbuilder.errors import DeckbuilderError

#: How long one long poll may wait for the other seat (the server ends it sooner).
WAIT_SECONDS = 330.0
#: How long an ordinary request may take.
REQUEST_SECONDS = 30.0
#: The most bytes an answer may have (a long game's whole log is a few MB).
MOST_BYTES = 8_000_000
#: The header that names this process to the table, the same for the whole game.
CLIENT_HEADER = "X-Deckbuilder-Client"
CLIENT_ID = secrets.token_urlsafe(24)
_NOT_A_TABLE = "check that the link is a deckbuilder table's"


class TableClientError(DeckbuilderError):
    """The table could not be reached, or it refused a request."""


class Refused(TableClientError):
    """A refusal, the table's state now and, for a seat that is taken, the link to watch."""

    def __init__(self, message: str, status: int, state: TableState | None,
                 watch: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.state = state
        self.watch = watch


def _shown(text: str, most: int = 80) -> str:
    return text if len(text) <= most and text.isprintable() else repr(text[:most])


def table_api(link: str) -> str:
    """The API address of a table link (its page's or its API's).

    >>> table_api("http://127.0.0.1:8765/friends/abc_DEF-1")
    'http://127.0.0.1:8765/api/tables/abc_DEF-1'
    """
    parts = urllib.parse.urlsplit(link.strip())
    pieces = [piece for piece in parts.path.split("/") if piece]
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok \
            or "@" in parts.netloc or len(pieces) < 2 \
            or pieces[-2] not in ("friends", "tables") \
            or not re.fullmatch(TOKEN_PATTERN, pieces[-1]):
        raise TableClientError(f"'{_shown(link)}' is not a table link",
                               fix="give the link the table's page shows, "
                                   "e.g. http://127.0.0.1:8765/friends/TOKEN")
    return f"{parts.scheme}://{parts.netloc}/api/tables/{pieces[-1]}"


def _server_of(api: str) -> str:
    parts = urllib.parse.urlsplit(api)
    return f"{parts.scheme}://{parts.netloc}"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A table's API never redirects: a redirect is a refusal, not followed."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


class TableClient:
    """One seat (or a spectator) of one table, by its link."""

    def __init__(self, link: str) -> None:
        self.api = table_api(link)
        self.server = _server_of(self.api)
        self.resume_link: str | None = None

    def join(self) -> TableState:
        """Take the seat, exchanging an invitation for the seat's own secret; its links are built
        from this link's server, not the answer, so no answer sends the seat elsewhere."""
        value = self._answer("/join", {})
        token = value.get("seat_token") if isinstance(value, dict) else None
        if isinstance(token, str) and re.fullmatch(TOKEN_PATTERN, token) \
                and not self.api.endswith(f"/{token}"):  # (not a token: the model says so)
            self.api = f"{self.server}/api/tables/{token}"
            self.resume_link = f"{self.server}/friends/{token}"
        try:
            return read_answer(TableState, value)
        except AnswerError as error:
            kept = f"; your seat's own link: {self.resume_link}" if self.resume_link else ""
            raise self._unreadable(f"{error}{kept}") from None

    def state(self, since: int = 0) -> TableState:
        return self._state(f"?since={since}")

    def act(self, step: int, action: int) -> TableState:
        """Answer the decision of `step` with `action`; the new state."""
        return self._state("/act", {"step": step, "action": action})

    def resign(self) -> TableState:
        return self._state("/resign", {})

    def wait(self, version: int) -> None:
        """Return when the table has changed past `version` or the server ended the wait."""
        self._call(f"/events?max_events=1&after={version}", None, WAIT_SECONDS, None)

    def _state(self, path: str, body: Mapping[str, object] | None = None) -> TableState:
        try:
            return read_answer(TableState, self._answer(path, body))
        except AnswerError as error:
            raise self._unreadable(str(error)) from None

    def _answer(self, path: str, body: Mapping[str, object] | None) -> object:
        try:
            return decode_answer(self._call(path, body, REQUEST_SECONDS, "application/json"))
        except AnswerError as error:
            raise self._unreadable(str(error)) from None

    def _unreadable(self, what: str) -> TableClientError:
        return TableClientError(f"the table at {self.server} sent an answer that is not a "
                                f"table's: {what}", fix=_NOT_A_TABLE)

    def _call(self, path: str, body: Mapping[str, object] | None, seconds: float,
              kind: str | None) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, headers={
            "Content-Type": "application/json", "Accept": kind or "*/*",
            CLIENT_HEADER: CLIENT_ID})
        deadline = time.monotonic() + seconds
        try:
            with _OPENER.open(request, timeout=seconds) as answer:
                given = answer.headers.get_content_type()
                if kind is not None and given != kind:
                    raise AnswerError(f"its content type is {_shown(given, 40)}, not {kind}")
                return self._body(answer, deadline, seconds)
        except urllib.error.HTTPError as error:
            raise self._refusal(error, deadline, seconds) from None
        except AnswerError as error:
            raise self._unreadable(str(error)) from None
        except TimeoutError:
            raise self._slow(seconds) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise self._unreachable(error) from None

    def _body(self, answer: http.client.HTTPResponse | urllib.error.HTTPError, deadline: float,
              seconds: float) -> bytes:
        chunks: list[bytes] = []
        size = 0
        read = getattr(answer, "read1", answer.read)
        while chunk := read(65536):
            size += len(chunk)
            if size > MOST_BYTES:
                raise AnswerError(f"it is larger than {MOST_BYTES:,} bytes")
            if time.monotonic() > deadline:
                raise self._slow(seconds)
            chunks.append(chunk)
        return b"".join(chunks)

    def _slow(self, seconds: float) -> TableClientError:
        return TableClientError(f"the table at {self.server} did not answer within "
                                f"{seconds:g} s", fix="try again; check that the server runs")

    def _unreachable(self, error: BaseException) -> TableClientError:
        reason = getattr(error, "reason", None) or str(error) or error.__class__.__name__
        if isinstance(reason, TimeoutError):
            return self._slow(REQUEST_SECONDS)
        what = f"cannot reach the table at {self.server}"
        if isinstance(error, ConnectionResetError | http.client.HTTPException):
            what = f"the table at {self.server} broke off its answer"
        return TableClientError(f"{what}: {_shown(str(reason))}",
                                fix="check the link and that the server is running")

    def _refusal(self, error: urllib.error.HTTPError, deadline: float,
                 seconds: float) -> TableClientError:
        """A refusal as the table words it; a redirect or another error, one line of its own."""
        status = f"{error.code} {_shown(str(error.reason), 40)}"
        if 300 <= error.code < 400:
            place = _shown(error.headers.get("Location") or "nowhere")
            return TableClientError(f"the table at {self.server} answered {status} with a "
                                    f"redirect to {place}: a table's API does not redirect",
                                    fix="join by the link the table's own page shows")
        try:
            if error.headers.get_content_type() != "application/json":
                raise AnswerError("not JSON")
            refusal = read_answer(Refusal, decode_answer(self._body(error, deadline, seconds)))
        except (AnswerError, OSError, http.client.HTTPException):
            return TableClientError(f"the table at {self.server} answered {status}, "
                                    "not a table's refusal", fix=_NOT_A_TABLE)
        watch = refusal.watch
        try:  # only a link to this table's own server is offered
            if watch is not None and _server_of(table_api(watch)) != self.server:
                watch = None
        except TableClientError:  # no table link at all
            watch = None
        return Refused(f"the table at {self.server} says: {refusal.error}", error.code,
                       refusal.state, watch)

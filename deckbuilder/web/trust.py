"""What the server trusts. It listens on this computer with no login, so any page that can
make a browser send it a request is a possible attacker:

- DNS rebinding (a site re-points its name to 127.0.0.1): `TrustedHosts` answers only a
  `Host` naming this server (loopback, `--host`, `serve --allow-host`); 421 otherwise.
- Cross-site requests (another site's form or simple fetch): `SameOrigin` refuses a change
  whose `Origin` is not an allowed name on this server's port. It does not compare Origin
  with Host: a rebound page sends both with its own name.
- Framing and sniffing: `SecurityHeaders` on every response, refusals included.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckbuilder.web.pages import message_response

#: The names of this computer's loopback addresses: always answered.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
#: The headers every response carries (names in lower case, as ASGI sends them).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'; base-uri 'self'; "
                                 b"form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
MISDIRECTED = 421


def host_name(value: str) -> str:
    """The name part of a `Host` header or a `--host`/`--allow-host` value, normalised for
    comparison: lower case, no port, no brackets around an IPv6 address, no trailing dot.

    >>> [host_name(text) for text in ("LocalHost:8765", "[::1]:80", "::1", "example.org.")]
    ['localhost', '::1', '::1', 'example.org']
    """
    text = value.strip().lower()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    return text.rstrip(".")


def host_port(value: str) -> int | None:
    """The port a `Host` header names (None: none given, or not a number)."""
    text = value.strip()
    tail = text.rsplit("]", 1)[1] if text.startswith("[") and "]" in text else (
        text if text.count(":") == 1 else "")
    _, colon, port = tail.partition(":")
    return int(port) if colon and port.isdigit() and len(port) <= 5 else None


def allowed_names(listen_host: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names the server answers to: loopback, the address it listens on, and
    the names the user added."""
    names = {*LOOPBACK_NAMES, *(host_name(name) for name in extra)}
    if listen_host:
        names.add(host_name(listen_host))
    names.discard("")
    return frozenset(names)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class TrustedHosts:
    """Answer only requests whose `Host` header names this server (any port); refuse the
    rest with 421 Misdirected Request and one line, before any handler runs."""

    def __init__(self, app: ASGIApp, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is not None and host_name(host) in self.names:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        shown = "".join(character if character.isascii() and character.isprintable() else "?"
                        for character in (host or "")[:80])
        server = scope.get("server")
        port = server[1] if server and isinstance(server[1], int) else "PORT"
        text = (f"this server does not answer to the host name '{shown}'; open it as "
                f"http://127.0.0.1:{port}/ or start it with --allow-host NAME"
                if host is not None else "the request names no host")
        response = PlainTextResponse(text + "\n", status_code=MISDIRECTED if host else 400)
        await response(scope, receive, send)


class SameOrigin:
    """Refuse a change (POST and the like) whose Origin is not this server's (403, one line;
    "null", a sandboxed or local page, too). A request without Origin is no browser's and
    passes: it had to pass `TrustedHosts` anyway."""

    SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp, names: frozenset[str], port: int | None = None) -> None:
        self.app = app
        self.names = names
        self.port = port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in self.SAFE_METHODS:
            origin = _header(scope, b"origin")
            if origin is not None and not self.is_own(origin, scope):
                request = Request(scope, receive)
                response = message_response(
                    request, "requests from another site's page are refused", 403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def own_ports(self, scope: Scope) -> set[int]:
        """The ports this server is reached on: the one it was started with, the socket's,
        and the one in the (already trusted) Host header, e.g. behind `ssh -L`."""
        ports = {self.port} if self.port else set()
        server = scope.get("server")
        if server and isinstance(server[1], int):
            ports.add(server[1])
        host = _header(scope, b"host") or ""
        ports.add(host_port(host) or 80)
        return ports

    def is_own(self, origin: str, scope: Scope) -> bool:
        text = origin.strip()
        if text == "null":
            return False
        try:
            parts = urlsplit(text)
            port = parts.port or 80
        except ValueError:
            return False
        return (parts.scheme == "http" and parts.hostname is not None
                and host_name(parts.hostname) in self.names
                and port in self.own_ports(scope))


class SecurityHeaders:
    """Add `SECURITY_HEADERS` to every HTTP response (unless a handler set one itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {bytes(key).lower() for key, _ in headers}
                headers.extend((key, value) for key, value in SECURITY_HEADERS
                               if key not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

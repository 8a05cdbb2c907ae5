"""The Starlette application (`create_app`): every page module's `ROUTES`, the static files,
the request size limit, what the server trusts (`trust`), and one-line errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckbuilder.errors import DeckbuilderError
from deckbuilder.web import cards, data_review, decks, faces, friends, replays, simulator, table
from deckbuilder.web.config import WebConfig
from deckbuilder.web.pages import error_response, message_response, render
from deckbuilder.web.trust import SameOrigin, SecurityHeaders, TrustedHosts, allowed_names

STATIC = Path(__file__).resolve().parent / "static"

#: The modules that contribute pages, each with a `ROUTES` list: the card browser, the deck
#: editor, the simulator, the game table, the card faces all of them show, tables for two
#: people (web/friends/), finished games to step through and the card data to confirm.
PAGE_MODULES = (cards, decks, simulator, table, faces, friends, replays, data_review)


class RequestSizeLimit:
    """Refuse request bodies over `limit` bytes with 413 and one line: by Content-Length
    before reading, or (chunked) as soon as the body read goes over."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length_text = headers.get(b"content-length")
        if length_text is not None:
            try:
                length = int(length_text)
            except ValueError:
                await self._refuse(scope, receive, send, "the Content-Length is not a number",
                                   400)
                return
            if length > self.limit:
                await self._too_large(scope, receive, send)
                return
            if length == 0:
                await self.app(scope, receive, send)
                return
        elif b"chunked" not in headers.get(b"transfer-encoding", b""):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._too_large(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._refuse(scope, receive, send,
                           f"the request is larger than the server accepts "
                           f"({self.limit:,} bytes); send a smaller file or list", 413)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, text: str,
                      status: int) -> None:
        request = Request(scope, receive)
        response = message_response(request, text, status)
        response.headers["connection"] = "close"
        await response(scope, receive, send)


async def _deckbuilder_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, DeckbuilderError)
    return error_response(error, request=request)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    text = {404: "there is no such page", 405: "that page does not take this kind of request"
            }.get(error.status_code, str(error.detail))
    return message_response(request, text, error.status_code)


async def _home(request: Request) -> Response:
    config: WebConfig = request.app.state.config
    return render(request, "index.html", title="Revolver deck builder",
                  deck_folder=str(config.deck_folder))


class DeckbuilderApp(Starlette):
    """Starlette with the trust checks outside everything else: the framing headers go on
    every response (a 500 included) and a request for another host name is refused before
    any other code (Starlette's own error page included) sees it."""

    def __init__(self, trusted_names: frozenset[str], **options: Any) -> None:
        self.trusted_names = trusted_names
        super().__init__(**options)

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(TrustedHosts(super().build_middleware_stack(),
                                            self.trusted_names))


def create_app(config: WebConfig) -> Starlette:
    """The web app over one deck folder: `uvicorn.run(create_app(WebConfig(Path("decks"))))`."""
    handlers: dict[object, object] = {DeckbuilderError: _deckbuilder_error,
                                HTTPException: _http_error}
    names = allowed_names(config.listen_host, config.extra_hosts)
    routes: list[BaseRoute] = [Route("/", _home, name="home"),
                               *(route for module in PAGE_MODULES for route in module.ROUTES),
                               Mount("/static", app=StaticFiles(directory=STATIC), name="static")]
    app = DeckbuilderApp(
        names, routes=routes,
        middleware=[Middleware(SameOrigin, names=names, port=config.port),
                    Middleware(RequestSizeLimit, limit=config.max_request_bytes)],
        exception_handlers=handlers,
    )
    app.state.config = config
    friends.store_of(app)  # read now: the tables of an earlier run's links work at once
    return app


"""Which device or program a request to a friend table comes from, so that a seat's actions
from one that never acted for it before can be told to both seats (`TableStore.act`).

A program names itself with the header `X-Deckbuilder-Client` (16 to 64 characters of
`[A-Za-z0-9_-]`, the same on every call: `deckbuilder join` sends one); a browser is given a
cookie the first time it opens a friend page. Neither is a password: a client id only tells
two devices apart, it lets nobody sit anywhere. A request that names neither counts as one
more client, "unnamed".
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from deckbuilder.app.table_client import CLIENT_HEADER
from deckbuilder.web.friends.tokens import looks_like_token, new_token

CLIENT_COOKIE = "deckbuilder_client"
#: A browser keeps its client cookie this long (a year): the same device stays the same.
COOKIE_SECONDS = 365 * 24 * 3600


def client_of(request: Request) -> str:
    """The client a request names (its header, else its cookie); "" when it names none."""
    for named in (request.headers.get(CLIENT_HEADER, ""),
                  request.cookies.get(CLIENT_COOKIE, "")):
        if looks_like_token(named):
            return named
    return ""


def remember_client(request: Request, response: Response) -> Response:
    """`response`, giving the browser a client cookie when it has none yet (HttpOnly, this
    top-level visits from links too, so a followed link keeps the device)."""
    if not looks_like_token(request.cookies.get(CLIENT_COOKIE, "")):
        response.set_cookie(CLIENT_COOKIE, new_token(), max_age=COOKIE_SECONDS, path="/",
                            httponly=True, samesite="lax")
    return response

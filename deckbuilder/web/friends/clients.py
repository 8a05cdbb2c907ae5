"""Which device or program a request to a friend table comes from, so that a seat played
from a new one can be told to both seats (`TableStore.act`).

A program names itself with the header `X-Deckbuilder-Client`; a browser is given a cookie.
Neither is a password: a client id only tells two devices apart, it lets nobody sit anywhere.
A request that names neither counts as one more client.
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
    return next((named for named in (request.headers.get(CLIENT_HEADER, ""),
                                     request.cookies.get(CLIENT_COOKIE, ""))
                 if looks_like_token(named)), "")


def remember_client(request: Request, response: Response) -> Response:
    """`response`, giving the browser a client cookie when it has none yet (SameSite=Lax:
    a followed link keeps the device)."""
    if not looks_like_token(request.cookies.get(CLIENT_COOKIE, "")):
        response.set_cookie(CLIENT_COOKIE, new_token(), max_age=COOKIE_SECONDS, path="/",
                            httponly=True, samesite="lax")
    return response

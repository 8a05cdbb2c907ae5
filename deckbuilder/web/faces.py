"""Card faces on every page: `card_face`'s stylesheet, one face as an HTML fragment for the
hover cards (`/api/faces/{id}`), and the log's names as face triggers (`data-face="ID"`,
shown by static/faces.js).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.card_details import find_records
from deckbuilder.card_face import face, face_html, one_line, stylesheet
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.errors import DeckbuilderError
from deckbuilder.web.config import config_of
from deckbuilder.web.pages import error_response

#: Longest id or name taken from a URL.
MAX_NAME = 200
#: Shortest name linked in a log line (shorter names are words of the sentences).
MIN_LINKED_NAME = 4


def record_route(handler: Callable[[Request, Catalog, list[Entry]], Awaitable[Response]],
                 ) -> Callable[[Request], Awaitable[Response]]:
    """A route of `/.../{record_id}?game=`: handed the catalog and the records the id (or
    name) names (`find_records`); a 404 in one line when none does."""
    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        catalog = config_of(request).catalog()
        name = str(request.path_params["record_id"])[:MAX_NAME]
        try:
            entries = find_records(catalog, name, str(request.query_params.get("game") or "")[:20]
                                   or None)
        except DeckbuilderError as error:
            return error_response(error, 404, request)
        return await handler(request, catalog, entries)

    return route


def face_fragment(catalog: Catalog, entry: Entry, heading_level: int = 3) -> str:
    """The entry's face as the escaped fragment a hover card or a page shows."""
    return face_html(face(entry, catalog), heading_level=heading_level)


@lru_cache(maxsize=8)
def _name_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def name_index(catalog: Catalog, game: str) -> dict[str, str]:
    """The game's record names (card, character, battlefield, special) to their ids; a name
    two records share goes to the first in catalog order."""
    found: dict[str, str] = {}
    for entry in catalog.entries.values():
        if entry.game == game and entry.kind != "token" and len(entry.name) >= MIN_LINKED_NAME:
            found.setdefault(entry.name, entry.id)
    return found


def linked_segments(line: str, names: dict[str, str]) -> list[tuple[str, str]]:
    """`line` cut into (text, id) pieces: id is the record a piece names, "" for plain text.

    >>> linked_segments("colty plays Deputy on Mudbanks", {"Deputy": "deputy"})
    [('colty plays ', ''), ('Deputy', 'deputy'), (' on Mudbanks', '')]
    """
    pattern = _name_pattern(tuple(sorted(names, key=lambda name: (-len(name), name))))
    if pattern is None:
        return [(line, "")]
    pieces: list[tuple[str, str]] = []
    at = 0
    for match in pattern.finditer(line):
        if match.start() > at:
            pieces.append((line[at:match.start()], ""))
        pieces.append((match.group(0), names[match.group(0)]))
        at = match.end()
    if at < len(line) or not pieces:
        pieces.append((line[at:], ""))
    return pieces


def linked_lines(catalog: Catalog, game: str, lines: list[str]) -> list[list[tuple[str, str]]]:
    """Each line cut at the names of the game's records (`linked_segments`)."""
    names = name_index(catalog, game)
    return [linked_segments(line, names) for line in lines]


# -- routes ----------------------------------------------------------------------------------
@record_route
async def face_api(request: Request, catalog: Catalog, entries: list[Entry]) -> Response:
    """`/api/faces/{id}?game=`: {"id", "name", "summary", "html"}: the face of one record."""
    asked = request.path_params["record_id"]
    entry = next((entry for entry in entries if entry.id == asked), entries[0])
    return JSONResponse({"id": entry.id, "name": entry.name, "summary": one_line(entry),
                         "html": face_fragment(catalog, entry)},
                        headers={"Cache-Control": "private, max-age=300"})


async def face_stylesheet(request: Request) -> Response:
    """The card face's CSS (`card_face.stylesheet()`), served as the pages' second sheet."""
    return Response(stylesheet(), media_type="text/css",
                    headers={"Cache-Control": "public, max-age=300"})


ROUTES: list[BaseRoute] = [
    Route("/api/faces/{record_id:str}", face_api, name="face_api"),
    Route("/card-face.css", face_stylesheet, name="card_face_css"),
]

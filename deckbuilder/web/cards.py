"""The card browser: `/cards` (search and filters), `/cards/{id}` (one record), and
`/api/cards` for the deck editor's search box; the answers are `deckbuilder cards`'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.card_details import engine_support, record_details
from deckbuilder.app.card_search import (
    Search,
    card_row,
    choose,
    describe_spaces,
    in_listing_order,
    marks,
    parse_kind,
    record_row,
    search_records,
    set_names,
    spelling_table,
)
from deckbuilder.app.spellings import faction_names, game_names
from deckbuilder.card_face.words import game_title, kind_count, step_names
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.data_packs.standing import Standing, standing_words
from deckbuilder.models.cards import Character
from deckbuilder.models.common import Category, Faction, PlayType
from deckbuilder.web.config import config_of
from deckbuilder.web.faces import face_fragment, record_route
from deckbuilder.web.pages import render

#: The filters of the browser, as query parameters.
FILTERS = ("q", "game", "faction", "set", "kind", "category", "play")
#: Longest search text taken from a URL (a name is at most 120 characters).
MAX_QUERY = 200
#: How many records `/api/cards` returns at most (the deck editor shows a short list).
API_LIMIT = 40


class BrowserSearch(Search):
    """The browser's filters, with the links its page offers."""

    def link(self, **changes: str) -> str:
        """The browser's address for these filters with some changed (`q="Deputy"`)."""
        from urllib.parse import urlencode

        query = {**asdict(self), "set": self.set_id, **changes}
        return "/cards?" + urlencode({key: query[key] for key in FILTERS if query[key]})


def parse_search(catalog: Catalog, params: Mapping[str, str]) -> BrowserSearch:
    """The filters of a request, checked against the catalog (a spelling forgiven as the
    command line's choices forgive it); raises `DeckbuilderError`."""
    def get(key: str) -> str:
        return str(params.get(key) or "")[:MAX_QUERY].strip()

    def chosen(key: str, names: Mapping[str, Iterable[str]], what: str) -> str | None:
        return choose(get(key), spelling_table(names), what) if get(key) else None

    names = game_names()
    game = chosen("game", {each: names.get(each, ()) for each in _games(catalog)}, "game")
    kind, kind_game = parse_kind(get("kind") or None, game)
    return BrowserSearch(
        q=get("q"),
        game=game,
        faction=chosen("faction", faction_names(), "faction"),
        set_id=chosen("set", set_names(catalog), "set"),
        kind=kind,
        category=chosen("category", dict.fromkeys(map(str, Category), ()), "category"),
        play=chosen("play", dict.fromkeys(map(str, PlayType), ()), "play type"),
        kind_game=kind_game,
    )


def _games(catalog: Catalog) -> list[str]:
    return sorted({entry.game for entry in catalog.entries.values()})


# -- rows of the listing ---------------------------------------------------------------------
Column = tuple[str, Callable[[Catalog, Entry], str], str]  # header, cell(catalog, entry), css class


def _tokens(record: Character) -> str:
    parts = [f"{record.true_grit} true grit"] if record.true_grit else []
    parts += [f"{record.power_tokens} power"] if record.power_tokens else []
    return ", ".join(parts)


#: Each kind's columns, then how many of the record's values are unconfirmed.
COLUMNS: dict[str, list[Column]] = {kind: [*columns, (
    "unconf.", lambda c, e: str(len(e.record.provenance.unconfirmed) or ""), "num",
)] for kind, columns in {
    "card": [
        ("set", lambda c, e: e.set_id, ""),
        ("category", lambda c, e: str(e.record.category), ""),
        ("play", lambda c, e: str(e.record.play), ""),
        ("cost", lambda c, e: str(e.record.cost), "num"),
        ("fp", lambda c, e: "" if e.record.firepower is None else str(e.record.firepower), "num"),
        ("base", lambda c, e: str(c.base_copies(e.id)), "num"),
    ],
    "character": [
        ("set", lambda c, e: e.set_id, ""),
        ("survival", lambda c, e: str(e.record.survival), "num"),
        ("tokens", lambda c, e: _tokens(e.record), ""),
        ("on death", lambda c, e: ", ".join(str(step.model_dump(mode="json").get("do", "?"))
                                            for step in e.record.on_death), ""),
    ],
    "battlefield": [
        ("game", lambda c, e: e.game, ""),
        ("order", lambda c, e: str(e.record.order), "num"),
        ("defence", lambda c, e: str(e.record.defence), "num"),
        ("spaces", lambda c, e: describe_spaces(e.record.spaces), ""),
    ],
    "special": [
        ("set", lambda c, e: e.set_id, ""),
        ("tokens", lambda c, e: str(e.record.tokens or ""), "num"),
    ],
    "token": [
        ("game", lambda c, e: e.game, ""),
        ("in the box", lambda c, e: str(e.record.count), "num"),
    ],
}.items()}


def _badges(entry: Entry) -> list[tuple[str, str]]:
    """(text, css class) marks beside a name: faction, the listing's marks, engine."""
    record = entry.record
    faction = getattr(record, "faction", None)
    badges = [(str(faction), str(faction))] if faction is not None else []
    badges += [(mark, "warn" if mark == "gunslinger" else "") for mark in marks(record)]
    if getattr(record, "leader", False):
        badges.append(("leader", ""))
    if not engine_support(entry)["plays"]:
        badges.append(("engine cannot play it", "bad"))
    return badges


def listing_rows(catalog: Catalog, entries: list[Entry], kind: str) -> list[dict[str, object]]:
    return [{"id": entry.id, "game": entry.game, "name": entry.record.name,
             "badges": _badges(entry), "chip": str(getattr(entry.record, "chip", None) or ""),
             "cells": [(cell(catalog, entry), css) for _, cell, css in COLUMNS[kind]],
             "text": entry.record.text or ""} for entry in in_listing_order(entries)]


def _options(catalog: Catalog) -> dict[str, list[tuple[str, str]]]:
    """The choices of the filter form: (value, label)."""
    return {
        "game": [(game, game_title(game)) for game in _games(catalog)],
        "faction": [(str(f), str(f)) for f in Faction],
        "set": [(set_id, loaded.card_set.name) for set_id, loaded in catalog.sets.items()],
        "kind": [(kind, kind) for kind in COLUMNS],
        "category": [(str(c), str(c)) for c in Category],
        "play": [(str(p), str(p)) for p in PlayType],
    }


async def cards_page(request: Request) -> Response:
    """The browser: a filter form (a plain GET form, so every search is a link) and a table."""
    catalog = config_of(request).catalog()
    # A bad filter raises its one-line error, which the app shows (page or JSON).
    found = search_records(catalog, search := parse_search(catalog, request.query_params))
    return render(
        request, "cards.html", title="Cards", search=search, options=_options(catalog),
        headers=[header for header, _, _ in COLUMNS[search.kind]],
        header_classes=[css for _, _, css in COLUMNS[search.kind]],
        rows=listing_rows(catalog, found.entries, search.kind), found=found,
        summary=kind_count(len(found.entries), search.kind),
    )


def _value_text(catalog: Catalog, value: object) -> str:
    """A value in words for the values table (never JSON): ids as names, the steps of a
    card's text by their names (the face above puts the text itself in words), a table of
    numbers as "name value" pairs."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "none"}[value]
    if isinstance(value, int | float):
        return str(value)
    steps = step_names(value)
    if steps:
        return "the text's effect, as the engine's steps: " + ", ".join(
            step.replace("-", " ") for step in steps)
    if isinstance(value, list):
        return ", ".join(catalog.entries[item].name if isinstance(item, str)
                         and item in catalog.entries else _value_text(catalog, item)
                         for item in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(key).replace('_', ' ')} {_value_text(catalog, item)}"
                         for key, item in value.items()
                         if item not in (None, [], {}, False, 0)) or "none"
    return str(value)


@record_route
async def card_page(request: Request, catalog: Catalog, entries: list[Entry]) -> Response:
    """Everything about one record (`deckbuilder cards show`): its text, every value with
    the document stating it or marked unconfirmed, base copies, and the engine's answer."""
    records = []
    for entry in entries:
        details = record_details(catalog, entry)
        for row in details["values"]:
            row["shown"] = _value_text(catalog, row["value"])
            # a player's value (a pack, or the overlay) named as one (data_packs.standing)
            row["overlay"] = row["standing"] == Standing.PLAYER.value
            if row["overlay"]:
                row["source"] = standing_words(row["source"], row["field"])
        records.append({
            "details": details, "record": entry.record,
            # the card face (escaped by card_face.face_html): the card as a player reads it
            "face": Markup(face_fragment(catalog, entry, heading_level=2)),
            "values": [row for row in details["values"]
                       if not row["source"].startswith("default")],
            "defaults": [row["field"] for row in details["values"]
                         if row["source"].startswith("default")],
        })
    return render(request, "card.html", title=entries[0].name, records=records)


async def cards_api(request: Request) -> Response:
    """`/api/cards?q=...&game=...&faction=...`: the browser's search as JSON (the deck
    editor's "add a card" box), each row as `cards --json` prints it, with the typo
    suggestions."""
    catalog = config_of(request).catalog()
    # A bad filter raises its one-line error, which the app shows (page or JSON).
    found = search_records(catalog, parse_search(catalog, request.query_params))
    return JSONResponse({
        "cards": [card_row(catalog, entry) if entry.kind == "card" else record_row(entry)
                  for entry in found.entries[:API_LIMIT]],
        "total": len(found.entries),
        "suggestions": found.suggestions,
        "note": found.note,
    })


@record_route
async def card_api(request: Request, catalog: Catalog, entries: list[Entry]) -> Response:
    """`/api/cards/{id}`: `deckbuilder cards show NAME --json` for one record."""
    found = [record_details(catalog, entry) for entry in entries]
    return JSONResponse(found[0] if len(found) == 1 else found)


ROUTES: list[BaseRoute] = [
    Route("/cards", cards_page, name="cards"),
    Route("/cards/{record_id:str}", card_page, name="card"),
    Route("/api/cards", cards_api, name="cards_api"),
    Route("/api/cards/{record_id:str}", card_api, name="card_api"),
]

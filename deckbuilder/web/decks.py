"""The deck editor: `/deck` and its JSON endpoints under `/api/deck`. Every change comes back
with `deckbuilder validate`'s verdict (`app.deck_verdict`): the editor holds no rule of its
own. The page keeps the deck (`deck_state`) and sends it with each request.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import NotRequired, TypedDict
from urllib.parse import urlencode

from markupsafe import Markup
from pydantic import JsonValue
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.deck_sheet import deck_sheet_html
from deckbuilder.app.deck_verdict import deck_verdict
from deckbuilder.app.json_values import json_object
from deckbuilder.catalog import Catalog, normalise_name
from deckbuilder.deck_stats import (
    DeckStats,
    DeckStatsJson,
    deck_stats,
    percent_text,
    sample_opening_hand,
)
from deckbuilder.decklists import export_deck_list
from deckbuilder.decks import FACTION_GAMES, FACTION_TITLES
from deckbuilder.errors import DeckbuilderError, DeckError, Location
from deckbuilder.legality import Violation
from deckbuilder.models.common import Category, Faction
from deckbuilder.web.config import WebConfig, config_of, deck_files
from deckbuilder.web.deck_files import (
    SaveConflict,
    copy_name,
    open_deck,
    owned_cards,
    read_list,
    save_deck,
)
from deckbuilder.web.deck_lists import import_text
from deckbuilder.web.deck_state import (
    DeckState,
    add_card,
    base_state,
    remove_card,
    share_code,
    state_from_json,
    state_from_share_code,
    version_of,
)
from deckbuilder.web.pages import error_line, fragment, render

CATEGORY_ORDER = [str(category) for category in Category]


class DeckVerdictJson(TypedDict):
    """What every editor endpoint answers: the deck, its `validate --json` verdict and
    `deck stats --json` figures, and the page's pieces that show them (`html`)."""

    deck: Mapping[str, object]
    legal: bool
    total: int
    report: dict[str, JsonValue]
    share: str
    code: str
    sheet: str
    stats: DeckStatsJson
    html: dict[str, str]
    saved: NotRequired[dict[str, str | bool]]  # `save_api`'s answer only


# -- what the page shows -----------------------------------------------------------------------
def verdict(config: WebConfig, state: DeckState, collection: str | None = None
            ) -> DeckVerdictJson:
    """The deck checked as `deckbuilder validate [--collection]` checks it, with the pieces
    of the page that show it. Raises the deck's one-line error when it is no deck. Routes run
    it in a worker thread: it reads the collection file a request names."""
    catalog = config.catalog()
    owned = owned_cards(config, collection) if collection else None
    loaded = state.loaded(catalog)
    checked = deck_verdict(loaded, catalog, owned)
    report, warnings, notes = checked.report, list(checked.warnings), list(checked.notes)
    code = share_code(state, catalog)
    stats = deck_stats(loaded, catalog)
    view = {
        "state": state,
        "report": report,
        "violations": [_violation_view(catalog, state, violation)
                       for violation in report.violations],
        "warnings": warnings,
        "notes": notes,
        "collection": collection,
        "groups": _groups(catalog, state, owned),
        "taken_out": [{"id": row.card, "name": row.name, "out": row.count,
                       "category": str(catalog.entries[row.card].record.category)}
                      for row in (stats.changes.out if stats.changes is not None else ())],
    }
    return {
        "deck": state.to_json(),
        "legal": report.is_legal,
        "total": report.card_count,
        "report": checked.to_json(),
        "share": f"/deck?share={code}",
        "code": code,
        "sheet": f"/deck/sheet?share={code}",
        "stats": stats.to_json(),  # `deck stats --json`'s answer
        "html": {"deck": fragment("deck_table.html", **view),
                 "verdict": fragment("deck_verdict.html", **view),
                 "stats": fragment("deck_stats.html", stats=stats_view(stats))},
    }


def stats_view(found: DeckStats) -> dict[str, object]:
    """`deck stats` for the panel: the same `deck_stats` figures, percentages for reading."""
    most = max((row.count for row in found.cost_curve), default=0) or 1
    odds = [{"kind": row.kind, "key": row.key, "name": row.name, "copies": row.copies,
             "by_turn": [percent_text(float(step.chance)) for step in row.by_turn]}
            for row in found.odds]
    return {"stats": found, "most": most,
            "turns": [step.turn for step in found.odds[0].by_turn] if found.odds else [0],
            "kinds": [row for row in odds if row["kind"] == "category"],
            "cards": [row for row in odds if row["kind"] == "card"],
            "opening": found.draw_rules.cards_seen(0),
            "per_turn": found.draw_rules.draws_per_turn}


def _violation_view(catalog: Catalog, state: DeckState, violation: Violation
                    ) -> dict[str, object]:
    names = [entry.name if (entry := catalog.find(card, state.game)) is not None else card
             for card in violation.cards]
    return {"code": violation.code, "rule": violation.rule, "message": violation.message,
            "cards": names, "fix": violation.fix}


def _groups(catalog: Catalog, state: DeckState, owned: dict[str, int] | None
            ) -> list[dict[str, object]]:
    """The deck's cards by Module D category (the like-for-like rule reads them so)."""
    base = catalog.base_deck(state.game, state.faction) if state.faction in FACTION_GAMES \
        else {}
    rows: dict[str, list[dict[str, object]]] = {}
    copies: Counter[str] = Counter()
    for key, count in state.cards:
        entry = catalog.find(key, state.game)
        record = entry.record if entry is not None else None
        category = str(getattr(record, "category", "") or "") if entry else "unknown"
        if entry is not None and entry.kind != "card":
            category = "not a deck card"
        card_id = entry.id if entry is not None else None
        in_base = base.get(card_id, 0) if card_id else 0
        copies[category] += count
        rows.setdefault(category, []).append({
            "key": key, "id": card_id, "count": count,
            "name": entry.name if entry is not None else key,
            "known": entry is not None, "base": in_base, "added": count - in_base,
            "cost": getattr(record, "cost", None),
            "firepower": getattr(record, "firepower", None),
            "gunslinger": bool(getattr(record, "gunslinger", False)),
            "unique": bool(getattr(record, "unique", False)),
            "owned": owned.get(card_id, 0) if owned is not None and card_id else None,
        })
    order = {name: index for index, name in enumerate(CATEGORY_ORDER)}
    return [{"category": category, "cards": cards, "count": copies[category]}
            for category, cards in sorted(rows.items(),
                                          key=lambda item: order.get(item[0], 99))]


# -- the page ------------------------------------------------------------------------------
@dataclass
class _Opened:
    """What the editor page opens with: a deck's verdict, a pasted list, or the error line."""

    checked: DeckVerdictJson | None = None
    list_text: str = ""
    error: str = ""
    status: int = 200
    context: dict[str, object] = field(default_factory=dict)


def _open_page(config: WebConfig, params: Mapping[str, str], collection: str | None
               ) -> _Opened:
    """The files the page names, read (in a worker thread: `deck_page`) and checked."""
    files = deck_files(config)
    opened = _Opened(context={
        "factions": [(str(faction), FACTION_TITLES.get(Faction(faction), faction), game)
                     for faction, game in FACTION_GAMES.items()],
        "yaml_files": [name for name in files if name.endswith(".yaml")],
        "lists": [name for name in files if name.endswith(".txt")]})
    try:
        state: DeckState | None = None
        if params.get("share"):
            state = state_from_share_code(str(params["share"]), config.catalog())
            state.file = (params.get("file") or "").strip() or None
            state.version = version_of(params.get("version")) if state.file else None
        elif params.get("file"):
            state = open_deck(config, str(params["file"]))
        elif params.get("base"):
            faction = normalise_name(str(params["base"])[:60]).replace(" ", "")
            state = base_state(config.catalog(), faction)
        elif params.get("list"):
            opened.list_text = read_list(config, str(params["list"]))
        opened.checked = verdict(config, state, collection) if state is not None else None
    except DeckbuilderError as problem:
        opened.error, opened.status, opened.checked = error_line(problem), 400, None
    return opened


async def deck_page(request: Request) -> Response:
    """The editor: `?base=FACTION`, `?file=NAME` (`?list=NAME.txt`) or `?share=CODE`, and
    `&collection=NAME`; files are read in a worker thread."""
    config = config_of(request)
    collection = (request.query_params.get("collection") or "").strip() or None
    opened = await asyncio.to_thread(_open_page, config, request.query_params, collection)
    checked = opened.checked
    # the three pieces are our own templates' output (escaped there), not text from a file
    pieces = {key: Markup(checked["html"][key]) if checked else ""
              for key in ("deck", "verdict", "stats")}
    return render(request, "deck.html", status_code=opened.status, title="Deck editor",
                  error=opened.error, checked=checked, list_text=opened.list_text,
                  collection=collection,
                  state_json=json.dumps(checked["deck"]) if checked else "null",
                  deck_html=pieces["deck"], verdict_html=pieces["verdict"],
                  stats_html=pieces["stats"], **opened.context)


# -- the endpoints the page calls ----------------------------------------------------------
async def _body(request: Request) -> dict[str, object]:
    """The request's JSON object (the size limit has been applied already). Only a JSON
    request is read: another site's page cannot send one without the browser asking this
    server first (and it answers no such question), so it cannot save into the deck folder."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise DeckError("the request is not JSON", Location("request"),
                        "send it with content-type application/json (reload the page)")
    return json_object(await request.body(), DeckError, "send what the editor sends: reload "
                       "the page", Location("request"))


def _collection(data: dict[str, object]) -> str | None:
    value = data.get("collection")
    return value.strip() or None if isinstance(value, str) else None


def _card(data: dict[str, object], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise DeckError(f"no card named to {key}", Location("request"), "click a card")
    return value


def _count(data: dict[str, object]) -> int:
    value = data.get("count", 1)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise DeckError("a count is 1 to 99", Location("request"), "click again")
    return value


async def check_api(request: Request) -> Response:
    """POST `{deck, collection?}`: the verdict of the deck as it is."""
    data = await _body(request)
    config = config_of(request)
    return JSONResponse(await asyncio.to_thread(verdict, config, state_from_json(data.get("deck")),
                                                _collection(data)))


async def change_api(request: Request) -> Response:
    """POST `{deck, add: CARD | remove: CARD, count?, collection?}`: one click's change,
    and the verdict after it."""
    data = await _body(request)
    config = config_of(request)
    state = state_from_json(data.get("deck"))
    catalog = config.catalog()
    if "add" in data:
        state = add_card(state, catalog, _card(data, "add"), _count(data))
    elif "remove" in data:
        state = remove_card(state, catalog, _card(data, "remove"), _count(data))
    name = data.get("name")
    if isinstance(name, str):
        state.name = name
    return JSONResponse(await asyncio.to_thread(verdict, config, state, _collection(data)))


async def import_api(request: Request) -> Response:
    """POST `{text, faction?, collection?}`: the list read as `deck import` reads it, every
    line labelled, and the verdict of the deck it makes (when it makes one)."""
    data = await _body(request)
    config = config_of(request)
    text = data.get("text")
    if not isinstance(text, str):
        raise DeckError("no list was sent", Location("request"), "paste a deck list")
    faction = data.get("faction")
    faction = faction if isinstance(faction, str) else None
    imported = import_text(config.catalog(), text, faction)
    answer: dict[str, object] = {"lines": [asdict(line) for line in imported.lines],
                              "problems": imported.problems, "error": imported.error}
    if imported.state is not None:
        answer.update(await asyncio.to_thread(verdict, config, imported.state, _collection(data)))
    return JSONResponse(answer, status_code=400 if imported.error else 200)


async def save_api(request: Request) -> Response:
    """POST `{deck, file, overwrite?}`: the deck written into the deck folder (YAML, the
    comments of the file it came from kept; or a .txt list). 409 with `conflict` when the
    file the deck came from changed since the page read it (`deck.version`)."""
    data = await _body(request)
    config = config_of(request)
    state = state_from_json(data.get("deck"))
    name = data.get("file")
    if not isinstance(name, str):
        raise DeckError("no file name given", Location("request"), "type a file name")
    name = name.strip()
    try:
        # in a thread: the save may wait for the lock a `deck swap` holds
        saved = await asyncio.to_thread(save_deck, config, state, name,
                                        data.get("overwrite") is True)
    except SaveConflict as conflict:
        # the page keeps the user's deck and offers to reload the file or to save a copy
        return JSONResponse({"error": error_line(conflict), "conflict": {
            "file": name, "reload": "/deck?" + urlencode({"file": name}),
            "copy": copy_name(config, name)}}, status_code=409)
    if saved.file.lower().endswith(".yaml"):
        state.file, state.version = saved.file, saved.version
    answer = await asyncio.to_thread(verdict, config, state, _collection(data))
    answer["saved"] = {"file": saved.file, "created": saved.created,
                       "message": f"{'wrote' if saved.created else 'updated'} {saved.file}"}
    return JSONResponse(answer)


def _shared(request: Request) -> tuple[DeckState, Catalog]:
    """The deck of the request's `?share=CODE`, and the catalog it reads with."""
    catalog = config_of(request).catalog()
    return state_from_share_code(str(request.query_params.get("share") or ""), catalog), catalog


async def export_text_view(request: Request) -> Response:
    """GET `/deck/export.txt?share=CODE`: the deck as `deckbuilder deck export` prints it,
    as a download."""
    state, catalog = _shared(request)
    text = export_deck_list(state.loaded(catalog), catalog)
    slug = re.sub(r"[^a-z0-9]+", "-", state.name.lower()).strip("-")[:60] or "deck"
    return PlainTextResponse(text, headers={
        "content-disposition": f'attachment; filename="{slug}.txt"'})


async def sheet_view(request: Request) -> Response:
    """GET `/deck/sheet?share=CODE`: the deck sheet made to print, the page `deckbuilder deck
    export --format html` writes (cards grouped and counted, replacements, verdict)."""
    state, catalog = _shared(request)
    return HTMLResponse(deck_sheet_html(state.loaded(catalog), catalog))


async def hand_api(request: Request) -> Response:
    """POST `{deck}`: a sample opening hand, dealt from the deck as it is (a fresh shuffle
    each time), with each card's name ready for its face."""
    data = await _body(request)
    config = config_of(request)
    state = state_from_json(data.get("deck"))
    loaded = state.loaded(config.catalog())
    hand = sample_opening_hand(loaded, random.Random())
    known = {entry.entry.id for entry in loaded.entries if entry.entry is not None}
    cards = [{"card": card.card, "name": card.name, "known": card.card in known}
             for card in hand]
    return JSONResponse({"hand": cards, "html": fragment("deck_hand.html", cards=cards,
                                                         game=state.game)})


async def files_api(request: Request) -> Response:
    """GET: the deck files and lists of the deck folder."""
    return JSONResponse({"files": await asyncio.to_thread(deck_files, config_of(request))})


ROUTES: list[BaseRoute] = [
    Route("/deck", deck_page, name="deck"),
    Route("/deck/export.txt", export_text_view, name="deck_export"),
    Route("/deck/sheet", sheet_view, name="deck_sheet"),
    Route("/api/deck/hand", hand_api, methods=["POST"], name="deck_hand"),
    Route("/api/deck/check", check_api, methods=["POST"], name="deck_check"),
    Route("/api/deck/change", change_api, methods=["POST"], name="deck_change"),
    Route("/api/deck/import", import_api, methods=["POST"], name="deck_import"),
    Route("/api/deck/save", save_api, methods=["POST"], name="deck_save"),
    Route("/api/deck/files", files_api, name="deck_files"),
]

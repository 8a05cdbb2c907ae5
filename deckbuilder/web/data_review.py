"""The "Confirm card data" page (`/data`): `deckbuilder data review` in the browser, each
unconfirmed value editable on the card's face. Answers are read and saved by the terminal's
own functions (`data_packs`); writes are POSTs, so the Origin check applies.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from enum import Enum
from typing import Any, get_args
from urllib.parse import urlencode

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from deckbuilder.app.card_search import chosen_records
from deckbuilder.app.json_values import json_object
from deckbuilder.card_face import face, face_html
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.data_packs.answers import AS_SHOWN, check_player_name, save_answer
from deckbuilder.data_packs.review import Question, read_answer, review_rows, shown
from deckbuilder.data_packs.standing import Standing, ValueStanding
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models.cards import Record
from deckbuilder.web.config import WebConfig, config_of
from deckbuilder.web.pages import error_line, fragment, render, wants_json

#: The longest text taken from a form field (an answer is at most 500 characters).
MAX_FIELD = 600
#: The form fields an answer may carry.
ANSWER_FIELDS = ("id", "field", "value", "action", "player", "cards")


class ReviewInputError(DeckbuilderError):
    """A choice of cards or an answer the page cannot take (one line, shown on the page)."""


# -- which cards ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chosen:
    """The cards the page lists: `choice` as the page's select names it (`base:mcready`,
    `packaged:NAME`, `file:NAME`, `set:ID`, `card:ID`), its title, and the entries."""

    choice: str
    title: str
    entries: list[Entry]


def chosen_cards(config: WebConfig, catalog: Catalog, choice: str) -> Chosen:
    """The entries a choice names, each once, in the deck's (or set's) order; raises
    `ReviewInputError` or the deck's own error (one line)."""
    from deckbuilder.web.simulator import deck_argument

    kind, _, name = choice.strip()[:MAX_FIELD].partition(":")
    if kind in ("base", "packaged", "file"):  # a deck, read as the simulator reads it
        title, entries = chosen_records(catalog, deck=deck_argument(config, choice))
    elif kind in ("set", "card"):
        title, entries = chosen_records(catalog, set_id=name if kind == "set" else None,
                                        card=name if kind == "card" else None)
    else:
        raise ReviewInputError(f"unknown choice '{choice[:60]}'",
                               fix="choose a deck, a card set or a card")
    return Chosen(choice, title, entries)


def choices(config: WebConfig, catalog: Catalog) -> list[tuple[str, list[tuple[str, str]]]]:
    """The select's option groups, each (label, [(value, label)]): the simulator's decks
    (base, packaged, deck folder), then the card sets."""
    from deckbuilder.web.simulator import deck_choices

    groups: dict[str, list[tuple[str, str]]] = {}
    for each in deck_choices(config):
        groups.setdefault(each["group"], []).append((each["value"], each["label"]))
    groups["Card sets"] = [(f"set:{set_id}", loaded.card_set.name)
                           for set_id, loaded in catalog.sets.items()]
    return list(groups.items())


# -- the values to review ---------------------------------------------------------------------
def reviewable(entry: Entry) -> list[ValueStanding]:
    """The values a player can read off the card: unconfirmed ones and those a player
    confirmed (to correct an answer), never the set a record belongs to."""
    return review_rows(entry, frozenset({Standing.UNCONFIRMED, Standing.PLAYER}))


def progress(entries: list[Entry]) -> dict[str, Any]:
    """How many of the listed cards' reviewable values a player confirmed."""
    rows = [row for entry in _once(entries) for row in reviewable(entry)]
    reviewed = sum(row.standing is Standing.PLAYER for row in rows)
    return {"reviewed": reviewed, "total": len(rows),
            "text": f"{reviewed} of {len(rows)} values reviewed"}


def _once(entries: list[Entry]) -> list[Entry]:
    """Each entry once (a card named twice in a deck file), in the order given."""
    return list({entry.id: entry for entry in entries}.values())


def value_choices(record: Record, field: str) -> list[str]:
    """The values an enum field (or a list of them) may take, for a select or a hint."""
    info = type(record).model_fields.get(field)
    annotation = info.annotation if info is not None else None
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, Enum):
            return [str(member.value) for member in candidate]
    return []


def hint(row: ValueStanding, options: list[str]) -> str:
    """How to answer, in a few words (the page's form of `Question.hint`)."""
    if row.engine_data:
        return "what the card does, as the engine reads its text: 'as shown' confirms it"
    if isinstance(row.value, list):
        return "a list like [a, b] ([] for none)" + (
            f" of: {', '.join(options)}" if options else "")
    if isinstance(row.value, bool):
        return "yes or no"
    if isinstance(row.value, int):
        return "a number"
    return "one of the choices" if options else "the printed value"


def editor_rows(entry: Entry) -> list[dict[str, Any]]:
    """What the template needs for each reviewable value of a card."""
    rows = []
    for row in reviewable(entry):
        options = (["yes", "no"] if isinstance(row.value, bool)
                   else value_choices(entry.record, row.field))
        rows.append({
            "id": row.record_id, "field": row.field, "label": row.field.replace("_", " "),
            "current": shown(row.value), "engine_data": row.engine_data,
            "player": row.standing is Standing.PLAYER, "words": row.words,
            "select": [] if isinstance(row.value, list) else options,
            "hint": hint(row, options),
            "numeric": isinstance(row.value, int) and not isinstance(row.value, bool),
        })
    return rows


def card_html(catalog: Catalog, entry: Entry, choice: str, player: str,
              errors: dict[tuple[str, str], str] | None = None) -> str:
    """One card of the page: its face with a form per reviewable value placed on it."""
    errors = errors or {}
    editors = {row["field"]: fragment("data_editor.html", row=row, choice=choice,
                                      player=player,
                                      message=errors.get((entry.id, row["field"]), ""))
               for row in editor_rows(entry)}
    shown_face = face_html(face(entry, catalog), heading_level=2, editors=editors)
    return fragment("data_card.html", entry=entry, face=Markup(shown_face))


# -- routes -----------------------------------------------------------------------------------
def _page(request: Request, choice: str, player: str,
          errors: dict[tuple[str, str], str] | None = None, status: int = 200,
          message: str = "") -> Response:
    config = config_of(request)
    catalog = config.catalog()
    chosen = None
    problem = message
    if choice:
        try:
            chosen = chosen_cards(config, catalog, choice)
        except DeckbuilderError as error:
            problem, status = error_line(error), 400
    listed = _once(chosen.entries) if chosen is not None else []
    cards = [Markup(card_html(catalog, entry, choice, player, errors))
             for entry in listed if reviewable(entry)]
    settled = [entry for entry in listed if not reviewable(entry)]
    return render(request, "data_review.html", status_code=status,
                  title="Confirm card data", choices=choices(config, catalog), choice=choice,
                  player=player, chosen=chosen, cards=cards, settled=settled,
                  progress=progress(chosen.entries) if chosen is not None else None,
                  problem=problem)


async def data_page(request: Request) -> Response:
    """`/data?cards=base:mcready&player=Ann`: the chooser, then the cards and the progress
    (in a worker thread: the page reads the deck files it lists and the one it shows)."""
    params = request.query_params
    choice = str(params.get("cards") or "")[:MAX_FIELD]
    player = str(params.get("player") or "")[:MAX_FIELD]
    return await run_in_threadpool(_page, request, choice, player)


async def _answer_form(request: Request) -> tuple[dict[str, str], bool]:
    """The answer's fields and whether the page's script sent them: `/api/...` reads only
    JSON (as every API of the app), `/data/answer` only the page's form."""
    if request.url.path.startswith("/api/"):
        if not request.headers.get("content-type", "").startswith("application/json"):
            raise ReviewInputError("send the answer as JSON (content-type application/json)")
        data = json_object(await request.body(), ReviewInputError, "send the answer the page "
                           "sends: reload it")
        return {key: _text(data.get(key)) for key in ANSWER_FIELDS}, True
    form = await request.form(max_files=0, max_fields=len(ANSWER_FIELDS) + 2)
    return {key: _text(form.get(key)) for key in ANSWER_FIELDS}, False


def _text(value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ReviewInputError("an answer's fields are text")
    return value[:MAX_FIELD]


def save(config: WebConfig, answer: dict[str, str]) -> dict[str, object]:
    """Read and save one answer; raises `ReviewInputError`/`AnswerRefused` (one line)."""
    catalog = config.catalog()
    entry = catalog.entries.get(answer["id"])
    if entry is None:
        raise ReviewInputError(f"no card with id '{answer['id'][:60]}'")
    row = next((each for each in reviewable(entry) if each.field == answer["field"]), None)
    if row is None:
        raise ReviewInputError(f"{answer['field'][:40] or 'no field'} is not a value of "
                               f"{entry.name} to review")
    player = check_player_name(answer["player"])
    question = Question(entry.id, entry.name, row.field, row.value, row.engine_data)
    typed = "=" if answer["action"] == "as-shown" else answer["value"]
    read = read_answer(entry, question, typed)
    if read.action == "skip":
        raise ReviewInputError("type the printed value, or press 'as shown'")
    if read.action == "quit" or read.action == "refused":
        raise ReviewInputError(read.reason or "type the printed value, or press 'as shown'")
    value = AS_SHOWN if read.action == "confirm" else read.value
    saved = save_answer(entry.id, row.field, value, player)
    config.forget_catalog()  # the overlay changed: the next page reads the catalog afresh
    return {"id": saved.record_id, "field": saved.field, "before": shown(saved.before),
            "after": shown(saved.after), "source": saved.source, "alias": saved.alias or ""}


def _refused(request: Request, error: DeckbuilderError, fields: dict[str, str] | None,
             scripted: bool) -> Response:
    """A refused answer: `{"error": line}` for the script, else the page again with the line
    beside the input (or above the cards, when the answer named no value)."""
    line = error_line(error)
    if scripted:
        return JSONResponse({"error": line}, status_code=400)
    if fields is None:
        return _page(request, "", "", status=400, message=line)
    return _page(request, fields["cards"], fields["player"],
                 {(fields["id"], fields["field"]): line}, 400, line)


async def answer(request: Request) -> Response:
    """POST `/data/answer` (a form: answered with a redirect to the card) or
    `/api/data/answer` (JSON from the page's script: the saved value, the card's new HTML
    and the progress). A refused answer: its one line, beside the input."""
    config = config_of(request)
    try:
        fields, scripted = await _answer_form(request)
    except DeckbuilderError as error:
        return await run_in_threadpool(_refused, request, error, None, wants_json(request))
    scripted = scripted or wants_json(request)
    try:
        saved = await run_in_threadpool(save, config, fields)
    except DeckbuilderError as error:  # AnswerRefused, a bad name, an unreadable overlay
        return await run_in_threadpool(_refused, request, error, fields, scripted)
    if not scripted:
        query = urlencode({key: value for key, value in (
            ("cards", fields["cards"]), ("player", fields["player"])) if value})
        return RedirectResponse(f"/data?{query}#card-{saved['id']}", status_code=303)
    return JSONResponse(await run_in_threadpool(_answered, config, saved, fields))


def _answered(config: WebConfig, saved: dict[str, Any], fields: dict[str, str]
              ) -> dict[str, object]:
    """The script's answer: the saved value, the card's new HTML and the progress (in a
    worker thread: the catalog is built afresh and the deck file the page shows is read)."""
    catalog = config.catalog()
    entry = catalog.entries[saved["id"]]
    body: dict[str, object] = {"saved": saved,
                            "card": card_html(catalog, entry, fields["cards"], fields["player"])}
    if fields["cards"]:
        # (none when the list the page showed no longer reads: a deck file changed)
        with contextlib.suppress(DeckbuilderError):
            body["progress"] = progress(chosen_cards(config, catalog, fields["cards"]).entries)
    return body


ROUTES: list[BaseRoute] = [
    Route("/data", data_page, name="data_review"),
    Route("/data/answer", answer, methods=["POST"], name="data_answer"),
    Route("/api/data/answer", answer, methods=["POST"], name="data_answer_api"),
]

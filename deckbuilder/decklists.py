"""Deck lists in and out: text lists (`3x .38 Special`) and the deck sites' JSON decks, read
line by line with every line labelled, like Forge. Both formats are described in
docs/players/decks.md ("Deck lists in and out"); a typo is kept as written so the deck file
shows it and `validate` points at it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.decks import (
    FACTION_GAMES,
    DeckEntry,
    LoadedDeck,
    deck_document,
)
from deckbuilder.errors import DeckbuilderError, DeckError, Location
from deckbuilder.models import Deck
from deckbuilder.models.common import CARD_ID_PATTERN, SHARED_FACTIONS, Faction
from deckbuilder.user_schemas import deck_header
from deckbuilder.writing import refuse_overwrite
from deckbuilder.yamlio import validate_document, write_yaml


class LineStatus(StrEnum):
    OK = "ok"
    MERGED = "merged"
    WARNING = "warning"  # read, but `validate` will refuse the card (not a deck card, ...)
    UNKNOWN = "unknown"
    BAD_COUNT = "bad-count"
    UNREADABLE = "unreadable"
    BAD_HEADER = "bad-header"
    HEADER = "header"
    SECTION = "section"  # a `Deck` or `Sideboard` line
    SIDEBOARD = "sideboard"  # a card of the sideboard: reported, not added
    COMMENT = "comment"
    BLANK = "blank"


PROBLEM_STATUSES = frozenset(
    {LineStatus.UNKNOWN, LineStatus.BAD_COUNT, LineStatus.UNREADABLE, LineStatus.BAD_HEADER}
)

_COUNT_FIRST = re.compile(r"^(?P<count>[-+]?\d+)\s*[xX×]?\s+(?P<name>\S.*)$")
_COUNT_LAST = re.compile(r"^(?P<name>\S.*?)\s+[xX×]\s*(?P<count>[-+]?\d+)$")
_COUNT_ONLY = re.compile(r"^[-+]?\d+\s*[xX×]?$")
_QUOTED_CARD = re.compile(
    r'^(?P<count>[-+]?\d+)\s*[xX×]?\s+(?P<name>"(?:[^"\\]|\\.)*")\s*(?:(?:#|//).*)?$'
)
_HEADER = re.compile(
    r"^(?:#|//)\s*(?P<key>faction|name|sets|description)\s*:\s*(?P<value>.*?)\s*$",
    re.IGNORECASE,
)
_INLINE_COMMENT = re.compile(r"(^|\s)(#|//).*$")
_CARD_ID = re.compile(CARD_ID_PATTERN)
#: Section lines of the deck sites' text exports (`Deck`, `Sideboard`, Forge's `[Main]`).
_SECTIONS = {"deck": False, "main": False, "maindeck": False, "main deck": False,
             "sideboard": True, "side": True, "side deck": True, "sb": True}
_SECTION = re.compile(r"^\[?\s*(?P<word>[A-Za-z ]+?)\s*\]?\s*:?\s*(?:\(\d+\))?$")
_SIDEBOARD_PREFIX = re.compile(r"^SB:\s*", re.IGNORECASE)
MAX_COPIES = 99
MAX_NAME = 200


@dataclass(frozen=True)
class ListLine:
    """The label of one line of a deck list."""

    number: int
    text: str
    status: LineStatus
    message: str = ""
    card: str | None = None  # id of the card read, or the name kept as written
    count: int = 0

    @property
    def is_problem(self) -> bool:
        return self.status in PROBLEM_STATUSES


@dataclass
class DeckList:
    """A parsed deck list: cards (merged), headers, the sideboard, one label per line."""

    lines: list[ListLine] = field(default_factory=list)
    cards: dict[str, int] = field(default_factory=dict)
    faction: str | None = None
    name: str | None = None
    sets: list[str] | None = None
    description: str | None = None
    sideboard: dict[str, int] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)  # header -> its line
    source: Path = Path("deck list")  # what `deck import` read: its file, or "share link"

    @property
    def problems(self) -> list[ListLine]:
        return [line for line in self.lines if line.is_problem]


# -- values that must survive a line of their own ------------------------------------------
def list_value(text: str) -> str:
    """The value as one line of a text list writes it: quoted when, as is, it would be read
    back as something else."""
    if not text or not text.isprintable() or text != text.strip() or text.startswith('"') \
            or "#" in text or "//" in text:
        return quoted(text)
    return text


def quoted(text: str) -> str:
    """A JSON string literal escaping U+0085, U+2028 and U+2029 too (JSON leaves them raw,
    and a line reader or a terminal acts on them)."""
    return json_escaped(json.dumps(text, ensure_ascii=False))


def json_escaped(text: str) -> str:
    """JSON text with every character that does not print as itself `\\u`-escaped (JSON
    itself escapes only the controls below U+0020)."""
    return "".join(char if char.isprintable() or char == "\n" else json.dumps(char)[1:-1]
                   for char in text)


def unquoted(text: str) -> str:
    """The value a text list holds: a JSON string literal decoded, anything else as it is."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            return text
        if isinstance(value, str):
            return value
    return text


def list_lines(text: str) -> list[str]:
    """The lines as an editor counts them (a U+2028 inside a line stays in it)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


# -- reading cards -------------------------------------------------------------------------
def _parse_card_line(text: str) -> tuple[int, str, bool] | None:
    """(count, name, count given); None when the line has only a count."""
    for pattern in (_COUNT_FIRST, _COUNT_LAST):
        match = pattern.match(text)
        if match:
            return int(match["count"]), match["name"].strip(), True
    return None if _COUNT_ONLY.match(text) else (1, text, False)


def _card_warning(entry: Entry, faction: str | None) -> str:
    record = entry.record
    if entry.kind != "card":
        return f"{entry.name} is a {entry.kind}, not a deck card: `validate` will refuse it"
    if not record.deckable or record.faction in SHARED_FACTIONS:
        return f"{entry.name} never goes into a player's deck: `validate` will refuse it"
    if faction and record.faction not in (faction, Faction.NEUTRAL):
        return f"{entry.name} is a {record.faction} card: `validate` will refuse it"
    return ""


def unknown_identity(name: str) -> str:
    """Two lines name the same unknown card when their text is the same but for case (not
    the folded lookup name, which would merge two names written in another script).

    >>> unknown_identity("Texs Ranger") == unknown_identity("TEXS RANGER")
    True
    >>> unknown_identity("\u2028") == unknown_identity("\u2029")
    False
    """
    return "?" + unicodedata.normalize("NFC", name).casefold()


class CardReader:
    """Adds `count x name` to a DeckList with its label: merged, unknown, warned, counted."""

    def __init__(self, result: DeckList, catalog: Catalog) -> None:
        self.result = result
        self.catalog = catalog
        self.first_seen: dict[str, tuple[int, str]] = {}  # identity -> (line, key)

    @property
    def game(self) -> str | None:
        return FACTION_GAMES.get(self.result.faction) if self.result.faction else None

    def add(self, number: int, raw: str, count: int, name: str, counted: bool = True,
            sideboard: bool = False) -> None:
        result, catalog = self.result, self.catalog
        if not 1 <= count <= MAX_COPIES:
            result.lines.append(ListLine(number, raw, LineStatus.BAD_COUNT,
                                         f"count must be 1 to {MAX_COPIES}; line skipped"))
            return
        entry = catalog.find(name, self.game)
        key = entry.id if entry else name
        if sideboard:
            result.sideboard[key] = result.sideboard.get(key, 0) + count
            shown = f"{entry.name} ({entry.id})" if entry else f"'{name}' (unknown)"
            result.lines.append(ListLine(number, raw, LineStatus.SIDEBOARD,
                                         f"sideboard: {count}x {shown}; not added to the deck",
                                         key, count))
            return
        identity = entry.id if entry else unknown_identity(name)
        if identity in self.first_seen:
            first_number, original = self.first_seen[identity]
            if result.cards[original] + count > MAX_COPIES:
                result.lines.append(ListLine(number, raw, LineStatus.BAD_COUNT,
                                             f"with line {first_number}: over {MAX_COPIES}"))
                return
            result.cards[original] += count
            result.lines.append(ListLine(
                number, raw, LineStatus.MERGED,
                f"merged with line {first_number}: now {result.cards[original]}x "
                f"{entry.name if entry else name}", key, count))
            return
        self.first_seen[identity] = (number, key)
        result.cards[key] = count
        if entry is None:
            hint = catalog.suggest(name, kind="card", game=self.game, faction=result.faction)
            guess = f"; did you mean {' or '.join(hint)}?" if hint else ""
            result.lines.append(ListLine(
                number, raw, LineStatus.UNKNOWN,
                f"unknown card '{name}'{guess} (kept as written: correct it in the deck file)",
                key, count))
            return
        warning = _card_warning(entry, result.faction)
        status = LineStatus.WARNING if warning else LineStatus.OK
        read = f"{count}x {entry.name} ({entry.id})" + ("" if counted else ", no count: 1")
        result.lines.append(ListLine(number, raw, status, warning or read, key, count))


# -- headers ---------------------------------------------------------------------------------
def read_header(
    number: int, raw: str, key: str, value: str, result: DeckList, faction: str | None,
) -> ListLine:
    """One `# key: value` header, checked here so a bad one is named at its own line."""
    value = unquoted(value)
    result.header_lines[key] = number
    if key == "faction":
        folded = normalise_name(value)
        if folded not in FACTION_GAMES:
            return ListLine(number, raw, LineStatus.BAD_HEADER,
                            f"unknown faction '{value}' (use {', '.join(FACTION_GAMES)})")
        if faction is not None and faction != folded:
            return ListLine(number, raw, LineStatus.HEADER,
                            f"faction {folded} (overridden by --faction {faction})")
        result.faction = folded
        return ListLine(number, raw, LineStatus.HEADER, f"faction {folded}")
    if key == "sets":
        sets = [part.strip() for part in value.split(",") if part.strip()]
        bad = [set_id for set_id in sets if not _CARD_ID.match(set_id)]
        if bad:
            return ListLine(number, raw, LineStatus.BAD_HEADER,
                            f"not a set id: {', '.join(repr(b) for b in bad)} (ids look like "
                            "tarnished-star; see `deckbuilder sets`); header skipped")
        result.sets = sets
        return ListLine(number, raw, LineStatus.HEADER, f"sets {', '.join(sets)}")
    if key == "description":
        result.description = value
        return ListLine(number, raw, LineStatus.HEADER, "description")
    if not value or len(value) > MAX_NAME:
        return ListLine(number, raw, LineStatus.BAD_HEADER,
                        f"a deck name has 1 to {MAX_NAME} characters, this one {len(value)}; "
                        "header skipped (the file's name is used)")
    result.name = value
    return ListLine(number, raw, LineStatus.HEADER, f"name {value}")


# -- text lists ------------------------------------------------------------------------------
def parse_deck_list(text: str, catalog: Catalog, faction: str | None = None) -> DeckList:
    """Read a text list, labelling each line; duplicate lines are merged.

    >>> from deckbuilder.catalog import Catalog
    >>> parse_deck_list("# faction: colty\\n", Catalog()).faction
    'colty'
    """
    result = DeckList(faction=faction)
    reader = CardReader(result, catalog)
    in_sideboard = False
    for number, raw in enumerate(list_lines(text), start=1):
        stripped = raw.strip()
        if not stripped:
            result.lines.append(ListLine(number, raw, LineStatus.BLANK))
            continue
        header = _HEADER.match(stripped)
        if header:
            result.lines.append(read_header(
                number, raw, header["key"].lower(), header["value"], result, faction))
            continue
        quoted_card = _QUOTED_CARD.match(stripped)
        if quoted_card:
            reader.add(number, raw, int(quoted_card["count"]), unquoted(quoted_card["name"]),
                       sideboard=in_sideboard)
            continue
        content = _INLINE_COMMENT.sub("", stripped).strip()
        if not content:
            result.lines.append(ListLine(number, raw, LineStatus.COMMENT))
            continue
        whole_name = catalog.find(content, reader.game) is not None  # "1866 Double Barrel ..."
        match = None if whole_name else _SECTION.match(content)  # True: the sideboard's
        section = _SECTIONS.get(" ".join(match["word"].lower().split())) if match else None
        if section is not None:
            in_sideboard = section
            result.lines.append(ListLine(number, raw, LineStatus.SECTION,
                                         "sideboard: its cards are not added" if section
                                         else "the deck"))
            continue
        sideboard_line = _SIDEBOARD_PREFIX.match(content)
        if sideboard_line and not whole_name:
            content = content[sideboard_line.end():]
        parsed = (1, content, False) if whole_name else _parse_card_line(content)
        if parsed is None:
            result.lines.append(ListLine(number, raw, LineStatus.UNREADABLE,
                                         "a count but no card name"))
            continue
        count, name, counted = parsed
        reader.add(number, raw, count, name, counted,
                   sideboard=in_sideboard or sideboard_line is not None)
    if result.faction is None:
        result.faction = guess_faction(catalog, result.cards)
    return result


def guess_faction(catalog: Catalog, cards: Iterable[str]) -> str | None:
    """The player faction most of the cards belong to (None: no card is a side's)."""
    found = (getattr(entry.record, "faction", None) if (entry := catalog.find(key)) else None
             for key in cards)
    votes = Counter(faction for faction in found if faction in FACTION_GAMES)
    return votes.most_common(1)[0][0] if votes else None


# -- JSON decks ------------------------------------------------------------------------------
def _json_object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} is given twice")
        seen[key] = value
    return seen


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > 6:
        raise ValueError(f"number {text[:12]}... is too long")
    return int(text)


def _line_of_key(text: str, key: str, start: int) -> int:
    """The line of `"key":` from `start` on (the json module keeps no positions)."""
    index = text.find(json.dumps(key), start)
    if index < 0:
        index = text.find(json.dumps(key, ensure_ascii=False), start)
    return text.count("\n", 0, max(index, 0)) + 1


def parse_deck_json(text: str, catalog: Catalog, faction: str | None = None,
                    source: Path = Path("deck.json")) -> DeckList:
    """Read a JSON deck, labelling each slot like a line of a text list."""
    try:
        data = json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int,
                          parse_constant=_no_constant)
    except ValueError as error:
        line = getattr(error, "lineno", None)
        raise DeckError(f"not a JSON deck: {getattr(error, 'msg', error)}",
                        Location(source, line, getattr(error, "colno", None)),
                        "give a JSON object with name, faction and slots") from None
    if isinstance(data, dict) and isinstance(data.get("data"), list) and len(data["data"]) == 1:
        data = data["data"][0]  # NetrunnerDB's API envelope
    if not isinstance(data, dict):
        raise DeckError("a JSON deck is an object", Location(source, 1),
                        'give {"name": ..., "faction": ..., "slots": {...}}')
    result = DeckList(faction=faction)
    for key in ("faction", "faction_code", "name", "description", "sets"):
        value = data.get(key)
        if value is None:
            continue
        header = "faction" if key == "faction_code" else key
        if header == "faction" and result.faction is not None and faction is None:
            continue
        if header == "sets" and isinstance(value, list) and all(
                isinstance(v, str) for v in value):
            value = ", ".join(value)
        number = _line_of_key(text, key, 0)
        if not isinstance(value, str):
            result.lines.append(ListLine(number, f"{key}: {value!r}", LineStatus.BAD_HEADER,
                                         f"{key} must be text; skipped"))
            continue
        result.lines.append(read_header(number, f"{key}: {value}", header, json.dumps(value),
                                         result, faction))
    reader = CardReader(result, catalog)
    slots_key = "slots" if "slots" in data else "cards"
    for section_key, sideboard in ((slots_key, False), ("sideSlots", True)):
        slots = data.get(section_key)
        if slots is None:
            continue
        start = text.find(json.dumps(section_key))
        if not isinstance(slots, dict):
            raise DeckError(f"{section_key} must map card ids to counts",
                            Location(source, _line_of_key(text, section_key, 0)),
                            f'e.g. "{section_key}": {{"deputy": 10}}')
        for name, count in slots.items():
            number = _line_of_key(text, name, max(start, 0))
            raw = f"{json.dumps(name, ensure_ascii=False)}: {json.dumps(count)}"
            if isinstance(count, bool) or not isinstance(count, int):
                result.lines.append(ListLine(number, raw, LineStatus.BAD_COUNT,
                                             "a count is a whole number; slot skipped"))
                continue
            reader.add(number, raw, count, name, sideboard=sideboard)
    if slots_key not in data:
        raise DeckError("the JSON deck has no slots", Location(source, 1),
                        'add "slots": {"card-id": count, ...}')
    if result.faction is None:
        result.faction = guess_faction(catalog, result.cards)
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def is_json_list(source: Path, text: str) -> bool:
    return source.suffix.lower() == ".json" or text.lstrip("\ufeff \t\r\n").startswith("{")


# -- import and export -----------------------------------------------------------------------
def parse_text_or_json(text: str, catalog: Catalog, faction: str | None, source: Path
                       ) -> DeckList:
    """A JSON deck (`is_json_list`) or else a text list, labelled."""
    if is_json_list(source, text):
        return parse_deck_json(text, catalog, faction, source)
    return parse_deck_list(text, catalog, faction)


def list_refusal(deck_list: DeckList, source: Path, or_else: str = "pass --faction"
                 ) -> DeckError | None:
    """Why a deck list makes no deck file (it names no faction, or no card), or None."""
    if deck_list.faction is None:
        first, *others = FACTION_GAMES
        return DeckError("the list does not say whose deck it is",
                         Location(source, deck_list.header_lines.get("faction", 1)),
                         f"add a '# faction: {first}' line (or {', '.join(others)}) or {or_else}")
    if not deck_list.cards:
        return DeckError("the list names no cards", Location(source), "add '3x .38 Special' lines")
    return None


def write_imported_deck(deck_list: DeckList, source: Path, catalog: Catalog, out: Path,
                        force: bool = False) -> None:
    """Write a deck list read from `source` as a deck file, or refuse it at its own line."""
    if (refused := list_refusal(deck_list, source)) is not None:
        raise refused
    assert deck_list.faction is not None  # list_refusal refuses a list without one
    refuse_overwrite(out, force)
    name = deck_list.name or source.stem or "imported deck"
    document = deck_document(name, deck_list.faction, deck_list.cards, catalog, deck_list.sets,
                             deck_list.description)
    try:
        validate_document(document, Deck, out)
    except DeckbuilderError as error:
        # what the list held is at fault, not the file being written: say where in the list
        raise DeckError(f"the list does not make a deck: {error.message}",
                        Location(source, min(deck_list.header_lines.values(), default=1)),
                        "correct the list's headers") from None
    write_yaml(out, document, deck_header(out, catalog))


def export_deck_list(deck: LoadedDeck, catalog: Catalog | None = None) -> str:
    """The deck as a text list that `parse_deck_list` reads back as the same deck."""
    lines = [f"# name: {list_value(deck.name)}", f"# faction: {deck.faction}"]
    if deck.deck.sets:
        lines.append(f"# sets: {', '.join(deck.deck.sets)}")
    if deck.deck.description:
        lines.append(f"# description: {list_value(deck.deck.description)}")
    lines += [f"{entry.count}x {list_value(export_name(entry, deck.game, catalog))}"
              for entry in deck.entries]
    return "\n".join(lines) + "\n"


def export_name(entry: DeckEntry, game: str, catalog: Catalog | None) -> str:
    """The entry's printed name, or its id when another card shares that name."""
    if entry.entry is None or catalog is None:
        return entry.display_name
    back = catalog.find(entry.display_name, game)
    return entry.display_name if back is not None and back.id == entry.entry.id else entry.entry.id


def export_deck_json(deck: LoadedDeck) -> str:
    """The deck as a JSON deck (unknown entries under the name as written)."""
    data: dict[str, object] = {"name": deck.name, "game": deck.game, "faction": deck.faction}
    if deck.deck.sets is not None:
        data["sets"] = list(deck.deck.sets)
    if deck.deck.description:
        data["description"] = deck.deck.description
    slots: dict[str, int] = {}
    for entry in deck.entries:
        key = entry.entry.id if entry.entry is not None else entry.key
        slots[key] = slots.get(key, 0) + entry.count
    data["slots"] = slots
    data["sideSlots"] = {}
    return json_escaped(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"

"""Text deck lists (`3x .38 Special`): read line by line, every line labelled, like Forge.

Duplicate lines are merged before counting; a typo gets the closest names and is kept as
written so the deck file shows it and `validate` points at it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.decks import (
    FACTION_GAMES,
    LoadedDeck,
    deck_document,
    game_of_faction,
)
from deckbuilder.errors import DeckError, Location
from deckbuilder.models import Deck
from deckbuilder.models.common import Faction
from deckbuilder.writing import refuse_overwrite
from deckbuilder.yamlio import read_text, validate_document, write_yaml


class LineStatus(StrEnum):
    OK = "ok"
    MERGED = "merged"
    WARNING = "warning"  # read, but `validate` will refuse the card (not a deck card, ...)
    UNKNOWN = "unknown"
    BAD_COUNT = "bad-count"
    UNREADABLE = "unreadable"
    BAD_HEADER = "bad-header"
    HEADER = "header"
    COMMENT = "comment"
    BLANK = "blank"


PROBLEM_STATUSES = frozenset(
    {LineStatus.UNKNOWN, LineStatus.BAD_COUNT, LineStatus.UNREADABLE, LineStatus.BAD_HEADER}
)

_COUNT_FIRST = re.compile(r"^(?P<count>[-+]?\d+)\s*[xX×]?\s+(?P<name>\S.*)$")
_COUNT_LAST = re.compile(r"^(?P<name>\S.*?)\s+[xX×]\s*(?P<count>[-+]?\d+)$")
_COUNT_ONLY = re.compile(r"^[-+]?\d+\s*[xX×]?$")
_HEADER = re.compile(r"^#\s*(?P<key>faction|name|sets)\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE)
_INLINE_COMMENT = re.compile(r"(^|\s)#.*$")
MAX_COPIES = 99


@dataclass(frozen=True)
class ListLine:
    """The label of one line of a text deck list."""

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
    """A parsed text deck list: cards (merged), headers, and one label per line."""

    lines: list[ListLine] = field(default_factory=list)
    cards: dict[str, int] = field(default_factory=dict)
    faction: str | None = None
    name: str | None = None
    sets: list[str] | None = None

    @property
    def problems(self) -> list[ListLine]:
        return [line for line in self.lines if line.is_problem]


def _parse_card_line(text: str) -> tuple[int, str, bool] | None:
    """(count, name, count given); None when the line has only a count."""
    for pattern in (_COUNT_FIRST, _COUNT_LAST):
        match = pattern.match(text)
        if match:
            return int(match["count"]), match["name"].strip(), True
    if _COUNT_ONLY.match(text):
        return None
    return 1, text, False


def _header_line(
    number: int, raw: str, key: str, value: str, result: DeckList, faction: str | None,
) -> ListLine:
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
        result.sets = [part.strip() for part in value.split(",") if part.strip()]
        return ListLine(number, raw, LineStatus.HEADER, f"sets {', '.join(result.sets)}")
    result.name = value
    return ListLine(number, raw, LineStatus.HEADER, f"name {value}")


def _card_warning(entry: Entry, faction: str | None) -> str:
    record = entry.record
    if entry.kind != "card":
        return f"{entry.name} is a {entry.kind}, not a deck card: `validate` will refuse it"
    if not record.deckable or record.faction == Faction.FRONTIER:
        return f"{entry.name} never goes into a player's deck: `validate` will refuse it"
    if faction and record.faction not in (faction, Faction.NEUTRAL):
        return f"{entry.name} is a {record.faction} card: `validate` will refuse it"
    return ""


def parse_deck_list(text: str, catalog: Catalog, faction: str | None = None) -> DeckList:
    """Read `3x .38 Special` lines (also `3 .38 Special`, `.38 Special x3`), labelling each.

    Duplicate lines are merged before counting; a typo gets the closest names and is kept as
    written so the deck file shows it (and `validate` points at it).

    >>> from deckbuilder.catalog import Catalog
    >>> parse_deck_list("# faction: colty\\n", Catalog()).faction
    'colty'
    """
    result = DeckList(faction=faction)
    game = FACTION_GAMES.get(faction) if faction else None
    first_seen: dict[str, tuple[int, str]] = {}  # identity -> (line, key)
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            result.lines.append(ListLine(number, raw, LineStatus.BLANK))
            continue
        header = _HEADER.match(stripped)
        if header:
            result.lines.append(_header_line(
                number, raw, header["key"].lower(), header["value"], result, faction))
            game = FACTION_GAMES.get(result.faction) if result.faction else None
            continue
        content = _INLINE_COMMENT.sub("", stripped).strip()
        if not content:
            result.lines.append(ListLine(number, raw, LineStatus.COMMENT))
            continue
        whole_name = catalog.find(content, game) is not None  # "1866 Double Barrel Derringer"
        parsed = (1, content, False) if whole_name else _parse_card_line(content)
        if parsed is None:
            result.lines.append(ListLine(number, raw, LineStatus.UNREADABLE,
                                         "a count but no card name"))
            continue
        count, name, counted = parsed
        if not 1 <= count <= MAX_COPIES:
            result.lines.append(ListLine(number, raw, LineStatus.BAD_COUNT,
                                         f"count must be 1 to {MAX_COPIES}; line skipped"))
            continue
        entry = catalog.find(name, game)
        key = entry.id if entry else name
        identity = entry.id if entry else f"?{normalise_name(name)}"
        if identity in first_seen:
            first_number, original = first_seen[identity]
            if result.cards[original] + count > MAX_COPIES:
                result.lines.append(ListLine(number, raw, LineStatus.BAD_COUNT,
                                             f"with line {first_number}: over {MAX_COPIES}"))
                continue
            result.cards[original] += count
            result.lines.append(ListLine(
                number, raw, LineStatus.MERGED,
                f"merged with line {first_number}: now {result.cards[original]}x "
                f"{entry.name if entry else name}", key, count))
            continue
        first_seen[identity] = (number, key)
        result.cards[key] = count
        if entry is None:
            hint = catalog.suggest(name, kind="card", game=game)
            guess = f"; did you mean {' or '.join(hint)}?" if hint else ""
            result.lines.append(ListLine(
                number, raw, LineStatus.UNKNOWN,
                f"unknown card '{name}'{guess} (kept as written: correct it in the deck file)",
                key, count))
            continue
        warning = _card_warning(entry, result.faction)
        status = LineStatus.WARNING if warning else LineStatus.OK
        read = f"{count}x {entry.name} ({entry.id})" + ("" if counted else ", no count: 1")
        result.lines.append(ListLine(number, raw, status, warning or read, key, count))
    if result.faction is None:
        result.faction = _guess_faction(catalog, result.cards)
    return result


def _guess_faction(catalog: Catalog, cards: Iterable[str]) -> str | None:
    votes: Counter[str] = Counter()
    for key in cards:
        entry = catalog.find(key)
        faction = getattr(entry.record, "faction", None) if entry else None
        if faction in FACTION_GAMES:
            votes[faction] += 1
    return votes.most_common(1)[0][0] if votes else None


def import_deck_list(
    source: Path, catalog: Catalog, out: Path, faction: str | None = None, force: bool = False
) -> DeckList:
    """Read a text deck list and write it as a deck file (cards under their ids)."""
    if faction is not None:
        game_of_faction(faction)
    deck_list = parse_deck_list(read_text(source), catalog, faction)
    if deck_list.faction is None:
        raise DeckError(
            "the list does not say whose deck it is", Location(source, 1),
            "add a '# faction: colty' line (or mcready, mapache, esteban) or pass --faction",
        )
    if not deck_list.cards:
        raise DeckError("the list names no cards", Location(source), "add '3x .38 Special' lines")
    refuse_overwrite(out, force)
    name = deck_list.name or source.stem
    document = deck_document(name, deck_list.faction, deck_list.cards, catalog, deck_list.sets)
    validate_document(document, Deck, out)
    write_yaml(out, document)
    return deck_list


def export_deck_list(deck: LoadedDeck) -> str:
    """The deck as a text list (`20x .38 Special`) that `parse_deck_list` reads back."""
    lines = [f"# name: {deck.name}", f"# faction: {deck.faction}"]
    if deck.deck.sets:
        lines.append(f"# sets: {', '.join(deck.deck.sets)}")
    lines.extend(f"{entry.count}x {entry.display_name}" for entry in deck.entries)
    return "\n".join(lines) + "\n"

"""Deck lists made to share: forum posts in Markdown or BBCode, and the web editor's share
links, read back as the same deck.

Names are written as text, never markup: Markdown escapes every character that could open
markup; BBCode, which has no escape, gets a zero-width space after every `[`. A share code is
the deck's diff against its base deck, `{"v": 1, "f": faction, "n": name, "o": {id: out},
"i": {key: in}, "s": sets, "d": description}`, compact JSON deflated and base64url; the codec
lives below the web layer so `deck import` reads a link as the editor does.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.decklists import (
    CardReader,
    DeckList,
    LineStatus,
    ListLine,
    export_name,
    guess_faction,
    is_json_list,
    list_lines,
    parse_text_or_json,
    quoted,
    read_header,
    unquoted,
    write_imported_deck,
)
from deckbuilder.decks import FACTION_GAMES, DeckEntry, LoadedDeck, base_deck_cards, game_of_faction
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models.common import Category
from deckbuilder.yamlio import read_text

MARKDOWN = "markdown"
BBCODE = "bbcode"
FORUM_FORMATS = (MARKDOWN, BBCODE)
OTHER = "other"  # the group of entries that are no deck card the catalog knows

# -- values -----------------------------------------------------------------------------------
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~&")
_MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
_ZERO_WIDTH_SPACE = "\u200b"


def _one_line(value: str) -> str:
    """The value itself, or a JSON string literal when one line would not hold it as is."""
    if not value or not value.isprintable() or value != value.strip() or value.startswith('"'):
        return quoted(value)
    return value


def markdown_text(value: str) -> str:
    """A value as Markdown that shows it as written and opens no markup.

    >>> print(markdown_text("[win](http://x) <b>"))
    \\[win\\](http://x) \\<b\\>
    """
    return "".join(f"\\{char}" if char in _MARKDOWN_SPECIAL else char
                   for char in _one_line(value))


def bbcode_text(value: str) -> str:
    """A value as BBCode that shows it as written and opens no tag."""
    return _one_line(value).replace("[", "[" + _ZERO_WIDTH_SPACE)


# -- writing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Style:
    """How one forum format marks up each kind of line."""

    text: Callable[[str], str]  # a value, escaped
    name: str  # the deck's name line, `{}` for the escaped name
    label: str  # a header label, `{}` for its key
    heading: str  # a category heading, `{}` for "Action (18)"
    card: str  # a card line, `{count}` and `{name}`
    footer: str  # the closing line, `{}` for "62 cards"
    gap: bool  # a blank line between header lines (Markdown joins adjacent lines)


_MARKDOWN_STYLE = _Style(markdown_text, "## {}", "**{}:**", "### {}", "- {count}x {name}",
                         "*{}*", gap=True)
_BBCODE_STYLE = _Style(bbcode_text, "[b]Deck:[/b] {}", "[b]{}:[/b]", "[b][u]{}[/u][/b]",
                       "{count}x {name}", "[i]{}[/i]", gap=False)


def _groups(deck: LoadedDeck) -> list[tuple[str, list[DeckEntry]]]:
    """The deck's entries by category, in the categories' order, then what has none."""
    grouped: dict[str, list[DeckEntry]] = {}
    for entry in deck.entries:
        found = entry.entry
        category = str(found.record.category) if found is not None and found.kind == "card" \
            else OTHER
        grouped.setdefault(category, []).append(entry)
    order = [str(category) for category in Category] + [OTHER]
    return [(category, grouped[category]) for category in order if category in grouped]


def export_forum(deck: LoadedDeck, catalog: Catalog | None, output_format: str) -> str:
    """`deck export --format markdown|bbcode`: a post that `deck import` reads back."""
    style = {MARKDOWN: _MARKDOWN_STYLE, BBCODE: _BBCODE_STYLE}[output_format]
    headers = [style.name.format(style.text(deck.name)),
               f"{style.label.format('Faction')} {deck.faction}"]
    if deck.deck.sets:
        headers.append(f"{style.label.format('Sets')} {style.text(', '.join(deck.deck.sets))}")
    if deck.deck.description:
        headers.append(f"{style.label.format('Description')} "
                       f"{style.text(deck.deck.description)}")
    lines = [headers[0]]
    for header in headers[1:]:
        lines += ["", header] if style.gap else [header]
    for category, entries in _groups(deck):
        title = "Other cards" if category == OTHER else category.capitalize()
        lines += ["", style.heading.format(f"{title} ({sum(e.count for e in entries)})")]
        lines += [style.card.format(count=entry.count,
                                    name=style.text(export_name(entry, deck.game, catalog)))
                  for entry in entries]
    lines += ["", style.footer.format(f"{deck.total()} cards")]
    return "\n".join(lines) + "\n"


# -- reading ------------------------------------------------------------------------------------
_MD_HEADER = re.compile(r"^\*\*(?P<key>name|deck|faction|sets|description)\s*:\s*\*\*"
                        r"(?P<value>.*)$", re.IGNORECASE)
_MD_NAME = re.compile(r"^#{1,2}\s+(?P<value>.*)$")
_MD_HEADING = re.compile(r"^#{3,6}\s")
_MD_CARD = re.compile(r"^(?:[-*+]\s+)?(?P<count>\d+)\s*[xX×]\s+(?P<name>.+)$")
_BB_HEADER = re.compile(r"^\[b\]\s*(?P<key>name|deck|faction|sets|description)\s*:\s*\[/b\]"
                        r"(?P<value>.*)$", re.IGNORECASE)
_BB_CARD = re.compile(r"^(?:\[\*\]\s*)?(?P<count>\d+)\s*[xX×]\s+(?P<name>.+)$")
_BB_TAG = re.compile(r"\[/?(?:b|i|u|list|size|color|c|q)\b[^\]\u200b]*\]", re.IGNORECASE)


def forum_format(text: str) -> str | None:
    """`markdown` or `bbcode` when the text's header lines make it a forum post, else None."""
    for line in text.split("\n")[:40]:
        stripped = line.strip()
        if _MD_HEADER.match(stripped):
            return MARKDOWN
        if _BB_HEADER.match(stripped):
            return BBCODE
    return None


def parse_forum_list(text: str, catalog: Catalog, faction: str | None, style: str) -> DeckList:
    """Read a forum post (`style`: `forum_format`'s answer), labelling every line; its prose
    is comments."""
    result = DeckList(faction=faction)
    reader = CardReader(result, catalog)

    def value_of(text: str) -> str:  # the value a line holds, its escapes undone
        text = text.strip()
        return unquoted(_MARKDOWN_ESCAPE.sub(r"\1", text) if style == MARKDOWN
                        else text.replace("[" + _ZERO_WIDTH_SPACE, "["))

    for number, raw in enumerate(list_lines(text), start=1):
        stripped = raw.strip()
        if not stripped:
            result.lines.append(ListLine(number, raw, LineStatus.BLANK))
            continue
        header = (_MD_HEADER if style == MARKDOWN else _BB_HEADER).match(stripped)
        if header is None and style == MARKDOWN and "name" not in result.header_lines:
            header = _MD_NAME.match(stripped)  # the post's title: the deck's name
        if header is not None:
            key = header.groupdict().get("key", "name").lower()
            key = "name" if key == "deck" else key
            value = value_of(header["value"])
            result.lines.append(read_header(number, raw, key, json.dumps(value), result, faction))
            continue
        card = (_MD_CARD if style == MARKDOWN else _BB_CARD).match(stripped)
        if card:
            reader.add(number, raw, int(card["count"]), value_of(card["name"]))
            continue
        if _MD_HEADING.match(stripped) if style == MARKDOWN else _BB_TAG.search(stripped):
            result.lines.append(ListLine(number, raw, LineStatus.SECTION, "a heading"))
            continue
        result.lines.append(ListLine(number, raw, LineStatus.COMMENT))
    if result.faction is None:
        result.faction = guess_faction(catalog, result.cards)
    return result


# -- share codes -------------------------------------------------------------------------------
SHARE_VERSION = 1
#: The longest share code accepted (a deck changed everywhere is well under 2,000 characters).
MAX_SHARE_CODE = 6000
_MAX_INFLATED = 100_000
_MAX_ENTRIES = 500
_MAX_COPIES = 99
_SHARE_IN_LINK = re.compile(r"[?&]share=(?P<code>[A-Za-z0-9_-]+)")
_BARE_CODE = re.compile(r"^[A-Za-z0-9_-]{16,}$")


class ShareCodeError(DeckbuilderError):
    """A share link that does not hold a deck (cut short, edited, from another tool)."""


def _bad_code(reason: str) -> ShareCodeError:
    return ShareCodeError(f"the share link does not hold a deck: {reason}",
                          Location("share link"), "ask for the link again, copied whole")


def share_code_in(text: str) -> str | None:
    """The share code a web link (`.../deck?share=CODE`) or a bare code holds, else None.

    >>> share_code_in("http://127.0.0.1:8000/deck?share=eNqrVipTsjLUUcpMUbJSSlGqBQAc")
    'eNqrVipTsjLUUcpMUbJSSlGqBQAc'
    >>> share_code_in("3x Deputy") is None
    True
    """
    stripped = text.strip()
    found = _SHARE_IN_LINK.search(stripped)
    if found and "\n" not in stripped:
        return found["code"]
    return stripped if _BARE_CODE.match(stripped) else None


def encode_share_code(faction: str, name: str, out: dict[str, int], into: dict[str, int],
                      sets: list[str] | None, description: str | None = None) -> str:
    """A deck's diff against its base deck as a share code (the web editor's links)."""
    data: dict[str, object] = {"v": SHARE_VERSION, "f": faction, "n": name, "o": out, "i": into,
                            "s": sets}
    if description:
        data["d"] = description
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def _counts(value: object, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or len(value) > _MAX_ENTRIES or not all(
            isinstance(key, str) and type(count) is int and 1 <= count <= _MAX_COPIES
            for key, count in value.items()):
        raise _bad_code(f"its {what} are not card counts")
    return value


def decode_share_code(code: str, loads: Callable[[bytes], object] = json.loads,
                      refused: tuple[type[Exception], ...] = ()) -> dict[str, Any]:
    """The fields a share code holds, checked and bounded (length, inflated size, counts).
    The web passes its nesting-bounded JSON reader and the error it raises."""
    if len(code) > MAX_SHARE_CODE:
        raise _bad_code(f"it is longer than {MAX_SHARE_CODE} characters")
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)),
                                  _MAX_INFLATED)
        if inflater.unconsumed_tail:
            raise _bad_code("it unpacks to too much")
        if not inflater.eof:
            raise _bad_code("it is cut short")
        data = loads(raw)
    except refused as error:
        raise _bad_code(str(error)) from None
    except RecursionError:
        raise _bad_code("it is nested too deep") from None
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise _bad_code("it is not base64url-encoded deck data") from None
    if not isinstance(data, dict) or data.get("v") != SHARE_VERSION:
        raise _bad_code("it was made by another version of this app")
    faction = data.get("f")
    if not isinstance(faction, str) or faction not in FACTION_GAMES:
        raise _bad_code("it names no faction with a base deck")
    sets = data.get("s")
    if sets is not None and not (isinstance(sets, list) and len(sets) <= 100
                                 and all(isinstance(item, str) for item in sets)):
        raise _bad_code("its sets are not set ids")
    name, description = data.get("n"), data.get("d")
    return {"faction": faction, "name": name if isinstance(name, str) and name else None,
            "out": _counts(data.get("o", {}), "cards out"),
            "into": _counts(data.get("i", {}), "cards in"), "sets": sets,
            "description": description if isinstance(description, str) else None}


def shared_deck_cards(shared: dict[str, Any], catalog: Catalog, where: Location
                      ) -> dict[str, int]:
    """The cards a decoded share code holds: its base deck with the diff applied."""
    base = Counter(base_deck_cards(catalog, shared["faction"], where))
    return dict(base - Counter(shared["out"]) + Counter(shared["into"]))  # in the base's order


def parse_share_code(code: str, catalog: Catalog, faction: str | None = None) -> DeckList:
    """The deck a share code holds, as a deck list labelled on line 1 (a link is one line)."""
    shared = decode_share_code(code)
    cards = shared_deck_cards(shared, catalog, Location("share link"))
    result = DeckList(faction=faction)
    raw = f"share code {code[:24]}..." if len(code) > 24 else f"share code {code}"
    headers = {"faction": shared["faction"], "name": shared["name"],
               "sets": ", ".join(shared["sets"]) if shared["sets"] is not None else None,
               "description": shared["description"]}
    for key, value in headers.items():
        if value is not None:
            result.lines.append(read_header(1, raw, key, json.dumps(value), result, faction))
    reader = CardReader(result, catalog)
    for card, count in cards.items():
        reader.add(1, raw, count, card)
    return result


def _shared_deck(text: str, catalog: Catalog, faction: str | None) -> DeckList | None:
    """The deck of a share link (its errors are the link's), or of a bare code when the text
    decodes as one (text that only looks like a code is left to the other readers)."""
    code = share_code_in(text)
    if code is None:
        return None
    if _SHARE_IN_LINK.search(text):
        return parse_share_code(code, catalog, faction)
    try:
        return parse_share_code(code, catalog, faction)
    except ShareCodeError:
        return None


# -- any deck list ------------------------------------------------------------------------------
def parse_any_deck_list(text: str, catalog: Catalog, faction: str | None = None,
                        source: Path = Path("deck list")) -> DeckList:
    """Any deck list: a share link or code, a JSON deck, a forum post, a text list (in that
    order)."""
    shared = _shared_deck(text, catalog, faction)
    if shared is not None:
        return shared
    style = None if is_json_list(source, text) else forum_format(text)
    if style is not None:
        return parse_forum_list(text, catalog, faction, style)
    return parse_text_or_json(text, catalog, faction, source)


def import_any_deck_list(source: Path | str, catalog: Catalog, out: Path,
                         faction: str | None = None, force: bool = False) -> DeckList:
    """`deck import SOURCE`: a deck list file, or a share link or code, as a deck file."""
    if faction is not None:
        game_of_faction(faction)
    path = Path(source)
    try:
        is_file = path.exists()
    except OSError:  # a name too long for a file (a share code given in its place)
        is_file = False
    shared = None if is_file else _shared_deck(str(source), catalog, faction)
    if shared is not None:
        deck_list, path = shared, Path("share link")
    else:  # a file (a missing one is "file not found", even if its name looked like a code)
        deck_list = parse_any_deck_list(read_text(path), catalog, faction, path)
    write_imported_deck(deck_list, path, catalog, out, force)
    deck_list.source = path
    return deck_list


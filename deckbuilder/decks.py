"""Deck files: read (with each entry's line, so the validator can say `deck.yaml:12`), resolve,
build and edit through the round-trip document, so comments and order survive.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.tokens import CommentToken

from deckbuilder import paths
from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DataFileError, DeckbuilderError, DeckError, Location
from deckbuilder.models import Collection, Deck
from deckbuilder.models.common import GAME_FACTIONS, Faction
from deckbuilder.schema_json import HEADER_PREFIX
from deckbuilder.user_schemas import deck_header, with_deck_header_that_resolves
from deckbuilder.writing import atomic_write_text, editing, refuse_overwrite
from deckbuilder.yamlio import (
    dump_keeping_layout,
    load_model,
    located,
    model_of,
    position,
    read_bytes,
    text_of,
    validate_document,
    write_yaml,
)

DECK_SIZE = 62
#: The factions that have a base deck, and their game.
FACTION_GAMES: dict[str, str] = {
    str(faction): str(game) for game, factions in GAME_FACTIONS.items() for faction in factions
}
#: Each side's title (its game's declaration: "Colty gang", "Padre Esteban").
FACTION_TITLES: dict[str, str] = {
    side.id: side.title for declaration in DECLARATIONS for side in declaration.sides}
_NAME_COMMENT_COLUMN = 40


def game_of_faction(faction: str, where: Location | None = None) -> str:
    """The game a player faction belongs to; other factions have no base deck."""
    game = FACTION_GAMES.get(faction)
    if game is None:
        raise DeckError(
            f"'{faction}' has no base deck", where,
            f"use one of: {', '.join(FACTION_GAMES)}",
        )
    return game


# -- loaded decks ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DeckEntry:
    """One `card: count` line of a deck file, resolved (or not) to a catalog entry."""

    key: str
    count: int
    line: int | None
    entry: Entry | None

    @property
    def identity(self) -> str:
        """The resolved id, or the folded name of an unknown card."""
        return self.entry.id if self.entry else f"?{normalise_name(self.key)}"

    @property
    def display_name(self) -> str:
        return self.entry.name if self.entry else self.key


@dataclass(frozen=True)
class LoadedDeck:
    """A deck with each entry resolved and, when read from a file, its source lines."""

    deck: Deck
    entries: tuple[DeckEntry, ...]
    path: Path | None = None
    document: object = None  # the round-trip document of the file read

    @property
    def name(self) -> str:
        return self.deck.name

    @property
    def game(self) -> str:
        return str(self.deck.game)

    @property
    def faction(self) -> str:
        return str(self.deck.faction)

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else self.deck.name

    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    def counts(self) -> dict[str, int]:
        """Resolved card id -> copies, entries naming the same card merged, in file order."""
        counts: dict[str, int] = {}
        for entry in self.entries:
            if entry.entry is not None:
                counts[entry.entry.id] = counts.get(entry.entry.id, 0) + entry.count
        return counts

    def unknown(self) -> list[DeckEntry]:
        return [entry for entry in self.entries if entry.entry is None]

    def line_of(self, card_id: str) -> int | None:
        return next((entry.line for entry in self.entries
                     if entry.entry is not None and entry.entry.id == card_id), None)

    def miswritten(self) -> list[DeckEntry]:
        """Entries naming a card by a spelling the catalog finds only by folding (`texas
        ranger`), which an editor's schema does not know; `deck fix-ids` rewrites them."""
        return [entry for entry in self.entries
                if entry.entry is not None and entry.key not in _spellings(entry.entry)]

    def cards_line(self) -> int | None:
        found = position(self.document, ["cards"]) if self.document is not None else None
        return found[0] if found else None

    def set_line(self, set_id: str) -> int | None:
        sets = self.deck.sets or []
        if self.document is None or set_id not in sets:
            return None
        found = position(self.document, ["sets", sets.index(set_id)])
        return found[0] if found else None


def _spellings(entry: Entry) -> tuple[str, ...]:
    """How a deck file may name a card exactly: its id, printed name and aliases."""
    return (entry.id, entry.name, *entry.record.aliases)


def _key_lines(document: object) -> dict[str, int]:
    cards = document.get("cards") if isinstance(document, CommentedMap) else None
    if not isinstance(cards, CommentedMap):
        return {}
    return {str(key): cards.lc.key(key)[0] + 1 for key in cards}


def resolve_deck(
    deck: Deck, catalog: Catalog, path: Path | None = None, document: object = None
) -> LoadedDeck:
    """Resolve a deck model's card names against the catalog."""
    lines = _key_lines(document) if document is not None else {}
    entries = tuple(
        DeckEntry(key, count, lines.get(key), catalog.find(key, deck.game))
        for key, count in deck.cards.items()
    )
    return LoadedDeck(deck, entries, path, document)


def load_deck(path: Path | str, catalog: Catalog) -> LoadedDeck:
    """Read a deck file and resolve its cards; a file that is no readable deck raises
    `DataFileError` with its `file:line`."""
    path = Path(path)
    deck, document = load_model(path, Deck)
    return resolve_deck(deck, catalog, path, document)


# -- the one reader of a deck, however it is given -------------------------------------------
#: A deck however it is given: loaded (`load_deck`), a model, a path, or a name (a packaged
#: deck's, or a faction's for its base deck).
DeckSource: TypeAlias = LoadedDeck | Deck | str | os.PathLike[str]


class DeckInputError(DeckError):
    """A value given as a deck is none of the things a deck may be given as."""


@dataclass(frozen=True)
class DeckArgument:
    """A deck read, and what it was given as: kind "file", "faction" (its base deck),
    "packaged" (a deck shipped in the package) or "object" (a model or a loaded deck)."""

    loaded: LoadedDeck
    kind: str
    faction: str | None = None  # the faction, when kind == "faction"

    @property
    def source(self) -> str:
        """What identifies the deck: its file (resolved), else its base deck, else its name."""
        if self.loaded.path is not None:
            return str(self.loaded.path.resolve())
        return f"base:{self.faction}" if self.faction else self.loaded.name


def packaged_decks() -> dict[str, Path]:
    """The decks that ship with the package (base decks and examples), by name."""
    return {path.stem: path for path in sorted(paths.PACKAGED_DECKS.glob("*.yaml"))}


def packaged_deck_names() -> list[str]:
    """The names of the decks shipped in the package (`example-mcready-pinkertons` ...)."""
    return sorted(packaged_decks())


#: A packaged deck's name, to show how one is given.
EXAMPLE_DECK = next((name for name in packaged_deck_names() if name.startswith("example-")), "")
#: How a deck argument reads, for every command's --help.
DECK_ARGUMENT_HELP = (f"a deck file; else a faction ({', '.join(FACTION_GAMES)}) for its base "
                      f"deck, or a packaged deck's name ({EXAMPLE_DECK}); a file of that name "
                      "in the current folder wins")


def packaged_deck_file(name: str) -> Path | None:
    """The packaged deck a bare name (with or without `.yaml`) names, or None."""
    path = Path(name)
    if path.parent != Path(".") or not path.name:
        return None
    packaged = paths.PACKAGED_DECKS / f"{path.name.removesuffix('.yaml')}.yaml"
    return packaged if packaged.is_file() else None


def packaged_deck(name: str) -> Path:
    """One packaged deck file by name (`example-mcready-pinkertons`, `colty-base`, ...)."""
    found = packaged_deck_file(name)
    if found is None:
        raise DeckbuilderError(f"no packaged deck named '{name}'",
                               fix=f"choose among: {', '.join(packaged_decks())}")
    return found


def deck_text(source: object, what: str = "deck") -> str | None:
    """A deck given as a name or a path, as text (None: a deck object); a value that is no
    deck at all is a `DeckInputError` naming `what`."""
    if isinstance(source, str):
        return source
    if isinstance(source, os.PathLike) and isinstance(path := os.fspath(source), str):
        return path
    if isinstance(source, LoadedDeck | Deck):
        return None
    raise DeckInputError(
        f"a {what} must be a loaded deck, a Deck, a path or a name, not {type(source).__name__}",
        fix="pass deckbuilder.load_deck(path, catalog), a deck file's path, a packaged "
            f"deck's name ({EXAMPLE_DECK}) or a faction ({next(iter(FACTION_GAMES))})")


def read_deck(source: object, catalog: Catalog, what: str = "deck") -> DeckArgument:
    """The one reading of a deck, for every command, page and script that takes one: a file
    at that path wins, else a faction's base deck (`Colti`), else a packaged deck's name.
    """
    text = deck_text(source, what)
    if text is None:
        if isinstance(source, LoadedDeck):
            return DeckArgument(source, "object")
        assert isinstance(source, Deck)  # deck_text let only these through
        return DeckArgument(resolve_deck(source, catalog), "object")
    path = Path(text)
    if path.exists():
        return DeckArgument(load_deck(path, catalog), "file")
    faction = normalise_name(text).replace(" ", "")
    if faction in FACTION_GAMES:
        return DeckArgument(_base_deck(faction, catalog), "faction", faction)
    packaged = packaged_deck_file(text)
    if packaged is not None:
        return DeckArgument(load_deck(packaged, catalog), "packaged")
    raise DeckError("file not found", Location(path),
                    f"name a deck file, a faction ({', '.join(FACTION_GAMES)}) for its base "
                    f"deck, or a packaged deck ({', '.join(packaged_deck_names())})")


def base_deck_cards(catalog: Catalog, faction: str, where: Location | None = None
                    ) -> dict[str, int]:
    """The faction's base deck (card id -> copies), or a `DeckError` at `where`."""
    game = game_of_faction(faction, where)
    cards = catalog.base_deck(game, faction)
    if not cards:
        raise DeckError(f"no base deck for '{faction}': the {game} base set is not installed",
                        where, "install the base set (see `deckbuilder sets`)")
    return cards


def base_deck_name(faction: str) -> str:
    """The name a base deck goes by ("Colty gang base deck")."""
    return f"{FACTION_TITLES.get(Faction(faction), faction)} base deck"


def _base_deck(faction: str, catalog: Catalog) -> LoadedDeck:
    game = FACTION_GAMES[faction]
    cards = base_deck_cards(catalog, faction)
    base_set = catalog.base_set_id(game)
    deck = Deck(name=base_deck_name(faction), game=game, faction=faction,
                sets=[base_set] if base_set else None, cards=cards)
    return resolve_deck(deck, catalog)


# -- collections ----------------------------------------------------------------------------
def owned_copies(
    collection: Collection, catalog: Catalog, path: Path | None = None, document: object = None
) -> dict[str, int]:
    """Card id -> copies owned: `boxes * copies` for every card of each owned set, plus singles."""
    source = path if path is not None else Path("collection")
    owned: Counter[str] = Counter()
    for set_id, boxes in collection.sets.items():
        loaded = catalog.sets.get(set_id)
        if loaded is None:
            raise DataFileError(
                f"collection names set '{set_id}', which is not installed",
                located(source, document, ("sets", set_id)),
                f"installed sets: {', '.join(sorted(catalog.sets))}",
            )
        for card in loaded.card_set.cards:
            owned[card.id] += boxes * card.copies
    for key, count in collection.cards.items():
        entry = catalog.find(key)
        if entry is None:
            raise DataFileError(f"collection names unknown card '{key}'",
                                located(source, document, ("cards", key)),
                                _did_you_mean(catalog.suggest(key, kind="card")))
        owned[entry.id] += count
    return dict(owned)


def load_collection(path: Path | str, catalog: Catalog) -> dict[str, int]:
    path = Path(path)
    collection, document = load_model(path, Collection)
    return owned_copies(collection, catalog, path, document)


# -- new decks ------------------------------------------------------------------------------
def _name_comment(name: str, following: str = "") -> list[CommentToken | None]:
    token = CommentToken(f"# {name}\n{following}", CommentMark(_NAME_COMMENT_COLUMN), None)
    return [None, None, token, None]


def deck_document(
    name: str, faction: str, cards: dict[str, int], catalog: Catalog,
    sets: list[str] | None = None, description: str | None = None,
) -> CommentedMap:
    """A deck as a round-trip document: cards under their ids, each with its name beside it
    (a text that does not print is double-quoted, or ruamel reads U+2028 back as a break)."""
    document = CommentedMap()
    document["name"] = _printed(name)
    document["game"] = game_of_faction(faction)
    document["faction"] = faction
    if sets:
        flow = CommentedSeq(sets)
        flow.fa.set_flow_style()
        document["sets"] = flow
    card_map = CommentedMap()
    for key, count in cards.items():
        card_map[_printed(key)] = count  # an unknown card is kept as written
        entry = catalog.find(key, game_of_faction(faction))
        if entry is not None and entry.name != key:
            card_map.ca.items[key] = _name_comment(entry.name)
    document["cards"] = card_map
    if description:
        document["description"] = _printed(description)
    return document


def _printed(text: str) -> str:
    return text if text.isprintable() else DoubleQuotedScalarString(text)


def new_deck(
    catalog: Catalog, faction: str, path: Path, force: bool = False, name: str | None = None
) -> dict[str, int]:
    """Write the faction's base deck to `path`; returns its cards (id -> copies)."""
    base = base_deck_cards(catalog, faction)
    refuse_overwrite(path, force)
    document = deck_document(name or base_deck_name(faction), faction, base, catalog)
    write_yaml(path, document, deck_header(path, catalog))
    return base


# -- swapping cards in place ----------------------------------------------------------------
def _comment_parts(cards: CommentedMap, key: object) -> tuple[str, str, CommentToken | None]:
    """A key's comment token is '<end-of-line comment>\\n<comment lines below it>'."""
    slots = cards.ca.items.get(key)
    token = slots[2] if slots and len(slots) > 2 else None
    if token is None:
        return "", "", None
    end_of_line, _, below = token.value.partition("\n")
    return end_of_line, below, token


def _set_comment(cards: CommentedMap, key: object, end_of_line: str, below: str,
                 like: CommentToken | None) -> None:
    if not end_of_line and not below:
        cards.ca.items.pop(key, None)
        return
    column = like.column if like is not None and like.column is not None else 0
    token = CommentToken(f"{end_of_line}\n{below}", CommentMark(column), None)
    cards.ca.items[key] = [None, None, token, None]


def _insert_after(cards: CommentedMap, anchor: object, key: str, value: int,
                  name: str | None) -> None:
    """Insert below `anchor`; the comment lines that followed the anchor now follow the new key."""
    end_of_line, below, token = _comment_parts(cards, anchor)
    _set_comment(cards, anchor, end_of_line, "", token)
    cards.insert(list(cards).index(anchor) + 1, key, value)
    if name and not cards.fa.flow_style():  # a comment inside {...} would break the line
        cards.ca.items[key] = _name_comment(name, below)
    elif below:
        _set_comment(cards, key, "", below, None)


def _drop_key(cards: CommentedMap, key: object) -> None:
    """Delete a key; its end-of-line comment goes with it, the comment lines below it stay."""
    keys = list(cards)
    index = keys.index(key)
    _, below, _ = _comment_parts(cards, key)
    cards.ca.items.pop(key, None)
    del cards[key]
    if not below:
        return
    if index > 0:
        previous = keys[index - 1]
        end_of_line, previous_below, token = _comment_parts(cards, previous)
        _set_comment(cards, previous, end_of_line, previous_below + below, token)
    else:
        if cards.ca.comment is None:
            cards.ca.comment = [None, []]
        if cards.ca.comment[1] is None:
            cards.ca.comment[1] = []
        cards.ca.comment[1].append(CommentToken(below, CommentMark(0), None))


@dataclass(frozen=True)
class SwapResult:
    path: Path
    out_name: str
    in_id: str
    in_name: str
    count: int
    out_id: str | None = None  # None: the out card was written under a name the catalog lacks


def set_card_counts(cards: CommentedMap, counts: Sequence[tuple[str, int]], catalog: Catalog,
                    game: str | None) -> None:
    """Make a deck file's `cards` map hold these counts, changing only what changed, as `deck
    swap` edits a file (a new card goes in under its id with its name as a comment)."""

    def identity(key: str) -> str:  # as a loaded deck's entry tells cards apart
        return DeckEntry(key, 0, None, catalog.find(key, game)).identity

    wanted: dict[str, tuple[str, int]] = {}
    for key, count in counts:
        written, before = wanted.get(identity(key), (key, 0))  # the first spelling is kept
        wanted[identity(key)] = (written, before + count)
    placed: set[str] = set()
    for key in list(cards):
        found = identity(str(key))
        if found not in wanted or found in placed:
            _drop_key(cards, key)
            continue
        placed.add(found)
        if cards[key] != wanted[found][1]:
            cards[key] = wanted[found][1]
    for found, (key, count) in wanted.items():
        if found in placed:
            continue
        entry = catalog.find(key, game)
        new_key = entry.id if entry is not None else key
        if len(cards):
            _insert_after(cards, list(cards)[-1], new_key, count,
                          entry.name if entry is not None and entry.name != new_key else None)
        else:
            cards[new_key] = count


def _did_you_mean(hint: list[str]) -> str:
    return f"did you mean {' or '.join(hint)}?" if hint else "look it up with `deckbuilder cards`"


def _not_found(catalog: Catalog, text: str, where: Location, what: str) -> DeckError:
    return DeckError(f"{what} '{text}' is not a known card", where,
                     _did_you_mean(catalog.suggest(text, kind="card")))


def _keys_naming(cards: CommentedMap, catalog: Catalog, entry: Entry | None) -> list[object]:
    if entry is None:
        return []
    return [
        key for key in cards
        if (found := catalog.find(str(key), entry.game)) and found.id == entry.id
    ]


def swap_cards(
    path: Path | str, catalog: Catalog, out_card: str, in_card: str, count: int = 1
) -> SwapResult:
    """Replace `count` copies of one card by another in a deck file, keeping comments and order."""
    path = Path(path)
    with editing(path):  # a concurrent swap on the same deck waits: both swaps survive
        document, original = _read_for_edit(path)
        cards: CommentedMap = document["cards"]
        game = str(document.get("game", "")) or None
        in_entry = catalog.find(in_card, game)
        if in_entry is None:
            raise _not_found(catalog, in_card, Location(path), "in card")
        out_entry = catalog.find(out_card, game)
        out_keys = [key for key in cards if str(key) == out_card] or _keys_naming(
            cards, catalog, out_entry)
        if not out_keys:
            if out_entry is None:
                raise _not_found(catalog, out_card, Location(path), "out card")
            raise DeckError(
                f"the deck has no copy of {out_entry.name}", Location(path),
                "name a card the deck contains (`deckbuilder deck export` lists them)",
            )
        out_name = out_entry.name if out_entry else out_card
        if out_entry is not None and out_entry.id == in_entry.id:
            raise DeckError(f"out and in are the same card ({out_name})", Location(path),
                            "name two different cards")
        have = sum(int(cards[key]) for key in out_keys)
        if have < count:
            line = cards.lc.key(out_keys[0])[0] + 1
            raise DeckError(
                f"the deck has {have} {'copy' if have == 1 else 'copies'} of {out_name}, "
                f"so {count} can't be swapped out", Location(path, line),
                f"use --count {have} or less",
            )
        remaining = count
        for key in out_keys:
            taken = min(int(cards[key]), remaining)
            cards[key] = int(cards[key]) - taken
            remaining -= taken
        in_keys = _keys_naming(cards, catalog, in_entry)
        if in_keys:
            cards[in_keys[0]] = int(cards[in_keys[0]]) + count
        else:
            _insert_after(cards, out_keys[0], in_entry.id, count, in_entry.name)
        for key in out_keys:
            if cards[key] == 0:
                _drop_key(cards, key)
        validate_document(document, Deck, path)
        write_edited_deck(path, document, original, catalog)
        return SwapResult(path, out_name, in_entry.id, in_entry.name, count,
                          out_entry.id if out_entry is not None else None)


def _read_for_edit(path: Path) -> tuple[CommentedMap, str]:
    """A deck file's round-trip document and the text it was read from (read once)."""
    raw = read_bytes(path)
    _, document = model_of(raw, path, Deck)
    assert isinstance(document, CommentedMap)  # a file read as a Deck holds a mapping
    return document, text_of(raw, path)


def write_edited_deck(path: Path, document: object, original: str, catalog: Catalog) -> str:
    """Write an edited deck file atomically into the same inode and return the text: what the
    edit did not touch keeps `original`'s layout, and a `$schema` line that does not resolve
    here is replaced by one that does (a line the user wrote is never dropped)."""
    text = dump_keeping_layout(document, original)
    rewritten = with_deck_header_that_resolves(text, path, catalog)
    # a `$schema` line lost for none (nothing resolves here) is kept: it may resolve again
    # where the deck goes back (its repository)
    if rewritten == text or rewritten.startswith(HEADER_PREFIX):
        text = rewritten
    atomic_write_text(path, text, keep_links=True)
    return text


# -- card keys written as ids ---------------------------------------------------------------
@dataclass(frozen=True)
class RewrittenKey:
    line: int | None
    written: str
    card: str  # the id it is now written as
    name: str
    merged: bool  # the card had another line already: the counts were added up there


def fix_card_ids(path: Path | str, catalog: Catalog) -> list[RewrittenKey]:
    """`deck fix-ids`: every `cards` key naming a card by anything but its id is rewritten to
    the id in place (two lines of one card merged); nothing to rewrite, nothing written."""
    path = Path(path)
    with editing(path):  # a concurrent swap on the same deck waits
        document, original = _read_for_edit(path)
        cards: CommentedMap = document["cards"]
        game = str(document.get("game", "")) or None
        lines = _key_lines(document)
        rewritten: list[RewrittenKey] = []
        first_key: dict[str, object] = {}
        for key in list(cards):
            entry = catalog.find(str(key), game)
            if entry is None:
                continue
            if entry.id in first_key:  # a second line of the same card: counts added up
                kept = first_key[entry.id]
                cards[kept] = int(cards[kept]) + int(cards[key])
                _drop_key(cards, key)
                rewritten.append(RewrittenKey(lines.get(str(key)), str(key), entry.id,
                                              entry.name, True))
                continue
            first_key[entry.id] = key
            if str(key) == entry.id:
                continue
            # the id takes the key's place with its comments; a line without an end-of-line
            # comment gets the card's name as one (as `deck new` writes)
            index, value = list(cards).index(key), cards[key]
            slots = cards.ca.items.pop(key, None)
            del cards[key]
            cards.insert(index, entry.id, value)
            if slots is not None:
                cards.ca.items[entry.id] = slots
            end_of_line, below, _ = _comment_parts(cards, entry.id)
            if not end_of_line.strip() and not cards.fa.flow_style():
                cards.ca.items[entry.id] = _name_comment(entry.name, below)
            first_key[entry.id] = entry.id
            rewritten.append(RewrittenKey(lines.get(str(key)), str(key), entry.id,
                                          entry.name, False))
        if rewritten:
            validate_document(document, Deck, path)
            write_edited_deck(path, document, original, catalog)
        return rewritten


def rename_deck(path: Path | str, catalog: Catalog, new_name: str) -> str:
    """`deck rename`: the file's `name:` becomes `new_name`, all else kept; the old name."""
    path = Path(path)
    if not new_name.strip():
        raise DeckError("a deck's name cannot be empty", Location(path),
                        'give the new name in quotes: deck rename DECK "Rangers at dawn"')
    with editing(path):
        document, original = _read_for_edit(path)
        old = str(document.get("name", ""))
        document["name"] = _printed(new_name)
        validate_document(document, Deck, path)
        write_edited_deck(path, document, original, catalog)
        return old


# -- differences between decks --------------------------------------------------------------
@dataclass(frozen=True)
class CardCount:
    card: str  # id (or the name as written, for an unknown card)
    name: str
    count: int


@dataclass(frozen=True)
class DeckDiff:
    """What changed from deck A to deck B: the cards taken out and the cards put in."""

    out: tuple[CardCount, ...]
    into: tuple[CardCount, ...]

    @property
    def is_empty(self) -> bool:
        return not self.out and not self.into


def _tally(deck: LoadedDeck) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in deck.entries:
        counts[entry.identity] += entry.count
    return counts


def diff_decks(first: LoadedDeck, second: LoadedDeck) -> DeckDiff:
    """Cards out (in A, not in B) and in (in B, not in A), counted by copies."""
    a, b = _tally(first), _tally(second)
    names = {entry.identity: (entry.entry.id if entry.entry else entry.key, entry.display_name)
             for entry in (*second.entries, *first.entries)}  # A's names win

    def rows(counts: Counter[str]) -> tuple[CardCount, ...]:
        return tuple(CardCount(*names[key], count) for key, count in counts.items())

    return DeckDiff(rows(a - b), rows(b - a))

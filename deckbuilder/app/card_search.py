"""Finding records: the kinds a player names (`--kind guardian`), the search over names and
texts, a set named by id or name, and a record as a row of a listing. `deckbuilder cards`
and the web card browser search alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import JsonValue

from deckbuilder.app.card_details import find_records
from deckbuilder.app.spellings import normalized
from deckbuilder.card_face.words import space_label
from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.decks import read_deck
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models.cards import Record, TurnSpace
from deckbuilder.printable import printable

#: What `--kind` accepts: a record kind, or the players' words for a game's characters (each
#: game's declaration: "bandit", the Colty gang's lives; "guardian", the Malpaso guardians).
KIND_WORDS: dict[str, tuple[str, str | None]] = {
    "card": ("card", None),
    "character": ("character", None),
    **{declaration.character_word: ("character", declaration.id)
       for declaration in DECLARATIONS},
    "battlefield": ("battlefield", None),
    "special": ("special", None),
    "token": ("token", None),
}
KIND_HELP = f"card (default), {', '.join(kind for kind in KIND_WORDS if kind != 'card')}"


def parse_kind(text: str | None, game: str | None = None) -> tuple[str, str | None]:
    """`--kind` as (record kind, game it implies); plurals and case forgiven; a kind of
    another game than `game` is refused."""
    if text is None:
        return "card", None
    word = text.strip().lower()
    found = KIND_WORDS.get(word) or KIND_WORDS.get(word.removesuffix("s"))
    if found is None:
        raise DeckbuilderError(f"--kind {printable(text)!r} is not a kind of record",
                               fix=f"choose one of: {KIND_HELP}")
    if found[1] is not None and game is not None and game != found[1]:
        raise DeckbuilderError(f"--kind {printable(text)} are {found[1]} records, not {game} "
                               "ones", fix=f"use --kind character with --game {game}")
    return found


def matches_search(entry: Entry, words: str | None) -> bool:
    """Every word of the search (folded like names) is in the id, name, aliases or text."""
    if not words:
        return True
    record = entry.record
    haystack = " ".join(
        normalise_name(text) for text in (record.id, record.name, *record.aliases,
                                          record.text or "")
    )
    return all(word in haystack for word in normalise_name(words).split())


@dataclass
class Search:
    """A listing's filters, checked and folded to catalog values (`kind_game`: the game a
    kind word such as "guardian" implies)."""

    q: str = ""
    game: str | None = None
    faction: str | None = None
    set_id: str | None = None
    kind: str = "card"
    category: str | None = None
    play: str | None = None
    kind_game: str | None = None

    def holds(self, entry: Entry) -> bool:
        """The entry passes every filter but the kind and the words."""
        record = entry.record
        game = self.game or self.kind_game
        return (
            (game is None or entry.game == game)
            and (self.faction is None or getattr(record, "faction", None) == self.faction)
            and (self.set_id is None or entry.set_id == self.set_id)
            and (self.category is None or getattr(record, "category", None) == self.category)
            and (self.play is None or getattr(record, "play", None) == self.play)
        )


@dataclass
class Found:
    """What a search found, and what to tell the user about it."""

    entries: list[Entry]
    suggestions: list[str] = field(default_factory=list)
    note: str = ""


def select(catalog: Catalog, search: Search) -> list[Entry]:
    """The records of the search's kind that pass its filters and hold its words."""
    return [entry for entry in catalog.iter_kind(search.kind)
            if search.holds(entry) and matches_search(entry, search.q)]


def search_records(catalog: Catalog, search: Search) -> Found:
    """`select`, a search that finds nothing read as a typo: the closest names
    (`catalog.suggest`) are offered, and the records they name that pass the filters shown."""
    entries = select(catalog, search)
    if entries or not search.q:
        return Found(entries)
    suggestions = catalog.suggest(search.q, limit=5, kind=search.kind,
                                  game=search.game or search.kind_game,
                                  faction=search.faction)
    # (each entry once: the suggestions are distinct names)
    shown = [entry for name in suggestions for entry in catalog.iter_kind(search.kind)
             if entry.name == name and search.holds(entry)]
    note = (f"nothing holds '{search.q}'; the closest names are shown" if shown
            else f"nothing holds '{search.q}'")
    return Found(shown, suggestions, note)


def in_listing_order(entries: list[Entry]) -> list[Entry]:
    """Battlefields in their game's order; other records as the catalog holds them."""
    if any(entry.kind == "battlefield" for entry in entries):
        return sorted(entries, key=lambda e: (e.game, getattr(e.record, "order", 0)))
    return entries


def marks(record: Record) -> list[str]:
    """The marks a listing shows beside a record: gunslinger (else unique), not deckable."""
    shown = ["gunslinger"] if getattr(record, "gunslinger", False) else (
        ["unique"] if getattr(record, "unique", False) else [])
    return shown + ([] if getattr(record, "deckable", True) else ["not deckable"])


def set_names(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Each set's id -> its name and the name after the product line (as `--set` takes it)."""
    return {set_id: (loaded.card_set.name, loaded.card_set.name.rpartition(": ")[2])
            for set_id, loaded in catalog.sets.items()}


def spelling_table(names: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """normalized spelling -> canonical value; a spelling two values share is dropped (it
    would be a guess), a value's own id always wins."""
    found: dict[str, set[str]] = {}
    for value, others in names.items():
        for name in (value, *others):
            found.setdefault(normalized(name), set()).add(value)
    table = {key: next(iter(values)) for key, values in found.items() if len(values) == 1}
    table.update({normalized(value): value for value in names})
    return table


def choose(value: str, table: Mapping[str, str], what: str) -> str:
    """The value a spelling names (`spelling_table`); an unknown one is one line."""
    found = table.get(normalized(value))
    if found is None:
        raise DeckbuilderError(f"unknown {what} '{printable(value[:60])}'",
                               fix=f"choose one of: {', '.join(sorted(set(table.values())))}")
    return found


def chosen_records(catalog: Catalog, deck: object = None, set_id: str | None = None,
                   card: str | None = None) -> tuple[str, list[Entry]]:
    """The records a data review (or an export) is about, with their title: a deck's cards
    (`read_deck` reads it), a set's records, one card, or (none given) every record."""
    if card is not None:
        entries = find_records(catalog, card)
        return entries[0].name, entries
    if set_id is not None:
        refuse_unknown_sets(catalog, [set_id])
        return catalog.sets[set_id].card_set.name, [
            entry for entry in catalog.entries.values() if entry.set_id == set_id]
    if deck is not None:
        loaded = read_deck(deck, catalog).loaded
        return loaded.name, [catalog.entries[each] for each in loaded.counts()
                             if each in catalog.entries]
    return "every record", list(catalog.entries.values())


def refuse_unknown_sets(catalog: Catalog, set_ids: list[str]) -> None:
    for set_id in set_ids:
        if set_id not in catalog.sets:
            raise DeckbuilderError(f"no card set '{printable(set_id[:60])}'",
                                   fix=f"choose one of: {', '.join(catalog.sets)}")


def resolve_set(catalog: Catalog, set_id: str | None) -> str | None:
    """A set given by id or by name (`--set "The Tarnished Star"`) as its id."""
    if set_id is None or set_id in catalog.sets:
        return set_id
    for known, loaded in catalog.sets.items():
        if normalise_name(set_id) in (normalise_name(known), normalise_name(loaded.card_set.name)):
            return str(known)
    raise DeckbuilderError(
        f"unknown set '{printable(set_id)}'",
        fix=f"known sets: {', '.join(sorted(catalog.sets))}")


def describe_spaces(spaces: Sequence[TurnSpace]) -> str:
    """Turn spaces as a player reads them: `-, 1, 2, (3)` (optional spaces in brackets)."""
    return ", ".join(space_label(space) + (f" +{space.recruit} recruit" if space.recruit else "")
                     for space in spaces)


def card_row(catalog: Catalog, entry: Entry) -> dict[str, JsonValue]:
    """A card as a row of the listing (`cards --json`)."""
    card = entry.record
    loaded = catalog.sets[entry.set_id]
    return {
        "id": card.id,
        "name": card.name,
        "kind": entry.kind,
        "game": entry.game,
        "faction": card.faction,
        "set": entry.set_id,
        "category": card.category,
        "play": card.play,
        "unique": card.unique,
        "gunslinger": card.gunslinger,
        "cost": card.cost,
        "firepower": card.firepower,
        "chip": card.chip,
        "icons": [str(icon) for icon in card.icons],
        "base_copies": catalog.base_copies(card.id),
        "set_copies": card.copies,
        "deckable": card.deckable,
        "set_complete": loaded.card_set.complete,
        "text": card.text,
        "unconfirmed": list(card.provenance.unconfirmed),
    }


def record_row(entry: Entry) -> dict[str, JsonValue]:
    """A record of any kind as JSON: every value it holds, with its kind, set and game."""
    data = entry.record.model_dump(mode="json", exclude={"provenance"})
    return {
        "id": entry.id, "name": entry.name, "kind": entry.kind, "game": entry.game,
        "set": entry.set_id,
        **{key: value for key, value in data.items() if key not in ("id", "name")},
        "unconfirmed": list(entry.record.provenance.unconfirmed),
    }

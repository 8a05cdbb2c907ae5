"""Finding records: the kinds a player names (`--kind guardian`), the search over names and
texts, a set named by id or name, and a record as a row of a listing. `deckbuilder cards`
and the web card browser search alike."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from deckbuilder.card_face.words import space_label
from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models.cards import TurnSpace
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


def parse_kind(text: str | None) -> tuple[str, str | None]:
    """`--kind` as (record kind, game it implies); plurals and case forgiven."""
    if text is None:
        return "card", None
    word = text.strip().lower()
    found = KIND_WORDS.get(word) or KIND_WORDS.get(word.removesuffix("s"))
    if found is None:
        raise DeckbuilderError(f"--kind {printable(text)!r} is not a kind of record",
                               fix=f"choose one of: {KIND_HELP}")
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

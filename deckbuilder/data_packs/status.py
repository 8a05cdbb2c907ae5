"""`data status`: per set and per deck, how many values a document states, a player confirmed,
or are still our reading, and the cards to review first."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from deckbuilder.catalog import Catalog, Entry
from deckbuilder.data_packs.standing import Standing, value_standings

#: How many cards a deck's "review first" list names.
TOP_CARDS = 5


@dataclass
class Counts:
    stated: int = 0
    player: int = 0
    unconfirmed: int = 0

    def add(self, standing: Standing, count: int = 1) -> None:
        """Count `count` more values of this standing (its field is named as its value)."""
        setattr(self, standing.value, getattr(self, standing.value) + count)

    @property
    def total(self) -> int:
        return self.stated + self.player + self.unconfirmed

    def as_json(self) -> dict[str, int]:
        return {**asdict(self), "total": self.total}


@dataclass
class DeckStatus:
    name: str
    counts: Counts
    #: (record id, name, unconfirmed values, copies in the deck), to review first
    review_first: list[tuple[str, str, int, int]] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"deck": self.name, **self.counts.as_json(), "review_first": [
            {"id": record_id, "name": name, "unconfirmed": unknown, "copies": copies}
            for record_id, name, unknown, copies in self.review_first]}


def set_counts(catalog: Catalog) -> dict[str, Counts]:
    """Set id -> the standing of every value of its records."""
    counts = {set_id: Counts() for set_id in catalog.sets}
    for entry in catalog.entries.values():
        count_card(counts[entry.set_id], entry)
    return counts


def catalog_counts(catalog: Catalog) -> Counts:
    """The standing of every value of every record of the catalog."""
    whole = Counts()
    for entry in catalog.entries.values():
        count_card(whole, entry)
    return whole


def count_card(counts: Counts, entry: Entry) -> int:
    """Add the standing of each of a card's values to `counts`; how many are unconfirmed."""
    unknown = 0
    for row in value_standings(entry):
        counts.add(row.standing)
        unknown += row.standing is Standing.UNCONFIRMED
    return unknown


def deck_status(catalog: Catalog, name: str, cards: Mapping[str, int]) -> DeckStatus:
    """The values of a deck's cards, and those to review first (unconfirmed x copies)."""
    counts = Counts()
    ranked = []
    for record_id, copies in cards.items():
        entry = catalog.entries.get(record_id)
        if entry is None:
            continue
        unknown = count_card(counts, entry)
        if unknown:
            ranked.append((record_id, entry.name, unknown, copies))
    ranked.sort(key=lambda row: (-row[2] * row[3], -row[2], row[1]))
    return DeckStatus(name, counts, ranked[:TOP_CARDS])


def data_status(catalog: Catalog, decks: Iterable[tuple[str, Mapping[str, int]]]
                ) -> dict[str, Any]:
    """Everything `data status --json` prints."""
    layer = catalog.packs
    return {
        "sets": [{"set": set_id, **count.as_json()}
                 for set_id, count in set_counts(catalog).items()],
        "decks": [deck_status(catalog, name, cards).as_json() for name, cards in decks],
        "catalog": catalog_counts(catalog).as_json(),
        "packs": [{"id": loaded.pack.id, "version": loaded.pack.version,
                   "path": str(loaded.path)} for loaded in (layer.packs if layer else [])],
        "pack_notices": [notice.message for notice in (layer.notices if layer else [])],
        "overlay": str(catalog.overlay_path) if catalog.overlay_path is not None else None,
    }

"""The supply: how many copies of each card a deck may hold, and the sentence every verdict says.

Module D replaces base cards "with equivalent cards from this (or another) expansion and/or
promo cards": they come out of the boxes, so a deck holds no more copies than the player's
products (one box of each unless told otherwise); the rule switch `card-copies` reads "any
number of copies" instead. `deck_supply` is the one place that builds a supply.

>>> from deckbuilder.catalog import build_catalog
>>> catalog = build_catalog(use_user_data=False)
>>> supply = deck_supply(catalog)
>>> supply.limit("the-jakes-railworkers-privy-hut"), supply.sentence
(1, 'judged against one copy of each product; --boxes N or --collection FILE changes it')
>>> deck_supply(catalog, switches={"card-copies": "any-number"}).limit("texas-ranger") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deckbuilder.catalog import Catalog
from deckbuilder.decks import load_collection, owned_copies
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import Collection

#: The rule switch (declared in tarnished-star.yaml with its sources) and its two readings.
COPIES_SWITCH = "card-copies"
WHAT_YOU_OWN = "what-you-own"
ANY_NUMBER = "any-number"
COPIES_READINGS = (WHAT_YOU_OWN, ANY_NUMBER)

#: The same words whichever face read the collection (a file here, a name in the web editor).
COLLECTION_SENTENCE = "judged against the collection's boxes and cards (--collection)"

SupplyCollection = Collection | Mapping[str, int] | Path | str | None


class SupplyError(DeckbuilderError):
    """The supply asked for can't be built: a bad switch, or two supplies at once."""


@dataclass(frozen=True)
class Supply:
    """How many copies of each card the player has to build from, and how that was judged
    (`copies` None: any number; `boxes` None: a collection)."""

    sentence: str
    copies: Mapping[str, int] | None
    boxes: int | None = None

    @property
    def is_collection(self) -> bool:
        return self.copies is not None and self.boxes is None

    def limit(self, card_id: str) -> int | None:
        """The copies of a card the supply holds (None: no limit)."""
        return None if self.copies is None else self.copies.get(card_id, 0)


#: What play-testing (simulate, gauntlets, tournaments, play, the optimiser without a
#: collection) checks a deck against: no limit from the boxes.
PLAY_TESTING = Supply("not judged against a supply: play-testing counts no copies", None)


def boxes_text(count: int) -> str:
    """`one box`, `10 boxes`."""
    return "one box" if count == 1 else f"{count} boxes"


def box_supply(catalog: Catalog, boxes: int = 1) -> Supply:
    """N boxes of every installed product: each card's copies in its set, times N."""
    if boxes < 1:
        raise SupplyError(f"--boxes {boxes}: a supply holds at least one box",
                          fix="give --boxes 1 or more")
    copies = owned_copies(Collection(sets=dict.fromkeys(catalog.sets, boxes)), catalog)
    if boxes == 1:
        sentence = ("judged against one copy of each product; "
                    "--boxes N or --collection FILE changes it")
    else:
        sentence = f"judged against {boxes} copies of each product (--boxes {boxes})"
    return Supply(sentence, copies, boxes)


def collection_supply(collection: Collection | Mapping[str, int] | Path | str,
                      catalog: Catalog) -> Supply:
    """What a collection owns (a collection file, a `Collection` or card id -> copies)."""
    if isinstance(collection, Collection):
        copies = owned_copies(collection, catalog)
    elif isinstance(collection, Mapping):
        copies = dict(collection)
    else:
        copies = load_collection(collection, catalog)
    return Supply(COLLECTION_SENTENCE, copies)


def copies_reading(switches: Mapping[str, str] | None) -> str:
    """The `card-copies` reading chosen in `switches` (the default when none is chosen)."""
    chosen = dict(switches or {})
    reading = chosen.pop(COPIES_SWITCH, WHAT_YOU_OWN)
    if chosen:
        raise SupplyError(
            f"a deck check reads only the rule switch {COPIES_SWITCH}, not "
            f"{', '.join(sorted(chosen))}", fix=f"give --switch {COPIES_SWITCH}={ANY_NUMBER} "
            "or nothing (other switches are the engine's: simulate, play, scenario)")
    if reading not in COPIES_READINGS:
        raise SupplyError(f"'{reading}' is not a reading of rule switch {COPIES_SWITCH}",
                          fix=f"choose one of: {', '.join(COPIES_READINGS)}")
    return reading


def deck_supply(catalog: Catalog, *, boxes: int | None = None,
                collection: SupplyCollection = None,
                switches: Mapping[str, str] | None = None) -> Supply:
    """The supply a deck is judged against: one box of each product unless `boxes`, a
    `collection` or the `card-copies=any-number` reading says otherwise (one at most)."""
    reading = copies_reading(switches)
    given = [name for name, value in (
        ("--boxes", boxes), ("--collection", collection),
        (f"--switch {COPIES_SWITCH}={ANY_NUMBER}", reading == ANY_NUMBER or None),
    ) if value is not None]
    if len(given) > 1:
        raise SupplyError(f"{' and '.join(given)} each say what a deck is judged against",
                          fix="give one of them")
    if reading == ANY_NUMBER:
        return Supply(f"judged against any number of copies of each card "
                      f"(rule switch {COPIES_SWITCH}={ANY_NUMBER})", None)
    if collection is not None:
        return collection_supply(collection, catalog)
    return box_supply(catalog, boxes if boxes is not None else 1)


def boxes_needed(count: int, per_box: int) -> int:
    """The boxes of a product holding `per_box` copies of a card that `count` copies take."""
    return -(-count // per_box)

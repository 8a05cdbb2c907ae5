"""Deck legality: the deck-building rules A-E of Module D (The Tarnished Star, expansion 1.4).

A deck is checked as a diff against its faction's base deck, because Module D states every
rule that way: the base cards taken out (`removed`) and the cards put in (`added`). Every added
card must pair with a removed card (rule C like for like; rule D locations and open-range cards
replace anything but a unique gunslinger); that pairing is returned as the explanation of a
legal deck. Each rule is a small independent function in `rules.py`; all of them always run and
every problem comes back at once, as typed `Violation`s with a stable code.

Revolver 2 (Last Stand at Malpaso): Module D is printed in a Revolver 1 expansion and says
nothing about Revolver 2. Its decks have the same structure (a 62-card base deck per side), so
we apply the same rules to Revolver 2 decks by analogy, and say so: the `rule` of every
violation of a Revolver 2 deck reads "Module D (applied to Revolver 2 by analogy)".

>>> from deckbuilder.legality import Code
>>> Code.GUNSLINGER_REPLACED
'gunslinger-replaced'
"""

from __future__ import annotations

from collections.abc import Mapping

from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource, base_deck_cards, game_of_faction, read_deck
from deckbuilder.errors import DeckError, Location
from deckbuilder.legality.facts import DeckFacts
from deckbuilder.legality.pairing import pair_replacements
from deckbuilder.legality.report import (
    MODULE_D_BY_ANALOGY,
    Code,
    LegalityReport,
    Replacement,
    Violation,
)
from deckbuilder.legality.rules import RULES
from deckbuilder.legality.supply import (
    COPIES_SWITCH,
    PLAY_TESTING,
    Supply,
    SupplyCollection,
    SupplyError,
    deck_supply,
)

__all__ = [
    "COPIES_SWITCH",
    "MODULE_D_BY_ANALOGY",
    "PLAY_TESTING",
    "Code",
    "LegalityReport",
    "Replacement",
    "Supply",
    "Violation",
    "deck_facts",
    "deck_supply",
    "validate_deck",
]

CollectionSource = SupplyCollection


def _supply_of(catalog: Catalog, collection: CollectionSource, boxes: int | None,
               switches: Mapping[str, str] | None, supply: Supply | None) -> Supply:
    if supply is None:
        return deck_supply(catalog, boxes=boxes, collection=collection, switches=switches)
    if collection is not None or boxes is not None or switches:
        raise SupplyError("a supply was given with a collection, boxes or switches",
                          fix="give the supply alone (deck_supply builds it from those)")
    return supply


def deck_facts(
    deck: DeckSource, catalog: Catalog, collection: CollectionSource = None, *,
    boxes: int | None = None, switches: Mapping[str, str] | None = None,
    supply: Supply | None = None,
) -> DeckFacts:
    """The deck, its base deck and the diff between them (what every rule looks at)."""
    loaded = read_deck(deck, catalog).loaded
    where = Location(loaded.label) if loaded.path is None else Location(loaded.path)
    game = game_of_faction(loaded.faction, where)
    if game != loaded.game:
        raise DeckError(
            f"faction '{loaded.faction}' plays {game}, but the deck says game: {loaded.game}",
            where, f"set game: {game}, or choose a {loaded.game} faction",
        )
    base = base_deck_cards(catalog, loaded.faction, where)
    return DeckFacts(loaded, catalog, base, loaded.counts(),
                     _supply_of(catalog, collection, boxes, switches, supply))


def validate_deck(
    deck: DeckSource, catalog: Catalog, collection: CollectionSource = None, *,
    boxes: int | None = None, switches: Mapping[str, str] | None = None,
    supply: Supply | None = None,
) -> LegalityReport:
    """Check a deck against Module D; every violation at once, and the replacement pairs.

    `deck` is read by the one reader (`decks.read_deck`: a file path, a packaged deck's name,
    a faction for its base deck, a `Deck` model or a `LoadedDeck`). It is judged against
    one box of each product unless `collection` (a collection file, a `Collection` model or a
    mapping card id -> copies owned), `boxes` (N of every product) or `switches`
    (`{"card-copies": "any-number"}`) says otherwise; `supply` (from `deck_supply`) stands
    for all three when many decks are checked. The report's `supply` says which. Raises a
    `DeckbuilderError` only when the deck can't be read, has no base deck to compare with,
    or the supply asked for can't be built.
    """
    facts = deck_facts(deck, catalog, collection, boxes=boxes, switches=switches,
                       supply=supply)
    violations = tuple(violation for rule in RULES for violation in rule(facts))
    pairs, _ = pair_replacements(facts)
    return LegalityReport(
        name=facts.deck.name,
        game=facts.deck.game,
        faction=facts.deck.faction,
        path=facts.deck.path,
        card_count=facts.deck.total(),
        violations=violations,
        replacements=tuple(pairs),
        supply=facts.supply.sentence,
    )

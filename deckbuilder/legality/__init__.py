"""Deck legality: the deck-building rules A-E of Module D (The Tarnished Star, expansion 1.4).

A deck is checked as a diff against its faction's base deck, because Module D states every
rule that way; the pairing of added with removed cards explains a legal deck. Every rule runs
and every problem comes back at once. Module D says nothing about Revolver 2, whose decks have
the same structure: its rules are applied there by analogy, and every violation says so.

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
from deckbuilder.legality.report import MODULE_D_BY_ANALOGY as MODULE_D_BY_ANALOGY
from deckbuilder.legality.report import Code as Code
from deckbuilder.legality.report import LegalityReport as LegalityReport
from deckbuilder.legality.report import Replacement as Replacement
from deckbuilder.legality.report import Violation as Violation
from deckbuilder.legality.rules import RULES
from deckbuilder.legality.supply import COPIES_SWITCH as COPIES_SWITCH
from deckbuilder.legality.supply import PLAY_TESTING as PLAY_TESTING
from deckbuilder.legality.supply import Supply as Supply
from deckbuilder.legality.supply import SupplyCollection, SupplyError
from deckbuilder.legality.supply import deck_supply as deck_supply


def deck_facts(
    deck: DeckSource, catalog: Catalog, collection: SupplyCollection = None, *,
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
    if supply is None:
        supply = deck_supply(catalog, boxes=boxes, collection=collection, switches=switches)
    elif collection is not None or boxes is not None or switches:
        raise SupplyError("a supply was given with a collection, boxes or switches",
                          fix="give the supply alone (deck_supply builds it from those)")
    return DeckFacts(loaded, catalog, base, loaded.counts(), supply)


def validate_deck(
    deck: DeckSource, catalog: Catalog, collection: SupplyCollection = None, *,
    boxes: int | None = None, switches: Mapping[str, str] | None = None,
    supply: Supply | None = None,
) -> LegalityReport:
    """Check a deck against Module D; every violation at once, and the replacement pairs.

    `deck`: a file path, a packaged deck's name, a faction (its base deck), a `Deck` or a
    `LoadedDeck`. It is judged against one box of each product unless `collection` (a file, a
    `Collection` or card id -> copies), `boxes` or `switches` (`{"card-copies": "any-number"}`)
    says otherwise; `supply` (`deck_supply`) stands for all three when many decks are checked.
    Raises a `DeckbuilderError` only when the deck, its base deck or the supply can't be read.
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

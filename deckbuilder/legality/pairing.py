"""Which base card each added card replaces: a maximum matching, shown to the user.

Rule C pairs like with like (action, character, firepower); rule D lets a location or an
open-range card replace any base card but a unique gunslinger. Added cards of a fixed category
can only use removed cards of that category, so pairing them first within their category and
then giving the wildcards whatever is left is a maximum matching: if a wildcard is left over,
every usable removed card is already paired.
"""

from __future__ import annotations

from deckbuilder.legality.facts import DeckFacts
from deckbuilder.legality.report import Replacement
from deckbuilder.models.common import Category

WILDCARD_CATEGORIES = frozenset({Category.LOCATION, Category.OPEN_RANGE})


def is_wildcard(facts: DeckFacts, card_id: str) -> bool:
    return facts.entry(card_id).record.category in WILDCARD_CATEGORIES


def _copies(counts: dict[str, int]) -> list[str]:
    return [card for card, count in counts.items() for _ in range(count)]


def pair_replacements(facts: DeckFacts) -> tuple[list[Replacement], dict[str, int]]:
    """(the pairs, the added copies left without a removed card to replace)."""
    added = _copies({card: n for card, n in facts.added.items() if facts.may_replace(card)})
    open_slots = _copies({
        card: n for card, n in facts.removed.items() if not facts.entry(card).record.gunslinger
    })
    pairs: list[Replacement] = []
    unpaired: dict[str, int] = {}

    def pair(card: str, slot: str, wildcard: bool) -> None:
        open_slots.remove(slot)
        pairs.append(Replacement(slot, card, facts.name(slot), facts.name(card), wildcard))

    wildcards = []
    for card in added:  # rule C first: same category (locations with removed locations too)
        category = facts.entry(card).record.category
        slot = next((s for s in open_slots if facts.entry(s).record.category == category), None)
        if slot is not None:
            pair(card, slot, wildcard=False)
        elif is_wildcard(facts, card):
            wildcards.append(card)
        else:
            unpaired[card] = unpaired.get(card, 0) + 1
    for card in wildcards:  # then rule D: any removed card left, gunslingers excluded above
        if open_slots:
            pair(card, open_slots[0], wildcard=True)
        else:
            unpaired[card] = unpaired.get(card, 0) + 1
    return pairs, unpaired

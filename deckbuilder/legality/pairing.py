"""Which base card each added card replaces: a maximum matching, shown to the user.

Rule C pairs like with like (action, character, firepower); rule D lets a location or an
open-range card replace any base card but a unique gunslinger. Added cards of a fixed category
can only use removed cards of that category, so pairing them first within their category and
then giving the wildcards whatever is left is a maximum matching: if a wildcard is left over,
every usable removed card is already paired.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


def an(word: str) -> str:
    """`word` with its indefinite article: "an action card", "a firepower card"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def listed(facts: DeckFacts, counts: dict[str, int], with_category: bool = False) -> str:
    """`2x Deputy, 1x Sandstorm (an action card)`: cards with their copies."""
    return ", ".join(
        f"{count}x {facts.name(card)}"
        + (f" ({an(str(facts.entry(card).record.category))} card)" if with_category else "")
        for card, count in counts.items())


@dataclass(frozen=True)
class UnpairedGroup:
    """The cards of one category put in, some with no removed card to replace (`category`
    None: locations and open-range cards, rule D)."""

    category: str | None
    added: dict[str, int]  # every card of the category put in (copies)
    removed: dict[str, int]  # the base cards of the category taken out (copies)
    unpaired: int

    def describe(self, facts: DeckFacts) -> str:
        what = "location or open-range" if self.category is None else str(self.category)
        if len(self.added) == 1:
            card, count = next(iter(self.added.items()))
            name = facts.name(card)
            copies = f"{count} copies of {name}" if count > 1 else name
            kind = f"({an(what)} card)"
            if self.unpaired == count:
                verb = "replace" if count > 1 else "replaces"
                head = f"{copies} {kind} {verb} nothing"
            else:
                head = f"{self.unpaired} of the {count} copies of {name} {kind} replace nothing"
        else:
            verb = "replaces" if self.unpaired == 1 else "replace"
            head = (f"{self.unpaired} of the {sum(self.added.values())} {what} cards put in "
                    f"({listed(facts, self.added)}) {verb} nothing")
        if self.category is None:
            return f"{head}: no base card is left for it to replace (any but a unique gunslinger)"
        if not self.removed:
            return f"{head}: no {what} card of the base deck was taken out"
        return (f"{head}: only {sum(self.removed.values())} {what} "
                f"card{'s' if sum(self.removed.values()) != 1 else ''} of the base deck "
                f"went out ({listed(facts, self.removed)})")


@dataclass(frozen=True)
class ReplacementBalance:
    """The pairing seen from both sides: the added copies left without a partner and the
    removed copies (gunslingers aside) left without a replacement."""

    facts: DeckFacts
    pairs: list[Replacement]
    unpaired: dict[str, int]
    leftover: dict[str, int] = field(default_factory=dict)

    def explained_by_size(self, surplus: int) -> bool:
        """Too many cards, and no base card is left unreplaced: the added cards without a
        partner are the surplus itself, so the deck size is the one mistake."""
        count = sum(self.unpaired.values())
        return surplus > 0 and not self.leftover and 0 < count <= surplus

    def unpaired_groups(self) -> list[UnpairedGroup]:
        facts = self.facts
        replaceable = {c: n for c, n in facts.added.items() if facts.may_replace(c)}

        def group_of(card: str) -> str | None:
            return None if is_wildcard(facts, card) else str(facts.entry(card).record.category)

        groups: dict[str | None, int] = {}
        for card, count in self.unpaired.items():
            groups[group_of(card)] = groups.get(group_of(card), 0) + count
        return [
            UnpairedGroup(
                category,
                {c: n for c, n in replaceable.items() if group_of(c) == category},
                {} if category is None else {
                    c: n for c, n in facts.removed.items()
                    if str(facts.entry(c).record.category) == category
                    and not facts.entry(c).record.gunslinger
                },
                unpaired,
            )
            for category, unpaired in groups.items()
        ]


def replacement_balance(facts: DeckFacts) -> ReplacementBalance:
    pairs, unpaired = pair_replacements(facts)
    leftover = {
        card: count for card, count in facts.removed.items()
        if not facts.entry(card).record.gunslinger
    }
    for pair in pairs:
        leftover[pair.out] -= 1
    return ReplacementBalance(facts, pairs, unpaired,
                              {card: count for card, count in leftover.items() if count})

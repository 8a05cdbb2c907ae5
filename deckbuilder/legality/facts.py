"""What every rule looks at: the deck, its base deck and the diff between them, computed once."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from deckbuilder.catalog import Catalog, Entry
from deckbuilder.decks import FACTION_GAMES, LoadedDeck
from deckbuilder.legality.report import Violation, rule_reference
from deckbuilder.legality.supply import Supply
from deckbuilder.models.common import SHARED_FACTIONS


@dataclass(frozen=True)
class DeckFacts:
    """A deck seen as a diff against its faction's base deck (Module D states rules that way)."""

    deck: LoadedDeck
    catalog: Catalog
    base: dict[str, int]  # the base deck: card id -> copies
    counts: dict[str, int]  # the deck: resolved card id -> copies
    supply: Supply  # the copies the player builds from (`supply.deck_supply`)
    added: dict[str, int] = field(init=False)  # deck minus base
    removed: dict[str, int] = field(init=False)  # base minus deck

    def __post_init__(self) -> None:
        deck, base = Counter(self.counts), Counter(self.base)  # a difference keeps what is > 0
        object.__setattr__(self, "added", dict(deck - base))
        object.__setattr__(self, "removed", dict(base - deck))

    def entry(self, card_id: str) -> Entry:
        return self.catalog.entries[card_id]

    def name(self, card_id: str) -> str:
        return self.catalog.entries[card_id].name

    def line(self, card_id: str) -> int | None:
        """The card's line in the deck file, or the `cards:` line for a card taken out."""
        return self.deck.line_of(card_id) or self.deck.cards_line()

    def violation(
        self, code: str, message: str, cards: tuple[str, ...] = (),
        line: int | None = None, fix: str = "",
    ) -> Violation:
        return Violation(code, rule_reference(code, self.deck.game), message, cards, line, fix)

    def of_card(self, code: str, card_id: str, message: str, fix: str) -> Violation:
        """A violation of one card of the deck, shown at its line."""
        return self.violation(code, message, (card_id,), self.line(card_id), fix)

    # -- classification shared by several rules ---------------------------------------------
    def is_deck_card(self, card_id: str) -> bool:
        """A card that may stand in a player's deck at all (rule A, the Garrotte note)."""
        entry = self.entry(card_id)
        return (
            entry.kind == "card"
            and entry.record.deckable
            and entry.record.faction not in SHARED_FACTIONS
        )

    def is_other_side(self, card_id: str) -> bool:
        """A card of another game, or of another player's faction."""
        entry = self.entry(card_id)
        if entry.game != self.deck.game:
            return True
        faction = getattr(entry.record, "faction", None)
        return faction in FACTION_GAMES and faction != self.deck.faction

    def may_replace(self, card_id: str) -> bool:
        """An added card that can take a removed card's place (other rules judge the rest)."""
        return (
            self.is_deck_card(card_id)
            and not self.is_other_side(card_id)
            and card_id not in self.base
        )

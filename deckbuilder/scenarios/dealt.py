"""What a position deals must exist: each card on a side that may hold it, in a deck only if it
ever goes into one, no more copies than its deck (or one box of each product) holds, a unique
card once, and no second copy of a card the game's set-up places itself. Every answer comes
from the data, with the document that states it (`provenance`, Module D's rules as
`legality.report.rule_reference` words them); the table's own limits are `engine.possible`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckbuilder.catalog import Catalog
from deckbuilder.engine.state import State
from deckbuilder.legality.report import Code, rule_reference
from deckbuilder.legality.supply import ANY_NUMBER, COPIES_SWITCH, box_supply
from deckbuilder.models.cards import Record
from deckbuilder.scenario_kit.layout import Ids
from deckbuilder.scenario_kit.parts import Source


@dataclass(frozen=True)
class Dealt:
    """One card the file deals: to which player, into which zone, where the file says so."""

    player: int
    zone: str  # hand, deck, discard, removed, play, under
    card: str
    loc: tuple


def record_source(record: Record, *fields: str) -> str:
    """The document stating the first of `fields` a record has a source for (else its name's)."""
    sources = record.provenance.sources
    return next((sources[name] for name in (*fields, "name") if name in sources),
                "the card's data")


def _deck_rule(catalog: Catalog, code: str, game: str) -> str:
    """A Module D rule with the document it is printed in (the deck-building module's data)."""
    document = next((module.provenance.sources.get("description", "").split(":")[0]
                     for loaded in catalog.sets.values() for module in loaded.card_set.modules
                     if module.switches.get("deck_building")), "")
    return f"{document}, {rule_reference(code, game)}" if document else \
        rule_reference(code, game)


def verify_sides(dealt: list[Dealt], sides: tuple[str, str], ids: Ids) -> None:
    """A card of one side is never the other side's; a card that never goes into a deck is
    not dealt into one."""
    catalog, source = ids.catalog, ids.source
    for item in dealt:
        card = catalog.card(item.card)
        faction = str(card.faction)
        if faction in sides and faction != sides[item.player]:
            raise source.error(
                f"{card.name} is a {faction} card: {sides[item.player]} never holds it "
                f"(rule: {record_source(card, 'faction')})", item.loc,
                f"list it under {faction}")
        if item.zone == "deck" and not card.deckable:
            raise source.error(
                f"{card.name} never goes into a deck "
                f"(rule: {_deck_rule(catalog, Code.NOT_DECKABLE, ids.game)})", item.loc,
                "put it where its text or its module puts it")


def verify_setup_pieces(state: State, dealt: list[Dealt], decks: list[dict[str, int]],
                        ids: Ids) -> None:
    """A card the game's set-up or a module places itself (`spec.extra_uids`) is where set-up
    put it: the file cannot deal another copy unless its deck holds one. A card set aside in a
    module's deck (the Frontier deck's) may be dealt: a player holds one after drawing it."""
    spec = state.spec
    pieces = {spec.card_def[uid].id: uid for uid in spec.extra_uids
              if state.card_zone(uid) != "limbo"}
    for item in dealt:
        if item.card in pieces and not decks[item.player].get(item.card):
            rule = record_source(ids.catalog.card(item.card), "deckable", "copies", "set")
            raise ids.source.error(
                f"{spec.card_def[pieces[item.card]].name} is placed by the game's set-up or a "
                f"module (here it lies {_lies(state, pieces[item.card])}): the file cannot "
                f"deal another copy (rule: {rule})", item.loc,
                "leave it out: set-up places it (a module's choice or `freed` moves it)")


def _lies(state: State, uid: int) -> str:
    """Where the game's own copy of a set-up piece lies, in words."""
    spec = state.spec
    zone = state.card_zone(uid)
    if zone.startswith("play@"):
        return f"in play at {spec.bfs[int(zone[5:])].name}"
    words = {"removed": "out of the game", "under-character": "under a character's card"}
    return words.get(zone, f"in the {zone}")


@dataclass
class DeckSupply:
    """How many copies of each card a position's deck may hold, and why."""

    catalog: Catalog
    game: str
    source: Source
    switches: dict[str, str]
    _box: dict[str, int] | None = None

    def box(self) -> dict[str, int]:
        """One box of each installed product (as a deck is judged without a collection)."""
        if self._box is None:
            self._box = dict(box_supply(self.catalog).copies or {})
        return self._box

    def check_unique(self, card_id: str, count: int, loc: tuple) -> None:
        card = self.catalog.card(card_id)
        if card.unique and count > 1:
            rule = _deck_rule(self.catalog, Code.UNIQUE_COPIES, self.game)
            raise self.source.error(f"{count} copies of the unique card {card.name}: at most "
                                    f"one (rule: {rule})", loc, "keep one copy")

    def check_given(self, card_id: str, needed: int, held: int, loc: tuple) -> None:
        """The position needs `needed` copies of a deck given in the file holding `held`."""
        if needed > held:
            name = self.catalog.card(card_id).name
            raise self.source.error(
                f"more copies of {name} ({needed}) than its deck in `decks` holds ({held}) "
                "(rule: the position's cards are its decks' cards)", loc,
                f"give {needed} in `decks`, or list fewer")

    def check_box(self, card_id: str, needed: int, loc: tuple) -> None:
        """The position needs `needed` copies of a card the default deck adds from the box
        (any number under the `card-copies=any-number` reading)."""
        if self.switches.get(COPIES_SWITCH) == ANY_NUMBER:
            return
        held = self.box().get(card_id, 0)
        if needed > held:
            entry = self.catalog.find(card_id)
            assert entry is not None, card_id  # a card of the box: the catalog holds it
            product = self.catalog.sets[entry.set_id].card_set.name
            raise self.source.error(
                f"more copies of {entry.name} ({needed}) than one box of {product} holds "
                f"({held}) (rule: {record_source(entry.record, 'copies', 'set')})", loc,
                f"list at most {held}, or give the decks in `decks`")

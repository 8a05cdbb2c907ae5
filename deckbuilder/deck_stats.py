"""Deck statistics: what a deck holds, its cost curve, firepower by chip, what changed against
the base deck, and the exact (hypergeometric) odds of drawing a kind of card by turn N. The
cards seen by turn N follow the rulebooks, as the engine does: `DrawRules` names its sources
and what it leaves out.

>>> chance_of_at_least(62, 4, 5)
Fraction(32567, 111569)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import TypedDict

from deckbuilder.catalog import Catalog
from deckbuilder.decks import CardCount, LoadedDeck
from deckbuilder.errors import DeckbuilderError
from deckbuilder.legality import Replacement, deck_facts
from deckbuilder.legality.pairing import pair_replacements
from deckbuilder.models.cards import Card
from deckbuilder.models.common import Category, PlayType
from deckbuilder.models.effects import game_declared

#: Where a card without a category is counted (a name the catalog does not know, or a record
#: that is no deck card), so that the counts still add up to the deck's size.
UNKNOWN = "unknown"
NO_CHIP = "none"
DEFAULT_TURNS = 6


# -- the JSON shapes `deck stats --json` prints ------------------------------------------------
class TurnOddsJson(TypedDict):
    turn: int
    cards_seen: int
    chance: float
    exact: str


class OddsJson(TypedDict):
    kind: str
    key: str
    name: str
    copies: int
    by_turn: list[TurnOddsJson]


class ChipFirepowerJson(TypedDict):
    chip: str
    cards: int
    total: int
    values: dict[str, int]


class CardCountJson(TypedDict):
    card: str
    name: str
    count: int


ReplacementJson = TypedDict("ReplacementJson", {"out": str, "out_name": str, "in": str,
                                                "in_name": str, "wildcard": bool})
ChangesJson = TypedDict("ChangesJson", {"out": list[CardCountJson], "in": list[CardCountJson],
                                        "replacements": list[ReplacementJson],
                                        "unpaired": list[CardCountJson]})


class DrawRulesJson(TypedDict):
    opening_hand: int
    draws_per_turn: int
    extra_opening: int
    sources: dict[str, str]
    assumptions: list[str]


class DeckStatsJson(TypedDict):
    name: str
    game: str
    faction: str
    total: int
    by_category: dict[str, int]
    by_play: dict[str, int]
    by_set: dict[str, int]
    cost_curve: dict[str, int]
    firepower_by_chip: list[ChipFirepowerJson]
    changes: ChangesJson | None
    odds: list[OddsJson]
    draw_rules: DrawRulesJson


# -- the odds --------------------------------------------------------------------------------
def chance_of_at_least(size: int, copies: int, seen: int, wanted: int = 1) -> Fraction:
    """The exact chance that `seen` cards drawn from `size` holding `copies` of a kind
    include at least `wanted` of it.

    >>> chance_of_at_least(10, 1, 3)
    Fraction(3, 10)
    >>> chance_of_at_least(10, 0, 3), chance_of_at_least(10, 10, 3)
    (Fraction(0, 1), Fraction(1, 1))
    """
    if not 0 <= copies <= size or seen < 0:
        raise ValueError(f"no such draw: {copies} of {size} cards, {seen} seen")
    seen = min(seen, size)
    total = comb(size, seen)
    missing = sum(comb(copies, hits) * comb(size - copies, seen - hits)
                  for hits in range(min(wanted, copies + 1)))
    return 1 - Fraction(missing, total)


def percent_text(chance: float) -> str:
    """A chance for reading: one decimal, never "100%" for what is not certain.

    >>> percent_text(0.2923), percent_text(0.99996), percent_text(1.0)
    ('29.2%', '>99.9%', '100%')
    """
    if chance >= 0.9995:
        return "100%" if chance == 1 else ">99.9%"
    return f"{chance * 100:.1f}%"


@dataclass(frozen=True)
class DrawRules:
    """How many cards a player has seen by his turn N: the opening hand, then his draws."""

    opening_hand: int = 5
    draws_per_turn: int = 2
    extra_opening: int = 0  # Revolver 2: cards a poker card adds to the opening hand
    sources: tuple[tuple[str, str], ...] = (
        ("opening_hand", "rulebook-en: Set-up, 'Each player draws five cards'; malpaso-es: "
                         "'Cada jugador roba cinco cartas'; engine OPENING_HAND = 5"),
        ("draws_per_turn", "rulebook-en: Turn sequence, '2. Draw two cards' (the first turn "
                           "skips only the marker's advance); malpaso-es: 'Roba dos cartas'; "
                           "engine DRAW_PER_TURN = 2"),
    )
    assumptions: tuple[str, ...] = (  # the table's, then each game's (its card model's)
        "cards drawn by card effects and a reshuffled discard pile are not counted",
        *(each for own in game_declared("DRAW_ASSUMPTIONS") for each in own),
    )

    def cards_seen(self, turn: int) -> int:
        """Cards seen by the end of the draw phase of the player's turn `turn` (0: opening)."""
        return self.opening_hand + self.extra_opening + self.draws_per_turn * turn

    def to_json(self) -> DrawRulesJson:
        return {"opening_hand": self.opening_hand, "draws_per_turn": self.draws_per_turn,
                "extra_opening": self.extra_opening, "sources": dict(self.sources),
                "assumptions": list(self.assumptions)}


@dataclass(frozen=True)
class TurnOdds:
    turn: int  # 0: the opening hand
    cards_seen: int
    chance: Fraction

    def to_json(self) -> TurnOddsJson:
        return {"turn": self.turn, "cards_seen": self.cards_seen,
                "chance": round(float(self.chance), 6),
                "exact": f"{self.chance.numerator}/{self.chance.denominator}"}


@dataclass(frozen=True)
class Odds:
    """The chance of at least one card of a kind (a category) or one named card."""

    kind: str  # "category" or "card"
    key: str  # the category, or the card's id (its name as written when unknown)
    name: str
    copies: int
    by_turn: tuple[TurnOdds, ...]

    def to_json(self) -> OddsJson:
        return {"kind": self.kind, "key": self.key, "name": self.name, "copies": self.copies,
                "by_turn": [odds.to_json() for odds in self.by_turn]}


# -- what the deck holds ---------------------------------------------------------------------
@dataclass(frozen=True)
class Tally:
    key: str
    count: int


@dataclass(frozen=True)
class ChipFirepower:
    """The firepower cards of one chip colour: how many, their total, each value's count."""

    chip: str
    cards: int
    total: int
    values: tuple[Tally, ...]  # firepower value -> copies

    def to_json(self) -> ChipFirepowerJson:
        return {"chip": self.chip, "cards": self.cards, "total": self.total,
                "values": {tally.key: tally.count for tally in self.values}}


@dataclass(frozen=True)
class Changes:
    """The deck against its faction's base deck, as the validator computes it."""

    out: tuple[CardCount, ...]
    into: tuple[CardCount, ...]
    replacements: tuple[Replacement, ...]
    unpaired: tuple[CardCount, ...]

    @property
    def is_base_deck(self) -> bool:
        return not self.out and not self.into

    def to_json(self) -> ChangesJson:
        def rows(counts: Iterable[CardCount]) -> list[CardCountJson]:
            return [{"card": row.card, "name": row.name, "count": row.count} for row in counts]

        return {"out": rows(self.out), "in": rows(self.into),
                "replacements": [{"out": pair.out, "out_name": pair.out_name,
                                  "in": pair.into, "in_name": pair.in_name,
                                  "wildcard": pair.wildcard} for pair in self.replacements],
                "unpaired": rows(self.unpaired)}


@dataclass(frozen=True)
class DeckStats:
    name: str
    game: str
    faction: str
    total: int
    by_category: tuple[Tally, ...]
    by_play: tuple[Tally, ...]
    by_set: tuple[Tally, ...]
    cost_curve: tuple[Tally, ...]  # cost (as text) -> copies, every cost from 0 to the highest
    firepower_by_chip: tuple[ChipFirepower, ...]
    changes: Changes | None  # None when the faction's base deck is not installed
    odds: tuple[Odds, ...]
    draw_rules: DrawRules = field(default_factory=DrawRules)

    def to_json(self) -> DeckStatsJson:
        def tallies(rows: Sequence[Tally]) -> dict[str, int]:
            return {row.key: row.count for row in rows}

        return {
            "name": self.name, "game": self.game, "faction": self.faction,
            "total": self.total,
            "by_category": tallies(self.by_category), "by_play": tallies(self.by_play),
            "by_set": tallies(self.by_set), "cost_curve": tallies(self.cost_curve),
            "firepower_by_chip": [row.to_json() for row in self.firepower_by_chip],
            "changes": self.changes.to_json() if self.changes is not None else None,
            "odds": [odds.to_json() for odds in self.odds],
            "draw_rules": self.draw_rules.to_json(),
        }


@dataclass(frozen=True)
class _Copy:
    """One deck entry as the statistics see it."""

    key: str
    name: str
    count: int
    record: Card | None  # None for what is no deck card
    set_id: str


def _copies(deck: LoadedDeck) -> list[_Copy]:
    merged: dict[str, _Copy] = {}
    for entry in deck.entries:
        found = entry.entry
        record = found.record if found is not None and found.kind == "card" else None
        key = entry.identity
        previous = merged.get(key)
        count = entry.count + (previous.count if previous else 0)
        merged[key] = _Copy(found.id if found else entry.key, entry.display_name, count, record,
                            found.set_id if found else UNKNOWN)
    return list(merged.values())


def _tallies(counter: Counter[str], order: Sequence[str] = ()) -> tuple[Tally, ...]:
    keys = [key for key in order if key in counter]
    keys += sorted(key for key in counter if key not in keys)
    return tuple(Tally(key, counter[key]) for key in keys)


def _changes(deck: LoadedDeck, catalog: Catalog) -> Changes | None:
    try:
        facts = deck_facts(deck, catalog)
    except DeckbuilderError:  # no base deck to compare with: the rest still holds
        return None
    pairs, unpaired = pair_replacements(facts)

    def rows(counts: dict[str, int]) -> tuple[CardCount, ...]:
        return tuple(CardCount(card, facts.name(card) if card in catalog.entries else card,
                               count) for card, count in counts.items())

    return Changes(rows(facts.removed), rows(facts.added), tuple(pairs), rows(unpaired))


def odds_by_turn(size: int, copies: int, turns: int, rules: DrawRules) -> tuple[TurnOdds, ...]:
    """The chance of at least one of `copies` by each of the player's turns 0 to `turns`."""
    return tuple(TurnOdds(turn, min(rules.cards_seen(turn), size),
                          chance_of_at_least(size, copies, rules.cards_seen(turn)))
                 for turn in range(turns + 1))


def deck_stats(deck: LoadedDeck, catalog: Catalog, turns: int = DEFAULT_TURNS,
               rules: DrawRules | None = None) -> DeckStats:
    """Everything `deck stats` shows about a deck; odds up to the player's turn `turns`."""
    rules = rules or DrawRules()
    copies = _copies(deck)
    total = sum(copy.count for copy in copies)
    category: Counter[str] = Counter()
    play: Counter[str] = Counter()
    sets: Counter[str] = Counter()
    cost: Counter[int] = Counter()
    chips: dict[str, Counter[int]] = {}
    for copy in copies:
        record = copy.record
        sets[copy.set_id] += copy.count
        category[str(record.category) if record else UNKNOWN] += copy.count
        play[str(record.play) if record else UNKNOWN] += copy.count
        if record is None:
            continue
        cost[record.cost] += copy.count
        if record.firepower is not None:
            chip = str(record.chip) if record.chip else NO_CHIP
            chips.setdefault(chip, Counter())[record.firepower] += copy.count
    curve = tuple(Tally(str(value), cost[value]) for value in range(max(cost, default=-1) + 1))
    firepower = tuple(
        ChipFirepower(chip, sum(values.values()),
                      sum(value * count for value, count in values.items()),
                      tuple(Tally(str(value), values[value]) for value in sorted(values)))
        for chip, values in sorted(chips.items()))
    odds = [Odds("category", row.key, row.key, row.count,
                 odds_by_turn(total, row.count, turns, rules))
            for row in _tallies(category)]
    odds += [Odds("card", copy.key, copy.name, copy.count,
                  odds_by_turn(total, copy.count, turns, rules))
             for copy in sorted(copies, key=lambda c: c.name.casefold())]
    return DeckStats(
        name=deck.name, game=deck.game, faction=deck.faction, total=total,
        by_category=_tallies(category, [str(c) for c in Category]),
        by_play=_tallies(play, [str(p) for p in PlayType]),
        by_set=_tallies(sets),
        cost_curve=curve,
        firepower_by_chip=firepower,
        changes=_changes(deck, catalog),
        odds=tuple(odds),
        draw_rules=rules,
    )


# -- a hand to look at -----------------------------------------------------------------------
@dataclass(frozen=True)
class HandCard:
    card: str  # id, or the name as written when unknown
    name: str


def sample_opening_hand(deck: LoadedDeck, rng: random.Random) -> tuple[HandCard, ...]:
    """A hand as the deck might deal it (the web page's "draw a hand")."""
    pool = [HandCard(copy.key, copy.name) for copy in _copies(deck) for _ in range(copy.count)]
    return tuple(rng.sample(pool, min(DrawRules().opening_hand, len(pool))))

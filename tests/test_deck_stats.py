"""Deck statistics: the counts add up to the deck, the odds are the hypergeometric figures a
player would work out by hand, and a changed deck shows what changed against its base deck."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.deck_stats import DrawRules, chance_of_at_least, deck_stats, sample_opening_hand
from deckbuilder.decks import (
    LoadedDeck,
    load_deck,
    new_deck,
    packaged_deck_names,
    read_deck,
    resolve_deck,
    swap_cards,
)
from deckbuilder.models import Deck


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog()


def packaged(name: str, catalog: Catalog) -> LoadedDeck:
    return read_deck(name, catalog).loaded


# -- the odds ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "copies", "seen", "wanted"), [
    (7, 2, 3, 1), (7, 2, 3, 2), (8, 3, 5, 1), (8, 3, 5, 3), (6, 0, 2, 1), (6, 6, 2, 2),
    (9, 4, 9, 1), (5, 1, 7, 1),
])
def test_the_chance_of_at_least_one_matches_counting_every_hand(
        size: int, copies: int, seen: int, wanted: int) -> None:
    deck = ["wanted"] * copies + ["other"] * (size - copies)
    hands = list(itertools.combinations(range(size), min(seen, size)))
    hits = sum(1 for hand in hands if sum(deck[i] == "wanted" for i in hand) >= wanted)
    assert chance_of_at_least(size, copies, seen, wanted) == Fraction(hits, len(hands))


def test_a_draw_that_cannot_be_is_refused() -> None:
    with pytest.raises(ValueError):
        chance_of_at_least(5, 6, 2)


def test_cards_seen_follow_the_rulebook_and_the_engine() -> None:
    from deckbuilder.engine.turn import DRAW_PER_TURN
    from deckbuilder.games.revolver.rules import OPENING_HAND
    from deckbuilder.games.revolver2.poker import OPENING_HAND as POKER_OPENING_HAND

    rules = DrawRules()
    assert (rules.opening_hand, rules.draws_per_turn) == (OPENING_HAND, DRAW_PER_TURN)
    assert POKER_OPENING_HAND == OPENING_HAND
    assert [rules.cards_seen(turn) for turn in range(4)] == [5, 7, 9, 11]
    # a poker card that adds two cards to the opening hand (Revolver 2)
    assert DrawRules(extra_opening=2).cards_seen(0) == 7
    assert any("poker" in assumption for assumption in rules.assumptions)


@pytest.mark.parametrize("name", ["colty", "mcready", "mapache", "esteban",
                                  *packaged_deck_names()])
def test_every_odds_row_is_the_hypergeometric_figure_from_the_decks_counts(
        name: str, catalog: Catalog) -> None:
    deck = packaged(name, catalog)
    stats = deck_stats(deck, catalog, turns=3)
    size = deck.total()
    by_category: Counter[str] = Counter()
    for entry in deck.entries:
        record = entry.entry.record if entry.entry is not None else None
        by_category[str(getattr(record, "category", "unknown"))] += entry.count
    category_odds = {odds.key: odds for odds in stats.odds if odds.kind == "category"}
    assert {key: odds.copies for key, odds in category_odds.items()} == dict(by_category)
    card_odds = {odds.key: odds for odds in stats.odds if odds.kind == "card"}
    assert {key: odds.copies for key, odds in card_odds.items()} == deck.counts()
    for odds in [*category_odds.values(), *card_odds.values()]:
        for row in odds.by_turn:
            seen = 5 + 2 * row.turn
            assert row.cards_seen == seen
            assert row.chance == 1 - Fraction(comb(size - odds.copies, seen), comb(size, seen))
        chances = [row.chance for row in odds.by_turn]
        assert chances == sorted(chances)  # more cards seen, never a smaller chance


# -- the counts --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["colty", "mcready", "mapache", "esteban",
                                  *packaged_deck_names()])
def test_every_count_adds_up_to_the_deck(name: str, catalog: Catalog) -> None:
    deck = packaged(name, catalog)
    stats = deck_stats(deck, catalog)
    assert stats.total == deck.total() == 62
    for rows in (stats.by_category, stats.by_play, stats.by_set):
        assert sum(row.count for row in rows) == 62
    assert sum(row.count for row in stats.cost_curve) == 62
    firepower_cards = sum(entry.count for entry in deck.entries
                          if entry.entry is not None
                          and getattr(entry.entry.record, "firepower", None) is not None)
    assert sum(row.cards for row in stats.firepower_by_chip) == firepower_cards
    for row in stats.firepower_by_chip:
        assert row.total == sum(int(value.key) * value.count for value in row.values)
    json.dumps(stats.to_json())  # the --json output is JSON


def test_a_base_deck_has_no_changes(catalog: Catalog) -> None:
    changes = deck_stats(packaged("colty", catalog), catalog).changes
    assert changes is not None and changes.is_base_deck and not changes.replacements


def test_a_swapped_deck_shows_its_changes_and_their_pairing(
        tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "lawmen.yaml"
    new_deck(catalog, "mcready", path)
    swap_cards(path, catalog, "deputy", "texas-ranger", 2)
    stats = deck_stats(load_deck(path, catalog), catalog)
    assert stats.changes is not None
    assert [(row.card, row.count) for row in stats.changes.out] == [("deputy", 2)]
    assert [(row.card, row.count) for row in stats.changes.into] == [("texas-ranger", 2)]
    assert [(pair.out, pair.into) for pair in stats.changes.replacements] == [
        ("deputy", "texas-ranger")] * 2
    assert stats.to_json()["changes"]["in"] == [
        {"card": "texas-ranger", "name": "Texas Ranger", "count": 2}]
    assert stats.total == 62


def test_an_unknown_card_is_counted_apart_and_the_counts_still_add_up(
        catalog: Catalog) -> None:
    base = packaged("colty", catalog)
    cards = dict(base.deck.cards)
    first = next(iter(cards))
    cards[first] -= 1
    cards["Sheriff Nobody"] = 1
    deck = resolve_deck(Deck(name="odd", game="revolver", faction="colty", cards=cards), catalog)
    stats = deck_stats(deck, catalog)
    assert {row.key: row.count for row in stats.by_category}["unknown"] == 1
    assert sum(row.count for row in stats.by_category) == 62
    assert sum(row.count for row in stats.cost_curve) == 61  # an unknown card has no cost


def test_a_sample_hand_is_five_cards_of_the_deck_and_follows_the_seed(
        catalog: Catalog) -> None:
    deck = packaged("example-mcready-pinkertons", catalog)
    hand = sample_opening_hand(deck, random.Random(7))
    assert len(hand) == 5
    held = Counter(card.card for card in hand)
    assert all(deck.counts()[card] >= count for card, count in held.items())
    assert hand == sample_opening_hand(deck, random.Random(7))
    hands = {sample_opening_hand(deck, random.Random(seed)) for seed in range(20)}
    assert len(hands) > 1

"""The player's words: plausible suggestions (the deck's own game and faction first), the
like-for-like violation naming both sides, one mistake giving one violation, and grammar."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.legality import Code, validate_deck
from deckbuilder.models import Deck

SETS = Path(__file__).resolve().parent / "fixtures" / "decks" / "sets"


@pytest.fixture(scope="module")
def pool() -> Catalog:
    return build_catalog(package_sets=sorted(SETS.glob("*.yaml")), use_user_data=False)


@pytest.fixture(scope="module")
def packaged() -> Catalog:
    return build_catalog(use_user_data=False)


def mcready(catalog: Catalog, out: dict[str, int], into: dict[str, int]) -> Deck:
    cards = dict(catalog.base_deck("revolver", "mcready"))
    for card, count in out.items():
        cards[card] -= count
        if not cards[card]:
            del cards[card]
    for card, count in into.items():
        cards[card] = cards.get(card, 0) + count
    return Deck(name="words", game="revolver", faction="mcready", cards=cards)


# -- suggestions ------------------------------------------------------------------------------
def test_a_typo_suggests_only_the_plausible_name(packaged: Catalog) -> None:
    # before: "Texas Rangr" also suggested the Mexican Border and a gang card
    assert packaged.suggest("Texas Rangr") == ["Texas Ranger"]
    assert packaged.suggest("Texas Rangr", kind="card", game="revolver") == ["Texas Ranger"]
    assert packaged.suggest("Deputi") == ["Deputy"]
    assert packaged.suggest("xyzzy") == []


def synthetic(*cards: tuple[str, str, str]) -> Catalog:
    """A catalog of (id, name, faction) cards of Revolver, for ordering tests."""
    from deckbuilder.catalog import Entry
    from deckbuilder.models import Card

    catalog = Catalog()
    for card_id, name, faction in cards:
        card = Card(id=card_id, name=name, faction=faction, category="action", play="one-shot")
        catalog.entries[card_id] = Entry(card, "card", "test", "revolver")
    return catalog


def test_equally_close_names_come_own_faction_first() -> None:
    catalog = synthetic(("red-wagon", "Red Wagon", "colty"),
                        ("red-wagen", "Red Wagen", "mcready"))
    assert catalog.suggest("Red Wagxn", faction="mcready") == ["Red Wagen", "Red Wagon"]
    assert catalog.suggest("Red Wagxn", faction="colty") == ["Red Wagon", "Red Wagen"]


def test_a_far_name_is_not_offered_even_from_the_own_faction() -> None:
    catalog = synthetic(("texas-ranger", "Texas Ranger", "mcready"),
                        ("derringer", "1866 Double Barrel Derringer", "colty"),
                        ("granby", "Austin Granby - railway engineer", "colty"))
    assert catalog.suggest("Texas Rangr", faction="colty") == ["Texas Ranger"]
    assert catalog.suggest("S") == []


def test_an_unknown_card_in_a_deck_suggests_its_own_factions_card(pool: Catalog) -> None:
    deck = mcready(pool, {"mini-representative-of-the-law": 1}, {})
    deck = deck.model_copy(update={"cards": {**deck.cards, "Texs Rangr": 1}})
    report = validate_deck(deck, pool)
    unknown = next(v for v in report.violations if v.code == Code.UNKNOWN_CARD)
    assert unknown.fix == "did you mean Texas Ranger?"


# -- like for like ----------------------------------------------------------------------------
def test_like_for_like_names_the_removed_card_left_without_a_replacement(pool: Catalog) -> None:
    deck = mcready(pool, {"mini-buffalo-stampede": 1}, {"mini-volcanic-pistol": 1})
    report = validate_deck(deck, pool)
    assert report.codes() == {Code.LIKE_FOR_LIKE}
    violation = report.violations[0]
    assert violation.cards == ("mini-volcanic-pistol", "mini-buffalo-stampede")
    assert "Volcanic pistol (a firepower card) replaces nothing" in violation.message
    assert "taken out without a replacement: 1x Buffalo Stampede (an action card)" in (
        violation.message)
    assert "put Buffalo Stampede back" in violation.fix
    assert "a firepower card" in violation.fix


def test_one_mistake_the_size_gives_one_violation_that_blames_no_untouched_card(
        pool: Catalog) -> None:
    # two lawmen out for two Texas Rangers and Clarence Stickley: one card too many. The
    # pairing may leave either character without a partner; rule C must not blame one.
    deck = mcready(pool, {"mini-representative-of-the-law": 2},
                   {"mini-texas-ranger": 2, "mini-clarence-stickley": 1})
    report = validate_deck(deck, pool)
    assert report.codes() == {Code.DECK_SIZE}
    size = report.violations[0]
    assert "63 cards" in size.message
    assert "1 of the 3 character cards put in" in size.message
    assert "2x Texas Ranger, 1x Clarence Stickley" in size.message
    assert "2x Representative of the Law" in size.message
    assert set(size.cards) == {"mini-texas-ranger", "mini-clarence-stickley"}


def test_a_short_deck_names_the_cards_taken_out_without_a_replacement(pool: Catalog) -> None:
    deck = mcready(pool, {"mini-sharps-rifle": 2}, {})
    report = validate_deck(deck, pool)
    assert report.codes() == {Code.DECK_SIZE}
    assert "taken out without a replacement: 2x Sharps Rifle" in report.violations[0].message


def test_two_mistakes_still_give_two_violations(pool: Catalog) -> None:
    # a firepower card for an action card (rule C) and one card too many (rule A)
    deck = mcready(pool, {"mini-buffalo-stampede": 1},
                   {"mini-volcanic-pistol": 1, "mini-texas-ranger": 1})
    assert validate_deck(deck, pool).codes() == {Code.DECK_SIZE, Code.LIKE_FOR_LIKE}


def test_several_copies_of_one_card_read_as_english(pool: Catalog) -> None:
    deck = mcready(pool, {}, {"mini-wild-prairie": 2})
    deck = deck.model_copy(update={"cards": {
        **{k: v for k, v in deck.cards.items() if k != "mini-colonel-mcready"}}})
    report = validate_deck(deck, pool)
    like = next(v for v in report.violations if v.code == Code.LIKE_FOR_LIKE)
    assert "2 copies of Wild Prairie (a location or open-range card) replace nothing" in (
        like.message)
    assert " a action" not in like.message + like.fix and " a open" not in like.message

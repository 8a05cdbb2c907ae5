"""Module D (Tarnished Star) deck-building rules, as scenarios on a small synthetic card pool.

The pool (tests/fixtures/decks/sets) has a 62-card base deck per side: McReady's holds the
unique gunslinger Colonel McReady, 20 Representatives of the Law (character), Sister Sarah
(unique), 10 Buffalo Stampede and 10 Fire at will boys (action), 20 Sharps Rifles (firepower).
"mini-star" plays the Tarnished Star (1.4) and requires "mini-ambush" (1.1) and "mini-hunt"
(1.2); "mini-malpaso" is a Revolver 2 base game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.decks import load_deck
from deckbuilder.errors import DeckError
from deckbuilder.legality import MODULE_D_BY_ANALOGY, Code, LegalityReport, validate_deck
from deckbuilder.models import Collection, Deck

SETS = Path(__file__).resolve().parent / "fixtures" / "decks" / "sets"
ALL_CODES = {
    value for name, value in vars(Code).items() if not name.startswith("_")
}


def make_catalog(*names: str) -> Catalog:
    files = [SETS / f"{name}.yaml" for name in names] if names else sorted(SETS.glob("*.yaml"))
    return build_catalog(package_sets=files, use_user_data=False)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return make_catalog()


def mcready_deck(catalog: Catalog, out: dict[str, int], into: dict[str, int], **fields) -> Deck:
    """McReady's base deck with `out` copies taken out and `into` copies put in."""
    cards = dict(catalog.base_deck("revolver", "mcready"))
    for card, count in out.items():
        cards[card] -= count
        if cards[card] == 0:
            del cards[card]
    for card, count in into.items():
        cards[card] = cards.get(card, 0) + count
    return Deck(name="test deck", game="revolver", faction="mcready", cards=cards, **fields)


def write_deck(tmp_path: Path, text: str, name: str = "deck.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def pairs(report: LegalityReport) -> list[tuple[str, str]]:
    return sorted((r.out, r.into) for r in report.replacements)


# -- legal decks ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "faction"),
    [("revolver", "colty"), ("revolver", "mcready"), ("revolver2", "esteban"),
     ("revolver2", "mapache")],
)
def test_every_base_deck_is_legal_and_replaces_nothing(catalog, game, faction):
    deck = Deck(name="base", game=game, faction=faction, cards=catalog.base_deck(game, faction))
    report = validate_deck(deck, catalog)
    assert report.is_legal, report.violations
    assert report.replacements == ()
    assert report.card_count == 62


def test_a_legal_custom_deck_explains_itself_with_replacement_pairs(catalog):
    deck = mcready_deck(
        catalog,
        out={"mini-representative-of-the-law": 2, "mini-buffalo-stampede": 1},
        into={"mini-texas-ranger": 2, "mini-vantage-point": 1},
    )
    report = validate_deck(deck, catalog)
    assert report.is_legal, report.violations
    assert pairs(report) == [
        ("mini-buffalo-stampede", "mini-vantage-point"),
        ("mini-representative-of-the-law", "mini-texas-ranger"),
        ("mini-representative-of-the-law", "mini-texas-ranger"),
    ]
    by_card = {r.into: r.wildcard for r in report.replacements}
    assert by_card == {"mini-texas-ranger": False, "mini-vantage-point": True}


def test_rule_d_a_location_may_replace_an_action_card(catalog):
    deck = mcready_deck(catalog, out={"mini-fire-at-will": 1}, into={"mini-vantage-point": 1})
    report = validate_deck(deck, catalog)
    assert report.is_legal
    assert pairs(report) == [("mini-fire-at-will", "mini-vantage-point")]


def test_rule_d_an_open_range_card_may_replace_a_firepower_card(catalog):
    deck = mcready_deck(catalog, out={"mini-sharps-rifle": 2}, into={"mini-wild-prairie": 2})
    assert validate_deck(deck, catalog).is_legal


def test_pairing_is_a_maximum_matching_whatever_the_deck_order(catalog):
    # The location is listed first; a greedy pairing that let it take the firepower slot
    # would leave the pistol (firepower) without a partner.
    cards = {"mini-vantage-point": 1, "mini-volcanic-pistol": 1}
    cards.update(catalog.base_deck("revolver", "mcready"))
    cards["mini-sharps-rifle"] -= 1
    cards["mini-buffalo-stampede"] -= 1
    report = validate_deck(Deck(name="d", game="revolver", faction="mcready", cards=cards), catalog)
    assert report.is_legal, report.violations
    assert pairs(report) == [
        ("mini-buffalo-stampede", "mini-vantage-point"),
        ("mini-sharps-rifle", "mini-volcanic-pistol"),
    ]


# -- rule B ---------------------------------------------------------------------------------
def test_rule_b_removing_colonel_mcready_for_a_texas_ranger_is_refused(catalog):
    deck = mcready_deck(catalog, out={"mini-colonel-mcready": 1}, into={"mini-texas-ranger": 1})
    report = validate_deck(deck, catalog)
    assert not report.is_legal
    assert Code.GUNSLINGER_REPLACED in report.codes()
    refused = next(v for v in report.violations if v.code == Code.GUNSLINGER_REPLACED)
    assert refused.cards == ("mini-colonel-mcready",)
    assert "rule B" in refused.rule
    assert all(r.out != "mini-colonel-mcready" for r in report.replacements)


def test_rule_d_a_wildcard_never_replaces_a_unique_gunslinger(catalog):
    deck = mcready_deck(catalog, out={"mini-colonel-mcready": 1}, into={"mini-wild-prairie": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.GUNSLINGER_REPLACED, Code.LIKE_FOR_LIKE}
    assert report.replacements == ()


# -- rule C ---------------------------------------------------------------------------------
def test_rule_c_an_action_card_cannot_replace_a_firepower_card(catalog):
    deck = mcready_deck(catalog, out={"mini-sharps-rifle": 1}, into={"mini-double-the-guard": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.LIKE_FOR_LIKE}
    violation = report.violations[0]
    # both sides: the card put in without a partner, the card taken out without a replacement
    assert violation.cards == ("mini-double-the-guard", "mini-sharps-rifle")
    assert "an action card" in violation.message and "Sharps Rifle" in violation.message


def test_rule_c_cost_and_firepower_do_not_matter_only_the_category(catalog):
    # Volcanic pistol (firepower 3) replaces a Sharps Rifle (firepower 2).
    deck = mcready_deck(catalog, out={"mini-sharps-rifle": 1}, into={"mini-volcanic-pistol": 1})
    assert validate_deck(deck, catalog).is_legal


# -- rule E and copies ----------------------------------------------------------------------
def test_rule_e_a_unique_card_twice_is_refused(catalog):
    deck = mcready_deck(
        catalog, out={"mini-representative-of-the-law": 2}, into={"mini-clarence-stickley": 2}
    )
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.UNIQUE_COPIES}
    assert report.violations[0].cards == ("mini-clarence-stickley",)


def test_a_base_card_beyond_its_base_count_must_come_from_an_expansion(catalog):
    deck = mcready_deck(
        catalog, out={"mini-representative-of-the-law": 1}, into={"mini-sharps-rifle": 1}
    )
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.BASE_COPIES_EXCEEDED}
    assert "20" in report.violations[0].message


def test_name_and_id_entries_for_the_same_card_are_counted_together(catalog):
    deck = mcready_deck(catalog, out={"mini-representative-of-the-law": 2}, into={})
    cards = dict(deck.cards)
    cards["mini-clarence-stickley"] = 1
    cards["Clarence Stickley"] = 1
    report = validate_deck(deck.model_copy(update={"cards": cards}), catalog)
    assert report.codes() == {Code.UNIQUE_COPIES}


# -- cards that don't belong ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "why"),
    [
        ("mini-garrotte", "never goes into a player's deck"),
        ("mini-strongbox", "Frontier-deck card"),
        ("mini-cortez", "character"),
        ("mini-the-bank", "battlefield"),
        ("mini-true-grit", "token"),
        ("mini-derail-the-train", "special"),
    ],
)
def test_not_deckable_cards_are_refused(catalog, card, why):
    deck = Deck(name="c", game="revolver", faction="colty",
                cards={**catalog.base_deck("revolver", "colty"), card: 1})
    report = validate_deck(deck, catalog)
    refused = [v for v in report.violations if v.code == Code.NOT_DECKABLE]
    assert len(refused) == 1
    assert why in refused[0].message
    assert refused[0].cards == (card,)


def test_a_card_of_the_other_faction_is_wrong_faction(catalog):
    deck = mcready_deck(catalog, out={"mini-fire-at-will": 1}, into={"mini-dynamite": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.WRONG_FACTION}
    assert "colty" in report.violations[0].message


def test_a_revolver_2_card_in_a_revolver_deck_is_the_wrong_game(catalog):
    deck = mcready_deck(catalog, out={"mini-fire-at-will": 1}, into={"mini-prayer": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.WRONG_FACTION}
    assert "revolver2" in report.violations[0].message


def test_an_unknown_card_gets_the_closest_names(catalog):
    deck = mcready_deck(catalog, out={"mini-representative-of-the-law": 1}, into={})
    deck = deck.model_copy(update={"cards": {**deck.cards, "Texs Ranger": 1}})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.UNKNOWN_CARD}
    assert "Texas Ranger" in report.violations[0].message
    assert "Texas Ranger" in report.violations[0].fix


def test_deck_size_counts_every_entry(catalog):
    short = mcready_deck(catalog, out={"mini-sharps-rifle": 3}, into={})
    report = validate_deck(short, catalog)
    assert report.codes() == {Code.DECK_SIZE}
    assert "59" in report.violations[0].message
    assert "add 3 cards" in report.violations[0].fix


# -- sets and collections -------------------------------------------------------------------
def test_set_requires_when_1_4_is_declared_without_1_1_and_1_2(catalog, tmp_path):
    path = write_deck(tmp_path, """\
name: rangers
game: revolver
faction: mcready
sets:
  - mini-star
cards:
  mini-colonel-mcready: 1
  mini-representative-of-the-law: 18
  mini-texas-ranger: 2
  mini-sister-sarah: 1
  mini-buffalo-stampede: 10
  mini-fire-at-will: 10
  mini-sharps-rifle: 20
""")
    report = validate_deck(path, catalog)
    assert report.codes() == {Code.SET_REQUIRES}
    violation = report.violations[0]
    assert "mini-ambush" in violation.message and "mini-hunt" in violation.message
    assert violation.cards == ("mini-texas-ranger",)
    assert violation.line == line_of(path, "- mini-star")


def test_declaring_the_required_sets_makes_the_same_deck_legal(catalog):
    deck = mcready_deck(
        catalog, out={"mini-representative-of-the-law": 2}, into={"mini-texas-ranger": 2},
        sets=["mini-star", "mini-ambush", "mini-hunt"],
    )
    assert validate_deck(deck, catalog).is_legal  # the base set is implied


def test_set_requires_when_a_required_set_is_not_installed():
    catalog = make_catalog("mini-base", "mini-ambush", "mini-star")
    deck = mcready_deck(catalog, out={"mini-representative-of-the-law": 1},
                        into={"mini-texas-ranger": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.SET_REQUIRES}
    assert "mini-hunt (not installed)" in report.violations[0].message


def test_a_card_from_a_set_the_deck_does_not_declare_is_unavailable(catalog):
    deck = mcready_deck(catalog, out={"mini-representative-of-the-law": 1},
                        into={"mini-tracker": 1}, sets=["mini-ambush"])
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.SET_UNAVAILABLE}
    assert report.violations[0].cards == ("mini-tracker",)
    assert "mini-hunt" in report.violations[0].message


def test_a_declared_set_that_is_not_installed_is_unavailable(catalog):
    base = catalog.base_deck("revolver", "mcready")
    deck = Deck(name="d", game="revolver", faction="mcready", sets=["mini-nowhere"], cards=base)
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.SET_UNAVAILABLE}
    assert report.violations[0].cards == ()


def test_not_owned_counts_boxes_times_copies_plus_loose_cards(catalog):
    deck = mcready_deck(catalog, out={"mini-representative-of-the-law": 3},
                        into={"mini-texas-ranger": 2, "mini-tracker": 1})
    one_box_each = Collection(sets={"mini-base": 1, "mini-star": 1}, cards={"Tracker": 1})
    assert validate_deck(deck, catalog, one_box_each).is_legal
    no_star = Collection(sets={"mini-base": 1}, cards={"Texas Ranger": 1, "mini-tracker": 1})
    report = validate_deck(deck, catalog, no_star)
    assert report.codes() == {Code.NOT_OWNED}
    assert report.violations[0].cards == ("mini-texas-ranger",)
    assert "collection has 1" in report.violations[0].message


def test_two_boxes_of_the_base_game_own_every_base_card_twice(catalog):
    deck = mcready_deck(catalog, out={}, into={})
    report = validate_deck(deck, catalog, {"mini-colonel-mcready": 1})
    assert {v.cards[0] for v in report.violations} == set(deck.cards) - {"mini-colonel-mcready"}
    assert validate_deck(deck, catalog, Collection(sets={"mini-base": 2})).is_legal


# -- everything at once ---------------------------------------------------------------------
EVERY_PROBLEM = """\
name: every problem at once
game: revolver
faction: mcready
sets: [mini-star, mini-nowhere]
cards:
  # Colonel McReady is gone (rule B)
  mini-representative-of-the-law: 17
  Texs Ranger: 2
  mini-sister-sarah: 1
  Dynamite: 1
  Strongbox: 1
  mini-buffalo-stampede: 10
  mini-fire-at-will: 10
  mini-sharps-rifle: 21
  Volcanic pistol: 1
  Clarence Stickley: 2
"""


def test_every_code_is_reported_together_with_the_line_of_its_entry(catalog, tmp_path):
    path = write_deck(tmp_path, EVERY_PROBLEM)
    report = validate_deck(path, catalog, Collection(sets={"mini-base": 1}))
    # a collection is the supply, so its shortfall is not-owned (boxes: not-in-supply)
    assert report.codes() == ALL_CODES - {Code.NOT_IN_SUPPLY}
    where = {v.code: v.line for v in report.violations}
    assert where[Code.DECK_SIZE] == line_of(path, "cards:")
    assert where[Code.UNKNOWN_CARD] == line_of(path, "Texs Ranger")
    assert where[Code.WRONG_FACTION] == line_of(path, "Dynamite")
    assert where[Code.NOT_DECKABLE] == line_of(path, "Strongbox")
    assert where[Code.BASE_COPIES_EXCEEDED] == line_of(path, "mini-sharps-rifle")
    assert where[Code.GUNSLINGER_REPLACED] == line_of(path, "cards:")
    assert where[Code.LIKE_FOR_LIKE] == line_of(path, "Volcanic pistol")
    assert where[Code.UNIQUE_COPIES] == line_of(path, "Clarence Stickley")
    assert where[Code.SET_UNAVAILABLE] == line_of(path, "sets:")
    for violation in report.violations:
        assert violation.rule.startswith("Module D, rule")
        assert violation.message and violation.fix


# -- Revolver 2 -----------------------------------------------------------------------------
def test_revolver_2_decks_follow_module_d_by_analogy(catalog):
    base = dict(catalog.base_deck("revolver2", "mapache"))
    del base["mini-general-mapache"]
    base["mini-raider"] -= 1
    base["mini-ambush-r2"] -= 1
    deck = Deck(name="r2", game="revolver2", faction="mapache",
                cards={**base, "mini-gatling-drill": 1, "mini-rifle": 1})
    report = validate_deck(deck, catalog)
    assert report.codes() == {Code.GUNSLINGER_REPLACED, Code.DECK_SIZE, Code.WRONG_FACTION}
    assert all(v.rule.startswith(MODULE_D_BY_ANALOGY) for v in report.violations)
    assert ("mini-ambush-r2", "mini-gatling-drill") in pairs(report)


# -- decks that cannot be checked -----------------------------------------------------------
def test_a_frontier_deck_has_no_base_deck_to_compare_with(catalog):
    deck = Deck(name="f", game="revolver", faction="frontier", cards={"mini-strongbox": 1})
    with pytest.raises(DeckError, match="no base deck"):
        validate_deck(deck, catalog)


def test_a_faction_of_the_other_game_is_refused(catalog):
    deck = Deck(name="f", game="revolver", faction="mapache", cards={"mini-raider": 62})
    with pytest.raises(DeckError, match="plays revolver2"):
        validate_deck(deck, catalog)


def test_without_the_base_set_installed_nothing_can_be_checked():
    catalog = make_catalog("mini-malpaso")
    deck = Deck(name="c", game="revolver", faction="colty", cards={"x": 62})
    with pytest.raises(DeckError, match="base set is not installed"):
        validate_deck(deck, catalog)


def test_validate_deck_accepts_a_path_or_a_loaded_deck(catalog, tmp_path):
    path = write_deck(tmp_path, EVERY_PROBLEM)
    by_path = validate_deck(str(path), catalog)
    by_loaded = validate_deck(load_deck(path, catalog), catalog)
    assert by_path.violations == by_loaded.violations
    assert by_path.to_json()["file"] == str(path)


# -- properties -----------------------------------------------------------------------------
SWAPPABLE = {  # McReady's expansion cards by category (none unique)
    "character": ["mini-texas-ranger", "mini-tracker"],
    "firepower": ["mini-volcanic-pistol"],
    "action": ["mini-double-the-guard"],
}
WILDCARDS = ["mini-vantage-point", "mini-wild-prairie"]


PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(data=st.data())
def test_property_same_category_and_wildcard_swaps_from_a_base_deck_are_legal(catalog, data):
    cards = dict(catalog.base_deck("revolver", "mcready"))
    swaps = 0
    for _ in range(data.draw(st.integers(0, 12), label="swaps")):
        candidates = [
            card for card, count in cards.items()
            if count > 0 and card in catalog.base_deck("revolver", "mcready")
            and not catalog.card(card).gunslinger
        ]
        out = data.draw(st.sampled_from(candidates), label="out")
        category = catalog.card(out).category
        into = data.draw(st.sampled_from(SWAPPABLE.get(category, []) + WILDCARDS), label="in")
        cards[out] -= 1
        cards[into] = cards.get(into, 0) + 1
        swaps += 1
    cards = {card: count for card, count in cards.items() if count}
    # the pairing alone: how many copies the boxes hold is tests/test_supply.py's
    report = validate_deck(Deck(name="p", game="revolver", faction="mcready", cards=cards),
                           catalog, switches={"card-copies": "any-number"})
    assert report.is_legal, report.violations
    assert len(report.replacements) == swaps


@PROPERTY
@given(into=st.sampled_from([
    "mini-texas-ranger", "mini-vantage-point", "mini-wild-prairie", "mini-sharps-rifle",
    "mini-representative-of-the-law", "mini-volcanic-pistol", "mini-double-the-guard",
]))
def test_property_removing_a_gunslinger_is_never_legal(catalog, into):
    deck = mcready_deck(catalog, out={"mini-colonel-mcready": 1}, into={into: 1})
    report = validate_deck(deck, catalog)
    assert Code.GUNSLINGER_REPLACED in report.codes()
    assert all(r.out != "mini-colonel-mcready" for r in report.replacements)


# -- the real packaged card data ------------------------------------------------------------
@pytest.fixture(scope="module")
def real() -> Catalog:
    catalog = build_catalog(use_user_data=False)
    needed = ["colonel-ned-mcready", "texas-ranger", "rock-strewn-vantage-point", "deputy",
              "garrotte-santiagos-special-weapon", "clarence-stickley-pinkerton-detective"]
    missing = [card for card in needed if card not in catalog.entries]
    if missing:
        pytest.skip(f"packaged data lacks {missing}")
    return catalog


def test_real_rule_b_colonel_ned_mcready_for_a_texas_ranger_is_refused(real):
    report = validate_deck(
        mcready_deck(real, {"colonel-ned-mcready": 1}, {"texas-ranger": 1}), real
    )
    assert Code.GUNSLINGER_REPLACED in report.codes()


def test_real_rule_d_the_vantage_point_replaces_an_action_card(real):
    action = next(card for card in real.base_deck("revolver", "mcready")
                  if real.card(card).category == "action")
    report = validate_deck(mcready_deck(real, {action: 1}, {"rock-strewn-vantage-point": 1}), real)
    assert report.is_legal, report.violations
    assert pairs(report) == [(action, "rock-strewn-vantage-point")]


def test_real_texas_rangers_replace_deputies(real):
    report = validate_deck(mcready_deck(real, {"deputy": 2}, {"texas-ranger": 2}), real)
    assert report.is_legal and pairs(report) == [("deputy", "texas-ranger")] * 2


def test_real_clarence_stickley_twice_breaks_rule_e(real):
    deck = mcready_deck(real, {"deputy": 2}, {"clarence-stickley-pinkerton-detective": 2})
    assert validate_deck(deck, real).codes() == {Code.UNIQUE_COPIES}


def test_real_the_garrotte_is_never_shuffled_into_colty_deck(real):
    cards = dict(real.base_deck("revolver", "colty"))
    first = next(iter(cards))
    cards[first] -= 1
    cards["garrotte-santiagos-special-weapon"] = 1
    report = validate_deck(Deck(name="g", game="revolver", faction="colty", cards=cards), real)
    assert report.codes() == {Code.NOT_DECKABLE}


def test_real_tarnished_star_declared_without_1_1_to_1_3_is_set_requires(real):
    deck = mcready_deck(real, {"deputy": 1}, {"texas-ranger": 1},
                        sets=["revolver-base", "tarnished-star"])
    report = validate_deck(deck, real)
    assert report.codes() == {Code.SET_REQUIRES}
    required = real.sets["tarnished-star"].card_set.requires
    assert all(s in report.violations[0].message for s in required if s != "revolver-base")

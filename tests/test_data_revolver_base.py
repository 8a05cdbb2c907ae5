"""The Revolver base game as data: both decks, bandits, battlefields, specials, rule variants.

Expected values here come from the rule documents (the English rulebook's components list,
set-up and worked examples), not from the YAML under test.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from deckbuilder.catalog import Catalog, build_catalog, normalise_name
from deckbuilder.models import Deck
from deckbuilder.models.common import CARD_ID_PATTERN
from deckbuilder.paths import PACKAGED_DECKS, PACKAGED_SCHEMAS, PACKAGED_SETS
from deckbuilder.yamlio import load_model, load_yaml, to_plain

SET_ID = "revolver-base"
SET_FILE = PACKAGED_SETS / f"{SET_ID}.yaml"
DECK_FILES = {
    "colty": PACKAGED_DECKS / "colty-base.yaml",
    "mcready": PACKAGED_DECKS / "mcready-base.yaml",
}
RECORD_LISTS = ("cards", "characters", "battlefields", "specials", "tokens")
NOT_VALUES = {"id", "aliases", "text", "provenance"}
DOCUMENTS = re.compile(
    r"^(rulebook-en|rulebook-nl|tarnished-star-en|malpaso-es|research \(grade [ABC]\)): \S"
)

# Rulebook-en, Set-up: "in the following order, from left to right".
BATTLEFIELD_ORDER = [
    "The Bank at Repentance Springs",
    "Whiskey Canyon",
    "Buzzard Point",
    "Rattlesnake Creek",
    "3:15 Express from Rattlesnake Station",
]
# Rulebook-en, Character biographies (15 names) plus Bullet and Poppy McReady.
BANDITS = [
    'Jack "The Crow" Colty', "Missy Jameson", '"Skinny" Landell', "Manolito", "Cortez",
    '"Kittens" Mackenzie', 'Annie "Gutshot" McGraw', 'Harry "Boxcars" Houndy',
    'Bruno "Hen-house" Caple', 'Josie "Legs" Newcombe', 'Salomon "Doc" Mason',
    'Lenny "The Pig" Mason', "Sir Marmaduke Poncenby Smythe", "Bullet", "Micky Mason",
    "Poppy McReady",
]
# Cards the rulebook FAQ and examples (and the research notes) name, by deck.
COLTY_CARDS = [
    ".38 Special", "Hail of Bullets", "Gatling Gun", "Peacemaker .45", ".45 Long Colt",
    "Stick of dynamite", "Fire at will, boys", "Chew on this, gringo!",
    "Come on, ya no-good polecats, I'll take yer all on!", "Pack yer bags, we are LEAVING!",
    "Lightning reflexes", "Adios, amigo!", "Saddlebags", "I only came along fer the ride",
    "Sandstorm", "1866 Double Barrel Derringer", "Let's shoot our way outta here!",
    "Yellow Boy Rifle", "The Jackson Clan",
]
MCREADY_CARDS = [
    "Colonel Ned McReady", 'Josie "Dead-eye" Logan', "Apache scout",
    "Quincey 'The Spider' Whitmore", "Cactus Field", "Narrow pass", "Indian Reservation",
    "Rickety Bridge", "You keep makin' the same mistakes, pilgrim", "You didn't see this comin'",
    "You just ran outta bullets, my friend", "He shot my hat clean off!",
    "It's about time you turned up, partner", "Shucks - was only a flesh wound", "Deputy",
    "Cowboy", "First Deputy Charlie Weathers", "Buffalo Stampede", "Bounty Hunter",
    "Get the rope ready, boys",
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


@pytest.fixture(scope="module")
def own_catalog() -> Catalog:
    """Only this set: name lookups cannot be shadowed by another set's aliases."""
    return build_catalog(package_sets=[SET_FILE], use_user_data=False)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return to_plain(load_yaml(SET_FILE))


def _records(catalog: Catalog) -> Iterator[Any]:
    return (entry.record for entry in catalog.entries.values() if entry.set_id == SET_ID)


def _by_name(catalog: Catalog, name: str) -> Any:
    entry = catalog.find(name)
    assert entry is not None, f"{name!r} does not resolve"
    return entry.record


def _steps(steps: list[Any]) -> Iterator[Any]:
    for step in steps:
        yield step
        yield from _steps(getattr(step, "steps", []))


def _all_steps(record: Any) -> Iterator[Any]:
    yield from _steps(getattr(record, "effect", []))
    yield from _steps(getattr(record, "on_death", []))
    for trigger in getattr(record, "triggers", []):
        yield from _steps(trigger.steps)
    for ability in getattr(record, "abilities", []):
        yield from _steps(ability.steps)
    for mode in getattr(record, "modes", []):
        yield from _steps(mode.effect)


def _firepower(catalog: Catalog, card_ids: list[str]) -> int:
    return sum(catalog.card(card_id).firepower for card_id in card_ids)


# -- loading and decks -----------------------------------------------------------------------
def test_the_set_loads_as_the_revolver_base_game(catalog: Catalog) -> None:
    card_set = catalog.sets[SET_ID].card_set
    assert (card_set.game, card_set.kind) == ("revolver", "base")
    assert catalog.base_set_id("revolver") == SET_ID


@pytest.mark.parametrize("faction", ["colty", "mcready"])
def test_each_base_deck_has_62_cards_of_its_own_faction(catalog: Catalog, faction: str) -> None:
    deck = catalog.base_deck("revolver", faction)
    assert sum(deck.values()) == 62  # rulebook-en, Components
    assert all(catalog.card(card_id).faction == faction for card_id in deck)
    assert all(catalog.base_copies(card_id) == copies for card_id, copies in deck.items())


@pytest.mark.parametrize("faction", ["colty", "mcready"])
def test_the_deck_file_is_the_base_deck(catalog: Catalog, faction: str) -> None:
    deck, _ = load_model(DECK_FILES[faction], Deck)
    assert (deck.game, deck.faction, deck.sets) == ("revolver", faction, [SET_ID])
    assert deck.cards == catalog.base_deck("revolver", faction)


@pytest.mark.parametrize(("faction", "names"), [("colty", COLTY_CARDS), ("mcready", MCREADY_CARDS)])
def test_every_named_card_is_in_its_base_deck(
    catalog: Catalog, faction: str, names: list[str]
) -> None:
    deck = catalog.base_deck("revolver", faction)
    ids = [_by_name(catalog, name).id for name in names]
    assert len(set(ids)) == len(names)
    assert set(ids) == set(deck)  # and no invented cards beyond the named ones


def test_unique_cards_come_once_and_gunslingers_are_unique(catalog: Catalog) -> None:
    cards = [record for record in _records(catalog) if hasattr(record, "gunslinger")]
    assert all(card.copies == 1 for card in cards if card.unique)  # tarnished-star-en, rule E
    assert all(card.unique for card in cards if card.gunslinger)
    assert _by_name(catalog, "Colonel Ned McReady").unique


def test_firepower_cards_carry_their_side_s_chip(catalog: Catalog) -> None:
    chips = {"colty": "black", "mcready": "white"}  # the icons overview: bandit / lawmen chip
    for card in _records(catalog):
        if getattr(card, "play", None) == "firepower":
            assert card.firepower is not None and card.chip == chips[card.faction], card.id


# -- the rulebook's worked examples -------------------------------------------------------------
def test_attack_example_1_the_lawmen_outgun_the_gang_at_the_bank(catalog: Catalog) -> None:
    lawmen = _firepower(catalog, ["deputy", "cowboy"])
    bank = _by_name(catalog, "The Bank at Repentance Springs")
    gang = _firepower(catalog, ["38-special"]) + bank.defence
    assert gang == 1
    assert lawmen > gang  # the gang must take a casualty


def test_attack_example_2_the_gang_s_six_beats_the_lawmen_s_five_on_the_train(
    catalog: Catalog,
) -> None:
    lawmen = _firepower(catalog, ["deputy", "charlie-weathers"])
    express = _by_name(catalog, "3:15 Express")
    gang = _firepower(catalog, ["hail-of-bullets", "38-special", "38-special"]) + express.defence
    assert (lawmen, gang) == (5, 6)


def test_play_example_1_fire_at_will_is_free_and_can_despatch_a_buffalo_stampede(
    catalog: Catalog,
) -> None:
    fire = _by_name(catalog, "Fire at will, boys")
    buffalo = _by_name(catalog, "Buffalo Stampede")
    assert fire.cost == 0 and buffalo.faction != fire.faction
    (step,) = [step for step in fire.effect if step.do in ("destroy", "kill")]
    target = step.target
    assert target.side == "opponent"
    assert not target.plays or buffalo.play in target.plays
    assert not target.categories or buffalo.category in target.categories


def test_play_example_2_the_gatling_gun_costs_two(catalog: Catalog) -> None:
    assert _by_name(catalog, "Gatling Gun").cost == 2


# -- bandits, battlefields, specials, tokens ------------------------------------------------------
def test_sixteen_bandits_with_the_rulebook_s_casualty_examples(catalog: Catalog) -> None:
    bandits = [entry.record for entry in catalog.iter_kind("character") if entry.set_id == SET_ID]
    assert sorted(bandit.name for bandit in bandits) == sorted(BANDITS)
    assert all(bandit.faction == "colty" for bandit in bandits)
    ratings = Counter(bandit.survival for bandit in bandits)
    assert ratings[0] >= 1 and ratings[1] >= 2  # "zero and one-rated", "two one-rated"
    assert _by_name(catalog, "Manolito").survival > 1
    jack = _by_name(catalog, "Jack Colty")
    assert [bandit.id for bandit in bandits if bandit.leader] == [jack.id]
    assert all(bandit.survival < jack.survival for bandit in bandits if bandit is not jack)
    assert [step.do for step in jack.on_death] == ["lose-game"]


def test_bandit_death_effects_point_at_real_cards_and_face_spaces(catalog: Catalog) -> None:
    creek = _by_name(catalog, "Rattlesnake Creek")
    faces = Counter(space.face for space in creek.spaces if space.kind == "face")
    assert faces == Counter({"kittens": 2, "skinny": 1})
    turns: Counter[str] = Counter()
    for name in ('"Kittens" Mackenzie', '"Skinny" Landell'):
        for step in _all_steps(_by_name(catalog, name)):
            if step.do == "extra-turns":
                turns[step.face] += step.count
                assert step.unless_reached in catalog.entries
    assert turns == faces  # every extra turn has a face space to be played on
    (forbid,) = [step for step in _by_name(catalog, "Bruno Caple").on_death if step.do == "forbid"]
    assert forbid.cards == [_by_name(catalog, "Peacemaker .45").id]
    (cortez_trigger,) = _by_name(catalog, "Cortez").triggers
    assert cortez_trigger.battlefield == _by_name(catalog, "3:15 Express").id
    assert _by_name(catalog, "Skinny").power_tokens == 1  # rulebook-en, Set-up


def test_five_battlefields_in_the_set_up_order(catalog: Catalog) -> None:
    fields = sorted(
        (entry.record for entry in catalog.iter_kind("battlefield") if entry.set_id == SET_ID),
        key=lambda field: field.order,
    )
    assert [field.name for field in fields] == BATTLEFIELD_ORDER
    assert [field.order for field in fields] == [1, 2, 3, 4, 5]
    assert [fields[0].defence, fields[3].defence, fields[4].defence] == [0, 1, 1]
    for field in fields:
        regular = [space.label for space in field.spaces if space.kind == "regular"]
        assert regular == [str(number) for number in range(1, len(regular) + 1)], field.id
        labels = [space.label for space in field.spaces]
        extra = [index for index, space in enumerate(field.spaces) if space.kind == "extra"]
        assert all(index < labels.index("1") for index in extra), field.id  # "-" before "1"
    assert "4" in [space.label for space in fields[4].spaces]  # the train's turn space "4"
    assert [space.label for space in fields[0].spaces][-1] == "4"  # advance-marker example


def test_derail_the_train_and_the_mexican_border(catalog: Catalog) -> None:
    derail = _by_name(catalog, "Derail the Train")
    assert derail.beside == _by_name(catalog, "3:15 Express").id
    assert "derail" in [step.do for step in derail.effect]
    border = _by_name(catalog, "Mexican Border")
    assert border.tokens == 12
    assert _by_name(catalog, "Mexican Border token").count == 14  # more in the box than placed


def test_tokens_match_the_components_list(catalog: Catalog) -> None:
    counts = {name: _by_name(catalog, name).count
              for name in ("True grit token", "Power token", "Turn marker")}
    assert counts == {"True grit token": 6, "Power token": 6, "Turn marker": 1}


# -- effects are expressible and consistent ---------------------------------------------------
def test_no_base_record_needs_a_manual_effect(catalog: Catalog) -> None:
    manual = [record.id for record in _records(catalog)
              for step in _all_steps(record) if step.do == "manual"]
    assert manual == []


def test_every_id_an_effect_names_exists(catalog: Catalog) -> None:
    named: list[str] = []
    for record in _records(catalog):
        named += getattr(record, "cost_waived_at", []) + getattr(record, "not_at", [])
        named += [record.beside] if getattr(record, "beside", None) else []
        for trigger in getattr(record, "triggers", []):
            named += trigger.cards + ([trigger.battlefield] if trigger.battlefield else [])
        for step in _all_steps(record):
            target = getattr(step, "target", None)
            named += (target.cards + target.exclude) if target else []
            named += getattr(step, "cards", [])
    assert named, "the data names other cards (Adios, amigo!, Bruno ...)"
    assert [card_id for card_id in named if card_id not in catalog.entries] == []


def test_reactions_name_the_cards_they_answer(catalog: Catalog) -> None:
    (hat,) = _by_name(catalog, "He shot my hat clean off!").triggers
    assert hat.when == "opponent-plays"
    assert hat.cards == [_by_name(catalog, "Fire at will, boys").id]
    (reflexes,) = _by_name(catalog, "Lightning reflexes").triggers
    assert reflexes.when == "opponent-attack-kills"


# -- provenance ----------------------------------------------------------------------------------
def test_every_value_is_sourced_or_unconfirmed(catalog: Catalog) -> None:
    problems = []
    records = list(_records(catalog))
    assert len(records) > 60
    for record in records:
        provenance = record.provenance
        described = set(provenance.sources) | set(provenance.unconfirmed)
        values = record.model_fields_set - NOT_VALUES
        problems += [f"{record.id}.{name}: no source" for name in sorted(values - described)]
        problems += [f"{record.id}.{name}: provenance for an unset field"
                     for name in sorted(described - values)]
        problems += [f"{record.id}.{name}: unknown document {source!r}"
                     for name, source in provenance.sources.items()
                     if not DOCUMENTS.match(source)]
    assert problems == []


def test_every_rule_variant_names_its_source_and_every_ruleset_chooses_each_switch(
    catalog: Catalog,
) -> None:
    card_set = catalog.sets[SET_ID].card_set
    switches = {switch.id: switch for switch in card_set.rule_switches}
    assert set(switches) == {"mcready-victory", "train-victory", "skinny-token", "true-grit-kill",
                             "jack-death", "jackson-clan-derailed", "along-fer-the-ride",
                             "quincey-rides", "saddlebags-gatling-gun", "lawmen-removal"}
    for switch in switches.values():
        values = [variant.value for variant in switch.variants]
        assert switch.default in values
        assert all(DOCUMENTS.match(variant.source) for variant in switch.variants)
    rulesets = {ruleset.id: ruleset for ruleset in card_set.rulesets}
    assert {"rulebook-en", "rulebook-nl"} <= set(rulesets) and len(rulesets) >= 3
    for ruleset in rulesets.values():
        assert set(ruleset.choices) == set(switches), ruleset.id
        for switch_id, value in ruleset.choices.items():
            assert value in [variant.value for variant in switches[switch_id].variants]
    english = rulesets["rulebook-en"].choices
    assert english == {switch_id: switch.default for switch_id, switch in switches.items()}
    assert rulesets["rulebook-nl"].choices["mcready-victory"] != english["mcready-victory"]


# -- ids and names ----------------------------------------------------------------------------
def test_ids_are_kebab_case_and_unique(document: dict[str, Any]) -> None:
    ids = [record["id"] for list_name in RECORD_LISTS for record in document.get(list_name, [])]
    assert len(ids) == len(set(ids))
    assert [record_id for record_id in ids if not re.match(CARD_ID_PATTERN, record_id)] == []


def test_names_and_aliases_resolve_to_their_record(own_catalog: Catalog) -> None:
    keys: dict[str, str] = {}
    for record in _records(own_catalog):
        for text in (record.name, *record.aliases):
            key = normalise_name(text)
            assert keys.setdefault(key, record.id) == record.id, f"{text!r} is ambiguous"
            assert own_catalog.find(text.upper()).id == record.id
            assert own_catalog.find(text.lower()).id == record.id


@pytest.mark.parametrize(
    ("spelling", "card_id"),
    [
        ("adios, amigos!", "adios-amigo"),
        ("ADIOS AMIGO", "adios-amigo"),
        ("Jack Colti", "jack-colty"),
        ("bank of repentance springs", "bank-at-repentance-springs"),
        ("3:15 Express from Rattlesnake Springs", "3-15-express"),
        ("Deputy Weathers", "charlie-weathers"),
        ("dynamite", "stick-of-dynamite"),
    ],
)
def test_spelling_variants_resolve_in_the_full_catalog(
    catalog: Catalog, spelling: str, card_id: str
) -> None:
    entry = catalog.find(spelling)
    assert entry is not None and entry.id == card_id


# -- files and schemas ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "schema_name"),
    [(SET_FILE, "card-set.schema.json"),
     *[(path, "deck.schema.json") for path in DECK_FILES.values()]],
    ids=["set", "colty-deck", "mcready-deck"],
)
def test_files_validate_against_the_schema_named_on_their_first_line(
    path: Path, schema_name: str
) -> None:
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    assert first_line == f"# yaml-language-server: $schema=../schemas/{schema_name}"
    schema = json.loads((PACKAGED_SCHEMAS / schema_name).read_text(encoding="utf-8"))
    instance = json.loads(json.dumps(to_plain(load_yaml(path))))
    errors = sorted(Draft202012Validator(schema).iter_errors(instance), key=str)
    assert errors == []

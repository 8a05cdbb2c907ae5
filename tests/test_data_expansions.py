"""Card data of the Revolver expansions 1.1-1.4: it loads with the base game, matches the
Tarnished Star components list, and every value it sets says where it comes from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel
from ruamel.yaml import YAML

from deckbuilder.catalog import Catalog, build_catalog, load_set_file
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.models import Card, CardSet
from deckbuilder.models.effects import Manual
from deckbuilder.paths import PACKAGED_SCHEMAS, PACKAGED_SETS

BASE = "revolver-base"
AMBUSH = "ambush-on-gunshot-trail"
HUNT = "hunt-the-man-down"
VENGEANCE = "vengeance-on-the-frontier"
TARNISHED = "tarnished-star"
EXPANSIONS = (AMBUSH, HUNT, VENGEANCE, TARNISHED)
SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/card-set.schema.json"

# Tarnished Star, "Components": the printed card counts, copied from the rules sheet.
COMPONENTS = {
    "mcready": {
        "Texas Ranger": 2,
        "Rock-strewn vantage point": 2,
        "Volcanic pistol": 1,
        "Trained in the Pinkerton ways, means, policy and devices": 1,
        "Lee Shao – Chinese railworker": 1,
        "Double the guard": 1,
        "Clarence Stickley – Pinkerton detective": 1,
    },
    "colty": {
        "Upturned wagon": 2,
        "Ramshackle hut": 1,
        "Indian Burial ground": 1,
        "Pull the bars out with a horse": 1,
        "Trixie and Delilah – saloon shakes": 1,
        '"Fan" the gun': 2,
        '"The Jakes" Railworker\'s privy hut': 1,
    },
    "frontier": {
        "Shadow of Chikara": 1,
        "Reverend Henry Kane": 1,
        "The Legend of Boggy Creek": 1,
        "Drusilla Wilcox – Wolf in sheep's clothing": 1,
        "Chicken foot dipped in rattlesnake venom": 1,
        "Strongbox": 1,
        "Mary Lou's shack": 1,
        '"Curly" – Son of Ma and Pa Shepperson': 1,
        "Swarm of Horseflies": 1,
    },
}

# Names of documents a source may cite (HELPERS.md), plus the data file itself for `version`.
DOCUMENT_PREFIXES = (
    "tarnished-star-en:", "rulebook-en", "rulebook-nl", "malpaso-es", "research (grade ",
    "deckbuilder: version of this data file",
)
RECORD_LISTS = ("cards", "characters", "battlefields", "specials", "tokens")
NOT_VALUES = {"id", "aliases", "text", "provenance"}
#: Containers whose items carry their own provenance, and the set's own id.
SET_NOT_VALUES = {"id", "provenance"}
#: Pseudo-field: whether a record belongs to the set it is listed in.
SET_MEMBERSHIP = "set"


def set_path(set_id: str) -> Path:
    return PACKAGED_SETS / f"{set_id}.yaml"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


@pytest.fixture(scope="module")
def sets() -> dict[str, CardSet]:
    return {set_id: load_set_file(set_path(set_id), "package").card_set for set_id in EXPANSIONS}


def records(card_set: CardSet) -> Iterator[Any]:
    for list_name in RECORD_LISTS:
        yield from getattr(card_set, list_name)


def card_named(card_set: CardSet, name: str) -> Card:
    matches = [card for card in card_set.cards if card.name == name]
    assert len(matches) == 1, f"{name!r} in {card_set.id}: {len(matches)} matches"
    return matches[0]


# -- files ----------------------------------------------------------------------------------
@pytest.mark.parametrize("set_id", EXPANSIONS)
def test_file_starts_with_the_schema_line(set_id: str) -> None:
    first_line = set_path(set_id).read_text(encoding="utf-8").splitlines()[0]
    assert first_line == SCHEMA_LINE


@pytest.mark.parametrize("set_id", EXPANSIONS)
def test_file_validates_against_the_json_schema(set_id: str) -> None:
    schema = json.loads((PACKAGED_SCHEMAS / "card-set.schema.json").read_text(encoding="utf-8"))
    document = YAML(typ="safe", pure=True).load(set_path(set_id).read_text(encoding="utf-8"))
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in Draft202012Validator(schema).iter_errors(document)
    ]
    assert errors == []


# -- the packaged catalog -------------------------------------------------------------------
def test_every_expansion_loads_together_with_the_base_game(catalog: Catalog) -> None:
    assert BASE in catalog.sets
    for set_id in EXPANSIONS:
        assert catalog.sets[set_id].origin == "package"
        assert catalog.sets[set_id].card_set.game == "revolver"


def test_requires_chains_follow_the_documents(catalog: Catalog) -> None:
    expected = {
        AMBUSH: {BASE},
        HUNT: {BASE, AMBUSH},
        VENGEANCE: {BASE},
        TARNISHED: {BASE, AMBUSH, HUNT, VENGEANCE},
    }
    for set_id, required in expected.items():
        card_set = catalog.sets[set_id].card_set
        assert set(card_set.requires) == required, set_id
        assert all(other in catalog.sets for other in card_set.requires)


def test_inferred_requirements_are_marked_as_such(sets: dict[str, CardSet]) -> None:
    # 1.1 and 1.3: no document says they need the base game, so `requires` is inferred.
    for set_id in (AMBUSH, VENGEANCE):
        assert "requires" in sets[set_id].provenance.unconfirmed
    # 1.2 needs 1.1 (a review); 1.4 names 1.1-1.3 (its rules sheet).
    assert "1.1" in sets[HUNT].provenance.sources["requires"]
    assert "inferred" in sets[HUNT].provenance.sources["requires"]
    assert sets[TARNISHED].provenance.sources["requires"].startswith("tarnished-star-en:")


def test_card_ids_are_unique_across_every_packaged_set(catalog: Catalog) -> None:
    # build_catalog refuses a repeated id; check the expansions' records all made it in.
    for set_id in EXPANSIONS:
        for record in records(catalog.sets[set_id].card_set):
            assert catalog.entries[record.id].set_id == set_id


def test_ids_named_by_effects_and_modules_exist(catalog: Catalog) -> None:
    missing: list[str] = []
    for set_id in EXPANSIONS:
        card_set = catalog.sets[set_id].card_set
        for where, card_id in referenced_ids(card_set):
            if card_id not in catalog.entries:
                missing.append(f"{set_id}: {where} -> {card_id}")
        module_ids = {module.id for module in card_set.modules}
        for module in card_set.modules:
            missing += [f"{set_id}: module {module.id} requires {other}"
                        for other in module.requires_modules if other not in module_ids]
    assert missing == []


def referenced_ids(card_set: CardSet) -> Iterator[tuple[str, str]]:
    for record in records(card_set):
        beside = getattr(record, "beside", None)
        if beside:
            yield f"{record.id}.beside", beside
        for step in steps_of(record):
            for key in ("cards", "exclude", "per_card_in_discard"):
                for card_id in getattr(step, key, []) or []:
                    yield f"{record.id} step {step.do}", card_id
            target = getattr(step, "target", None)
            if target is not None:
                for card_id in (*target.cards, *target.exclude):
                    yield f"{record.id} step {step.do} target", card_id
        for trigger in getattr(record, "triggers", []):
            for card_id in trigger.cards:
                yield f"{record.id} trigger", card_id
    for module in card_set.modules:
        for card_id in module.cards:
            yield f"module {module.id}", card_id


def steps_of(record: Any) -> Iterator[Any]:
    yield from getattr(record, "effect", [])
    yield from getattr(record, "on_death", [])
    for trigger in getattr(record, "triggers", []):
        yield from trigger.steps
    for ability in getattr(record, "abilities", []):
        yield from ability.steps
    for mode in getattr(record, "modes", []):
        yield from mode.effect


# -- The Tarnished Star ---------------------------------------------------------------------
@pytest.mark.parametrize("faction", sorted(COMPONENTS))
def test_tarnished_star_has_the_printed_components(sets: dict[str, CardSet], faction: str) -> None:
    card_set = sets[TARNISHED]
    from_components = {
        card.name: card.copies
        for card in card_set.cards
        if card.faction == faction
        and card.provenance.sources.get("copies", "").startswith("tarnished-star-en: Components")
    }
    assert from_components == COMPONENTS[faction]
    assert sum(from_components.values()) == 9


def test_travis_dane_is_kept_with_unconfirmed_copies(sets: dict[str, CardSet]) -> None:
    travis = card_named(sets[TARNISHED], "Travis Dane – Molly Maguire Member")
    assert travis.faction == "colty"
    assert "copies" in travis.provenance.unconfirmed
    assert "Components" in (travis.provenance.note or "")
    # no effect on the sheet: the plausible one is played, and says it is a reading
    assert "effect" in travis.provenance.unconfirmed and "READING" in (travis.provenance.note or "")
    assert not unimplemented_reasons(travis)


def test_frontier_and_module_cards_never_stand_in_a_players_deck(
    catalog: Catalog, sets: dict[str, CardSet]
) -> None:
    frontier = [card for card_set in sets.values() for card in card_set.cards
                if card.faction == "frontier"]
    assert len(frontier) >= 9
    garrotte = card_named(sets[TARNISHED], "Garrotte – Santiago's special weapon")
    guard = card_named(sets[TARNISHED], "Armed train guard")
    for card in (*frontier, garrotte, guard):
        assert card.deckable is False, card.id
        assert catalog.base_copies(card.id) == 0
    assert "deckable" in garrotte.provenance.sources


def test_tarnished_star_modules_a_to_d(sets: dict[str, CardSet]) -> None:
    modules = {module.letter: module for module in sets[TARNISHED].modules}
    assert sorted(modules) == ["A", "B", "C", "D"]
    assert modules["B"].requires_modules == [modules["A"].id]
    assert modules["A"].requires_modules == []
    assert modules["D"].switches.get("deck_building") is True
    assert all(module.setup for letter, module in modules.items() if letter in "ABC")
    frontier_ids = {card.id for card in sets[TARNISHED].cards if card.faction == "frontier"}
    assert set(modules["C"].cards) == frontier_ids


def test_module_a_uses_the_duel_card_guard_and_child_hostage(sets: dict[str, CardSet]) -> None:
    card_set = sets[TARNISHED]
    module_a = next(module for module in card_set.modules if module.letter == "A")
    kinds = {record.id: list_name for list_name in RECORD_LISTS
             for record in getattr(card_set, list_name)}
    assert sorted(kinds[card_id] for card_id in module_a.cards) == ["cards", "specials", "tokens"]
    assert {token.name for token in card_set.tokens} == {"Child hostage token", "Eagle token"}


def test_deckable_tarnished_star_cards_have_a_module_d_category(sets: dict[str, CardSet]) -> None:
    deckable = [card for card in sets[TARNISHED].cards if card.deckable]
    assert len(deckable) == 15  # 7 McReady + 7 Colti component titles + Travis Dane
    for card in deckable:
        # The sheet prints no category: each is a judgement and must say so.
        assert "category" in card.provenance.unconfirmed, card.id


def test_saloon_duel_variants_cover_the_printed_steps(sets: dict[str, CardSet]) -> None:
    switches = {switch.id: switch for switch in sets[TARNISHED].rule_switches}
    assert set(switches) == {"saloon-duel-resolution", "card-copies"}  # Module A, Module D
    switch = switches["saloon-duel-resolution"]
    assert switch.default in {variant.value for variant in switch.variants}
    assert all(variant.source.startswith("tarnished-star-en:") for variant in switch.variants)


# -- expansions 1.1-1.3 ---------------------------------------------------------------------
@pytest.mark.parametrize("set_id", [AMBUSH, HUNT, VENGEANCE])
def test_partial_sets_say_they_are_partial(sets: dict[str, CardSet], set_id: str) -> None:
    card_set = sets[set_id]
    assert card_set.complete is False
    assert card_set.completeness_note and "not known" in card_set.completeness_note


def test_named_cards_and_mechanics_are_in_the_catalog(catalog: Catalog) -> None:
    expected_set = {
        "Sister Sarah": AMBUSH, "Ambush!": AMBUSH, "Cherokee Freedmen": AMBUSH,
        "Dragged Behind The Horse": AMBUSH, "Pinkerton Agents": AMBUSH,
        "Austin Granby": AMBUSH, "San Manzanillo Prison": HUNT, "Santiago": HUNT,
        "Duster": HUNT, "Wriggler Hooley": HUNT, "Swain Boys": HUNT, "Brady Logan": HUNT,
        "Robber's Roost": VENGEANCE, "Banditos": VENGEANCE, "Maddened Bison": VENGEANCE,
        "Old Three Fingers": VENGEANCE, "Silver dollar": VENGEANCE,
        "The Jakes": TARNISHED, "Garrotte": TARNISHED, "Eagle token": TARNISHED,
    }
    for name, set_id in expected_set.items():
        entry = catalog.find(name)
        assert entry is not None, name
        assert entry.set_id == set_id, name


def test_every_name_and_alias_finds_its_own_record(catalog: Catalog) -> None:
    # The name index keeps the first record per folded name: a clash would hide a card.
    clashes = [
        f"{text!r} -> {getattr(catalog.find(text), 'id', None)} (wanted {record.id})"
        for set_id in EXPANSIONS
        for record in records(catalog.sets[set_id].card_set)
        for text in (record.name, *record.aliases)
        if getattr(catalog.find(text), "id", None) != record.id
    ]
    assert clashes == []


def test_set_guesses_are_marked_unconfirmed(sets: dict[str, CardSet]) -> None:
    # No document places these in a set; the ones a document does place must cite it.
    guessed = {"duster", "wriggler-hooley", "swain-boys", "brady-logan", "maddened-bison",
               "old-three-fingers", "robbers-roost", "banditos", "austin-granby-railway-engineer",
               "silver-dollar-token"}
    for card_set in sets.values():
        for record in records(card_set):
            provenance = record.provenance
            if record.id in guessed:
                assert SET_MEMBERSHIP in provenance.unconfirmed, record.id
            else:
                assert SET_MEMBERSHIP in provenance.sources, record.id


def test_frontier_deck_comes_from_vengeance_on_the_frontier(sets: dict[str, CardSet]) -> None:
    module = next(m for m in sets[VENGEANCE].modules if m.id == "frontier-deck")
    assert "1.3" in module.provenance.sources["name"]
    assert module.cards and all(
        card.faction == "frontier" for card in sets[VENGEANCE].cards if card.id in module.cards
    )


def test_santiago_waits_in_the_prison(sets: dict[str, CardSet]) -> None:
    (santiago,) = sets[HUNT].characters
    assert santiago.starting is False
    assert "starting" in santiago.provenance.sources


def test_cards_with_unknown_text_are_reported_unimplemented(sets: dict[str, CardSet]) -> None:
    for card_set in sets.values():
        for record in records(card_set):
            manual = any(isinstance(step, Manual) for step in steps_of(record))
            if manual:
                assert any("not expressible" in reason
                           for reason in unimplemented_reasons(record)), record.id


# -- provenance -----------------------------------------------------------------------------
def unsourced(model: BaseModel, skip: set[str]) -> list[str]:
    provenance = model.provenance  # type: ignore[attr-defined]
    described = set(provenance.sources) | set(provenance.unconfirmed)
    return sorted(name for name in model.model_fields_set - skip if name not in described)


def bad_sources(model: BaseModel) -> list[str]:
    provenance = model.provenance  # type: ignore[attr-defined]
    known = set(type(model).model_fields) | {SET_MEMBERSHIP}
    problems = [f"{name}: not a field" for name in (*provenance.sources, *provenance.unconfirmed)
                if name not in known]
    problems += [f"{name}: {text!r} names no document"
                 for name, text in provenance.sources.items()
                 if not text.startswith(DOCUMENT_PREFIXES)]
    return problems


@pytest.mark.parametrize("set_id", EXPANSIONS)
def test_every_value_set_is_sourced_or_unconfirmed(sets: dict[str, CardSet], set_id: str) -> None:
    card_set = sets[set_id]
    problems = [f"set: {name}" for name in unsourced(card_set, SET_NOT_VALUES)]
    problems += [f"set: {problem}" for problem in bad_sources(card_set)]
    for record in records(card_set):
        problems += [f"{record.id}: {name}" for name in unsourced(record, NOT_VALUES)]
        problems += [f"{record.id}: {problem}" for problem in bad_sources(record)]
    for module in card_set.modules:
        problems += [f"module {module.id}: {name}" for name in unsourced(module, SET_NOT_VALUES)]
        problems += [f"module {module.id}: {problem}" for problem in bad_sources(module)]
    assert problems == []


def test_catalog_counts_the_guesses(catalog: Catalog) -> None:
    guessed = [row for row in catalog.unconfirmed() if row.set_id in EXPANSIONS]
    fields = {(row.record_id, row.field) for row in guessed}
    assert ("texas-ranger", "category") in fields
    assert ("travis-dane-molly-maguire-member", "copies") in fields
    assert ("texas-ranger", "copies") not in fields  # printed in the Components list

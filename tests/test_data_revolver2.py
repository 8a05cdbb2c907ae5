"""Revolver 2: Last Stand at Malpaso card data against the rulebook (malpaso-es) and research.

Each test states a fact from the components list, the set-up or a worked example, and checks
that the packaged data keeps it; the rest check the data's bookkeeping (decks, provenance,
schemas) so an unsourced value or a drifting deck file cannot slip in.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import RECORD_LISTS, Catalog, LoadedSet, build_catalog
from deckbuilder.cli import app
from deckbuilder.errors import DataFileError
from deckbuilder.integrity import check_set
from deckbuilder.models import Battlefield, CardSet, Deck, Special
from deckbuilder.models.cards import PokerCard
from deckbuilder.yamlio import load_model, load_yaml, parse_yaml, to_plain

SET_ID = "revolver2-base"
SET_FILE = paths.PACKAGED_SETS / f"{SET_ID}.yaml"
DECK_FILES = {
    "mapache": paths.PACKAGED_DECKS / "mapache-base.yaml",
    "esteban": paths.PACKAGED_DECKS / "esteban-base.yaml",
}
POKER_PREFIX = "all-rivers-poker-"
#: Fields that carry no value of their own (the provenance rule exempts them).
NOT_VALUES = {"id", "aliases", "text", "provenance"}
#: A source names a document first: the Spanish rulebook or a graded research source.
SOURCE = re.compile(r"^(malpaso-es: |research \(grade [ABC]\): )\S")
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The full packaged catalog: the set must load beside every other packaged set."""
    return build_catalog(use_user_data=False)


@pytest.fixture(scope="module")
def malpaso(catalog: Catalog) -> CardSet:
    return catalog.sets[SET_ID].card_set


def _records(card_set: CardSet) -> list[Any]:
    return [record for list_name, _ in RECORD_LISTS for record in getattr(card_set, list_name)]


def _battlefield(card_set: CardSet, name: str) -> Battlefield:
    (found,) = [field for field in card_set.battlefields if field.name == name]
    return found


# -- the set and its decks ------------------------------------------------------------------
def test_the_set_is_the_base_set_of_revolver2(catalog: Catalog, malpaso: CardSet) -> None:
    assert malpaso.game == "revolver2"
    assert malpaso.kind == "base"
    assert catalog.base_set_id("revolver2") == SET_ID
    games = {catalog.entries[record.id].game for record in _records(malpaso)}
    assert games == {"revolver2"}


@pytest.mark.parametrize("faction", ["mapache", "esteban"])
def test_each_box_deck_has_62_cards(catalog: Catalog, faction: str) -> None:
    """Componentes: 1 General Mapache deck of 62 cards, 1 Padre Esteban deck of 62 cards."""
    deck = catalog.base_deck("revolver2", faction)
    assert sum(deck.values()) == 62
    assert all(catalog.card(card_id).faction == faction for card_id in deck)


@pytest.mark.parametrize("faction", ["mapache", "esteban"])
def test_deck_file_lists_the_base_deck(catalog: Catalog, faction: str) -> None:
    deck, _ = load_model(DECK_FILES[faction], Deck)
    assert (deck.game, deck.faction, deck.sets) == ("revolver2", faction, [SET_ID])
    resolved: Counter[str] = Counter()
    for name_or_id, copies in deck.cards.items():
        entry = catalog.find(name_or_id)
        assert entry is not None and entry.kind == "card", name_or_id
        resolved[entry.id] += copies
    assert dict(resolved) == catalog.base_deck("revolver2", faction)


def test_general_mapache_is_one_card_whose_death_does_not_lose(catalog: Catalog) -> None:
    """Research (geekdad): one General Mapache character card; killing it does not lose."""
    general = catalog.card("general-mapache")
    assert catalog.base_deck("revolver2", "mapache")["general-mapache"] == 1
    assert general.category == "character"
    steps = [step.do for step in general.effect] + [
        step.do for trigger in general.triggers for step in trigger.steps
    ]
    assert "lose-game" not in steps


# -- the guardians --------------------------------------------------------------------------
def test_nineteen_guardians_seven_starting_one_leader(malpaso: CardSet) -> None:
    guardians = malpaso.characters
    assert len(guardians) == 19
    assert {guardian.faction for guardian in guardians} == {"esteban"}
    assert sum(guardian.starting for guardian in guardians) == 7
    (leader,) = [guardian for guardian in guardians if guardian.leader]
    assert leader.name == "Padre Esteban"
    # the mine victory needs him; left in the draw pile he might never be recruited
    assert leader.starting


def test_survival_ratings_of_the_casualty_examples(malpaso: CardSet) -> None:
    """Cartas de personaje guardián: Kahana Redbow is a three; two ones may be left to choose
    from; the three cannot die while a two lives (so ones, twos and threes all exist)."""
    ratings = Counter(guardian.survival for guardian in malpaso.characters)
    kahana = next(g for g in malpaso.characters if g.name == "Chief Kahana Redbow")
    assert kahana.survival == 3
    assert ratings[1] >= 2 and ratings[2] >= 1


# -- battlefields ---------------------------------------------------------------------------
def test_nine_battlefields_in_three_groups_in_rulebook_order(malpaso: CardSet) -> None:
    """Preparar and Torneo de póquer: the fixed three right of the poker winner's three."""
    groups: dict[str, list[Battlefield]] = {}
    for field in malpaso.battlefields:
        groups.setdefault(field.group, []).append(field)
    by_order = {
        group: [field.name for field in sorted(fields, key=lambda f: f.order)]
        for group, fields in groups.items()
    }
    assert by_order == {
        "fixed": ["Los Quantos Bridge", "Malpaso", "Abandoned Silver Mine"],
        "crystal-river": ["Church", "Saloon", "Livery Stable"],
        "buffalo-falls": ["Cathouse", "Jailhouse", "Drinking Den"],
    }
    assert sorted(field.order for field in groups["fixed"]) == [4, 5, 6]
    for group in ("crystal-river", "buffalo-falls"):
        assert sorted(field.order for field in groups[group]) == [1, 2, 3]


def test_only_the_first_three_locations_recruit_or_have_optional_spaces(
    malpaso: CardSet,
) -> None:
    """Cartas del campo de batalla: the first three locations recruit and may be left early."""
    for field in malpaso.battlefields:
        optional = [space for space in field.spaces if space.kind == "optional"]
        recruits = sum(space.recruit for space in field.spaces)
        if field.group == "fixed":
            assert not optional and recruits == 0, field.name
        else:
            assert recruits > 0, field.name


def test_battlefield_facts_from_the_worked_examples(malpaso: CardSet) -> None:
    assert _battlefield(malpaso, "Saloon").defence == 2  # 4. Ataque, ejemplo 1
    assert _battlefield(malpaso, "Church").defence == 2  # 4. Ataque, ejemplo 2
    cathouse = {space.label: space for space in _battlefield(malpaso, "Cathouse").spaces}
    assert cathouse["2"].recruit == 1  # 1a. Robar cartas de guardián, ejemplo
    jailhouse = {space.label: space for space in _battlefield(malpaso, "Jailhouse").spaces}
    assert len(jailhouse) >= 4 and jailhouse["4"].kind == "optional"  # marker example
    mine = [space.label for space in _battlefield(malpaso, "Abandoned Silver Mine").spaces]
    assert "4" in mine  # Objeto del juego: the showdown on turn space "4"


# -- deck cards named by the rulebook -------------------------------------------------------
def test_card_facts_from_the_worked_examples(catalog: Catalog) -> None:
    firepower = {
        "Rurales": 1, "Los Tiburon": 2, "Pancho Flores": 3, "Navaja degollada": 1,
    }
    for name, value in firepower.items():
        entry = catalog.find(name)
        assert entry is not None and entry.record.firepower == value, name
    weston = catalog.card("william-weston")
    assert (weston.cost, weston.powder_kegs) == (2, 2)
    assert weston.cost_waived_at == ["abandoned-silver-mine"]
    assert catalog.card("malpaso-shotgun-silver-bullets").cost == 0
    bridge_payment = [catalog.card("malpaso-telegram"), catalog.card("chinese-celestials")]
    assert sum(card.powder_kegs for card in bridge_payment) == 2  # exactly blows the bridge
    assert all(card.faction == "esteban" for card in bridge_payment)


def test_powder_kegs_are_malpaso_and_ammunition_is_mapache(malpaso: CardSet) -> None:
    """Barriles de pólvora / munición: kegs for the guardians, ammunition for the raiders;
    some cards carry two ammunition symbols."""
    for card in malpaso.cards:
        if card.powder_kegs:
            assert card.faction == "esteban", card.id
        if card.ammunition:
            assert card.faction == "mapache", card.id
    assert max(card.ammunition for card in malpaso.cards) == 2


@pytest.mark.parametrize(
    ("spanish", "card_id"),
    [
        ("Navaja degollada", "malpaso-cut-throat-razor"),
        ("Escopeta cargada de balas de plata", "malpaso-shotgun-silver-bullets"),
        ("Biblia de Beecher", "beechers-bible"),
        ("Puente Los Quantos", "los-quantos-bridge"),
        ("Mina de plata abandonada", "abandoned-silver-mine"),
        ("Llegada del Ejército Mexicano", "arrival-of-the-mexican-army"),
        ("¡Tú engañas a Dawg!", "all-rivers-poker-you-cheat-dawg"),
    ],
)
def test_spanish_names_find_the_english_records(
    catalog: Catalog, spanish: str, card_id: str
) -> None:
    entry = catalog.find(spanish)
    assert entry is not None and entry.id == card_id


def test_every_alias_finds_its_own_record(catalog: Catalog, malpaso: CardSet) -> None:
    """The name index keeps the first record per folded name. Names Revolver 1 also prints
    (its Gatling Gun, its True Grit token) stay with Revolver 1; an alias reaches ours."""
    shared_with_revolver1 = {"Gatling Gun", "True Grit token"}
    clashes = []
    for record in _records(malpaso):
        texts = list(record.aliases)
        if record.name not in shared_with_revolver1:
            texts.append(record.name)
        elif not record.aliases:
            clashes.append(f"{record.id}: shared name and no alias to reach it")
        clashes += [
            f"{text!r} -> {getattr(catalog.find(text), 'id', None)} (wanted {record.id})"
            for text in texts
            if getattr(catalog.find(text), "id", None) != record.id
        ]
    assert clashes == []


# -- table cards, poker cards, tokens -------------------------------------------------------
def _poker_cards(card_set: CardSet) -> list[Special]:
    return [special for special in card_set.specials if special.id.startswith(POKER_PREFIX)]


def _poker(card: Special) -> PokerCard:
    assert card.poker is not None, f"{card.id}: no poker data"
    return card.poker


def test_twelve_poker_cards_six_per_side(catalog: Catalog, malpaso: CardSet) -> None:
    """Componentes: 12 All Rivers Poker tournament cards; research: 6 per player."""
    poker = _poker_cards(malpaso)
    assert len(poker) == 12
    assert Counter(card.faction for card in poker) == {"esteban": 6, "mapache": 6}
    for faction in ("esteban", "mapache"):  # poker cards never stand in a deck
        assert not set(catalog.base_deck("revolver2", faction)) & {card.id for card in poker}


def test_every_poker_card_carries_poker_data_and_no_effect_steps(malpaso: CardSet) -> None:
    """The engine reads `poker`, so no poker card may hide its rules in steps or lack data."""
    with_data = {special.id for special in malpaso.specials if special.poker is not None}
    assert with_data == {card.id for card in _poker_cards(malpaso)}
    for card in _poker_cards(malpaso):
        assert card.effect == [], card.id
        assert "poker" in card.provenance.unconfirmed, card.id  # no document gives a value
        assert "effect" not in card.provenance.unconfirmed, card.id
        assert card.provenance.note, card.id


def test_cheats_and_the_card_that_calls_them(malpaso: CardSet) -> None:
    """Torneo de póquer: only "You cheat Dawg!" is not discarded after its round; research:
    Esteban has cheating cards (two here), and Dawg is the Mapache card that calls them."""
    poker = _poker_cards(malpaso)

    def ids(flag: str) -> dict[str, str]:
        return {card.id: card.faction for card in poker if getattr(_poker(card), flag)}

    assert ids("cheat") == {"all-rivers-poker-esteban-cheat-1": "esteban",
                            "all-rivers-poker-esteban-cheat-2": "esteban"}
    assert ids("calls_cheat") == {"all-rivers-poker-you-cheat-dawg": "mapache"}
    assert ids("returns_to_hand") == {"all-rivers-poker-you-cheat-dawg": "mapache"}
    dawg = _poker(next(card for card in poker if card.id == "all-rivers-poker-you-cheat-dawg"))
    assert not dawg.cheat


def test_poker_tokens_lie_on_battlefields_of_the_set_and_fit_the_box(
    malpaso: CardSet,
) -> None:
    """Torneo de póquer: the effects put power tokens on the Malpaso location card; the box
    holds 4 guardian and 9 General Mapache power tokens (Componentes)."""
    battlefield_ids = {field.id for field in malpaso.battlefields}
    used: Counter[str] = Counter()
    for card in _poker_cards(malpaso):
        for tokens in _poker(card).battlefield_tokens:
            assert tokens.battlefield in battlefield_ids, (card.id, tokens.battlefield)
            assert tokens.battlefield == "malpaso", card.id
            assert tokens.side == "self", card.id  # each side's own tokens on its own side
            used[card.faction] += tokens.count
    counts = {token.id: token.count for token in malpaso.tokens}
    assert 0 < used["esteban"] <= counts["malpaso-guardian-power-token"]
    assert 0 < used["mapache"] <= counts["malpaso-mapache-power-token"]


def test_poker_text_agrees_with_the_data(malpaso: CardSet) -> None:
    for card in _poker_cards(malpaso):
        poker, text = _poker(card), card.text or ""
        assert text.startswith(f"Value {poker.value}."), card.id
        assert (f"draws {poker.extra_cards} extra card" in text) == bool(poker.extra_cards)
        tokens = sum(entry.count for entry in poker.battlefield_tokens)
        assert (f"put {tokens} " in text and "power token" in text) == bool(tokens), card.id
        assert ("Cheat:" in text) == poker.cheat, card.id
        assert ("Calls cheats" in text) == poker.calls_cheat, card.id
        assert ("Not discarded after its round" in text) == poker.returns_to_hand, card.id


def _round_winner(esteban: PokerCard, mapache: PokerCard, tie: str) -> str | None:
    """One round as the poker-tie switch and the cheat readings of the data say."""
    for cheat, caller, winner, loser in ((esteban, mapache, "mapache", "esteban"),
                                         (mapache, esteban, "esteban", "mapache")):
        if cheat.cheat and caller.calls_cheat:
            return winner
        if cheat.cheat and not caller.cheat:
            return loser
    if esteban.value != mapache.value:
        return "esteban" if esteban.value > mapache.value else "mapache"
    return "esteban" if tie == "guardians" else None


def _random_tournament(hands: dict[str, list[PokerCard]], tie: str, rng: random.Random) -> str:
    """Torneo de póquer with both players choosing at random: one card of six discarded
    unseen, rounds until one side has won two; "out" if a hand runs out first."""
    held = {side: rng.sample(cards, len(cards) - 1) for side, cards in hands.items()}
    wins: Counter[str] = Counter()
    while max(wins.values(), default=0) < 2:
        if not all(held.values()):
            return "out"
        played = {side: cards.pop(rng.randrange(len(cards))) for side, cards in held.items()}
        for side, card in played.items():
            if card.returns_to_hand:
                held[side].append(card)
        winner = _round_winner(played["esteban"], played["mapache"], tie)
        if winner:
            wins[winner] += 1
    return wins.most_common(1)[0][0]


@pytest.mark.parametrize("tie", ["replay", "guardians"])
def test_the_stand_in_tournament_is_a_real_contest(malpaso: CardSet, tie: str) -> None:
    """Neither side is sure to win with the stand-in values, and no hand runs out."""
    hands = {faction: [_poker(card) for card in _poker_cards(malpaso) if card.faction == faction]
             for faction in ("esteban", "mapache")}
    rng = random.Random(2012)
    results = Counter(_random_tournament(hands, tie, rng) for _ in range(3000))
    assert results["out"] == 0
    assert 0.3 < results["esteban"] / 3000 < 0.7, results
    values = {side: {card.value for card in cards if not (card.cheat or card.calls_cheat)}
              for side, cards in hands.items()}
    assert values["esteban"] & values["mapache"]  # a tie can happen: the switch matters


def test_table_cards_lie_where_the_set_up_puts_them(malpaso: CardSet) -> None:
    """Preparar: Dynamite the Bridge beside the bridge; Gatling Gun and Collapse the Tunnels
    beside the mine; twelve tokens on the Arrival of the Mexican Army card."""
    table = {special.name: special for special in malpaso.specials}
    assert table["Dynamite the Bridge"].beside == "los-quantos-bridge"
    assert table["Gatling Gun"].beside == "abandoned-silver-mine"
    assert table["Collapse the Tunnels"].beside == "abandoned-silver-mine"
    assert table["Gatling Gun"].faction == "mapache"
    assert table["Arrival of the Mexican Army"].tokens == 12
    battlefield_ids = {field.id for field in malpaso.battlefields}
    assert {special.beside for special in malpaso.specials} - {None} <= battlefield_ids


def test_token_counts_from_the_components_list(malpaso: CardSet) -> None:
    counts = {token.id: token.count for token in malpaso.tokens}
    assert counts == {
        "malpaso-mexican-army-token": 14,
        "malpaso-true-grit-token": 11,
        "malpaso-guardian-power-token": 4,
        "malpaso-mapache-power-token": 9,
        "malpaso-turn-marker": 1,
    }
    arrival = next(s for s in malpaso.specials if s.id == "arrival-of-the-mexican-army")
    assert counts["malpaso-mexican-army-token"] >= arrival.tokens


def test_table_card_ids_do_not_take_generic_names(malpaso: CardSet) -> None:
    """Revolver 1 has its own Gatling Gun, saloons and tokens: Malpaso ids must not clash."""
    generic = {"gatling-gun", "telegram", "saloon", "church", "jailhouse", "turn-marker",
               "true-grit-token", "dynamite", "shotgun"}
    assert not {record.id for record in _records(malpaso)} & generic


# -- rule variants --------------------------------------------------------------------------
#: switch -> (default, the other readings): where the rulebook is silent or the documents differ.
SWITCHES = {
    "malpaso-victory": ("esteban-survives-mine", {"any-guardian-alive"}),
    "guardian-pile-victory": ("in-play-only", {"pile-counts"}),
    "gatling-true-grit": ("discarded", {"saves"}),
    "gatling-casualty": ("lowest-survival", {"owner-chooses"}),
    "poker-tie": ("replay", {"guardians"}),
}


def _revolver2_switches(catalog: Catalog) -> dict[str, Any]:
    return {switch.id: switch for loaded in catalog.sets.values()
            if loaded.card_set.game == "revolver2" for switch in loaded.card_set.rule_switches}


def test_rule_switches_have_their_readings_each_with_a_source(catalog: Catalog) -> None:
    switches = _revolver2_switches(catalog)
    assert set(switches) == set(SWITCHES)
    for switch_id, (default, others) in SWITCHES.items():
        switch = switches[switch_id]
        assert switch.default == default, switch_id
        assert {variant.value for variant in switch.variants} == {default, *others}, switch_id
        for variant in switch.variants:
            assert variant.description.strip(), (switch_id, variant.value)
            assert SOURCE.match(variant.source), (switch_id, variant.value, variant.source)
        if switch_id != "malpaso-victory":  # readings of a silent rulebook say they are
            assert "reading" in switch.description, switch_id
            assert all("Reading" in variant.description for variant in switch.variants)


def test_both_rulesets_choose_every_revolver2_switch(catalog: Catalog) -> None:
    switches = _revolver2_switches(catalog)
    rulesets = {ruleset.id: ruleset for loaded in catalog.sets.values()
                if loaded.card_set.game == "revolver2" for ruleset in loaded.card_set.rulesets}
    assert set(rulesets) == {"rulebook-es", "review-ameritrash-nl"}
    for ruleset in rulesets.values():
        assert set(ruleset.choices) == set(switches), ruleset.id
        for switch_id, value in ruleset.choices.items():
            assert value in {variant.value for variant in switches[switch_id].variants}
    assert rulesets["rulebook-es"].choices == {key: s.default for key, s in switches.items()}
    victory = {ruleset.choices["malpaso-victory"] for ruleset in rulesets.values()}
    assert victory == {"esteban-survives-mine", "any-guardian-alive"}  # both can be played


# -- provenance and schemas -----------------------------------------------------------------
def test_every_value_is_sourced_or_unconfirmed(malpaso: CardSet) -> None:
    problems = []
    for record in _records(malpaso):
        provenance = record.provenance
        described = set(provenance.sources) | set(provenance.unconfirmed)
        missing = record.model_fields_set - NOT_VALUES - described
        unknown = described - set(type(record).model_fields)
        if missing or unknown:
            problems.append(f"{record.id}: missing {sorted(missing)}, unknown {sorted(unknown)}")
        problems += [
            f"{record.id}.{name}: source names no document: {text!r}"
            for name, text in provenance.sources.items()
            if not SOURCE.match(text)
        ]
        if "name" in provenance.unconfirmed and not provenance.note:
            problems.append(f"{record.id}: unconfirmed name without a note saying why")
    set_values = malpaso.model_fields_set & {"name", "number"}
    problems += [f"set: {name} unsourced" for name in set_values
                 if malpaso.provenance.source_of(name) == "unconfirmed"]
    assert not problems, "\n".join(problems)


def _schema_for(data_file: Path) -> dict[str, Any]:
    first_line = data_file.read_text(encoding="utf-8").splitlines()[0]
    match = SCHEMA_LINE.match(first_line)
    assert match, f"{data_file.name}: first line does not name a schema"
    return json.loads((data_file.parent / match.group(1)).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("data_file", "schema_name"),
    [
        (SET_FILE, "card-set.schema.json"),
        (DECK_FILES["mapache"], "deck.schema.json"),
        (DECK_FILES["esteban"], "deck.schema.json"),
    ],
    ids=lambda value: value.name if isinstance(value, Path) else value,
)
def test_file_validates_against_the_schema_on_its_first_line(
    data_file: Path, schema_name: str
) -> None:
    schema = _schema_for(data_file)
    assert schema["$id"].endswith("/" + schema_name)
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(to_plain(load_yaml(data_file))))
    assert not errors, [f"{list(error.path)}: {error.message}" for error in errors]


# -- poker data in a file with a mistake ----------------------------------------------------
POKER_BLOCK = "    poker:\n      value: 2\n"


def _set_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """The packaged set file with one edit; returns the copy and the edit's first line."""
    text = SET_FILE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "revolver2-base.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, text[: text.index(old)].count("\n") + 1


def test_an_unknown_field_under_poker_is_refused_in_one_line(tmp_path: Path) -> None:
    path, line = _set_with(tmp_path, POKER_BLOCK, POKER_BLOCK + "      bluff: true\n")
    bluff_line = line + 2
    with pytest.raises(DataFileError) as error:
        load_model(path, CardSet)
    assert (error.value.where.line, error.value.where.column) == (bluff_line, 7)
    assert "'bluff'" in error.value.message
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"{path}:{bluff_line}:7: ")
    result = CliRunner().invoke(app, ["sets", "check", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.stdout + result.stderr
    (printed,) = result.stderr.rstrip("\n").split("\n")
    assert f"{path}:{bluff_line}:7" in printed and "bluff" in printed
    schema = _schema_for(SET_FILE)
    (refused,) = Draft202012Validator(schema).iter_errors(to_plain(load_yaml(path)))
    assert "bluff" in refused.message and "poker" in list(refused.path)


def test_poker_tokens_on_an_unknown_battlefield_are_an_integrity_finding(
    tmp_path: Path, catalog: Catalog
) -> None:
    old = "    poker:\n      value: 4\n      battlefield_tokens:\n        - {battlefield: malpaso,"
    path, line = _set_with(tmp_path, old, old.replace("malpaso,", "malpaso-plaza,"))
    document = parse_yaml(path.read_text(encoding="utf-8"), path)
    loaded = LoadedSet(CardSet.model_validate(to_plain(document)), path, "user", document)
    others = {set_id: entry.card_set for set_id, entry in catalog.sets.items()}
    (finding,) = check_set(loaded, others)  # an upgrade of the set may reuse its own ids
    assert finding.code == "unknown-reference" and "'malpaso-plaza'" in finding.message
    assert finding.where.line == line + 3

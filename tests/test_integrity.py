"""Reference integrity: what no schema can see, because it spans records and sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckbuilder import paths
from deckbuilder.catalog import LoadedSet, build_catalog
from deckbuilder.integrity import check_catalog, check_set, dependents, references
from deckbuilder.models import CardSet
from deckbuilder.models.cards import BattlefieldTokens, Card, Character, Special
from deckbuilder.models.effects import STEP_MODELS, Trigger
from deckbuilder.models.sets import Module
from deckbuilder.yamlio import parse_yaml, to_plain

HEADER = 'version: "1.0"\nkind: homebrew\n'


def loaded(text: str, name: str = "set.yaml") -> LoadedSet:
    document = parse_yaml(text, Path(name))
    return LoadedSet(CardSet.model_validate(to_plain(document)), Path(name), "user", document)


def card(card_id: str, extra: str = "", faction: str = "colty") -> str:
    return (f"  - id: {card_id}\n    name: {card_id}\n    faction: {faction}\n"
            f"    category: action\n    play: one-shot\n{extra}")


BASE = loaded(
    f"id: base\nname: Base\ngame: revolver\n{HEADER}cards:\n{card('sheriff')}"
    "battlefields:\n  - id: town\n    name: Town\n    order: 1\n    defence: 2\n"
    "    spaces: [{label: '1'}]\n"
)


def codes(findings: list) -> list[str]:
    return [finding.code for finding in findings]


def test_references_in_required_sets_are_found() -> None:
    addon = loaded(
        f"id: addon\nname: Addon\ngame: revolver\n{HEADER}requires: [base]\ncards:\n"
        + card("posse", "    cost_waived_at: [town]\n    effect:\n      - do: kill\n"
                        "        target: {cards: [sheriff]}\n")
    )
    assert check_set(addon, {"base": BASE.card_set}) == []


def test_a_reference_is_only_good_through_requires() -> None:
    text = (f"id: addon\nname: Addon\ngame: revolver\n{HEADER}cards:\n"
            + card("posse", "    effect:\n      - do: forbid\n        cards: [sheriff]\n"))
    (finding,) = check_set(loaded(text), {"base": BASE.card_set})
    assert finding.code == "reference-not-required"
    assert "add 'base' to requires" in finding.fix
    line = text.splitlines().index("        cards: [sheriff]") + 1
    assert (finding.where.line, finding.where.column) == (line, len("        cards: [") + 1)


def test_references_are_followed_transitively() -> None:
    middle = loaded(f"id: middle\nname: M\ngame: revolver\n{HEADER}requires: [base]\n")
    top = loaded(
        f"id: top\nname: T\ngame: revolver\n{HEADER}requires: [middle]\ncards:\n"
        + card("outlaw", "    not_at: [town]\n")
    )
    others = {"base": BASE.card_set, "middle": middle.card_set}
    assert check_set(top, others) == []


def test_nested_steps_are_checked() -> None:
    text = (f"id: nested\nname: N\ngame: revolver\n{HEADER}cards:\n"
            + card("gun", "    triggers:\n      - when: on-play\n        steps:\n"
                          "          - do: optional-cost\n            steps:\n"
                          "              - do: kill\n                target: {exclude: [ghost]}\n"))
    (finding,) = check_set(loaded(text), {})
    assert finding.code == "unknown-reference" and "'ghost'" in finding.message
    assert finding.where.line == text.splitlines().index(
        "                target: {exclude: [ghost]}") + 1


def test_battlefield_fields_must_name_battlefields() -> None:
    text = (f"id: kinds\nname: K\ngame: revolver\n{HEADER}requires: [base]\ncards:\n"
            + card("gun", "    not_at: [sheriff]\n")
            + "specials:\n  - id: sign\n    name: Sign\n    beside: town\n")
    (finding,) = check_set(loaded(text), {"base": BASE.card_set})
    assert finding.code == "wrong-kind-reference"
    assert "'sheriff' is a card" in finding.message and "`not_at`" in finding.message


def test_every_id_field_of_the_vocabulary_is_checked() -> None:
    """If a model grows a new id-valued field, this test makes someone decide about it."""
    found: set[tuple[str, str]] = set()
    for model in (Card, Character, Special, Module, Trigger, BattlefieldTokens, *STEP_MODELS):
        from deckbuilder.integrity import _reference_fields

        found |= {(model.__name__, name) for name, holds in _reference_fields(model).items()
                  if holds}
    assert found == {
        ("Card", "cost_waived_at"), ("Card", "not_at"), ("Special", "beside"),
        ("Module", "cards"), ("Trigger", "cards"), ("Trigger", "battlefield"),
        ("Forbid", "cards"), ("ForbidHere", "cards"), ("AddToken", "per_card_in_discard"),
        ("ExtraTurns", "unless_reached"), ("BattlefieldTokens", "battlefield"),
    }
    # steps with a target are checked through Target.cards and Target.exclude
    from deckbuilder.models.effects import Condition, Target

    assert {name for name, holds in _reference_fields(Target).items() if holds} == {
        "cards", "exclude"}
    # conditions (only-if) name characters, battlefields and cards
    assert {name for name, holds in _reference_fields(Condition).items() if holds} == {
        "dead", "marker_at", "marker_before", "in_play"}


def test_references_yield_the_place_of_each_id() -> None:
    addon = loaded(
        f"id: addon\nname: Addon\ngame: revolver\n{HEADER}cards:\n"
        + card("posse", "    effect:\n      - do: kill\n        target: {cards: [a, b]}\n")
    )
    found = [(ref.loc, ref.target) for ref in references(addon.card_set.cards, ("cards",))]
    assert found == [(("cards", 0, "effect", 0, "target", "cards", 0), "a"),
                     (("cards", 0, "effect", 0, "target", "cards", 1), "b")]


@pytest.mark.parametrize(
    ("copies", "unique", "deckable", "expected"),
    [(1, True, True, []), (2, True, True, ["unique-copies"]), (0, False, True, ["zero-copies"]),
     (0, False, False, []), (3, False, True, [])],
)
def test_copy_counts(copies: int, unique: bool, deckable: bool, expected: list[str]) -> None:
    extra = (f"    copies: {copies}\n    unique: {str(unique).lower()}\n"
             f"    deckable: {str(deckable).lower()}\n")
    findings = check_set(loaded(f"id: c\nname: C\ngame: revolver\n{HEADER}cards:\n"
                                + card("one", extra)), {})
    assert codes(findings) == expected


def test_requires_must_exist_share_the_game_and_not_cycle() -> None:
    two = loaded(f"id: two\nname: Two\ngame: revolver2\n{HEADER}requires: [base, ghost-set]\n")
    assert codes(check_set(two, {"base": BASE.card_set})) == ["game-mismatch",
                                                             "unknown-requirement"]
    a = loaded(f"id: a\nname: A\ngame: revolver\n{HEADER}requires: [b]\n")
    b = loaded(f"id: b\nname: B\ngame: revolver\n{HEADER}requires: [c]\n")
    c = loaded(f"id: c\nname: C\ngame: revolver\n{HEADER}requires: [a]\n")
    (finding,) = check_set(a, {"b": b.card_set, "c": c.card_set})
    assert finding.code == "require-cycle" and "a -> b -> c -> a" in finding.message
    myself = loaded(f"id: me\nname: Me\ngame: revolver\n{HEADER}requires: [me]\n")
    assert codes(check_set(myself, {})) == ["require-cycle"]


def test_ids_must_be_new_but_an_upgrade_keeps_its_own() -> None:
    again = loaded(f"id: base\nname: Base 2\ngame: revolver\n{HEADER}cards:\n{card('sheriff')}")
    assert check_set(again, {"base": BASE.card_set}) == []  # the upgrade replaces itself
    clash = loaded(f"id: other\nname: O\ngame: revolver\n{HEADER}cards:\n{card('sheriff')}")
    (finding,) = check_set(clash, {"base": BASE.card_set})
    assert finding.code == "id-in-other-set" and "'base'" in finding.message


def test_dependents_are_found_transitively() -> None:
    sets = {"base": BASE.card_set,
            "mid": CardSet(id="mid", name="M", version="1.0", game="revolver", kind="homebrew",
                           requires=["base"]),
            "top": CardSet(id="top", name="T", version="1.0", game="revolver", kind="homebrew",
                           requires=["mid"])}
    assert dependents("base", sets) == ["mid", "top"]
    assert dependents("top", sets) == []


def test_check_catalog_covers_installed_sets(user_home: Path) -> None:
    (user_home / "sets").mkdir(parents=True)
    (user_home / "sets" / "broken-ref.yaml").write_text(
        f"id: broken-ref\nname: B\ngame: revolver\n{HEADER}cards:\n"
        + card("lonely", "    not_at: [nowhere]\n")
    )
    findings = check_catalog(build_catalog(), only=["broken-ref"])
    assert codes(findings) == ["unknown-reference"]


def test_packaged_card_data_passes_the_integrity_checks() -> None:
    if not any(paths.PACKAGED_SETS.glob("*.yaml")):
        pytest.skip("no packaged card sets yet")
    catalog = build_catalog(use_user_data=False)
    findings = check_catalog(catalog)
    assert [str(finding) for finding in findings] == []

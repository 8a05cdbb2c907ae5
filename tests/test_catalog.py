"""The catalog: packaged sets + installed sets + the overlay, looked up by id, name or alias."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from deckbuilder import paths
from deckbuilder.catalog import build_catalog, normalise_name
from deckbuilder.errors import CardDataError, DataFileError
from deckbuilder.models.common import UNCONFIRMED

SET_FIXTURES = Path(__file__).parent / "fixtures" / "sets"


@pytest.fixture(autouse=True)
def fixture_package(package_sets: Callable[..., Path]) -> Path:
    """The packaged sets are the homebrew fixture, so the figures below are known."""
    return package_sets("homebrew-base.yaml")


def install(name: str, as_name: str | None = None) -> Path:
    folder = paths.installed_sets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (as_name or name)
    shutil.copyfile(SET_FIXTURES / name, target)
    return target


def write_overlay(text: str) -> Path:
    path = paths.overlay_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("test-deputy", "test-deputy"), ("Test Deputy", "test-deputy"),
     ("  test   DEPUTY!", "test-deputy"), ("the deputy", "test-deputy"),
     ("Tëst Marshal", "test-marshal"), ("nobody", None)],
)
def test_find_by_id_name_or_alias(typed: str, expected: str | None) -> None:
    entry = build_catalog().find(typed)
    assert (entry.id if entry else None) == expected


def test_spelling_variants_are_folded() -> None:
    assert normalise_name("Colti's Amigos") == normalise_name("colty s amigo")


def test_suggest_offers_the_closest_names() -> None:
    assert build_catalog().suggest("Test Depty")[0] == "Test Deputy"


def test_records_know_their_set_and_kind() -> None:
    catalog = build_catalog()
    assert catalog.entries["test-ghost-town"].kind == "battlefield"
    assert catalog.entries["test-bandit"].kind == "character"
    assert {entry.id for entry in catalog.cards()} == {
        "test-deputy", "test-marshal", "test-ambush", "test-hired-gun"}
    assert catalog.sets["test-frontier-town"].origin == "package"


def test_user_sets_join_the_packaged_ones() -> None:
    install("homebrew-addon.yaml")
    catalog = build_catalog()
    assert catalog.entries["test-curfew"].set_id == "test-frontier-addon"
    assert catalog.sets["test-frontier-addon"].origin == "user"
    assert "test-curfew" not in build_catalog(use_user_data=False).entries


def test_a_set_id_twice_is_refused() -> None:
    install("homebrew-base.yaml", "copy.yaml")
    with pytest.raises(CardDataError, match="set id 'test-frontier-town' is already provided"):
        build_catalog()


def test_a_record_id_twice_is_refused_with_its_line(tmp_path: Path) -> None:
    clash = install("cycle-a.yaml")
    clash.write_text(clash.read_text().replace("id: test-cycle-a-card", "id: test-deputy"))
    with pytest.raises(CardDataError) as error:
        build_catalog()
    assert "id 'test-deputy' is already used in set 'test-frontier-town'" in str(error.value)
    line = clash.read_text().splitlines().index("  - id: test-deputy") + 1
    assert f"{clash}:{line}:" in str(error.value)


def test_base_deck_is_the_base_set_of_the_game(package_sets: Callable[..., Path]) -> None:
    folder = package_sets()
    text = (SET_FIXTURES / "homebrew-base.yaml").read_text().replace("kind: homebrew",
                                                                     "kind: base")
    (folder / "homebrew-base.yaml").write_text(text)
    catalog = build_catalog()
    assert catalog.base_deck("revolver", "colty") == {"test-deputy": 2, "test-marshal": 1}
    assert catalog.base_deck("revolver", "mcready") == {"test-ambush": 3, "test-hired-gun": 4}
    assert catalog.base_copies("test-deputy") == 2
    assert catalog.base_deck("revolver2", "esteban") == {}


def test_unconfirmed_values_are_listed() -> None:
    rows = build_catalog().unconfirmed()
    assert [(row.record_id, row.field, row.value) for row in rows] == [
        ("test-deputy", "copies", 2)]


# -- the overlay ---------------------------------------------------------------------------------
def test_overlay_corrects_a_value_and_becomes_its_source() -> None:
    overlay = write_overlay(
        "corrections:\n  test-deputy:\n    source: my box\n    values:\n      copies: 3\n"
    )
    catalog = build_catalog()
    deputy = catalog.card("test-deputy")
    assert deputy.copies == 3
    assert deputy.provenance.source_of("copies") == f"overlay {overlay}: my box"
    assert deputy.provenance.source_of("firepower") == UNCONFIRMED  # untouched
    assert catalog.unconfirmed() == []
    assert catalog.sets["test-frontier-town"].card_set.cards[0].copies == 3


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("corrections:\n  test-nobody:\n    source: s\n    values: {copies: 1}\n", 2,
         "unknown id 'test-nobody'"),
        ("corrections:\n  test-deputy:\n    source: s\n    values:\n      colour: red\n", 5,
         "unknown field 'colour'"),
        ("corrections:\n  test-deputy:\n    source: s\n    values:\n      id: other\n", 5,
         "fixed field 'id'"),
        ("corrections:\n  test-deputy:\n    source: s\n    values:\n      copies: -1\n", 5,
         "greater than or equal to 0"),
    ],
)
def test_a_wrong_overlay_names_file_and_line(text: str, line: int, message: str) -> None:
    overlay = write_overlay(text)
    with pytest.raises(DataFileError) as error:
        build_catalog()
    assert f"{overlay}:{line}:" in str(error.value)
    assert message in str(error.value)


def test_an_empty_overlay_changes_nothing() -> None:
    write_overlay("# nothing yet\n")
    assert build_catalog().card("test-deputy").copies == 2

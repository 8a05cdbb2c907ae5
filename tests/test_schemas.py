"""The committed JSON Schemas match the models, and every data file names and meets its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from deckbuilder import schemas
from deckbuilder.models import CardSet, Deck, Overlay
from deckbuilder.paths import PACKAGED_DECKS, PACKAGED_SCHEMAS, PACKAGED_SETS

ROOT = Path(__file__).resolve().parent.parent
#: The checkout's package data: the source of the installed package's (PACKAGED_*), which the
#: tests import from wherever it was installed.
SOURCE_DATA = ROOT / "deckbuilder" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
HEADER = re.compile(
    r"^# yaml-language-server: \$schema=(?P<relative>\S+/(?P<name>[a-z-]+\.schema\.json))$"
)
MODELS = {"card-set.schema.json": CardSet, "deck.schema.json": Deck,
          "overlay.schema.json": Overlay}


def data_files() -> list[Path]:
    return sorted([*PACKAGED_SETS.glob("*.yaml"), *PACKAGED_DECKS.glob("*.yaml")])


def plain(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((PACKAGED_SCHEMAS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_committed_schemas_match_the_models() -> None:
    assert schemas.stale_files() == [], "run `deckbuilder schema` and commit the result"


@pytest.mark.parametrize(("folder", "installed"), [("expansions", PACKAGED_SETS),
                                                  ("decks", PACKAGED_DECKS),
                                                  ("schemas", PACKAGED_SCHEMAS)])
def test_top_level_folders_point_into_the_package(folder: str, installed: Path) -> None:
    """One copy of the data: the checkout's top-level folder is a link into its package data,
    and the installed package holds the same files."""
    assert (ROOT / folder).resolve() == (SOURCE_DATA / folder).resolve()
    assert installed.name == folder
    assert sorted(path.name for path in installed.iterdir() if path.is_file()) == sorted(
        path.name for path in (SOURCE_DATA / folder).iterdir() if path.is_file())


def test_there_is_card_data_to_check() -> None:
    if not data_files():
        pytest.skip("no packaged data files yet")
    assert any(PACKAGED_SETS.glob("*.yaml")) and any(PACKAGED_DECKS.glob("*.yaml"))


@pytest.mark.parametrize("path", data_files(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_data_file_names_its_schema_and_meets_it(path: Path) -> None:
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    match = HEADER.match(first_line)
    assert match, f"{path}:1: first line must be '# yaml-language-server: $schema=...'"
    assert match["relative"] == f"../schemas/{match['name']}"
    expected = "card-set.schema.json" if path.parent == PACKAGED_SETS else "deck.schema.json"
    assert match["name"] == expected
    assert (path.parent / match["relative"]).resolve().is_file()

    errors = sorted(validator(match["name"]).iter_errors(plain(path)), key=str)
    assert [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors] == []
    MODELS[match["name"]].model_validate(plain(path))  # and the models agree


@pytest.mark.parametrize("path", sorted((FIXTURES / "sets").glob("*.yaml")),
                         ids=lambda path: path.name)
def test_fixture_sets_name_a_schema_that_exists(path: Path) -> None:
    match = HEADER.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert match and (path.parent / match["relative"]).resolve() == (
        SOURCE_DATA / "schemas" / "card-set.schema.json").resolve()
    assert list(validator(match["name"]).iter_errors(plain(path))) == []


@pytest.mark.parametrize(
    ("fixture", "schema"),
    [("card-set-unknown-field.yaml", "card-set.schema.json"),
     ("card-set-negative-count.yaml", "card-set.schema.json"),
     ("card-set-escaping-id.yaml", "card-set.schema.json"),
     ("card-set-wrong-types.yaml", "card-set.schema.json"),
     ("deck-negative-count.yaml", "deck.schema.json"),
     ("deck-unknown-field.yaml", "deck.schema.json"),
     ("deck-escaping-id.yaml", "deck.schema.json"),
     ("overlay-unknown-field.yaml", "overlay.schema.json"),
     ("overlay-escaping-id.yaml", "overlay.schema.json"),
     ("overlay-wrong-types.yaml", "overlay.schema.json")],
)
def test_schemas_are_as_strict_as_the_models(fixture: str, schema: str) -> None:
    """What the models refuse, an editor using the schema flags too."""
    data = plain(FIXTURES / "bad" / fixture)
    assert list(validator(schema).iter_errors(data)) != []
    with pytest.raises(ValueError):
        MODELS[schema].model_validate(data)


def test_unknown_effect_step_is_refused_by_the_schema() -> None:
    data = plain(FIXTURES / "sets" / "homebrew-base.yaml")
    data["cards"][2]["effect"] = [{"do": "teleport"}]
    assert list(validator("card-set.schema.json").iter_errors(data)) != []

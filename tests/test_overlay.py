"""`deckbuilder overlay`: a user corrects a value locally; the correction shows as its source."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.app.overlay_edits import parse_value
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.standing import merge_source

runner = CliRunner()


@pytest.fixture(autouse=True)
def fixture_package(package_sets: Callable[..., Path]) -> Path:
    return package_sets("homebrew-base.yaml")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def unconfirmed_rows() -> list[tuple[str, str]]:
    code, out, _ = run("cards", "--unconfirmed", "--json")
    assert code == 0
    return [(row["id"], row["field"]) for row in json.loads(out)]


def test_path_names_the_overlay_in_the_user_folder(user_home: Path) -> None:
    code, out, _ = run("overlay", "path")
    assert code == 0
    assert out.strip() == str(user_home / "overlay.yaml")


def test_a_correction_changes_the_value_and_its_source() -> None:
    assert ("test-deputy", "copies") in unconfirmed_rows()
    code, out, _ = run("overlay", "set", "test-deputy", "copies", "3", "--source", "my box")
    assert code == 0, out
    assert "2 -> 3" in out

    deputy = build_catalog().card("test-deputy")
    assert deputy.copies == 3
    assert deputy.provenance.source_of("copies") == f"overlay {paths.overlay_path()}: my box"
    assert ("test-deputy", "copies") not in unconfirmed_rows()
    code, out, _ = run("cards", "--json")
    assert {row["id"]: row["set_copies"] for row in json.loads(out)}["test-deputy"] == 3


def test_show_lists_each_correction_with_its_effect() -> None:
    run("overlay", "set", "test-deputy", "copies", "3", "--source", "my box")
    run("overlay", "set", "test-marshal", "icons", "[true-grit, impervious]", "--source", "errata")
    code, out, _ = run("overlay", "show", "--json")
    assert code == 0
    rows = {(row["id"], row["field"]): row for row in json.loads(out)}
    copies = rows[("test-deputy", "copies")]
    assert (copies["package_value"], copies["value"]) == (2, 3)
    assert copies["package_source"] == "unconfirmed" and copies["source"].endswith(": my box")
    icons = rows[("test-marshal", "icons")]
    assert (icons["package_value"], icons["value"]) == ([], ["true-grit", "impervious"])
    code, out, _ = run("overlay", "show")
    assert code == 0 and "2 corrected values" in out


def test_show_without_an_overlay_is_empty() -> None:
    code, out, _ = run("overlay", "show", "--json")
    assert code == 0 and json.loads(out) == []


def test_the_users_comments_survive_an_edit() -> None:
    overlay = paths.overlay_path()
    overlay.parent.mkdir(parents=True)
    overlay.write_text(
        "# my corrections, checked against my own box\n"
        "corrections:\n"
        "  test-deputy:  # counted twice\n"
        "    source: my box\n"
        "    values:\n"
        "      copies: 3\n"
    )
    code, _, _ = run("overlay", "set", "test-marshal", "cost", "1", "--source", "errata")
    assert code == 0
    text = overlay.read_text()
    assert text.startswith("# my corrections, checked against my own box\n")
    assert "  test-deputy:  # counted twice\n" in text
    catalog = build_catalog()
    assert catalog.card("test-marshal").cost == 1 and catalog.card("test-deputy").copies == 3


def test_a_second_field_keeps_the_first_fields_source() -> None:
    run("overlay", "set", "test-deputy", "copies", "3", "--source", "my box")
    run("overlay", "set", "test-deputy", "firepower", "3", "--source", "errata")
    deputy = build_catalog().card("test-deputy")
    assert deputy.provenance.source_of("copies").endswith("copies: my box; firepower: errata")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["test-nobody", "copies", "1"], "no card or other record with id 'test-nobody'"),
        (["../../etc", "copies", "1"], "no card or other record"),
        (["test-deputy", "colour", "red"], "unknown field 'colour'"),
        (["test-deputy", "id", "other"], "fixed field 'id'"),
        (["test-deputy", "copies", "-1"], "greater than or equal to 0"),
        (["test-deputy", "copies", "many"], "valid integer"),
        (["test-deputy", "copies", "{a: 1}"], "not a scalar"),
        (["test-deputy", "copies", "[unclosed"], "invalid YAML"),
    ],
)
def test_a_wrong_correction_is_refused_before_writing(
    args: list[str], message: str, snapshot: Callable[[Path], dict[str, bytes]], user_home: Path
) -> None:
    run("overlay", "set", "test-marshal", "cost", "1", "--source", "errata")
    before = snapshot(user_home)
    code, _, err = run("overlay", "set", *args, "--source", "x")
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert snapshot(user_home) == before


def test_a_broken_overlay_is_named_with_file_and_line() -> None:
    overlay = paths.overlay_path()
    overlay.parent.mkdir(parents=True)
    overlay.write_text("corrections:\n  test-deputy:\n    source: s\n    values: {copies: x}\n")
    for command in (["cards"], ["overlay", "show"],
                    ["overlay", "set", "test-deputy", "cost", "1", "--source", "s"]):
        code, _, err = run(*command)
        assert code == 2
        assert f"{overlay}:4:" in err


@pytest.mark.parametrize(
    ("text", "value"),
    [("3", 3), ("true", True), ("null", None), ("white", "white"), ("'3'", "3"),
     ("[a, b]", ["a", "b"]), ("-2", -2)],
)
def test_values_are_read_as_yaml_scalars(text: str, value: object) -> None:
    parsed = parse_value(text)
    assert parsed == value and type(parsed) is type(value)


def test_merge_source_labels_fields_only_when_sources_differ() -> None:
    assert merge_source("box", ["copies"], "copies", "errata") == "errata"
    assert merge_source("box", ["copies", "cost"], "cost", "box") == "box"
    assert merge_source("box", ["copies"], "cost", "errata") == "copies: box; cost: errata"
    assert merge_source("copies: box; cost: errata", ["copies", "cost"], "cost", "box") == "box"

"""Every YAML file written for a user names a schema that resolves where the file lives, and the
user's deck schema offers the installed sets' cards (and flags any other key)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from schema_support import offered_cards
from typer.testing import CliRunner

from deckbuilder import paths, schema_json, user_schemas
from deckbuilder.cli import app
from deckbuilder.importer import import_set, remove_set

SET_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sets"
PREFIX = "# yaml-language-server: $schema="
runner = CliRunner()


def run(*args: str | Path) -> Any:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def named_schema(file: Path) -> Path:
    """The schema file the first line names, resolved the way an editor resolves it."""
    first = file.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(PREFIX), f"{file}: first line is {first!r}"
    reference = first.removeprefix(PREFIX)
    if reference.startswith("file:"):
        return Path(unquote(urlparse(reference).path))
    assert "://" not in reference
    return (file.parent / reference).resolve()


def first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0]


def plain(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def validator_for(schema_file: Path) -> Draft202012Validator:
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors(schema_file: Path, data: Any) -> list[str]:
    return [error.message for error in validator_for(schema_file).iter_errors(data)]


# -- the $id of every schema ------------------------------------------------------------------
def test_every_schema_id_is_a_stable_url_named_after_its_file() -> None:
    files = sorted(paths.PACKAGED_SCHEMAS.glob("*.schema.json"))
    assert len(files) >= 4
    for file in files:
        schema_id = json.loads(file.read_text(encoding="utf-8"))["$id"]
        assert schema_id == f"https://revolver-deckbuilder.github.io/schemas/{file.name}"
        assert schema_id == schema_json.schema_id(file.name)


# -- decks ------------------------------------------------------------------------------------
def test_deck_new_in_the_data_folder_names_the_user_deck_schema_and_meets_it(
        user_home: Path) -> None:
    deck = user_home / "decks" / "my deck.yaml"
    deck.parent.mkdir(parents=True)
    run("deck", "new", "mcready", "-o", deck)
    schema = named_schema(deck)
    assert schema == (user_home / "schemas" / "user-deck.schema.json").resolve()
    assert first_line(deck) == f"{PREFIX}../schemas/user-deck.schema.json"  # relative
    assert errors(schema, plain(deck)) == []


def test_deck_import_in_a_repository_names_a_schema_that_resolves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run("schema", "--into", "schemas")
    listing = tmp_path / "list.txt"
    listing.write_text("# faction: mcready\n3x apache-scout\n", encoding="utf-8")
    deck = tmp_path / "decks" / "imported.yaml"
    deck.parent.mkdir()
    run("deck", "import", listing, "-o", deck)
    schema = named_schema(deck)
    assert schema == (tmp_path / "schemas" / "user-deck.schema.json").resolve()
    assert errors(schema, plain(deck)) == []


def test_deck_swap_keeps_an_existing_schema_line_that_resolves(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    run("deck", "new", "mcready", "-o", deck)
    (tmp_path / "my").mkdir()
    (tmp_path / "my" / "own.schema.json").write_text("{}", encoding="utf-8")
    deck.write_text(f"{PREFIX}my/own.schema.json\n" + deck.read_text(encoding="utf-8"),
                    encoding="utf-8")
    run("deck", "swap", deck, "--out", "deputy", "--in", "texas-ranger")
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"{PREFIX}my/own.schema.json"
    assert sum(line.startswith(PREFIX) for line in lines) == 1


def test_an_unwritable_data_folder_does_not_stop_a_deck_being_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv(paths.HOME_VARIABLE, str(blocked / "home"))
    deck = tmp_path / "deck.yaml"
    run("deck", "new", "colty", "-o", deck)
    assert plain(deck)["faction"] == "colty" and PREFIX not in deck.read_text(encoding="utf-8")


# -- installed sets ---------------------------------------------------------------------------
def test_installed_set_names_the_schema_beside_it(user_home: Path) -> None:
    source = SET_FIXTURES / "homebrew-base.yaml"
    assert named_schema(source).is_file()  # resolves where the user keeps it ...
    run("sets", "import", source)
    installed = user_home / "sets" / "test-frontier-town.yaml"
    schema = named_schema(installed)  # ... and where it is installed
    assert schema == (user_home / "schemas" / "card-set.schema.json").resolve()
    assert installed.read_text(encoding="utf-8").splitlines()[0] == \
        f"{PREFIX}../schemas/card-set.schema.json"  # relative: the data folder may move
    kept = installed.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    assert kept == source.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    assert errors(schema, plain(installed)) == []


def test_a_set_without_a_schema_line_gets_one_and_a_later_one_is_replaced(
    tmp_path: Path, user_home: Path
) -> None:
    original = (SET_FIXTURES / "homebrew-base.yaml").read_text(encoding="utf-8")
    body = original.split("\n", 1)[1]
    source = tmp_path / "no-header.yaml"
    source.write_text(f"# my notes\n{PREFIX}/nowhere/card-set.schema.json\n{body}",
                      encoding="utf-8")
    import_set(source)
    installed = user_home / "sets" / "test-frontier-town.yaml"
    text = installed.read_text(encoding="utf-8")
    assert text == f"{PREFIX}../schemas/card-set.schema.json\n# my notes\n{body}"
    assert named_schema(installed).is_file()


# -- the overlay ------------------------------------------------------------------------------
def test_overlay_set_creates_an_overlay_naming_its_schema(user_home: Path) -> None:
    run("sets", "import", SET_FIXTURES / "homebrew-base.yaml")
    run("overlay", "set", "test-deputy", "cost", "1", "--source", "my sheet")
    run("overlay", "set", "test-deputy", "firepower", "3", "--source", "my sheet")
    overlay = user_home / "overlay.yaml"
    schema = named_schema(overlay)
    assert schema == (user_home / "schemas" / "overlay.schema.json").resolve()
    lines = overlay.read_text(encoding="utf-8").splitlines()
    assert sum(line.startswith(PREFIX) for line in lines) == 1  # not one more per write
    assert errors(schema, plain(overlay)) == []


# -- keeping the copies fresh -----------------------------------------------------------------
def test_copies_are_refreshed_when_the_package_changes(
    tmp_path: Path, user_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_schemas.install_packaged_schemas()
    copy = user_home / "schemas" / "deck.schema.json"
    packaged = (paths.PACKAGED_SCHEMAS / "deck.schema.json").read_text(encoding="utf-8")
    copy.write_text("{}\n", encoding="utf-8")
    assert user_schemas.install_packaged_schemas() == []  # same package: left alone
    monkeypatch.setattr("deckbuilder.version.__version__", "99.0")
    assert copy in user_schemas.install_packaged_schemas()
    assert copy.read_text(encoding="utf-8") == packaged

    changed = tmp_path / "new-package-schemas"
    shutil.copytree(paths.PACKAGED_SCHEMAS, changed)
    (changed / "deck.schema.json").write_text(packaged.replace("A deck", "The deck"),
                                              encoding="utf-8")
    monkeypatch.setattr(paths, "PACKAGED_SCHEMAS", changed)
    user_schemas.install_packaged_schemas()  # same version, other text: refreshed too
    assert "The deck" in copy.read_text(encoding="utf-8")


# -- the deck schema of the user's catalog ----------------------------------------------------
def user_deck_schema(home: Path) -> Path:
    return home / "schemas" / user_schemas.USER_DECK_SCHEMA


def base_deck() -> dict[str, Any]:
    return {"name": "Mine", "game": "revolver", "faction": "mcready",
            "cards": {"apache-scout": 3, "Deputy": 2}}


def test_schema_user_flags_an_unknown_card_and_passes_a_good_deck(user_home: Path) -> None:
    result = run("schema", "--user")
    schema = user_deck_schema(user_home)
    assert str(schema) in result.stdout
    assert errors(schema, base_deck()) == []  # an id and a printed name
    unknown = base_deck()
    unknown["cards"]["no-such-card"] = 1
    assert any("no-such-card" in message for message in errors(schema, unknown))
    # the packaged deck schema, which knows no catalog, lets it through
    assert errors(paths.PACKAGED_SCHEMAS / "deck.schema.json", unknown) == []


def test_user_deck_schema_describes_each_card_and_keeps_games_apart(user_home: Path) -> None:
    run("schema", "--user")
    document = json.loads(user_deck_schema(user_home).read_text(encoding="utf-8"))
    offered = offered_cards(document)
    assert "Apache scout" in offered["apache-scout"]["description"]
    assert "revolver-base" in offered["apache-scout"]["description"]
    from deckbuilder.catalog import build_catalog

    other_game = next(entry.id for entry in build_catalog().entries.values()
                      if entry.kind == "card" and entry.game == "revolver2")
    deck = base_deck()
    deck["cards"][other_game] = 1
    assert errors(user_deck_schema(user_home), deck) != []
    deck.update(game="revolver2", faction="mapache", cards={other_game: 1})
    assert errors(user_deck_schema(user_home), deck) == []


def test_installing_a_homebrew_set_adds_its_cards_and_removing_drops_them(
    user_home: Path,
) -> None:
    run("schema", "--user")
    homebrew = {**base_deck(), "cards": {"test-deputy": 2, "The Deputy": 1}}
    assert errors(user_deck_schema(user_home), homebrew) != []
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    assert errors(user_deck_schema(user_home), homebrew) == []  # id and alias offered
    offered = json.loads(user_deck_schema(user_home).read_text(encoding="utf-8"))
    assert "Test Frontier Town" in offered_cards(offered)["test-deputy"][
        "description"]
    remove_set("test-frontier-town")
    assert errors(user_deck_schema(user_home), homebrew) != []


def test_a_deck_written_after_a_catalog_change_refreshes_the_user_schema(
    user_home: Path
) -> None:
    decks = user_home / "decks"
    decks.mkdir(parents=True)
    run("deck", "new", "mcready", "-o", decks / "first.yaml")
    sets_folder = user_home / "sets"
    sets_folder.mkdir()
    shutil.copyfile(SET_FIXTURES / "homebrew-base.yaml", sets_folder / "by-hand.yaml")
    run("deck", "new", "mcready", "-o", decks / "second.yaml")
    offered = json.loads(user_deck_schema(user_home).read_text(encoding="utf-8"))
    assert "test-deputy" in offered_cards(offered)


def test_schema_user_refuses_out_and_check(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", "--user", "--check"])
    assert result.exit_code == 2 and "--user" in result.output


def test_overlay_set_keeps_a_hand_written_overlay_as_it_begins(user_home: Path) -> None:
    run("sets", "import", SET_FIXTURES / "homebrew-base.yaml")
    overlay = user_home / "overlay.yaml"
    overlay.write_text("# mine\ncorrections: {}\n", encoding="utf-8")
    run("overlay", "set", "test-deputy", "cost", "1", "--source", "my sheet")
    assert overlay.read_text(encoding="utf-8").startswith("# mine\n")


def test_a_set_with_a_byte_order_mark_and_crlf_lines_installs_cleanly(
    tmp_path: Path, user_home: Path
) -> None:
    text = (SET_FIXTURES / "homebrew-base.yaml").read_text(encoding="utf-8")
    source = tmp_path / "windows.yaml"
    source.write_bytes(("\ufeff" + text.replace("\n", "\r\n")).encode())
    import_set(source)
    installed = (user_home / "sets" / "test-frontier-town.yaml").read_bytes()
    assert installed.startswith(f"{PREFIX}../schemas/card-set.schema.json\r\n".encode())
    assert "\ufeff".encode() not in installed and b"\n\n" not in installed.replace(b"\r", b"")[:200]
    from deckbuilder.catalog import build_catalog

    assert build_catalog().find("test-deputy") is not None


def test_a_fifo_named_as_the_deck_schema_does_not_hang_deck_new(tmp_path: Path) -> None:
    """A `schemas/deck.schema.json` that is a FIFO (a web save looks for the repository's
    schemas folder above the deck) is no schema folder of ours, at once: the deck is written
    without a schema line instead of waiting forever for a writer."""
    import os
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    (tmp_path / "schemas").mkdir()
    os.mkfifo(tmp_path / "schemas" / "deck.schema.json")
    done = subprocess.run([sys.executable, "-m", "deckbuilder", "deck", "new", "colty", "-o",
                           str(tmp_path / "mine.yaml")], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "mine.yaml").read_text(encoding="utf-8").startswith(PREFIX)
    assert user_schemas.repository_schemas(tmp_path / "decks" / "mine.yaml") is None

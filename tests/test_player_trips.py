"""What players and CI trip over (issue 19, section 3): dependency floors that hold, deck files
that name no path on the author's machine, one answer on card spellings in the editor and in
`validate`, packaged decks by name in every command, a repository's own homebrew sets, and
`--json` where it was missing."""

from __future__ import annotations

import ast
import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from schema_support import offered_cards
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app

ROOT = Path(__file__).resolve().parent.parent
SET_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sets"
PREFIX = "# yaml-language-server: $schema="
runner = CliRunner()


def run(*args: str | Path, code: int = 0) -> Any:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == code, result.output
    return result


def plain(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0]


def named_schema(deck: Path) -> Path:
    line = first_line(deck)
    assert line.startswith(PREFIX), line
    reference = line.removeprefix(PREFIX)
    assert "://" not in reference and not Path(reference).is_absolute(), reference
    return (deck.parent / reference).resolve()


@pytest.fixture(autouse=True)
def no_sets_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--sets-dir` sets DECKBUILDER_SETS_DIR for the process (and its workers); the tests run
    commands in this process, so the variable is put back after each test."""
    monkeypatch.setenv(paths.SETS_DIR_VARIABLE, "")


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository of decks (the current folder), with nothing in it yet."""
    folder = tmp_path / "decks-repo"
    (folder / ".git").mkdir(parents=True)
    (folder / "decks").mkdir()
    monkeypatch.chdir(folder)
    return folder


# -- 1. the dependency floors ---------------------------------------------------------------
def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _floors() -> dict[str, tuple[int, ...]]:
    floors = {}
    for requirement in _pyproject()["project"]["dependencies"]:
        name, version = re.match(r"([A-Za-z0-9_.\-]+)\s*>=\s*([0-9.]+)", requirement).groups()
        floors[name.lower()] = tuple(int(part) for part in version.split("."))
    return floors


def _imported_distributions() -> set[str]:
    """Top-level third-party modules the package imports anywhere (at the top or inside a
    function), as distribution names."""
    found: set[str] = set()
    for source in (ROOT / "deckbuilder").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return {"ruamel.yaml" if name == "ruamel" else name for name in found}


def test_every_runtime_dependency_is_one_the_package_imports() -> None:
    """jsonschema was a runtime dependency nothing imported (the tests use it: test extra)."""
    declared = set(_floors())
    assert declared <= _imported_distributions(), declared - _imported_distributions()
    assert "jsonschema" not in declared
    assert any(item.startswith("jsonschema") for item in
               _pyproject()["project"]["optional-dependencies"]["test"])


def test_the_floors_are_the_lowest_versions_that_work() -> None:
    """Found by `uv pip install --resolution lowest-direct` and bisecting (see pyproject):
    typer before 0.26 crashes on every command (our click type in commands/choices.py),
    pydantic before 2.10 renders other schema text (`schema --check` fails), and typer 0.26
    itself requires rich 13.8."""
    floors = _floors()
    assert floors["typer"] >= (0, 26)
    assert floors["pydantic"] >= (2, 10)
    assert floors["rich"] >= (13, 8)


def test_ci_installs_the_lowest_direct_versions_and_runs_the_smoke_set() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".ci/lowest-deps" in ci and "wait \"$lowest_deps\"" in ci
    script = (ROOT / ".ci" / "lowest-deps").read_text(encoding="utf-8")
    assert "--resolution lowest-direct" in script
    for command in ("--version", "cards", "validate example-mcready-pinkertons",
                    "schema --check", "simulate"):
        assert f'"$db" {command}' in script, command


# -- 2. a deck names no path on its author's machine ----------------------------------------
def test_a_deck_outside_a_prepared_repository_names_no_schema(
        tmp_path: Path, user_home: Path) -> None:
    deck = tmp_path / "deck.yaml"
    result = run("deck", "new", "mcready", "-o", deck)
    text = deck.read_text(encoding="utf-8")
    assert PREFIX not in text and str(user_home) not in text and "file:" not in text
    assert "names no editor schema" in result.stderr and "schema --into" in result.stderr
    assert json.loads(run("deck", "new", "colty", "-o", tmp_path / "b.yaml", "--json")
                      .stdout)["schema"] is None


def test_a_deck_in_a_repository_names_its_schemas_folder_and_resolves_once_cloned(
        repository: Path, tmp_path: Path) -> None:
    written = json.loads(run("schema", "--into", "schemas", "--json").stdout)["written"]
    assert "schemas/user-deck.schema.json" in [Path(p).as_posix() for p in written]
    (repository / "decks" / "team").mkdir()
    run("deck", "new", "mcready", "-o", "decks/team/pinkertons.yaml")
    listing = tmp_path / "list.txt"
    listing.write_text("# faction: colty\n3x .38 Special\n", encoding="utf-8")
    run("deck", "import", listing, "-o", "decks/imported.yaml")
    assert first_line(repository / "decks" / "team" / "pinkertons.yaml") == \
        f"{PREFIX}../../schemas/user-deck.schema.json"
    assert first_line(repository / "decks" / "imported.yaml") == \
        f"{PREFIX}../schemas/user-deck.schema.json"
    clone = tmp_path / "someone-else" / "clone"
    shutil.copytree(repository, clone)
    shutil.rmtree(repository)  # nothing of the author's machine is left to point at
    deck = clone / "decks" / "team" / "pinkertons.yaml"
    schema = named_schema(deck)
    assert schema.is_file() and schema.is_relative_to(clone)
    validator = Draft202012Validator(json.loads(schema.read_text(encoding="utf-8")))
    assert list(validator.iter_errors(plain(deck))) == []


def test_another_projects_schemas_folder_is_not_taken_for_ours(repository: Path) -> None:
    (repository / "schemas").mkdir()
    (repository / "schemas" / "deck.schema.json").write_text(
        '{"$id": "https://example.org/deck.schema.json"}', encoding="utf-8")
    run("deck", "new", "colty", "-o", "decks/a.yaml")
    assert PREFIX not in (repository / "decks" / "a.yaml").read_text(encoding="utf-8")


def test_the_project_file_names_the_schemas_folder(repository: Path) -> None:
    (repository / "deckbuilder.toml").write_text('schemas-dir = "editor/json"\n',
                                                 encoding="utf-8")
    run("schema", "--into", "editor/json")
    run("deck", "new", "colty", "-o", "decks/a.yaml")
    assert first_line(repository / "decks" / "a.yaml") == \
        f"{PREFIX}../editor/json/user-deck.schema.json"


def test_deck_swap_rewrites_a_schema_line_that_does_not_resolve_here(repository: Path) -> None:
    run("schema", "--into", "schemas")
    deck = repository / "decks" / "shared.yaml"
    run("deck", "new", "mcready", "-o", deck)
    foreign = f"{PREFIX}file:///home/the-author/.local/share/deckbuilder/schemas/x.json"
    text = deck.read_text(encoding="utf-8").split("\n", 1)[1]
    deck.write_text(f"{foreign}\n# my notes\n{text}", encoding="utf-8")
    run("deck", "swap", deck, "--out", "apache-scout", "--in", "deputy", code=1)
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"{PREFIX}../schemas/user-deck.schema.json"
    assert lines[1] == "# my notes" and sum(line.startswith(PREFIX) for line in lines) == 1
    # one that resolves here is the user's choice: kept
    (repository / "mine.json").write_text("{}", encoding="utf-8")
    deck.write_text(f"{PREFIX}../mine.json\n{text}", encoding="utf-8")
    run("deck", "swap", deck, "--out", "deputy", "--in", "apache-scout", code=1)
    assert first_line(deck) == f"{PREFIX}../mine.json"


def test_deck_swap_keeps_a_foreign_line_when_no_schema_resolves(tmp_path: Path) -> None:
    # nothing better to name: the user's line is theirs (issue 35), not silently dropped
    deck = tmp_path / "posted.yaml"
    run("deck", "new", "mcready", "-o", deck)
    text = deck.read_text(encoding="utf-8")
    foreign = f"{PREFIX}/home/the-author/schemas/user-deck.schema.json"
    deck.write_text(f"{foreign}\n{text}", encoding="utf-8")
    run("deck", "swap", deck, "--out", "apache-scout", "--in", "deputy", code=1)
    assert deck.read_text(encoding="utf-8").startswith(f"{foreign}\n")


# -- 3. card spellings: one answer in the editor and in validate ----------------------------
def _base_deck_with(tmp_path: Path, replace: dict[str, str]) -> Path:
    deck = tmp_path / "deck.yaml"
    run("deck", "new", "mcready", "-o", deck)
    text = deck.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert f"\n  {old}:" in text
        text = text.replace(f"\n  {old}:", f"\n  {new}:")
    deck.write_text(text, encoding="utf-8")
    return deck


def test_validate_notes_a_folded_spelling_and_still_passes(tmp_path: Path) -> None:
    deck = _base_deck_with(tmp_path, {"bounty-hunter": "bounty hunter", "deputy": "DEPUTY"})
    result = run("validate", deck)  # exit 0: legal
    assert "'bounty hunter' is Bounty Hunter (bounty-hunter)" in result.stdout
    assert "'DEPUTY'" in result.stdout and "deck fix-ids" in result.stdout
    report = json.loads(run("validate", deck, "--json").stdout)
    assert report["legal"] is True
    assert {(row["written"], row["card"]) for row in report["spellings"]} == {
        ("bounty hunter", "bounty-hunter"), ("DEPUTY", "deputy")}


def test_fix_ids_rewrites_spellings_to_ids_keeping_comments_and_order(tmp_path: Path) -> None:
    deck = _base_deck_with(tmp_path, {"bounty-hunter": "bounty hunter", "deputy": "Deputy"})
    text = deck.read_text(encoding="utf-8").replace(
        "\n  Deputy:", "\n  # the backbone\n  Deputy:")
    text = text.replace("\ncards:\n", "\ncards:\n  BOUNTY-HUNTER: 1  # one more\n")
    text = text.replace("\n  bounty hunter: 4", "\n  bounty hunter: 3")
    deck.write_text(text, encoding="utf-8")
    before = plain(deck)["cards"]
    result = json.loads(run("deck", "fix-ids", deck, "--json").stdout)
    assert result["changed"] is True
    assert {row["written"] for row in result["rewritten"]} == {
        "BOUNTY-HUNTER", "bounty hunter", "Deputy"}
    after = deck.read_text(encoding="utf-8")
    assert "  # the backbone\n  deputy: 10" in after
    assert re.search(r"\n  bounty-hunter: 4 +# one more\n", after), after
    cards = plain(deck)["cards"]
    assert cards["bounty-hunter"] == before["BOUNTY-HUNTER"] + before["bounty hunter"] == 4
    assert next(iter(cards)) == "bounty-hunter"  # merged at the first line of the card
    assert list(cards)[1:] == [key.replace("Deputy", "deputy") for key in before
                               if key not in ("BOUNTY-HUNTER", "bounty hunter")]
    assert json.loads(run("validate", deck, "--json").stdout)["spellings"] == []
    assert json.loads(run("validate", deck, "--json").stdout)["legal"] is True
    again = json.loads(run("deck", "fix-ids", deck, "--json").stdout)
    assert again == {"file": str(deck), "changed": False, "rewritten": []}


def test_the_editor_gives_one_short_diagnostic_per_typo(user_home: Path) -> None:
    run("schema", "--user")
    schema = json.loads((user_home / "schemas" / "user-deck.schema.json")
                        .read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    deck = {"name": "d", "game": "revolver", "faction": "mcready",
            "cards": {"texas-ranger": 2, "Texas Ranger": 1}}  # an id and a printed name
    assert list(validator.iter_errors(deck)) == []
    for typo in ("Texas Rangr", "texas ranger", "TEXAS-RANGER"):
        errors = list(validator.iter_errors({**deck, "cards": {typo: 1}}))
        assert len(errors) == 1, [error.message for error in errors]
        assert typo in errors[0].message and len(errors[0].message) < 200
    other_game = next(key for key, value in offered_cards(schema).items()
                      if "revolver2]" in value.get("description", ""))
    assert len(list(validator.iter_errors({**deck, "cards": {other_game: 1}}))) == 1


# -- 4. packaged decks by name, in every command ----------------------------------------------
PACKAGED = "example-mcready-pinkertons"


def test_every_deck_command_takes_a_packaged_decks_name() -> None:
    assert json.loads(run("validate", PACKAGED, "--json").stdout)["legal"] is True
    simulated = json.loads(run("simulate", PACKAGED, "--games", "2", "--bot", "random",
                               "--workers", "1", "--json").stdout)
    assert simulated["deck"]["name"] == "McReady's Pinkertons (example)"
    run("play", "--mcready", PACKAGED, "--bots", "random", "--seed", "1", "--quiet")
    assert "Pinkerton" in run("deck", "export", PACKAGED).stdout


def test_optimize_takes_a_packaged_decks_name(tmp_path: Path) -> None:
    result = run("optimize", PACKAGED, "--budget", "20", "--in", "deputy", "--out",
                 "texas-ranger", "--workers", "1", "--bot", "random", "--json")
    assert json.loads(result.stdout)["deck"] == "McReady's Pinkertons (example)"


def test_a_file_of_that_name_in_the_current_folder_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run("deck", "new", "colty", "-o", PACKAGED, "--name", "my own file")
    report = json.loads(run("validate", PACKAGED, "--json").stdout)
    assert report["name"] == "my own file" and report["faction"] == "colty"
    missing = runner.invoke(app, ["validate", "no-such-deck"])
    assert missing.exit_code == 2 and PACKAGED in missing.output


# -- 5. a repository's own homebrew sets --------------------------------------------------------
def _homebrew_deck(folder: Path) -> Path:
    """The McReady base deck with two Test Ambushes (a homebrew action) for two of an action."""
    deck = folder / "decks" / "homebrew.yaml"
    text = (ROOT / "deckbuilder" / "data" / "decks" / "mcready-base.yaml").read_text(
        encoding="utf-8")
    line = "\n  you-keep-makin-the-same-mistakes-pilgrim: 3"
    assert line in text
    text = text.replace(line, line[:-1] + "1\n  test-ambush: 2")
    assert "\nsets: [revolver-base]\n" in text
    text = text.replace("\nsets: [revolver-base]\n",
                        "\nsets: [revolver-base, test-frontier-town]\n")
    deck.write_text(text, encoding="utf-8")
    return deck


def test_a_homebrew_repository_validates_on_a_clean_machine(
        repository: Path, user_home: Path) -> None:
    assert not user_home.exists()
    (repository / "homebrew").mkdir()
    shutil.copy2(SET_FIXTURES / "homebrew-base.yaml", repository / "homebrew" / "town.yaml")
    deck = _homebrew_deck(repository)
    unknown = runner.invoke(app, ["validate", str(deck)])
    assert unknown.exit_code == 1 and "test-ambush" in unknown.output  # the set is not read
    run("validate", deck, "--sets-dir", "homebrew")  # an option
    (repository / "deckbuilder.toml").write_text('sets-dir = "homebrew"\n', encoding="utf-8")
    (repository / "decks" / "deep").mkdir()
    shutil.move(deck, repository / "decks" / "deep" / deck.name)
    run("validate", repository / "decks" / "deep" / deck.name)  # the project file
    assert not (user_home / "sets").exists()  # read in place, never installed
    listed = json.loads(run("sets", "list", "--json").stdout)
    assert {"id": "test-frontier-town", "origin": "project"}.items() <= next(
        row for row in listed if row["id"] == "test-frontier-town").items()


def test_the_global_option_names_the_sets_folder_for_every_command(repository: Path) -> None:
    (repository / "homebrew").mkdir()
    shutil.copy2(SET_FIXTURES / "homebrew-base.yaml", repository / "homebrew" / "town.yaml")
    deck = _homebrew_deck(repository)
    listed = json.loads(run("--sets-dir", "homebrew", "cards", "--json").stdout)
    assert any(card["id"] == "test-ambush" for card in listed)
    run("--sets-dir", "homebrew", "simulate", deck, "--games", "2", "--workers", "1")


def test_a_broken_homebrew_set_is_refused_by_every_command(repository: Path) -> None:
    (repository / "homebrew").mkdir()
    shutil.copy2(SET_FIXTURES / "every-problem.yaml", repository / "homebrew" / "bad.yaml")
    for command in (["cards"], ["simulate", "colty", "--games", "1"], ["rules"]):
        result = runner.invoke(app, ["--sets-dir", "homebrew", *command])
        assert result.exit_code == 2 and "bad.yaml" in result.output, (command, result.output)


def test_the_environment_variable_names_the_sets_folder(
        repository: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repository / "homebrew").mkdir()
    shutil.copy2(SET_FIXTURES / "homebrew-base.yaml", repository / "homebrew" / "town.yaml")
    monkeypatch.setenv(paths.SETS_DIR_VARIABLE, str(repository / "homebrew"))
    run("validate", _homebrew_deck(repository))


def test_a_homebrew_set_is_checked_as_an_import_would(repository: Path) -> None:
    (repository / "homebrew").mkdir()
    shutil.copy2(SET_FIXTURES / "every-problem.yaml", repository / "homebrew" / "bad.yaml")
    (repository / "deckbuilder.toml").write_text('sets-dir = "homebrew"\n', encoding="utf-8")
    result = runner.invoke(app, ["validate", "colty"])
    assert result.exit_code == 2
    message, *verdict = result.output.strip().splitlines()
    assert message.startswith("error: ") and "bad.yaml" in message  # one line
    assert verdict[0].startswith("LEGAL")  # a deck that does not use the set is still judged
    assert "Traceback" not in result.output


def test_a_sets_folder_that_is_not_there_is_one_line(repository: Path) -> None:
    result = runner.invoke(app, ["validate", "colty", "--sets-dir", "nowhere"])
    assert result.exit_code == 2 and "sets folder not found" in result.output


def test_the_shipped_hooks_check_the_homebrew_folder() -> None:
    hooks = {hook["id"]: hook for hook in
             YAML(typ="safe").load(ROOT / ".pre-commit-hooks.yaml")}
    assert re.search(hooks["deckbuilder-sets-check"]["files"], "homebrew/town.yaml")


# -- 6. --json where it was missing ------------------------------------------------------------
def test_json_of_deck_new_and_swap(tmp_path: Path) -> None:
    deck = tmp_path / "d.yaml"
    created = json.loads(run("deck", "new", "mcready", "-o", deck, "--json").stdout)
    assert created["file"] == str(deck) and created["card_count"] == sum(plain(deck)["cards"]
                                                                          .values())
    swapped = json.loads(run("deck", "swap", deck, "--out", "Apache scout", "--in", "deputy",
                             "--count", "2", "--json", code=1).stdout)
    assert swapped["out"] == {"card": "apache-scout", "name": "Apache scout"}
    assert swapped["in"]["card"] == "deputy" and swapped["count"] == 2
    assert swapped["legal"] is False and swapped["violations"]


def test_json_of_sets_import_and_remove(user_home: Path) -> None:
    installed = json.loads(run("sets", "import", SET_FIXTURES / "homebrew-base.yaml",
                               "--json").stdout)
    assert installed["ok"] is True and installed["set"] == "test-frontier-town"
    assert Path(installed["path"]).is_file()
    refused = runner.invoke(app, ["sets", "import", str(SET_FIXTURES / "every-problem.yaml"),
                                  "--json"])
    assert refused.exit_code == 1
    assert json.loads(refused.stdout)["problems"]
    removed = json.loads(run("sets", "remove", "test-frontier-town", "--json").stdout)
    assert removed["removed"] is True and not Path(removed["path"]).exists()


def test_json_of_schema_and_overlay_path(tmp_path: Path, user_home: Path) -> None:
    checked = json.loads(run("schema", "--check", "--json").stdout)
    assert checked == {"up_to_date": True, "stale": []}
    written = json.loads(run("schema", "--user", "--json").stdout)["written"]
    assert all(Path(path).is_file() for path in written)
    where = json.loads(run("overlay", "path", "--json").stdout)
    assert where == {"path": str(user_home / "overlay.yaml"), "exists": False}

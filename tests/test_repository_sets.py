"""A repository's own sets folder (`sets-dir` in deckbuilder.toml), as its clients meet it
(issue 35, items 3 and 4): one broken set never hides another part (every deck that does not
use it is still judged; one that does waits on it, by name), and what the repository commits
(`schema --into`) is what every clone reads, with `unknown-card` naming the sets folder."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.cli import app
from deckbuilder.errors import DeckbuilderError

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "fixtures" / "sets"
DECKS = ROOT / "deckbuilder" / "data" / "decks"
runner = CliRunner()
#: The Frontier Town homebrew set with a field the card-set schema refuses, at line 6 col 1.
BROKEN_TOWN = (SETS / "homebrew-base.yaml").read_text(encoding="utf-8").replace(
    'version: "1.0"\n', 'version: "1.0"\nbogus: 1\n')


@pytest.fixture(autouse=True)
def no_sets_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--sets-dir` sets DECKBUILDER_SETS_DIR for the process: put back after each test."""
    monkeypatch.setenv(paths.SETS_DIR_VARIABLE, "")


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository of decks with a sets folder (the current folder): a good deck, a deck
    with an unknown card, a deck of the homebrew set's cards declaring it, and one using
    its card without declaring it."""
    folder = tmp_path / "decks-repo"
    for sub in (".git", "decks", "homebrew"):
        (folder / sub).mkdir(parents=True)
    (folder / "deckbuilder.toml").write_text('sets-dir = "homebrew"\n', encoding="utf-8")
    colty = (DECKS / "colty-base.yaml").read_text(encoding="utf-8")
    (folder / "decks" / "colty.yaml").write_text(colty, encoding="utf-8")
    assert "\ncards:\n" in colty
    (folder / "decks" / "bad.yaml").write_text(
        colty.replace("\ncards:\n", "\ncards:\n  no-such-card: 1\n"), encoding="utf-8")
    mcready = (DECKS / "mcready-base.yaml").read_text(encoding="utf-8")
    line = "\n  you-keep-makin-the-same-mistakes-pilgrim: 3"
    assert line in mcready and "\nsets: [revolver-base]\n" in mcready
    ambush = mcready.replace(line, line[:-1] + "1\n  test-ambush: 2")
    (folder / "decks" / "homebrew.yaml").write_text(ambush.replace(
        "\nsets: [revolver-base]\n", "\nsets: [revolver-base, test-frontier-town]\n"),
        encoding="utf-8")
    (folder / "decks" / "undeclared.yaml").write_text(ambush, encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


def decks() -> list[str]:
    return sorted(path.as_posix() for path in Path("decks").glob("*.yaml"))


def validate(*args: str) -> Any:
    return runner.invoke(app, ["validate", *args])


def verdicts(output: str) -> dict[str, str]:
    """Deck file -> the first word of its verdict line (LEGAL, ILLEGAL, WAITING)."""
    found = re.findall(r"^(LEGAL|ILLEGAL|WAITING) +(\S+):", output, re.MULTILINE)
    return {deck: verdict for verdict, deck in found}


def assert_every_part_reported(output: str) -> None:
    """The broken set at its file:line:col, the bad deck's own violation, the good deck's
    verdict, and the two decks that use the set waiting on it."""
    assert "homebrew/town.yaml:6:1: unknown field 'bogus'" in output
    assert verdicts(output) == {
        "decks/bad.yaml": "ILLEGAL", "decks/colty.yaml": "LEGAL",
        "decks/homebrew.yaml": "WAITING", "decks/undeclared.yaml": "WAITING"}
    assert "no-such-card" in output and "Traceback" not in output
    waiting = [line for line in output.splitlines() if line.startswith("WAITING")]
    assert all("waits on set 'test-frontier-town' (homebrew/town.yaml:6:1 is broken)" in line
               for line in waiting), waiting


# -- 3. one broken part never hides another ---------------------------------------------------
def test_a_broken_set_beside_a_bad_deck_reports_both(repository: Path) -> None:
    (repository / "homebrew" / "town.yaml").write_text(BROKEN_TOWN, encoding="utf-8")
    result = validate(*decks())
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert errors == ["error: homebrew/town.yaml:6:1: unknown field 'bogus' (fix: remove it or "
                      "check its spelling in the schema)"]
    assert_every_part_reported(result.output)
    (repository / "homebrew" / "town.yaml").write_text(
        (SETS / "homebrew-base.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    fixed = validate(*decks())  # the set fixed: the decks that waited are judged
    assert fixed.exit_code == 1 and "error: " not in fixed.output
    assert verdicts(fixed.output)["decks/homebrew.yaml"] == "LEGAL"


def test_a_waiting_deck_in_json_names_the_set_and_where_it_breaks(repository: Path) -> None:
    (repository / "homebrew" / "town.yaml").write_text(BROKEN_TOWN, encoding="utf-8")
    result = validate("decks/homebrew.yaml", "decks/colty.yaml", "--json")
    assert result.exit_code == 2
    waiting, colty = json.loads(result.stdout)
    assert waiting["legal"] is None and waiting["violations"] == []
    assert waiting["waits_on"] == {
        "set": "test-frontier-town", "file": str(repository / "homebrew" / "town.yaml"),
        "line": 6, "column": 1, "message": "unknown field 'bogus'"}
    assert colty["legal"] is True and "waits_on" not in colty


def test_a_good_set_is_not_blamed_for_a_broken_one(repository: Path) -> None:
    """The broken set gives an id the good one gives (test-deputy) and sorts first: the good
    set is kept and the broken one reported for its own problems, as `sets check` says."""
    (repository / "homebrew" / "a-broken.yaml").write_text(
        (SETS / "every-problem.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (repository / "homebrew" / "town.yaml").write_text(
        (SETS / "homebrew-base.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    catalog = project_catalog(keep_broken=True)
    assert "test-frontier-town" in catalog.sets and "test-every-problem" not in catalog.sets
    assert [broken.set_id for broken in catalog.broken] == ["test-every-problem"]
    assert str(catalog.broken[0]).startswith(
        "homebrew/a-broken.yaml:10:12: set 'test-every-problem' of the sets folder: this is a "
        "revolver2 set but 'test-frontier-town' is a revolver set (and 19 more")
    result = validate("decks/homebrew.yaml", "decks/colty.yaml")
    assert result.exit_code == 2
    assert verdicts(result.output) == {"decks/homebrew.yaml": "LEGAL",
                                       "decks/colty.yaml": "LEGAL"}
    with pytest.raises(DeckbuilderError, match=r"a-broken\.yaml"):
        project_catalog()  # the commands that need every set still refuse


def test_a_set_requiring_a_broken_set_waits_on_it(repository: Path) -> None:
    (repository / "homebrew" / "town.yaml").write_text(BROKEN_TOWN, encoding="utf-8")
    (repository / "homebrew" / "addon.yaml").write_text(
        (SETS / "homebrew-addon.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    catalog = project_catalog(keep_broken=True)
    addon = next(broken for broken in catalog.broken if broken.set_id == "test-frontier-addon")
    assert addon.waits_on == "test-frontier-town"
    assert "set 'test-frontier-addon' of the sets folder waits on set 'test-frontier-town', " \
        "which is broken" in str(addon)
    colty = (repository / "decks" / "colty.yaml").read_text(encoding="utf-8")
    (repository / "decks" / "curfew.yaml").write_text(colty.replace(
        "\nsets: [revolver-base]\n", "\nsets: [revolver-base, test-frontier-addon]\n"),
        encoding="utf-8")
    result = validate("decks/curfew.yaml", "decks/colty.yaml")
    assert verdicts(result.output) == {"decks/curfew.yaml": "WAITING",
                                       "decks/colty.yaml": "LEGAL"}
    assert "waits on set 'test-frontier-addon'" in result.output


def test_the_hook_command_over_the_changed_files(repository: Path, tmp_path: Path) -> None:
    """What pre-commit runs: each hook's `entry` of .pre-commit-hooks.yaml over the files its
    `files` pattern matches, from the repository's root, by the installed `deckbuilder`, on
    a machine where nothing is installed."""
    command = Path(sys.executable).parent / "deckbuilder"
    if not command.is_file():
        pytest.skip("the `deckbuilder` command is not installed beside this Python")
    (repository / "homebrew" / "town.yaml").write_text(BROKEN_TOWN, encoding="utf-8")
    hooks = {hook["id"]: hook for hook in
             YAML(typ="safe").load(ROOT / ".pre-commit-hooks.yaml")}
    files = sorted(path.relative_to(repository).as_posix()
                   for path in repository.rglob("*.yaml"))
    environment = {**os.environ, paths.HOME_VARIABLE: str(tmp_path / "empty-home")}
    environment.pop(paths.SETS_DIR_VARIABLE, None)

    def run(hook_id: str) -> subprocess.CompletedProcess[str]:
        hook = hooks[hook_id]
        matched = [name for name in files if re.search(hook["files"], name)]
        entry = shlex.split(hook["entry"])
        assert entry[0] == "deckbuilder" and matched
        return subprocess.run([str(command), *entry[1:], *matched], cwd=repository,
                              env=environment, capture_output=True, text=True, timeout=300)

    result = run("deckbuilder-validate")
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert_every_part_reported(output)
    checked = run("deckbuilder-sets-check")
    assert checked.returncode == 2 and "town.yaml" in checked.stdout + checked.stderr
    assert not (tmp_path / "empty-home" / "sets").exists()


def test_pre_commit_itself_reports_the_broken_set_and_every_deck(
        repository: Path, tmp_path: Path) -> None:
    """pre-commit runs the shipped hooks (ids, entries, file patterns) over a git repository
    of decks; `language: system` runs the installed `deckbuilder` instead of building an
    environment (tests/test_precommit.py builds one)."""
    command = Path(sys.executable).parent / "deckbuilder"
    if shutil.which("pre-commit") is None or shutil.which("git") is None \
            or not command.is_file():
        pytest.skip("pre-commit, git and an installed `deckbuilder` are needed")
    (repository / ".git").rmdir()
    (repository / "homebrew" / "town.yaml").write_text(BROKEN_TOWN, encoding="utf-8")
    shipped = YAML(typ="safe").load(ROOT / ".pre-commit-hooks.yaml")
    local = [{**hook, "language": "system"} for hook in shipped
             if hook["id"] in ("deckbuilder-validate", "deckbuilder-sets-check")]
    (repository / ".pre-commit-config.yaml").write_text(json.dumps(
        {"repos": [{"repo": "local", "hooks": local}]}), encoding="utf-8")
    environment = {**os.environ, paths.HOME_VARIABLE: str(tmp_path / "empty-home"),
                   "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"), "PRE_COMMIT_COLOR": "never",
                   "PATH": f"{command.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    environment.pop(paths.SETS_DIR_VARIABLE, None)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=repository, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repository, check=True)
    result = subprocess.run(["pre-commit", "run", "--all-files"], cwd=repository,
                            env=environment, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert_every_part_reported(output)
    assert output.count("Failed") == 2


# -- 4. what a repository commits works on every clone ----------------------------------------
def offered(schema_file: Path, key: str) -> bool:
    """Whether a deck schema lets a Revolver deck hold `key` (what the editor says)."""
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    deck = {"name": "probe", "game": "revolver", "faction": "colty", "cards": {key: 1}}
    return not [error for error in Draft202012Validator(schema).iter_errors(deck)
                if key in error.message]


def test_schema_into_writes_the_packaged_sets_and_the_repository_s_own(
        repository: Path) -> None:
    (repository / "homebrew" / "town.yaml").write_text(
        (SETS / "homebrew-base.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert runner.invoke(app, ["sets", "import", str(SETS / "cycle-a.yaml")]).exit_code == 0
    result = runner.invoke(app, ["schema", "--into", "schemas", "--json"])
    assert result.exit_code == 0, result.output
    installed = paths.installed_sets_dir() / "test-cycle-a.yaml"
    assert json.loads(result.stdout)["left_out"] == [
        {"set": "test-cycle-a", "file": str(installed)}]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning")]
    assert warnings == [
        f"warning: set 'test-cycle-a' ({installed}) is installed on this machine only, so the "
        "schemas leave it out; to add it to the repository, copy it into homebrew/ (the "
        "repository's sets-dir) and commit it"]
    schema = repository / "schemas" / "user-deck.schema.json"
    assert offered(schema, "test-deputy") and offered(schema, "38-special")
    assert not offered(schema, "test-cycle-a-card") and not offered(schema, "Cycle A card")


def test_schema_into_without_a_sets_folder_says_how_to_name_one(
        repository: Path) -> None:
    (repository / "deckbuilder.toml").unlink()
    assert runner.invoke(app, ["sets", "import", str(SETS / "cycle-a.yaml")]).exit_code == 0
    result = runner.invoke(app, ["schema", "--into", "schemas"])
    assert result.exit_code == 0, result.output
    assert "set 'test-cycle-a'" in result.stderr
    assert 'name that folder in deckbuilder.toml (sets-dir = "homebrew")' in result.stderr
    assert not offered(repository / "schemas" / "user-deck.schema.json", "test-cycle-a-card")


def test_the_repository_s_copy_of_a_set_is_read_instead_of_an_installed_one(
        repository: Path) -> None:
    """Following the warning (the set copied into the folder) leaves the author with two
    copies of one id: the repository's is read, as on every clone, and nothing is refused."""
    assert runner.invoke(app, ["sets", "import", str(SETS / "homebrew-base.yaml")]).exit_code == 0
    assert validate("decks/homebrew.yaml").exit_code == 0  # the installed copy
    (repository / "homebrew" / "town.yaml").write_text(
        (SETS / "homebrew-base-v2-drops-ambush.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    catalog = project_catalog()
    assert catalog.sets["test-frontier-town"].origin == "project"
    assert "test-ambush" not in catalog.entries  # version 2, the repository's, drops it
    result = runner.invoke(app, ["schema", "--into", "schemas", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["left_out"] == []
    assert "warning" not in result.stderr


def test_a_second_clone_hears_the_same_from_the_editor_and_from_validate(
        repository: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The author's deck uses a set installed on his machine only: the committed schema
    flags the card as `validate` does on a clone, which names the sets folder."""
    assert runner.invoke(app, ["sets", "import", str(SETS / "cycle-a.yaml")]).exit_code == 0
    assert runner.invoke(app, ["schema", "--into", "schemas"]).exit_code == 0
    deck = repository / "decks" / "colty.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        "\ncards:\n", "\ncards:\n  test-cycle-a-card: 1\n"), encoding="utf-8")
    monkeypatch.setenv(paths.HOME_VARIABLE, str(tmp_path / "second-person"))  # the clone
    assert not offered(repository / "schemas" / "user-deck.schema.json", "test-cycle-a-card")
    result = validate("decks/colty.yaml")
    assert result.exit_code == 1
    assert ("no card is named 'test-cycle-a-card': not in the packaged sets nor in the "
            "repository's sets folder homebrew/: is the set committed there?") in \
        " ".join(result.output.split())


def test_unknown_card_names_the_sets_folder_only_when_there_is_one(
        repository: Path) -> None:
    with_folder = json.loads(validate("decks/bad.yaml", "--json").stdout)
    message = next(v["message"] for v in with_folder["violations"]
                   if v["code"] == "unknown-card")
    assert message.endswith("repository's sets folder homebrew/: is the set committed there?")
    (repository / "deckbuilder.toml").unlink()
    without = json.loads(validate("decks/bad.yaml", "--json").stdout)
    message = next(v["message"] for v in without["violations"] if v["code"] == "unknown-card")
    assert "sets folder" not in message

"""Ids of rule switches, rulesets and modules are global, like card ids (issue 12, 2.3).

A user set that redefines a packaged switch, ruleset or module would have `deckbuilder rules`
show its homebrew text under the packaged id (or fail): `sets check` refuses it like a
duplicate card id, `sets import` installs nothing, and a set copied into the sets folder by
hand makes the catalog refuse it in one line naming the set file and the id's line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.errors import CardDataError

runner = CliRunner()

HEADER = """\
id: test-rules-homebrew
name: Test rules homebrew
version: "1.0"
game: revolver
kind: homebrew
"""
SWITCH = """\
rule_switches:
  - id: {switch}
    description: HOMEBREW TEXT that must not replace the packaged switch
    default: one
    variants:
      - {{value: one, description: first, source: homebrew}}
      - {{value: two, description: second, source: homebrew}}
"""
RULESET = """\
rulesets:
  - id: {ruleset}
    name: HOMEBREW ruleset
    description: HOMEBREW TEXT
"""
MODULE = """\
modules:
  - id: {module}
    name: HOMEBREW module
    description: HOMEBREW TEXT
"""

CASES = {
    "rule switch": (SWITCH.format(switch="train-victory"), "train-victory", 7),
    "ruleset": (RULESET.format(ruleset="rulebook-en"), "rulebook-en", 7),
    "module": (MODULE.format(module="saloon-duel"), "saloon-duel", 7),
}


def write_set(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "test-rules-homebrew.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


@pytest.mark.parametrize("what", sorted(CASES))
def test_sets_check_refuses_a_packaged_id(what: str, tmp_path: Path) -> None:
    body, taken, line = CASES[what]
    path = write_set(tmp_path, body)
    result = runner.invoke(app, ["sets", "check", str(path), "--json"])
    assert result.exit_code == 1, result.output
    findings = [finding for report in _reports(result.stdout) for finding in report["problems"]]
    clashes = [f for f in findings if f["code"] == "id-in-other-set"]
    assert len(clashes) == 1, findings
    assert f"{what} id '{taken}' is already used in set" in clashes[0]["message"]
    assert clashes[0]["line"] == line


def _reports(output: str) -> list[dict]:
    data = json.loads(output)
    return data if isinstance(data, list) else data.get("reports", [data])


@pytest.mark.parametrize("what", sorted(CASES))
def test_sets_import_installs_nothing(what: str, tmp_path: Path, user_home: Path) -> None:
    body, _, _ = CASES[what]
    path = write_set(tmp_path, body)
    result = runner.invoke(app, ["sets", "import", str(path)])
    assert result.exit_code != 0
    assert not (user_home / "sets" / "test-rules-homebrew.yaml").exists()


@pytest.mark.parametrize("what", sorted(CASES))
def test_a_hand_installed_clash_is_refused_in_one_line(what: str, user_home: Path) -> None:
    body, taken, line = CASES[what]
    path = write_set(user_home / "sets", body)
    from deckbuilder.catalog import build_catalog

    with pytest.raises(CardDataError) as error:
        build_catalog()
    assert error.value.where.path == path and error.value.where.line == line
    assert f"'{taken}' is already used" in error.value.message
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 2
    assert "HOMEBREW" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_new_switch_id_is_fine(tmp_path: Path) -> None:
    path = write_set(tmp_path, SWITCH.format(switch="test-homebrew-switch"))
    result = runner.invoke(app, ["sets", "check", str(path), "--json"])
    assert result.exit_code == 0, result.output


def test_twice_in_one_set_is_still_a_duplicate(tmp_path: Path) -> None:
    body = SWITCH.format(switch="test-twice") + SWITCH.format(switch="test-twice").split(
        "\n", 1)[1]
    path = write_set(tmp_path, body)
    result = runner.invoke(app, ["sets", "check", str(path), "--json"])
    codes = [f["code"] for r in _reports(result.stdout) for f in r["problems"]]
    assert codes == ["duplicate-id"]

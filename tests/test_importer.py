"""`deckbuilder sets check / import / remove / list`: scenarios of a user managing card sets."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import importer, paths
from deckbuilder.cli import app
from deckbuilder.errors import DataFileError, SetInstallError
from deckbuilder.importer import SetRefused, check_file, import_set, remove_set
from deckbuilder.writing import WriteError

SET_FIXTURES = Path(__file__).parent / "fixtures" / "sets"
BAD_FIXTURES = Path(__file__).parent / "fixtures" / "bad"

runner = CliRunner()
Snapshot = Callable[[Path], dict[str, bytes]]


@pytest.fixture(autouse=True)
def no_packaged_sets(package_sets: Callable[..., Path]) -> Callable[..., Path]:
    """The importer tests see only the fixture sets, never the real card data."""
    return package_sets


def sets(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["sets", *map(str, args)])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def installed_dir() -> Path:
    return paths.installed_sets_dir()


def expected_problems(path: Path) -> set[tuple[int, str]]:
    """(line, code) pairs that a fixture announces with `# expect: code, code` comments."""
    expected = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = re.search(r"# expect: (.+)$", line)
        if match:
            expected |= {(number, code.strip()) for code in match.group(1).split(",")}
    return expected


# -- check --------------------------------------------------------------------------------------
def test_check_accepts_a_consistent_set_without_installing_it() -> None:
    code, out, _ = sets("check", SET_FIXTURES / "homebrew-base.yaml")
    assert code == 0
    assert "test-frontier-town" in out and "can be imported" in out
    assert not installed_dir().exists() or not any(installed_dir().iterdir())


def test_check_reports_every_integrity_problem_with_its_line() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    fixture = SET_FIXTURES / "every-problem.yaml"
    report = check_file(fixture)
    found = {(finding.where.line, finding.code) for finding in report.findings}
    assert found == expected_problems(fixture)
    assert all(finding.where.column for finding in report.findings)

    code, out, err = sets("check", fixture)
    assert code == 1
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == len(report.findings)
    assert all(re.match(rf"{re.escape(str(fixture))}:\d+:\d+: .+ \(fix: .+\)$", line)
               for line in lines)
    assert len(err.strip().splitlines()) == 1


def test_check_json_lists_problems_with_positions() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    code, out, _ = sets("check", SET_FIXTURES / "every-problem.yaml", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False and data["set"]["id"] == "test-every-problem"
    codes = {problem["code"] for problem in data["problems"]}
    assert codes == {code for _, code in expected_problems(SET_FIXTURES / "every-problem.yaml")}
    assert all(problem["line"] and problem["column"] for problem in data["problems"])


def test_check_lists_every_schema_problem_and_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "three-problems.yaml"
    broken.write_text(
        'id: test-three\nname: Three\nversion: "1.0"\ngame: revolver\nkind: homebrew\n'
        "cards:\n  - id: test-a\n    name: A\n    faction: colty\n    category: action\n"
        "    play: one-shot\n    copies: -1\n    colour: red\n"
        "    effect:\n      - do: explode\n"
    )
    code, out, err = sets("check", broken)
    assert code == 2
    assert len(out.strip().splitlines()) == 3
    assert f"{broken}:12:5" in out and f"{broken}:13:5" in out and f"{broken}:15:9" in out
    assert err.count("\n") == 1 and "and 2 more problems" in err


def test_unknown_effect_step_error_names_the_known_steps(tmp_path: Path) -> None:
    from deckbuilder.models.effects import STEP_NAMES

    broken = tmp_path / "step.yaml"
    broken.write_text(
        'id: test-step\nname: Step\nversion: "1.0"\ngame: revolver\nkind: homebrew\n'
        "cards:\n  - id: test-a\n    name: A\n    faction: colty\n    category: action\n"
        "    play: one-shot\n    effect:\n      - do: teleport\n"
    )
    code, _, err = sets("check", broken)
    assert code == 2
    assert f"{broken}:13:9" in err and "unknown effect step 'teleport'" in err
    assert all(name in err for name in STEP_NAMES)


def test_check_notes_an_installed_version() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    code, out, _ = sets("check", SET_FIXTURES / "homebrew-addon-v1.1.yaml")
    assert code == 0
    assert "version 1.0 is installed" in out and "--upgrade" in out


def test_check_refuses_the_id_of_a_packaged_set(package_sets: Callable[..., Path]) -> None:
    package_sets("homebrew-base.yaml")
    code, out, _ = sets("check", SET_FIXTURES / "homebrew-base.yaml")
    assert code == 1
    assert "belongs to a packaged set" in out


# -- import -------------------------------------------------------------------------------------
def test_import_copies_the_file_as_it_is_under_its_id(tmp_path: Path) -> None:
    source = tmp_path / "Whatever I Called It.yaml"
    shutil.copyfile(SET_FIXTURES / "homebrew-base.yaml", source)
    code, out, _ = sets("import", source)
    assert code == 0, out
    target = installed_dir() / "test-frontier-town.yaml"
    installed, original = target.read_text().splitlines(), source.read_text().splitlines()
    # the schema line names the schema beside the installed file; the rest is kept as it is
    assert installed[0] == "# yaml-language-server: $schema=../schemas/card-set.schema.json"
    assert installed[1:] == original[1:]  # comments and layout kept
    assert "This comment must survive installation." in target.read_text()
    assert [path.name for path in installed_dir().iterdir()] == ["test-frontier-town.yaml"]


def test_install_goes_to_the_folder_named_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "another home"
    monkeypatch.setenv(paths.HOME_VARIABLE, str(elsewhere))
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    assert (elsewhere / "sets" / "test-frontier-town.yaml").is_file()


def test_imported_set_joins_the_catalog() -> None:
    from deckbuilder.catalog import build_catalog

    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    catalog = build_catalog()
    assert catalog.find("Test Curfew").set_id == "test-frontier-addon"  # type: ignore[union-attr]
    assert catalog.sets["test-frontier-town"].origin == "user"


def test_importing_an_installed_set_needs_upgrade(snapshot: Snapshot, user_home: Path) -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    before = snapshot(user_home)
    code, _, err = sets("import", SET_FIXTURES / "homebrew-addon-v1.1.yaml")
    assert code == 1
    assert "already installed (version 1.0)" in err and "--upgrade" in err
    assert snapshot(user_home) == before

    code, out, _ = sets("import", SET_FIXTURES / "homebrew-addon-v1.1.yaml", "--upgrade")
    assert code == 0
    assert "from 1.0 to 1.1" in out
    installed = (installed_dir() / "test-frontier-addon.yaml").read_text()
    assert installed.splitlines()[1:] == \
        (SET_FIXTURES / "homebrew-addon-v1.1.yaml").read_text().splitlines()[1:]


def test_an_upgrade_may_reuse_its_own_ids() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    report = check_file(SET_FIXTURES / "homebrew-addon-v1.1.yaml")
    assert report.findings == []  # test-curfew is its own id, not a clash


@pytest.mark.parametrize(
    ("fixture", "installed_first", "expected_exit", "message"),
    [
        ("every-problem.yaml", ["homebrew-base.yaml"], 1, "refused to import"),
        ("homebrew-addon.yaml", [], 1, "neither packaged nor installed"),
        ("other-game.yaml", ["homebrew-base.yaml"], 1, "is a revolver set"),
        ("cycle-a-v1.1-requires-b.yaml", ["cycle-a.yaml", "cycle-b.yaml"], 1, "refused"),
        ("homebrew-base-v2-drops-ambush.yaml", ["homebrew-base.yaml", "homebrew-addon.yaml"], 1,
         "would break (test-frontier-addon)"),
    ],
)
def test_a_refused_import_changes_nothing(
    fixture: str,
    installed_first: list[str],
    expected_exit: int,
    message: str,
    snapshot: Snapshot,
    user_home: Path,
) -> None:
    for name in installed_first:
        import_set(SET_FIXTURES / name)
    before = snapshot(user_home)
    code, out, err = sets("import", SET_FIXTURES / fixture, "--upgrade")
    assert code == expected_exit
    assert message in out + err
    assert len(err.strip().splitlines()) == 1
    assert snapshot(user_home) == before


def test_upgrade_that_breaks_a_dependent_names_the_broken_reference() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    with pytest.raises(SetRefused) as refused:
        import_set(SET_FIXTURES / "homebrew-base-v2-drops-ambush.yaml", upgrade=True)
    (finding,) = refused.value.findings
    assert finding.code == "unknown-reference" and "'test-ambush'" in finding.message
    assert Path(finding.where.path).name == "test-frontier-addon.yaml"
    installed = (installed_dir() / "test-frontier-addon.yaml").read_text().splitlines()
    assert finding.where.line == installed.index("        cards: [test-ambush]") + 1


def test_require_cycle_is_reported_with_its_path() -> None:
    import_set(SET_FIXTURES / "cycle-a.yaml")
    import_set(SET_FIXTURES / "cycle-b.yaml")
    report = check_file(SET_FIXTURES / "cycle-a-v1.1-requires-b.yaml")
    (finding,) = report.findings
    assert finding.code == "require-cycle"
    assert "test-cycle-a -> test-cycle-b -> test-cycle-a" in finding.message


@pytest.mark.parametrize("kind", ["card-set-escaping-id.yaml", "card-set-negative-count.yaml",
                                  "broken-yaml.yaml", "empty.yaml"])
def test_a_bad_file_is_refused_with_exit_2_and_nothing_written(
    kind: str, snapshot: Snapshot, tmp_path: Path
) -> None:
    before = snapshot(tmp_path)
    code, _, err = sets("import", BAD_FIXTURES / kind)
    assert code == 2
    assert re.search(rf"{re.escape(str(BAD_FIXTURES / kind))}:\d+:\d+: ", err)
    assert snapshot(tmp_path) == before  # not in the home folder, nor beside it
    assert not (tmp_path / "escaped.yaml").exists()


def test_an_id_that_escapes_the_data_folder_never_reaches_the_file_system(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="is not a valid id"):
        import_set(BAD_FIXTURES / "card-set-escaping-id.yaml")
    assert list(tmp_path.rglob("escaped*")) == []


def test_a_failed_write_leaves_no_file(monkeypatch: pytest.MonkeyPatch, snapshot: Snapshot,
                                       user_home: Path) -> None:
    import os

    import_set(SET_FIXTURES / "homebrew-base.yaml")
    before = snapshot(user_home)

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(WriteError, match="no space left"):  # one line, not a traceback
        import_set(SET_FIXTURES / "homebrew-addon.yaml")
    assert snapshot(user_home) == before  # no half-written set, no temporary file


def test_a_broken_installed_set_can_be_replaced_with_upgrade() -> None:
    installed_dir().mkdir(parents=True)
    (installed_dir() / "test-frontier-town.yaml").write_text("id: [broken\n")
    with pytest.raises(SetInstallError, match="already installed"):
        import_set(SET_FIXTURES / "homebrew-base.yaml")
    result = import_set(SET_FIXTURES / "homebrew-base.yaml", upgrade=True)
    assert result.replaced_version is None
    assert "Test Frontier Town" in (installed_dir() / "test-frontier-town.yaml").read_text()


def test_a_file_named_after_another_set_is_not_overwritten() -> None:
    installed_dir().mkdir(parents=True)
    impostor = installed_dir() / "test-frontier-town.yaml"
    shutil.copyfile(SET_FIXTURES / "cycle-a.yaml", impostor)  # holds test-cycle-a
    with pytest.raises(SetInstallError, match="holds set 'test-cycle-a'"):
        import_set(SET_FIXTURES / "homebrew-base.yaml")
    assert impostor.read_bytes() == (SET_FIXTURES / "cycle-a.yaml").read_bytes()


def test_import_refused_when_the_overlay_would_break(snapshot: Snapshot, user_home: Path) -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    overlay = paths.overlay_path()
    overlay.write_text(
        "corrections:\n  test-ambush:\n    source: errata\n    values:\n      copies: 2\n"
    )
    before = snapshot(user_home)
    code, _, err = sets("import", SET_FIXTURES / "homebrew-base-v2-drops-ambush.yaml",
                        "--upgrade")
    assert code == 1
    assert "would break the catalog" in err and "test-ambush" in err
    assert snapshot(user_home) == before


# -- remove -------------------------------------------------------------------------------------
def test_remove_refuses_while_another_set_requires_it(snapshot: Snapshot, user_home: Path) -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    before = snapshot(user_home)
    code, _, err = sets("remove", "test-frontier-town")
    assert code == 1
    assert "test-frontier-addon requires it" in err
    assert snapshot(user_home) == before

    assert sets("remove", "test-frontier-addon")[0] == 0
    assert sets("remove", "test-frontier-town")[0] == 0
    assert list(installed_dir().iterdir()) == []


def test_packaged_sets_cannot_be_removed(package_sets: Callable[..., Path]) -> None:
    folder = package_sets("homebrew-base.yaml")
    code, _, err = sets("remove", "test-frontier-town")
    assert code == 1 and "packaged set" in err
    assert (folder / "homebrew-base.yaml").exists()


@pytest.mark.parametrize("bad_id", ["no-such-set", "../../etc"])
def test_remove_of_an_unknown_or_malformed_id_is_bad_input(bad_id: str) -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    code, _, err = sets("remove", bad_id)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert (installed_dir() / "test-frontier-town.yaml").exists()


def test_remove_refused_while_the_overlay_corrects_its_cards() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    paths.overlay_path().write_text(
        "corrections:\n  test-deputy:\n    source: box\n    values:\n      copies: 3\n"
    )
    with pytest.raises(SetInstallError, match="overlay"):
        remove_set("test-frontier-town")
    assert (installed_dir() / "test-frontier-town.yaml").exists()


def test_an_unreadable_installed_file_can_still_be_removed() -> None:
    installed_dir().mkdir(parents=True)
    (installed_dir() / "test-broken.yaml").write_text("id: [broken\n")
    code, out, _ = sets("list", "--json")
    assert code == 0
    (row,) = json.loads(out)
    assert row["id"] == "test-broken" and "invalid YAML" in row["error"]
    assert sets("remove", "test-broken")[0] == 0
    assert not (installed_dir() / "test-broken.yaml").exists()


# -- list ---------------------------------------------------------------------------------------
def test_list_shows_packaged_and_installed_sets(package_sets: Callable[..., Path]) -> None:
    package_sets("cycle-a.yaml")
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    import_set(SET_FIXTURES / "homebrew-addon.yaml")
    code, out, _ = sets("list", "--json")
    assert code == 0
    rows = {row["id"]: row for row in json.loads(out)}
    assert rows["test-cycle-a"]["origin"] == "package"
    assert rows["test-frontier-town"]["origin"] == "user"
    addon = rows["test-frontier-addon"]
    assert addon["requires"] == ["test-frontier-town"]
    assert (addon["version"], addon["game"], addon["kind"], addon["cards"]) == (
        "1.0", "revolver", "homebrew", 1)
    code, out, _ = sets("list")
    assert code == 0 and "3 sets." in out
    assert "test-frontier-addon 1.0  Test Frontier Add-on" in out
    assert "requires test-frontier-town; installed" in out


def test_installed_files_reports_each_file() -> None:
    import_set(SET_FIXTURES / "homebrew-base.yaml")
    (files,) = importer.installed_files()
    assert files.set_id == "test-frontier-town" and files.error is None

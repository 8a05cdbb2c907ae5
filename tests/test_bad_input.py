"""Every command that reads a file answers bad input with one line, `file:line:col`, exit 2.

The issue: "Every command answers bad input (broken YAML, tabs, duplicate keys, wrong types,
negative counts, unknown fields, empty or binary files, a directory, a missing file, alias
bombs, absurdly large or deep files, ids that try to escape the data folder) with a one-line
error naming file:line:col and what to do, exit code 2, and no traceback."
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app
from deckbuilder.yamlio import MAX_FILE_BYTES

BAD = Path(__file__).parent / "fixtures" / "bad"
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@dataclass(frozen=True)
class Kind:
    """One kind of bad file; `fixture` may contain {kind} (card-set, overlay, deck)."""

    name: str
    fixture: str | None  # None: made by `make_file`
    has_position: bool
    yaml_only: bool = True  # False: also bad as a text deck list


KINDS = [
    Kind("broken-yaml", "broken-yaml.yaml", True),
    Kind("tabs", "tabs.yaml", True),
    Kind("duplicate-keys", "duplicate-keys.yaml", True),
    Kind("wrong-types", "{kind}-wrong-types.yaml", True),
    Kind("negative-count", "{kind}-negative-count.yaml", True),
    Kind("unknown-field", "{kind}-unknown-field.yaml", True),
    Kind("escaping-id", "{kind}-escaping-id.yaml", True),
    Kind("empty", "empty.yaml", True, yaml_only=False),
    Kind("top-level-list", "top-level-list.yaml", True),
    Kind("binary", None, False, yaml_only=False),
    Kind("not-utf8", "not-utf8.yaml", True, yaml_only=False),
    Kind("directory", None, False, yaml_only=False),
    Kind("missing", None, False, yaml_only=False),
    Kind("alias-bomb", "alias-bomb.yaml", True),
    Kind("too-large", None, False, yaml_only=False),
    Kind("too-deep", "too-deep.yaml", True),
]


def make_file(kind: Kind, file_kind: str, target: Path) -> Path:
    """Put a bad file of this kind at `target` (or leave nothing there: "missing")."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind.fixture is not None:
        shutil.copyfile(BAD / kind.fixture.format(kind=file_kind), target)
    elif kind.name == "binary":
        target.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    elif kind.name == "directory":
        target.mkdir()
        (target / "inside.yaml").write_text("name: x\n")
    elif kind.name == "too-large":
        line = b"# a comment line that only takes up room\n"
        target.write_bytes(line * (MAX_FILE_BYTES // len(line) + 2))
    return target


@dataclass(frozen=True)
class Command:
    """A command that reads a file, and how to give it one."""

    name: str
    file_kind: str  # card-set, overlay, deck, deck-list
    argv: Callable[[Path, Path], list[str]]  # (bad file, tmp folder) -> arguments
    file_in_home: bool = False  # the file is the overlay, read from the user folder
    skip: frozenset[str] = frozenset()  # kinds that are not bad input for this command
    unplaced: frozenset[str] = frozenset()  # kinds that have no line in this file format


def _deck_valid() -> str:
    return str(BAD / "deck-valid.yaml")


COMMANDS = [
    Command("sets check", "card-set", lambda f, _: ["sets", "check", str(f)]),
    Command("sets import", "card-set", lambda f, _: ["sets", "import", str(f)]),
    # The overlay is optional: no file, or an empty one, means "no corrections".
    Command("cards (overlay)", "overlay", lambda _, __: ["cards"], file_in_home=True,
            skip=frozenset({"missing", "empty"})),
    Command("overlay set", "overlay",
            lambda _, __: ["overlay", "set", "test-deputy", "cost", "1", "--source", "s"],
            file_in_home=True, skip=frozenset({"missing", "empty"})),
    Command("validate", "deck", lambda f, _: ["validate", str(f)]),
    Command("deck swap", "deck",
            lambda f, _: ["deck", "swap", str(f), "--out", "test-deputy", "--in", "test-marshal"]),
    Command("deck diff", "deck", lambda f, _: ["deck", "diff", str(f), _deck_valid()]),
    Command("deck import", "deck-list",
            lambda f, tmp: ["deck", "import", str(f), "--faction", "colty",
                            "--out", str(tmp / "imported.yaml")],
            unplaced=frozenset({"empty"})),
]


def cases() -> list[object]:
    params = []
    for command in COMMANDS:
        for kind in KINDS:
            if kind.name in command.skip:
                continue
            if command.file_kind == "deck-list" and kind.yaml_only:
                continue  # a text list: YAML syntax means nothing there
            params.append(pytest.param(command, kind, id=f"{command.name}-{kind.name}"))
    return params


@pytest.fixture(autouse=True)
def fixture_package(package_sets: Callable[..., Path]) -> Path:
    """A small known catalog: the cards the deck and overlay fixtures name exist."""
    return package_sets("homebrew-base.yaml")


@pytest.mark.parametrize(("command", "kind"), cases())
def test_bad_input_gives_one_line_and_exit_2(command: Command, kind: Kind, tmp_path: Path) -> None:
    if command.file_in_home:
        bad = make_file(kind, command.file_kind, paths.overlay_path())
    else:
        suffix = ".txt" if command.file_kind == "deck-list" else ".yaml"
        bad = make_file(kind, command.file_kind, tmp_path / "input" / f"{kind.name}{suffix}")
    before = _listing(tmp_path)

    result = runner.invoke(app, command.argv(bad, tmp_path))

    assert result.exit_code == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.rstrip("\n").split("\n")
    assert len(lines) == 1, result.stderr
    (line,) = lines
    assert line.startswith("error: ")
    assert str(bad) in line
    if kind.has_position and kind.name not in command.unplaced:
        assert f"{bad}:" in line and _has_line_and_column(line, bad), line
    assert "(fix: " in line  # and what to do
    assert _listing(tmp_path) == before  # a refused command writes nothing


def _has_line_and_column(line: str, path: Path) -> bool:
    rest = line.split(f"{path}:", 1)[1]
    parts = rest.split(":", 2)
    return len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit()


def _listing(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_every_command_module_that_reads_files_is_covered() -> None:
    from deckbuilder.cli import COMMANDS as CLI_COMMANDS

    modules = {entry.module for entry in CLI_COMMANDS.values()}
    assert {"sets", "overlay", "validate", "deck"} <= modules
    covered = {command.name.split()[0] for command in COMMANDS}
    assert {"sets", "overlay", "validate", "deck"} <= covered | {"cards"}


@pytest.mark.parametrize(
    "argv",
    [["sets", "check", str(BAD / "broken-yaml.yaml")],
     ["sets", "import", str(BAD / "card-set-escaping-id.yaml")],
     ["validate", str(BAD / "alias-bomb.yaml")]],
    ids=["sets-check", "sets-import", "validate"],
)
def test_a_real_process_prints_no_traceback(argv: list[str], tmp_path: Path) -> None:
    environment = {**os.environ, paths.HOME_VARIABLE: str(tmp_path / "home")}
    completed = subprocess.run(
        [sys.executable, "-m", "deckbuilder", *argv],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr + completed.stdout
    (line,) = completed.stderr.rstrip("\n").split("\n")
    assert line.startswith(f"error: {argv[-1]}:") and _has_line_and_column(line, Path(argv[-1]))

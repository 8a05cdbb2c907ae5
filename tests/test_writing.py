"""Nothing a user wrote is lost or half-written: atomic writes that respect the file, one
writer at a time (tested with real concurrent processes), atomic set upgrades."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.writing import WriteError, atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
SET_FIXTURES = Path(__file__).parent / "fixtures" / "sets"


def test_a_failed_write_leaves_the_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "sub" / "file.yaml"
    atomic_write_text(path, "old\n")

    def fail(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(WriteError) as raised:
        atomic_write_text(path, "new\n")
    assert "no space left on device" in str(raised.value) and "\n" not in str(raised.value)
    assert "free some disk space" in str(raised.value)
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["file.yaml"]


def test_a_write_keeps_the_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "private.yaml"
    path.write_text("x\n")
    path.chmod(0o600)
    atomic_write_text(path, "y\n")
    assert path.stat().st_mode & 0o777 == 0o600 and path.read_text() == "y\n"


def test_a_write_goes_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "decks" / "real.yaml"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    atomic_write_text(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_a_read_only_file_is_refused_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "locked.yaml"
    path.write_text("mine\n")
    path.chmod(0o444)
    with pytest.raises(WriteError, match="read-only"):
        atomic_write_text(path, "theirs\n")
    assert path.read_text() == "mine\n" and path.stat().st_mode & 0o777 == 0o444


@pytest.mark.parametrize("where", ["folder", "proc", "under-a-file"])
def test_an_unwritable_place_is_one_line(tmp_path: Path, where: str) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    path = {"folder": tmp_path, "proc": Path("/proc/deckbuilder-test.yaml"),
            "under-a-file": plain / "deck.yaml"}[where]
    with pytest.raises(WriteError) as raised:
        atomic_write_text(path, "x\n")
    assert "\n" not in str(raised.value) and str(path) in str(raised.value)


def test_a_temporary_left_by_a_killed_writer_is_removed(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    abandoned = tmp_path / f".deck.yaml.{dead.stdout.strip()}.abc123.tmp"
    abandoned.write_text("half")
    mine = tmp_path / f".deck.yaml.{os.getpid()}.def456.tmp"  # a live writer's: kept
    mine.write_text("busy")
    atomic_write_text(tmp_path / "deck.yaml", "whole\n")
    assert not abandoned.exists() and mine.exists()


def test_a_record_is_not_written_over_an_existing_file_without_force(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("my deck\n")
    runner = CliRunner()
    refused = runner.invoke(app, ["play", "--quiet", "--record", str(deck)])
    assert refused.exit_code == 2 and "--force" in refused.stderr
    assert deck.read_text() == "my deck\n"
    forced = runner.invoke(app, ["play", "--quiet", "--record", str(deck), "--force"])
    assert forced.exit_code == 0 and deck.read_text().startswith("{")


# -- concurrent writers: real processes -------------------------------------------------------
def _run_together(commands: list[list[str]], home: Path,
                  first_pauses: str = "") -> list[subprocess.CompletedProcess]:
    """Start the commands at once; `first_pauses` (point:seconds) holds the first one inside
    the window a lock must close, and the others start while it waits there."""
    environment = {**os.environ, "DECKBUILDER_HOME": str(home)}
    running = []
    for index, command in enumerate(commands):
        paused = {"DECKBUILDER_PAUSE_AT": first_pauses} if first_pauses and index == 0 else {}
        running.append(subprocess.Popen([sys.executable, "-m", "deckbuilder", *command],
                                        cwd=home, env={**environment, **paused},
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True))
        if paused:
            time.sleep(1.5)  # the first is now inside its pause
    done = []
    for process in running:
        out, err = process.communicate(timeout=180)
        done.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return done


def test_concurrent_overlay_corrections_all_survive(tmp_path: Path) -> None:
    cards = ["deputy", "cowboy", "38-special", "hail-of-bullets", "apache-scout", "sandstorm"]
    results = _run_together([["overlay", "set", card, "cost", "4", "--source", f"errata {i}"]
                             for i, card in enumerate(cards)], tmp_path)
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    overlay = (tmp_path / "overlay.yaml").read_text()
    assert all(f"  {card}:" in overlay for card in cards), overlay


def test_concurrent_swaps_on_one_deck_all_survive(tmp_path: Path) -> None:
    deck = tmp_path / "mine.yaml"
    made = CliRunner().invoke(app, ["deck", "new", "mcready", "-o", str(deck)])
    assert made.exit_code == 0, made.output
    ins = ["lee-shao-chinese-railworker", "texas-ranger", "clarence-stickley-pinkerton-detective",
           "brady-logan", "wriggler-hooley", "pinkerton-agents"]
    results = _run_together([["deck", "swap", str(deck), "--out", "cowboy", "--in", card]
                             for card in ins], tmp_path)
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    text = deck.read_text()
    assert all(f"  {card}: 1" in text for card in ins), text
    assert "  cowboy: 4" in text  # ten cowboys, six swapped out, none twice


def test_an_add_on_never_outlives_the_set_it_requires(tmp_path: Path) -> None:
    """`sets import` of an add-on racing `sets remove` of its base: one of the two waits,
    so either the add-on is refused or the removal is."""
    runner = CliRunner(env={"DECKBUILDER_HOME": str(tmp_path)})
    assert runner.invoke(app, ["sets", "import", str(SET_FIXTURES / "homebrew-base.yaml"),
                               "--upgrade"]).exit_code == 0
    # the import has checked that its base is there, and waits before it writes: the
    # removal of the base starts in that window
    _run_together([["sets", "import", str(SET_FIXTURES / "homebrew-addon.yaml"), "--upgrade"],
                   ["sets", "remove", "test-frontier-town"]], tmp_path,
                  first_pauses="import-checked:3")
    names = {path.stem for path in (tmp_path / "sets").glob("*.yaml")}
    assert not ("test-frontier-addon" in names and "test-frontier-town" not in names), names


def test_an_upgrade_under_another_file_name_leaves_one_file(tmp_path: Path) -> None:
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "my-copy.yaml").write_bytes((SET_FIXTURES / "homebrew-base.yaml").read_bytes())
    runner = CliRunner(env={"DECKBUILDER_HOME": str(tmp_path)})
    upgraded = runner.invoke(app, ["sets", "import", str(SET_FIXTURES / "homebrew-base.yaml"),
                                   "--upgrade"])
    assert upgraded.exit_code == 0, upgraded.output
    assert sorted(p.name for p in sets.iterdir()) == ["test-frontier-town.yaml"]


def test_an_upgrade_repairs_two_files_holding_one_set(tmp_path: Path) -> None:
    """What an upgrade killed between its steps used to leave: the set twice."""
    sets = tmp_path / "sets"
    sets.mkdir()
    for name in ("test-frontier-town.yaml", "old-name.yaml"):
        (sets / name).write_bytes((SET_FIXTURES / "homebrew-base.yaml").read_bytes())
    runner = CliRunner(env={"DECKBUILDER_HOME": str(tmp_path)})
    runner.invoke(app, ["sets", "import", str(SET_FIXTURES / "homebrew-base.yaml"), "--upgrade"])
    assert sorted(p.name for p in sets.iterdir()) == ["test-frontier-town.yaml"]
    assert runner.invoke(app, ["sets", "list"]).exit_code == 0

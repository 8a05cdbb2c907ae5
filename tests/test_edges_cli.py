"""The last tracebacks at the command line's edges (issue 19, section 2): answers to
`play --human` that are not numbers Python can read, `--scheduler` values Dask chokes on,
standard output that cannot be written or whose reader went away, a cache folder on a full
disk, and game records whose steps do not add up to their final line."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog, load_set_file
from deckbuilder.cli import EXIT_CODES_EPILOG, app
from deckbuilder.commands.choice_prompt import chosen
from deckbuilder.commands.human_play import EXIT_ABANDONED
from deckbuilder.commands.streams import EXIT_BROKEN_PIPE, EXIT_OUTPUT_FAILED
from deckbuilder.set_cache import CACHE_UNUSED_DAYS
from deckbuilder.sim.records.session import replay_record
from deckbuilder.sim.records.transcript import read_record
from deckbuilder.sim.runs.dask_executor import (
    MAX_SCHEDULER_FILE_BYTES,
    SchedulerError,
    scheduler_address,
)

runner = CliRunner()
DECKBUILDER = [sys.executable, "-m", "deckbuilder"]
DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
SET_FILE = Path(__file__).resolve().parent / "fixtures" / "sets" / "homebrew-base.yaml"


def invoke(*args: str | Path):
    return runner.invoke(app, [str(arg) for arg in args])


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def run(args: list[str], **options) -> subprocess.CompletedProcess[bytes]:
    """deckbuilder in a process of its own; stdout and stderr captured unless given."""
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([*DECKBUILDER, *args], timeout=300, **options)


# -- 1. play --human: answers that are not numbers ---------------------------------------------
def test_answers_python_cannot_read_as_numbers_are_asked_again() -> None:
    """Thousands of digits (int() refuses 4,300+), a superscript two ('²'.isdigit() is
    True, int('²') fails) and bytes that are not UTF-8 (strict stdin raises) each get the
    prompt again; then q leaves the game as usual."""
    answers = b"9" * 5000 + b"\n" + "²\n".encode() + b"\xff\xfe\x80\n" + b"q\n"
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "COLUMNS": "200"}
    result = run(["play", "--human", "colty", "--bots", "random", "--seed", "3"],
                 input=answers, env=environment)
    output = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in output, output[-3000:]
    assert result.returncode == EXIT_ABANDONED, output[-3000:]
    refusals = [line for line in output.splitlines() if "is not one of the actions" in line]
    assert len(refusals) == 3, refusals
    assert all(len(line) < 300 for line in refusals)  # 5,000 digits are not echoed back
    assert "'²'" in refusals[1]
    assert "you quit" in result.stderr.decode()


@pytest.mark.parametrize(("answer", "number"), [
    ("3", 3), ("03", 3), ("7", 7), ("8", None), ("0", None), ("", None), ("²", None),
    ("٣", None), ("9" * 5000, None), ("0" * 5000 + "2", 2), ("-1", None), ("1.0", None),
])
def test_an_answer_is_an_action_number_only_in_ascii_digits_and_in_range(
        answer: str, number: int | None) -> None:
    keys = ["deputy", "cowboy", "drop-deputy", "use-gatling-gun", "pass", "bank", "x"]
    assert chosen(answer, keys) == (None if number is None else number - 1)


@pytest.mark.parametrize(("answer", "index"), [
    ("cowboy", 1), ("DROP-Deputy", 2), (" pass ", 4), ("drop", None), ("", None)])
def test_an_answer_may_be_a_choices_key_in_any_case(answer: str, index: int | None) -> None:
    keys = ["deputy", "cowboy", "drop-deputy", "use-gatling-gun", "pass"]
    assert chosen(answer, keys) == index


# -- 2. --scheduler: checked before Dask sees it -----------------------------------------------
def _scheduler_files(folder: Path) -> dict[str, Path]:
    files = {
        "garbage": b"garbage{\n",
        "deep": b"[" * 30_000 + b"]" * 30_000,
        "digits": b'{"address": ' + b"9" * 5000 + b"}",
        "not-a-string": b'{"address": 5}',
        "a-list": b"[]",
        "binary": b"\xff\xfe\x00\x01",
        "tls-inside": b'{"address": "tls://127.0.0.1:8786"}',
    }
    paths_by_name = {}
    for name, content in files.items():
        path = folder / f"{name}.json"
        path.write_bytes(content)
        paths_by_name[name] = path
    huge = folder / "huge.json"
    with huge.open("wb") as stream:  # sparse: 100 MB of nothing, a few bytes on disk
        stream.truncate(100 * 1024 * 1024)
    paths_by_name["huge"] = huge
    return paths_by_name


BAD_ADDRESSES = ["tls://127.0.0.1:8786", "ucx://127.0.0.1:8786", "inproc://x", "ws://h:1",
                 "", "no-such-file", "tcp://127.0.0.1:99999", "tcp://host", "a" * 5000,
                 "tcp://127.0.0.1:8786\x00", "tcp://h:1 extra"]


@pytest.mark.parametrize("kind", ["garbage", "deep", "digits", "not-a-string", "a-list",
                                  "binary", "tls-inside", "huge"])
def test_a_bad_scheduler_file_is_one_line(tmp_path: Path, kind: str) -> None:
    path = _scheduler_files(tmp_path)[kind]
    result = invoke("simulate", "colty", "--games", "2", "--scheduler", path)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert str(path) in line and "scheduler" in line.lower()


@pytest.mark.parametrize("address", BAD_ADDRESSES)
def test_a_bad_scheduler_address_is_one_line(address: str) -> None:
    result = invoke("simulate", "colty", "--games", "2", "--scheduler", address)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert "--scheduler" in line and "tcp://HOST:PORT" in line
    assert len(line) < 600  # a pasted page is not repeated whole


def test_optimize_checks_the_scheduler_too(tmp_path: Path) -> None:
    path = _scheduler_files(tmp_path)["deep"]
    for scheduler in (str(path), "tls://127.0.0.1:8786"):
        result = invoke("optimize", "colty", "--budget", "20", "--scheduler", scheduler)
        assert "--scheduler" in result.stderr or str(path) in result.stderr
        assert result.exit_code == 2, result.output
        one_line(result.stderr)


def test_good_scheduler_addresses_and_files_give_a_tcp_address(tmp_path: Path) -> None:
    assert scheduler_address("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert scheduler_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert scheduler_address("TCP://[::1]:8786") == "TCP://[::1]:8786"
    assert scheduler_address("tcp://dask-scheduler.example:8786").endswith(":8786")
    written_by_dask = {"type": "Scheduler", "id": "Scheduler-1", "address":
                       "tcp://10.0.0.5:36543", "services": {"dashboard": 8787},
                       "started": 1700000000.5, "workers": {}}
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps(written_by_dask))
    assert scheduler_address(str(path)) == "tcp://10.0.0.5:36543"
    path.write_bytes(b" " * (MAX_SCHEDULER_FILE_BYTES + 1))
    with pytest.raises(SchedulerError):
        scheduler_address(str(path))


# -- 3 and 4. standard output that cannot be written -------------------------------------------
def test_the_exit_codes_for_output_are_documented() -> None:
    assert str(EXIT_OUTPUT_FAILED) in EXIT_CODES_EPILOG
    assert str(EXIT_BROKEN_PIPE) in EXIT_CODES_EPILOG
    text = " ".join(invoke("cards", "--help").stdout.split())
    assert f"{EXIT_OUTPUT_FAILED} the output could not be written" in text
    assert f"{EXIT_BROKEN_PIPE} the output's reader went away" in text


needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("args", [["cards"], ["cards", "--json"], ["--help"], ["--version"],
                                  ["rules"], ["play", "--seed", "2", "--quiet"],
                                  ["validate", str(DECKS / "example-mcready-pinkertons.yaml")]])
def test_a_full_disk_on_stdout_is_one_line_and_its_own_exit_code(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = run(args, stdout=full)
    stderr = result.stderr.decode()
    assert result.returncode == EXIT_OUTPUT_FAILED, stderr
    assert one_line(stderr) == "error: cannot write to standard output: " \
                               f"{os.strerror(errno.ENOSPC)}"


@needs_dev_full
def test_deck_swap_keeps_its_change_when_its_report_cannot_be_written(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_bytes((DECKS / "mcready-base.yaml").read_bytes())
    with open("/dev/full", "wb") as full:
        result = run(["deck", "swap", str(deck), "--out", "deputy", "--in", "cowboy"],
                     stdout=full)
    stderr = result.stderr.decode()
    assert result.returncode == EXIT_OUTPUT_FAILED, stderr
    assert one_line(stderr).startswith("error: cannot write to standard output")
    text = deck.read_text()
    assert "deputy: 9" in text and "cowboy: 11" in text  # the change is made, and whole


def test_an_io_error_on_stdout_is_one_line() -> None:
    """A terminal that went away: writing to it fails with EIO."""
    leader, follower = os.openpty()
    process = subprocess.Popen([*DECKBUILDER, "cards"], stdout=follower,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(follower)
    os.close(leader)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == EXIT_OUTPUT_FAILED, stderr.decode()
    assert one_line(stderr.decode()) == "error: cannot write to standard output: " \
                                        f"{os.strerror(errno.EIO)}"


F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


@pytest.mark.parametrize("args", [["cards"], ["cards", "--json"], ["rules"], ["--help"],
                                  ["play", "--seed", "2"]])
def test_a_reader_that_goes_away_ends_the_command_with_141_quietly(args: list[str]) -> None:
    """`deckbuilder cards | head -c 1`: a real pipe, closed after the first byte, while the
    command has more to write than the pipe holds (each output is over 5 KB)."""
    reader, writer = os.pipe()
    with contextlib.suppress(OSError):
        fcntl.fcntl(reader, F_SETPIPE_SZ, 4096)  # the smallest pipe: the output outgrows it
    process = subprocess.Popen([*DECKBUILDER, *args], stdout=writer, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "80"})
    os.close(writer)
    assert os.read(reader, 1)
    os.close(reader)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == EXIT_BROKEN_PIPE, stderr.decode()
    assert stderr == b""


def test_a_failed_check_still_exits_1_and_success_0(tmp_path: Path) -> None:
    """The output watch changes nothing when the output is fine."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: revolver\nfaction: colty\nname: x\ncards:\n  38-special: 40\n")
    assert run(["validate", str(bad)]).returncode == 1
    assert run(["validate", str(DECKS / "colty-base.yaml")]).returncode == 0
    assert run(["validate", str(tmp_path / "missing.yaml")]).returncode == 2


# -- 5. a cache folder on a full disk ----------------------------------------------------------
@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(paths.CACHE_VARIABLE, str(folder))
    return folder


def _source(tmp_path: Path, name: str = "homebrew-base.yaml") -> Path:
    source = tmp_path / name
    source.write_bytes(SET_FILE.read_bytes())
    return source


def _full_disk(*args: object, **kwargs: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_no_empty_key_and_the_cache_comes_back(
        own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _source(tmp_path)
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", _full_disk)
        loaded = load_set_file(source)  # no error: only slower
    assert loaded.parsed is not None
    assert not (own_cache / "key").exists()
    assert [path.name for path in own_cache.iterdir()] == []  # nothing half-written either
    load_set_file(source)  # the disk has room again: key and entry are made
    assert len((own_cache / "key").read_text().strip()) == 64
    assert load_set_file(source).parsed is None  # and the entry is used


@pytest.mark.parametrize("damage", [b"", b"not a key", b"ab" * 31])
def test_an_empty_or_damaged_key_file_is_replaced(own_cache: Path, tmp_path: Path,
                                                  damage: bytes) -> None:
    own_cache.mkdir()
    (own_cache / "key").write_bytes(damage)  # what a full disk left behind before
    source = _source(tmp_path)
    load_set_file(source)
    assert len((own_cache / "key").read_text().strip()) == 64
    assert load_set_file(source).parsed is None  # cached again, for good
    assert oct((own_cache / "key").stat().st_mode & 0o777) == oct(0o600)


def test_the_first_command_on_a_full_disk_runs_and_the_next_one_caches(tmp_path: Path) -> None:
    """A real failing write: every file write of the process fails (RLIMIT_FSIZE 0, EFBIG)
    while its output goes to a pipe."""
    cache = tmp_path / "cache"
    environment = {**os.environ, paths.CACHE_VARIABLE: str(cache)}

    def no_file_may_grow() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    first = run(["cards", "--json"], env=environment, preexec_fn=no_file_may_grow)
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    assert json.loads(first.stdout)
    assert not (cache / "key").exists() or len((cache / "key").read_bytes()) == 64
    second = run(["cards", "--json"], env=environment)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert len((cache / "key").read_bytes()) == 64
    assert list((cache / "sets").glob("*.json"))


def test_the_set_cache_drops_entries_no_set_has_used_for_a_month(own_cache: Path,
                                                                 tmp_path: Path) -> None:
    source = _source(tmp_path)
    load_set_file(source)
    (used,) = (own_cache / "sets").glob("*.json")
    old = time.time() - (CACHE_UNUSED_DAYS + 5) * 24 * 3600
    stale = own_cache / "sets" / ("0" * 32 + ".json")  # an edited file's former entry
    stale.write_text("{}")
    os.utime(stale, (old, old))
    os.utime(used, (old, old))
    assert load_set_file(source).parsed is None  # used: marked as used again
    edited = _source(tmp_path, "other.yaml")
    edited.write_text(edited.read_text() + "\n# edited\n")
    load_set_file(edited)  # a new entry: the cache grows, and is pruned
    names = {path.name for path in (own_cache / "sets").glob("*.json")}
    assert stale.name not in names
    assert used.name in names and len(names) == 2


# -- 6. replay: counts that do not add up, errors that name the file ----------------------------
@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    result = invoke("play", "--seed", "3", "--record", path, "--quiet")
    assert result.exit_code == 0, result.output
    return path


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_a_step_deleted_and_renumbered_is_refused(recorded: Path, tmp_path: Path) -> None:
    rows = _rows(recorded)
    header, steps, final = rows[0], rows[1:-1], rows[-1]
    catalog = build_catalog()
    record = read_record(recorded)
    # a step whose removal the engine does not notice (the game still plays out the same)
    import dataclasses

    from deckbuilder.sim.records.transcript import Step

    def without(index: int) -> list[Step]:
        kept = record.steps[:index] + record.steps[index + 1:]
        return [Step(i, s.player, s.action, s.text) for i, s in enumerate(kept)]

    unnoticed = next((index for index in range(len(record.steps)) if replay_record(
        dataclasses.replace(record, steps=without(index)), catalog).mismatch is None),
        len(steps) // 2)
    del steps[unnoticed]
    for number, step in enumerate(steps):
        step["i"] = number
    cut = tmp_path / "cut.jsonl"
    _write(cut, [header, *steps, final])
    result = invoke("replay", "--quiet", cut)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert line.startswith(f"error: {cut}:{len(steps) + 2}: ")
    assert f"counts {final['actions']} actions" in line


@pytest.mark.parametrize(("key", "value", "said"), [
    ("game", "no-such-game", "unknown game"),
    ("ruleset", "no-such-ruleset", "unknown ruleset"),
    ("decks", "card", "no-such-card"),
    ("switches", {"no-such-switch": "x"}, "no-such-switch"),
    ("modules", ["no-such-module"], "no-such-module"),
    ("bots", {"colty": 5, "mcready": "greedy"}, "bots"),
])
def test_every_replay_error_names_the_file(recorded: Path, key: str, value: object,
                                           said: str) -> None:
    rows = _rows(recorded)
    if value == "card":
        colty = rows[0]["decks"]["colty"]
        colty["no-such-card"] = colty.pop(next(iter(colty)))
    else:
        rows[0][key] = value
    _write(recorded, rows)
    result = invoke("replay", "--quiet", recorded)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert line.startswith(f"error: {recorded}:1: ") and said in line


def test_replay_json_summarises_the_replay(recorded: Path) -> None:
    result = invoke("replay", "--json", recorded)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    record = read_record(recorded)
    assert summary["matches"] is True and summary["mismatch"] is None
    assert summary["game"] == "revolver" and summary["seed"] == 3
    assert summary["decks"] == record.decks
    assert summary["steps"] == summary["replayed_steps"] == len(record.steps)
    assert summary["outcome"] == {"winner": record.winner, "termination": record.termination}
    assert summary["turns"] == record.turns
    assert summary["record_file"] == str(recorded)


def test_replay_json_of_a_record_that_no_longer_matches_exits_1(recorded: Path) -> None:
    rows = _rows(recorded)
    rows[3]["text"] = "something else"
    _write(recorded, rows)
    result = invoke("replay", "--json", recorded)
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["matches"] is False and summary["mismatch_step"] == 2
    assert "something else" in summary["mismatch"]
    assert one_line(result.stderr).startswith(f"error: {recorded}:4: ")

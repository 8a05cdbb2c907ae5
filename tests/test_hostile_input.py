"""Hostile and unusual input at the edges (issue 12, section 1): H5's items.

Every reader is bounded before it reads (size, lines, values, digits, file type), so no file
costs more than a moment, never blocks, and every refusal is one line naming the place, exit
code 2. Counts and names are strict types (never coerced), simulations stream their games,
data an overlay reshaped is checked for what the engine needs, and failed writes are one line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.decks import load_deck
from deckbuilder.errors import DataFileError, DeckbuilderError
from deckbuilder.models import Deck
from deckbuilder.scenarios.model import load_scenario
from deckbuilder.sim.records.transcript import read_record
from deckbuilder.yamlio import MAX_ITEMS, MAX_LINES, load_model, load_yaml

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "tests" / "scenarios" / "adios-amigo.yaml"
runner = CliRunner()
#: Generous: a refused file costs milliseconds; the unbounded readers took tens of seconds.
QUICK_SECONDS = 5.0
DECK_HEAD = "name: hostile\ngame: revolver\nfaction: colty\ncards:\n"


def one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def timed(args: list[str]) -> tuple[str, float]:
    start = time.perf_counter()
    line = one_line_error(args)
    return line, time.perf_counter() - start


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    result = runner.invoke(app, ["play", "--seed", "3", "--bots", "random",
                                 "--record", str(path)])
    assert result.exit_code == 0, result.output
    return path


# -- 1.1: tens of thousands of keys -----------------------------------------------------------
def _many_keys(count: int) -> str:
    return DECK_HEAD + "".join(f"  card-{index}: 1\n" for index in range(count))


def _many_flow_keys(count: int) -> str:
    return DECK_HEAD.replace("cards:\n", "cards: {") + ", ".join(
        f"c{index}: 1" for index in range(count)) + "}\n"


@pytest.mark.parametrize("shape", [_many_keys, _many_flow_keys])
@pytest.mark.parametrize("command", [
    ["validate"], ["deck", "diff", "{file}"],
    ["deck", "swap", "--out", "bullet", "--in", "jack-colty"],
    ["simulate", "--games", "1"], ["sets", "check"], ["scenario"],
])
def test_fifty_thousand_keys_are_refused_at_once(shape: object, command: list[str],
                                                 tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(shape(50_000))  # type: ignore[operator]
    args = [part.format(file=path) for part in command]
    line, seconds = timed([*args, str(path)])
    assert seconds < QUICK_SECONDS
    assert str(path) in line and "the limit is" in line


def test_a_big_overlay_is_refused_at_once(user_home: Path) -> None:
    user_home.mkdir(parents=True)
    (user_home / "overlay.yaml").write_text("corrections:\n" + "".join(
        f"  card-{index}: {{source: x, values: {{cost: 1}}}}\n" for index in range(50_000)))
    line, seconds = timed(["cards"])
    assert seconds < QUICK_SECONDS and "overlay.yaml" in line and "the limit is" in line


def test_a_record_of_fifty_thousand_lines_is_read_linearly(record: Path, tmp_path: Path) -> None:
    """JSON lines parse fast; the replay stops at the first step that is not the game's."""
    lines = record.read_text().splitlines()
    step = json.loads(lines[1])
    extra = [json.dumps({**step, "i": index}) for index in range(len(lines) - 2, 50_000)]
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join([*lines[:-1], *extra, lines[-1]]) + "\n")
    start = time.perf_counter()
    result = runner.invoke(app, ["replay", str(path)])
    assert time.perf_counter() - start < QUICK_SECONDS * 2
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_every_value_below_the_limits_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(DECK_HEAD + "  bullet: 2\n" + "# comment\n" * (MAX_LINES - 10))
    assert load_model(path, Deck)[0].cards == {"bullet": 2}
    largest = max(text.count("\n") + text.count(",") for text in (
        path.read_text() for path in (ROOT / "deckbuilder" / "data" / "expansions").glob("*.yaml")))
    assert 4 * largest <= MAX_ITEMS  # room for sets several times the largest packaged one


def test_a_deck_of_many_distinct_entries_is_refused_by_its_model(tmp_path: Path) -> None:
    """Under the file limits, a deck of 5,000 unknown cards would cost a suggestion each."""
    path = tmp_path / "wide.yaml"
    path.write_text(_many_keys(5_000))
    line, seconds = timed(["validate", str(path)])
    assert seconds < QUICK_SECONDS * 2
    assert "cards" in line and "200" in line


# -- 1.2: numbers, devices, FIFOs, sparse files ----------------------------------------------------
def test_a_number_of_thousands_of_digits_in_yaml(tmp_path: Path) -> None:
    path = tmp_path / "digits.yaml"
    path.write_text(DECK_HEAD + "  bullet: " + "9" * 5000 + "\n")
    line = one_line_error(["validate", str(path)])
    assert f"{path}:5:11:" in line and "5000 digits" in line


def test_a_number_of_thousands_of_digits_in_a_record(record: Path) -> None:
    lines = record.read_text().splitlines()
    header = lines[0].replace('"seed": 3', '"seed": ' + "7" * 5000)
    assert header != lines[0]
    record.write_text("\n".join([header, *lines[1:]]) + "\n")
    line = one_line_error(["replay", str(record)])
    assert f"{record}:1:" in line and "digits" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["validate"], ["sets", "check"], ["replay"], ["scenario"]])
def test_dev_zero_is_not_read(command: list[str]) -> None:
    line, seconds = timed([*command, "/dev/zero"])
    assert seconds < QUICK_SECONDS and "character device" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("command", [["validate"], ["replay"], ["deck", "import"]])
def test_a_fifo_never_blocks(command: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    argv = [sys.executable, "-m", "deckbuilder", *command, str(fifo)]
    if command == ["deck", "import"]:
        argv += ["-o", str(tmp_path / "out.yaml")]
    completed = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                               env={**os.environ, "NO_COLOR": "1"})
    assert completed.returncode == 2, completed.stderr
    assert "named pipe" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def test_a_sparse_two_gigabyte_record_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "sparse.jsonl"
    with path.open("wb") as stream:
        stream.truncate(2 * 1024**3)
    line, seconds = timed(["replay", str(path)])
    assert seconds < QUICK_SECONDS and "the limit is" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_installed_set_linked_to_a_device(user_home: Path) -> None:
    sets = user_home / "sets"
    sets.mkdir(parents=True)
    (sets / "evil.yaml").symlink_to("/dev/zero")
    line, seconds = timed(["cards"])
    assert seconds < QUICK_SECONDS and "evil.yaml" in line and "character device" in line


# -- 1.4: YAML errors on one line, with file:line:col -----------------------------------------
def test_a_control_character_is_one_line_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "control.yaml"
    path.write_bytes(b"name: x\ngame: revolver\nfaction: colty\ncards:\n  bul\x1blet: 2\n")
    line = one_line_error(["validate", str(path)])
    assert f"{path}:5:6:" in line and "U+001B" in line and "position" not in line


def test_a_lone_surrogate_in_a_key_does_not_crash(tmp_path: Path) -> None:
    path = tmp_path / "surrogate.yaml"
    path.write_text(DECK_HEAD + '  "\\ud800bullet": 2\n')
    line = one_line_error(["validate", str(path)])
    assert f"{path}:5:3:" in line and "surrogate" in line


def test_a_surrogate_cannot_reach_a_model(tmp_path: Path) -> None:
    path = tmp_path / "surrogate.yaml"
    path.write_text('name: "\\udc80"\n')
    with pytest.raises(DataFileError) as error:
        load_yaml(path)
    assert (error.value.where.line, error.value.where.column) == (1, 7)


# -- 1.5: counts bounded, types strict, simulations streamed ---------------------------------------
@pytest.mark.parametrize(("value", "words"), [
    ("true", "valid integer"), ('"10"', "valid integer"), ("10.0", "valid integer"),
    ("100000000", "less than or equal to 99"), ("-1", "greater than or equal to 1"),
])
def test_deck_counts_are_strict_whole_numbers(value: str, words: str, tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(DECK_HEAD + f"  bullet: {value}\n")
    with pytest.raises(DataFileError) as error:
        load_model(path, Deck)
    assert words in error.value.message and error.value.where.line == 5


def test_a_binary_name_is_not_decoded(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("name: !!binary aGVsbG8=\ngame: revolver\nfaction: colty\n"
                    "cards: {bullet: 2}\n")
    with pytest.raises(DataFileError) as error:
        load_deck(path, build_catalog(use_user_data=False))
    assert "name" in error.value.message and error.value.where.line == 1


@pytest.mark.parametrize("copies", ["100000000", "true", "-3"])
def test_a_record_deck_count_is_bounded(record: Path, copies: str) -> None:
    header = json.loads(record.read_text().splitlines()[0])
    first_deck = next(iter(header["decks"]))
    card = next(iter(header["decks"][first_deck]))
    lines = record.read_text().splitlines()
    lines[0] = lines[0].replace(f'"{card}": {header["decks"][first_deck][card]}',
                                f'"{card}": {copies}', 1)
    record.write_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    with pytest.raises(DeckbuilderError) as error:
        read_record(record)
    assert time.perf_counter() - start < QUICK_SECONDS
    assert "card id -> copies" in error.value.message and error.value.where.line == 1


@pytest.mark.parametrize("copies", ["-2", "100000000", "true"])
def test_a_scenario_deck_count_is_bounded(copies: str, tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.read_text() + f"decks:\n  colty: {{38-special: {copies}}}\n")
    with pytest.raises(DataFileError) as error:
        load_scenario(path)
    assert "decks.colty.38-special" in error.value.message


def test_a_hundred_million_games_start_playing_at_once() -> None:
    """The specs are built as the games are played: the first result comes in a moment."""
    sys.path.insert(0, str(ROOT / "tests"))
    import toy_game as toy

    from deckbuilder.sim import Contestant, simulate

    class Enough(Exception):
        pass

    seen: list[int] = []

    def stop_after_three(result: object) -> None:
        seen.append(result.index)  # type: ignore[attr-defined]
        if len(seen) == 3:
            raise Enough

    start = time.perf_counter()
    with pytest.raises(Enough):
        simulate(Contestant("a", toy.TOY_DECK, "random"),
                 Contestant("b", toy.TOY_DECK, "random"), side=0, games=100_000_000,
                 seed=1, new_game=toy.new_game, evaluate=toy.evaluate, game="toy",
                 ruleset="toy", on_result=stop_after_three)
    assert time.perf_counter() - start < QUICK_SECONDS
    assert seen == [0, 1, 2]


def test_a_process_pool_takes_its_games_as_it_goes() -> None:
    from deckbuilder.sim.runs.runner import ProcessExecutor

    taken: list[int] = []

    def endless():  # type: ignore[no-untyped-def]
        index = 0
        while True:
            taken.append(index)
            yield index
            index += 1

    results = ProcessExecutor(workers=2, chunk_size=4).map(abs, endless())
    assert [next(results) for _ in range(10)] == list(range(10))
    assert len(taken) < 100  # a bounded window, not the whole (endless) input
    results.close()  # type: ignore[attr-defined]


# -- 1.7: an overlay that reshapes engine data -------------------------------------------------
def test_an_overlay_that_leaves_a_battlefield_without_regular_spaces(user_home: Path) -> None:
    user_home.mkdir(parents=True)
    overlay = user_home / "overlay.yaml"
    overlay.write_text("corrections:\n  3-15-express:\n    source: my notes\n    values:\n"
                       "      spaces: [{label: '-', kind: extra}]\n")
    for command in (["play", "--seed", "1"], ["simulate", "colty", "--games", "2"]):
        line = one_line_error(command)
        assert f"{overlay}:5:7:" in line and "3-15-express" in line and "regular space" in line


# -- 1.8: every failed write is one line, exit 2 ----------------------------------------------
@pytest.mark.parametrize("command", [
    ["deck", "new", "colty", "-o", "{blocker}/deck.yaml"],
    ["play", "--seed", "1", "--record", "{blocker}/game.jsonl"],
    ["schema", "-o", "{blocker}/schemas"],
])
def test_a_file_where_a_folder_should_be(command: list[str], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    line = one_line_error([part.format(blocker=blocker) for part in command])
    assert f"{blocker} is a file, not a folder" in line
    assert blocker.read_text() == "in the way"


def test_an_unwritable_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv("DECKBUILDER_HOME", str(blocker / "home"))
    line = one_line_error(["overlay", "set", "peacemaker-45", "firepower", "2",
                           "--source", "errata"])
    assert "a-file" in line


def test_an_unwritable_cache_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             ) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv("DECKBUILDER_CACHE", str(blocker / "cache"))
    result = runner.invoke(app, ["validate", str(ROOT / "decks" / "colty-base.yaml")])
    assert result.exit_code == 0, result.output

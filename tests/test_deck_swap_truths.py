"""`deck swap` tells the truth about what it left and keeps what it did not change (issue 35):
its exit code says whether the deck is legal; the file keeps its `$schema` line, the layout of
every entry the swap did not touch, its hard links and its extended attributes."""

from __future__ import annotations

import errno
import os
import shutil
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.paths import PACKAGED_DECKS
from deckbuilder.writing import WriteError, atomic_write_text
from deckbuilder.yamlio import dump_keeping_layout, parse_yaml

EXAMPLE = PACKAGED_DECKS / "example-colty-fan-the-gun.yaml"
SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/deck.schema.json\n"
WRAPPED_SETS = ("sets: [revolver-base, ambush-on-gunshot-trail, hunt-the-man-down, "
                "vengeance-on-the-frontier,\n  tarnished-star]\n")
runner = CliRunner()


def swap(deck: Path, out_card: str, in_card: str, *more: str, code: int = 0) -> str:
    result = runner.invoke(app, ["deck", "swap", str(deck), "--out", out_card, "--in", in_card,
                                 *more])
    assert result.exit_code == code, result.output
    return result.output


def example_copy(folder: Path) -> Path:
    """The packaged example deck copied outside any repository: its `../schemas/` line
    resolves nowhere, and its `sets:` list is a flow list over two lines."""
    deck = Path(shutil.copy(EXAMPLE, folder / "fans.yaml"))
    text = deck.read_text(encoding="utf-8")
    assert text.startswith(SCHEMA_LINE) and WRAPPED_SETS in text
    return deck


def the_cards_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("  38-special:",
                                                                   "  upturned-wagon:"))]


# -- the exit code ----------------------------------------------------------------------------
def test_a_swap_that_leaves_the_deck_illegal_exits_1_and_is_written(tmp_path: Path) -> None:
    deck = example_copy(tmp_path)
    said = swap(deck, "upturned-wagon", "cowboy", code=1)
    assert "the deck is not legal yet" in said
    assert "cowboy: 1" in deck.read_text(encoding="utf-8")


def test_a_swap_that_leaves_the_deck_legal_exits_0(tmp_path: Path) -> None:
    assert "the deck is legal" in swap(example_copy(tmp_path), "upturned-wagon", "38-special")


def test_json_says_the_same_with_the_same_exit_code(tmp_path: Path) -> None:
    assert '"legal": false' in swap(example_copy(tmp_path), "upturned-wagon", "cowboy",
                                    "--json", code=1)


def test_an_unreadable_deck_exits_2_and_nothing_is_written(tmp_path: Path) -> None:
    deck = tmp_path / "broken.yaml"
    deck.write_text("name: [unclosed\n", encoding="utf-8")
    swap(deck, "deputy", "cowboy", code=2)
    swap(tmp_path / "missing.yaml", "deputy", "cowboy", code=2)
    assert deck.read_text(encoding="utf-8") == "name: [unclosed\n"


# -- the layout and the schema line -------------------------------------------------------------
def test_two_swaps_change_only_the_swapped_lines(tmp_path: Path) -> None:
    deck = example_copy(tmp_path)
    before = deck.read_text(encoding="utf-8")
    swap(deck, "upturned-wagon", "38-special")
    once = deck.read_text(encoding="utf-8")
    assert once.startswith(SCHEMA_LINE) and WRAPPED_SETS in once
    assert the_cards_lines(once) == [
        "  38-special: 9                         # .38 Special",
        "  upturned-wagon: 1                     # Upturned wagon"]
    assert once.replace("38-special: 9 ", "38-special: 8 ").replace(
        "upturned-wagon: 1 ", "upturned-wagon: 2 ") == before
    swap(deck, "38-special", "upturned-wagon")
    assert deck.read_text(encoding="utf-8") == before


def test_block_lists_at_column_0_a_document_start_and_crlf_are_kept(tmp_path: Path) -> None:
    deck = tmp_path / "mine.yaml"
    lines = ["---", "# my deck", "name: Mine", "game: revolver", "faction: colty", "sets:",
             "- revolver-base", "- tarnished-star", "cards:"]
    cards = shutil.copy(PACKAGED_DECKS / "colty-base.yaml", tmp_path / "base.yaml")
    body = Path(cards).read_text(encoding="utf-8").split("cards:\n", 1)[1]
    deck.write_bytes(("\r\n".join(lines) + "\r\n" + body.replace("\n", "\r\n")).encode())
    swap(deck, "38-special", "upturned-wagon", code=1)  # 1.4 without 1.1-1.3: not legal
    written = deck.read_bytes().decode()
    assert written.startswith("\r\n".join(lines) + "\r\n")
    assert "\n" not in written.replace("\r\n", "")
    assert "  upturned-wagon: 1" in written


def test_an_unchanged_entry_keeps_its_text_and_a_changed_one_is_dumped() -> None:
    original = "a:   [1,\n  2]\nb: {x: 1}\n# about c\nc:\n- 3\n"
    document = parse_yaml(original, Path("t.yaml"))
    document["b"]["x"] = 2
    assert dump_keeping_layout(document, original) == \
        "a:   [1,\n  2]\nb: {x: 2}\n# about c\nc:\n- 3\n"
    document["d"] = 4
    del document["a"]
    assert dump_keeping_layout(document, original) == "b: {x: 2}\n# about c\nc:\n- 3\nd: 4\n"


def test_a_last_line_without_its_break_stays_whole_when_moved() -> None:
    original = "b: 1\na: [x,\n  y]"
    document = parse_yaml(original, Path("t.yaml"))
    document.move_to_end("a", last=False)
    assert dump_keeping_layout(document, original) == "a: [x,\n  y]\nb: 1\n"


# -- hard links and extended attributes -------------------------------------------------
def test_a_hard_linked_deck_is_edited_under_every_name(tmp_path: Path) -> None:
    deck = example_copy(tmp_path)
    other = tmp_path / "elsewhere.yaml"
    os.link(deck, other)
    swap(deck, "upturned-wagon", "38-special")
    assert os.path.samefile(deck, other) and deck.stat().st_nlink == 2
    assert other.read_text(encoding="utf-8") == deck.read_text(encoding="utf-8")
    assert the_cards_lines(other.read_text(encoding="utf-8"))[0].startswith(
        "  38-special: 9")
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []


def _tag(path: Path) -> None:
    if not hasattr(os, "setxattr"):
        pytest.skip("no extended attributes on this system")
    try:
        os.setxattr(path, "user.deckbuilder-test", b"blue")
    except OSError as error:
        pytest.skip(f"the file system holds no user extended attributes ({error.strerror})")


@pytest.mark.parametrize("linked", [False, True], ids=["one name", "hard linked"])
def test_extended_attributes_survive_a_swap(tmp_path: Path, linked: bool) -> None:
    deck = example_copy(tmp_path)
    _tag(deck)
    if linked:
        os.link(deck, tmp_path / "elsewhere.yaml")
    swap(deck, "upturned-wagon", "38-special")
    assert os.getxattr(deck, "user.deckbuilder-test") == b"blue"


def test_a_full_disk_leaves_a_linked_file_untouched(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from deckbuilder import writing

    deck = tmp_path / "deck.yaml"
    deck.write_text("old\n", encoding="utf-8")
    os.link(deck, tmp_path / "other.yaml")
    monkeypatch.setattr(writing, "_room_for", lambda descriptor, size: False)
    with pytest.raises(WriteError, match="no space left"):
        atomic_write_text(deck, "new and longer\n", keep_links=True)
    assert deck.read_text(encoding="utf-8") == "old\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deck.yaml", "other.yaml"]


def test_a_failed_copy_names_the_file_holding_the_new_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("old\n", encoding="utf-8")
    os.link(deck, tmp_path / "other.yaml")

    def broken(descriptor: int, data: bytes, offset: int) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "pwrite", broken)
    with pytest.raises(WriteError) as raised:
        atomic_write_text(deck, "new\n", keep_links=True)
    (kept,) = [path for path in tmp_path.iterdir() if path.name.endswith(".tmp")]
    assert str(kept) in str(raised.value) and kept.read_text(encoding="utf-8") == "new\n"


def test_a_sigterm_in_the_copy_waits_for_the_copy(tmp_path: Path) -> None:
    from deckbuilder import writing

    got: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda number, _frame: got.append(number))
    try:
        with writing._signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            assert got == []
        assert got == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)

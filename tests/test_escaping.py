"""Text from a file never reaches the terminal raw: an escape sequence, another control
character, a bidi override or a line separator in a name, an id or a value is shown escaped
(`\\x1b`, `\\u2028`) by validate, play, simulate, scenario, sets and every error line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.commands.common import safe

ROOT = Path(__file__).resolve().parent.parent
BASE_DECKS = ROOT / "deckbuilder" / "data" / "decks"
SETS = Path(__file__).resolve().parent / "fixtures" / "sets"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
runner = CliRunner()

#: What a hostile name holds, as YAML double-quoted escapes: clear the screen, recolour,
#: reverse the text direction, split the line, ring the bell.
HOSTILE_YAML = r"Evil\e[2J\e[31m \u202eDeck\u2028second line\a"
#: Any character a terminal would act on, or that does not print as itself.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def invoke(*args: str | Path):
    return runner.invoke(app, list(map(str, args)))


def assert_escaped(result) -> str:
    """Both streams free of raw control characters, the hostile name shown escaped."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert not RAW.search(output), repr(output)
    assert "\\x1b[2J" in output, output
    return output


def renamed(text: str, name: str) -> str:
    """The YAML text with its top-level `name:` replaced by `name: "<name>"` (escapes kept)."""
    return re.sub(r"^name: .*$", lambda _match: f'name: "{name}"', text, count=1, flags=re.M)


def hostile_deck(folder: Path) -> Path:
    text = renamed((BASE_DECKS / "colty-base.yaml").read_text(encoding="utf-8"), HOSTILE_YAML)
    path = folder / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b[31mred", "\\x1b[31mred"),
    ("one\u2028two", "one\\u2028two"),
    ("a\nb\tc\r", "a\\nb\\tc\\r"),
    ("\u202eevil", "\\u202eevil"),
    ("lone \udc80 surrogate", "lone \\udc80 surrogate"),
    ("bell\x07 del\x7f csi\x9b", "bell\\x07 del\\x7f csi\\x9b"),
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("tag \U000e0041", "tag \\U000e0041"),
])
def test_safe_escapes_what_does_not_print(text: str, shown: str) -> None:
    assert safe(text) == shown
    safe(text).encode("utf-8")  # a lone surrogate can be printed once escaped


def test_safe_keeps_printable_text_and_escapes_markup_on_request() -> None:
    for text in ("Colty gang", "¡Adiós, amigo!", "Peacemaker .45", "no\u00a0break", "日本"):
        assert safe(text) == text
    assert safe("[bold]Boss[/bold]") == "[bold]Boss[/bold]"
    assert safe("[bold]Boss[/bold]", markup=True) == "\\[bold]Boss\\[/bold]"


def test_validate_shows_a_hostile_deck_name_escaped(tmp_path: Path) -> None:
    result = invoke("validate", hostile_deck(tmp_path))
    output = assert_escaped(result)
    assert "\\u202eDeck\\u2028second line\\x07" in output


def test_validate_shows_a_hostile_card_id_escaped(tmp_path: Path) -> None:
    text = (BASE_DECKS / "colty-base.yaml").read_text(encoding="utf-8")
    path = tmp_path / "deck.yaml"
    path.write_text(text.replace("\ncards:\n", '\ncards:\n  "bad\\e[2Jcard": 1\n'),
                    encoding="utf-8")
    result = invoke("validate", path)
    assert result.exit_code in (1, 2)
    assert_escaped(result)


def test_rich_markup_in_a_name_is_printed_as_written(tmp_path: Path) -> None:
    text = (BASE_DECKS / "colty-base.yaml").read_text(encoding="utf-8")
    path = tmp_path / "markup.yaml"
    path.write_text(renamed(text, "[red]Boss[/red] :skull:"), encoding="utf-8")
    result = invoke("validate", path)
    assert result.exit_code == 0, result.output
    assert "[red]Boss[/red] :skull:" in result.stdout


def test_an_error_line_naming_a_hostile_file_is_escaped(tmp_path: Path) -> None:
    result = invoke("validate", tmp_path / "missing\x1b[2J\u2028deck.yaml")
    assert result.exit_code == 2
    output = assert_escaped(result)
    assert len(result.stderr.strip().splitlines()) == 1, output


def test_play_and_simulate_show_a_hostile_deck_name_escaped(tmp_path: Path) -> None:
    deck = hostile_deck(tmp_path)
    assert_escaped(invoke("play", "--colty", deck, "--max-turns", "3"))
    result = invoke("simulate", deck, "--games", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert_escaped(result)


def test_sets_check_and_list_show_a_hostile_set_name_escaped(tmp_path: Path) -> None:
    text = (SETS / "homebrew-base.yaml").read_text(encoding="utf-8")
    path = tmp_path / "hostile-set.yaml"
    path.write_text(text.replace("name: Test Frontier Town", f'name: "{HOSTILE_YAML}"', 1),
                    encoding="utf-8")
    checked = invoke("sets", "check", path)
    assert checked.exit_code == 0, checked.output
    assert_escaped(checked)
    imported = invoke("sets", "import", path)
    assert imported.exit_code == 0, imported.output
    assert_escaped(invoke("sets", "list"))


def test_scenario_shows_a_hostile_scenario_name_escaped(tmp_path: Path) -> None:
    path = tmp_path / "hostile-scenario.yaml"
    text = (SCENARIOS / "adios-amigo.yaml").read_text(encoding="utf-8")
    path.write_text(renamed(text, HOSTILE_YAML), encoding="utf-8")
    result = invoke("scenario", path)
    assert result.exit_code == 0, result.output
    assert_escaped(result)

"""The scenario format's newer keys: cards under cards and eagle tokens in a position, which of
several same-named cards an action means (`#N`), `decline`/`accept`, `offered`, the deck's
size and top, and the log lines `scenario` shows it found.

The example files are tests/scenarios/format-*.yaml (real rule situations, run with the other
scenarios by test_scenarios.py); the tests here change one thing in such a file and check
that the answer changes with it, and that a file that gets a key wrong is refused with its
line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.scenario_kit.parts import ScenarioError
from deckbuilder.scenarios.run import run_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FORMAT_FILES = sorted(SCENARIOS.glob("format-*.yaml"))
runner = CliRunner()


def variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of a format-*.yaml example with one text replaced (which must be there)."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_the_examples_pass_and_each_checks_something() -> None:
    assert len(FORMAT_FILES) >= 5
    for path in FORMAT_FILES:
        result = run_scenario(path)
        assert result.passed, f"{path.name}: {result.first_problem()}"
        assert result.checks


# -- cards under cards, eagle tokens ------------------------------------------------------------
EAGLE = "format-eagle-token-empties-the-pistol-too.yaml"
PINKERTON = "format-pinkerton-ways-under-the-second-deputy.yaml"


def test_without_the_eagle_token_the_pistol_adds_its_three() -> None:
    result = run_scenario(SCENARIOS / EAGLE)
    before = next(c for c in result.checks if c.name == "before any action firepower mcready")
    assert before.ok and before.actual == 1


def test_the_eagle_token_is_what_empties_deputy_and_pistol(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "{card: deputy, eagle: 1,", "{card: deputy, eagle: 0,")
    result = run_scenario(path)
    failed = {c.name: c.actual for c in result.checks if not c.ok}
    # Cowboy 1 + Deputy 2 + the pistol's 3 under him
    assert failed["before any action firepower mcready"] == 6
    assert failed["before any action tokens deputy@whiskey-canyon"] == {"eagle": 0}


def test_a_card_lies_under_another_only_where_its_text_allows(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "- {card: deputy, eagle: 1, under: [volcanic-pistol]}",
                   "- {card: buffalo-stampede, under: [volcanic-pistol]}")
    with pytest.raises(ScenarioError) as caught:
        run_scenario(path)
    assert "cannot lie under Buffalo Stampede" in caught.value.message
    assert caught.value.where is not None and caught.value.where.line == 19


def test_only_a_card_played_under_others_can_be_staged_under_one(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "under: [volcanic-pistol]", "under: [cowboy]")
    assert runner.invoke(app, ["scenario", str(path)]).exit_code == 2
    with pytest.raises(ScenarioError) as caught:
        run_scenario(path)
    assert caught.value.message == "Cowboy is not played under another card"
    assert caught.value.where is not None and caught.value.where.line == 19


def test_under_checks_which_copy_holds_the_card(tmp_path: Path) -> None:
    path = variant(tmp_path, PINKERTON, "deputy@whiskey-canyon#1: []",
                   "deputy@whiskey-canyon#1: [trained-in-the-pinkerton-ways]")
    result = run_scenario(path)
    failed = [c for c in result.checks if not c.ok]
    assert [c.name for c in failed] == ["before any action under deputy@whiskey-canyon#1"]
    assert failed[0].actual == []


def test_under_without_a_number_refuses_two_copies(tmp_path: Path) -> None:
    path = variant(tmp_path, PINKERTON, "deputy@whiskey-canyon#1: []", "deputy: []")
    result = run_scenario(path)
    failed = [c for c in result.checks if not c.ok]
    assert len(failed) == 1 and "2 copies in play: say which with #1..#2" in failed[0].actual


def test_an_unknown_key_in_a_card_in_play_is_refused_with_its_line(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "{card: deputy, eagle: 1,", "{card: deputy, eagles: 1,")
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2
    assert f"{path}:19:" in result.stderr and "eagles" in result.stderr


def test_an_eagle_token_is_one_token(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "eagle: 1,", "eagle: 2,")
    assert runner.invoke(app, ["scenario", str(path)]).exit_code == 2


# -- which of several same-named cards ----------------------------------------------------------
KILL = "format-yellow-boy-rifle-kills-the-chosen-deputy.yaml"
NUMBERED = '"kill Deputy at Whiskey Canyon #1"'


def test_two_deputies_that_differ_must_be_told_apart(tmp_path: Path) -> None:
    path = variant(tmp_path, KILL, NUMBERED, "kill Deputy at Whiskey Canyon")
    result = run_scenario(path)
    assert result.failure is not None
    assert "2 legal actions read 'kill Deputy at Whiskey Canyon': say which with #1..#2" \
        in result.failure
    assert "#2: Deputy at Whiskey Canyon (mcready's, true grit 1)" in result.failure


def test_the_second_deputy_keeps_his_life_and_loses_the_token(tmp_path: Path) -> None:
    path = variant(tmp_path, KILL, NUMBERED, '"kill Deputy at Whiskey Canyon #2"')
    result = run_scenario(path)
    failed = {c.name: c.actual for c in result.checks if not c.ok}
    assert failed["at whiskey-canyon mcready"] == ["deputy", "deputy"]
    assert failed["tokens deputy@whiskey-canyon"] == {"true_grit": 0}
    assert result.steps[-1].text == "kill Deputy at Whiskey Canyon #2"


def test_a_number_beyond_the_copies_fails(tmp_path: Path) -> None:
    path = variant(tmp_path, KILL, NUMBERED, '"kill Deputy at Whiskey Canyon #3"')
    failure = run_scenario(path).failure
    assert failure is not None and "#3: only 2 legal action(s)" in failure


def test_copies_nothing_tells_apart_need_no_number(tmp_path: Path) -> None:
    path = variant(tmp_path, KILL, "[deputy, {card: deputy, true_grit: 1}]", "[deputy, deputy]")
    text = path.read_text(encoding="utf-8").replace(NUMBERED, "kill Deputy")
    path.write_text(text.replace("{deputy@whiskey-canyon: {true_grit: 1}}",
                                 "{deputy@whiskey-canyon: {true_grit: 0}}"), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.first_problem()


# -- decline, accept, offered --------------------------------------------------------------------
DECLINED = "format-yellow-boy-rifle-declined.yaml"


def test_accept_instead_of_decline_kills_a_deputy(tmp_path: Path) -> None:
    path = variant(tmp_path, DECLINED, "do: decline", "do: accept")
    result = run_scenario(path)
    # the optional cost takes the last card in hand; then the gang chooses which Deputy
    assert result.failure is None
    failed = {c.name for c in result.checks if not c.ok}
    assert {"decision", "hand colty"} <= failed


def test_decline_with_nothing_to_decline_fails(tmp_path: Path) -> None:
    path = variant(tmp_path, DECLINED,
                   "  - play Yellow Boy Rifle\n  - pay: discard .45 Long Colt\n", "")
    failure = run_scenario(path).failure
    assert failure is not None
    assert "there is nothing to decline (the open decision: play phase)" in failure


def test_an_offer_never_made_fails_naming_the_decisions_met(tmp_path: Path) -> None:
    path = variant(tmp_path, DECLINED, "decision: pay an optional cost?",
                   "decision: choose a card to kill")
    result = run_scenario(path)
    failed = [c for c in result.checks if not c.ok]
    assert [c.name for c in failed] == ["offered #1"]
    assert "pay an optional cost? [decline the optional cost; pay the optional cost]" \
        in failed[0].actual


def test_offered_needs_to_say_which_decision(tmp_path: Path) -> None:
    path = variant(tmp_path, DECLINED, "    - decision: pay an optional cost?\n      by: colty\n"
                   "      options: [pay the optional cost, decline the optional cost]\n",
                   "    - by: colty\n")
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2 and "say which decision" in result.stderr


def test_offered_refuses_an_unknown_side(tmp_path: Path) -> None:
    path = variant(tmp_path, DECLINED, "      by: colty\n", "      by: esteban\n")
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2 and "unknown side 'esteban'" in result.stderr


# -- deck size and top ----------------------------------------------------------------------------
LEE_SHAO = "format-lee-shao-puts-the-found-card-on-top.yaml"


def test_the_deck_top_is_what_the_search_chose(tmp_path: Path) -> None:
    path = variant(tmp_path, LEE_SHAO, "  - put on top Texas Ranger", "  - put on top Deputy")
    result = run_scenario(path)
    failed = {c.name: c.actual for c in result.checks if not c.ok}
    assert failed == {"deck_top mcready": ["deputy"]}


def test_the_deck_size_is_checked(tmp_path: Path) -> None:
    path = variant(tmp_path, LEE_SHAO, "deck_size: {mcready: 3}\n  deck_top",
                   "deck_size: {mcready: 4}\n  deck_top")
    failed = {c.name: c.actual for c in run_scenario(path).checks if not c.ok}
    assert failed == {"deck_size mcready": 3}


# -- what `scenario` prints -----------------------------------------------------------------------
def test_scenario_shows_each_log_text_found_or_not(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["scenario", str(SCENARIOS / EAGLE)])
    assert shown.exit_code == 0
    assert ("ok   log_includes 'Volcanic pistol goes with it to the discard pile': found: "
            "'Volcanic pistol goes with it to the discard pile'") in shown.stdout
    path = variant(tmp_path, EAGLE, "[Volcanic pistol goes with it to the discard pile]",
                   "[Volcanic pistol goes with it to the discard pile, Deputy dies]")
    missing = runner.invoke(app, ["scenario", str(path)])
    assert missing.exit_code == 1
    assert "FAIL log_includes 'Deputy dies': expected found, got not found" in missing.stdout


# -- Revolver 2 ------------------------------------------------------------------------------------
REVOLVER2 = """\
name: Malpaso - the deck's size and top
game: revolver2
rule: malpaso-es, preparacion
position:
  turn: esteban
  marker: {battlefield: los-quantos-bridge, space: "2"}
  esteban:
    deck: [armed-villager, malpaso-hired-gun]
    rest_of_deck: none
expect:
  deck_size: {esteban: 2}
  deck_top: {esteban: [armed-villager]}
"""


def test_revolver2_checks_the_deck_too(tmp_path: Path) -> None:
    path = tmp_path / "malpaso.yaml"
    path.write_text(REVOLVER2, encoding="utf-8")
    assert run_scenario(path).passed
    path.write_text(REVOLVER2.replace("deck_top: {esteban: [armed-villager]}",
                                      "deck_top: {esteban: [malpaso-hired-gun]}"),
                    encoding="utf-8")
    failed = {c.name: c.actual for c in run_scenario(path).checks if not c.ok}
    assert failed == {"deck_top esteban": ["armed-villager"]}


def test_an_eagle_token_on_a_bandit_is_refused(tmp_path: Path) -> None:
    path = variant(tmp_path, EAGLE, "position:\n", "position:\n  bandits:\n"
                   "    tokens: {bullet: {eagle: 1}}\n")
    with pytest.raises(ScenarioError) as caught:
        run_scenario(path)
    assert caught.value.message == "an eagle token may not lie on a bandit card"

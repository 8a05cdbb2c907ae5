"""The base rulebook's worked examples and FAQ answers, each a scenario file in tests/scenarios.

Each file sets up a position, plays what the rulebook describes and states what must follow
("attack example 2: the gang's six beats the lawmen's five; one border token goes"). A
scenario the engine disagrees with stays, marked xfail with the reading it depends on, so the
disagreement is visible until the engine (or the reading) changes. The rest of this module
checks the scenario runner itself: exit codes, file:line:col errors, action matching.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.games.revolver.scenario_model import Expectations
from deckbuilder.games.revolver2.scenario_model import Revolver2Expectations
from deckbuilder.paths import PACKAGED_SCHEMAS
from deckbuilder.scenarios.checks import CHECKS
from deckbuilder.scenarios.run import run_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
HEADER = "# yaml-language-server: $schema=../../schemas/scenario.schema.json"
runner = CliRunner()

#: Scenarios where the engine (or its card data) and a reading of the rulebook disagree.
KNOWN_DISAGREEMENTS = {
    "true-grit-second-kill-removes-from-the-game.yaml": (
        "True grit: 'next time when he's killed he'll be removed from the game'; the engine "
        "puts a character killed a second time on the discard pile (reading contested: "
        "Come on, ya no-good polecats says 'remove from the game' as if a kill did not)"),
}


def scenario_id(path: Path) -> str:
    return path.stem


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(HEADER + "\n" + text, encoding="utf-8")
    return path


# -- the rulebook, one scenario at a time ------------------------------------------------------
def test_there_are_rulebook_scenarios() -> None:
    assert len(SCENARIO_FILES) >= 40
    assert set(KNOWN_DISAGREEMENTS) <= {path.name for path in SCENARIO_FILES}


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=scenario_id)
def test_rulebook_scenario(path: Path, request: pytest.FixtureRequest) -> None:
    if path.name in KNOWN_DISAGREEMENTS:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DISAGREEMENTS[path.name],
                                              strict=True))
    result = run_scenario(path)
    assert result.passed, result.first_problem()
    assert result.checks, "a scenario must expect something"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=scenario_id)
def test_scenario_names_its_schema_and_a_rule_document(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == HEADER
    schema = json.loads((PACKAGED_SCHEMAS / "scenario.schema.json").read_text())
    data = YAML(typ="safe", pure=True).load(text)
    errors = [error.message for error in Draft202012Validator(schema).iter_errors(data)]
    assert errors == []
    assert data["rule"].startswith(
        ("rulebook-en", "rulebook-nl", "tarnished-star-en", "research (grade")
    ), "say where the rule is from"


def test_every_expectation_field_has_a_check() -> None:
    """Each game's expectations (and the generic format's, for a plugged-in game) are checked
    by the table's checks or the game's own (found through the registry), and no check is one
    that no game's file can ask for; a game's own check is no table's."""
    from deckbuilder.scenario_kit.generic import GenericExpectations
    from deckbuilder.scenarios.model import PARTS

    for game, model in (("revolver", Expectations), ("revolver2", Revolver2Expectations)):
        own = set(PARTS[game].checks)
        assert set(model.model_fields) == (set(model.model_fields) & set(CHECKS)) | own, game
        assert not own & set(CHECKS), game
    fields = set(Expectations.model_fields) | set(Revolver2Expectations.model_fields)
    game_own = set(PARTS["revolver"].checks) | set(PARTS["revolver2"].checks)
    assert set(CHECKS) == fields - game_own | set(GenericExpectations.model_fields)
    assert {"poker_wins", "bridge_blown", "derail_used"} <= game_own


# -- the runner: what a failing scenario and a broken file look like ---------------------------
PASSING = """\
name: McReady attacks at the Bank
rule: rulebook-en, 4. Attack
position:
  turn: mcready
  marker: {battlefield: bank-at-repentance-springs, space: "2"}
  battlefields:
    bank-at-repentance-springs:
      mcready: [deputy, cowboy]
actions:
  - end play phase
  - casualty: Bullet
expect:
  dead: [bullet]
  border: 12
"""


def test_passing_scenario_prints_the_position_and_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.yaml", PASSING)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. mcready: end play phase" in result.stdout
    assert '2. colty: casualty: Bullet' in result.stdout
    assert "bandits dead (1): bullet" in result.stdout
    assert "ok   border: 12" in result.stdout


def test_failed_expectation_exits_1_naming_it_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "wrong.yaml", PASSING.replace("border: 12", "border: 11"))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert "FAIL border: expected 11, got 12" in result.stdout
    assert f"{path}:15:3: border: expected 11, got 12" in result.stderr


def test_the_countdown_is_one_key_in_every_game_and_the_former_ones_still_read(
        tmp_path: Path) -> None:
    """`countdown` names the countdown card's tokens in each game's format (Revolver's Mexican
    Border, Revolver 2's Mexican Army, a plugged-in game's); `border` and `army` still read,
    and a check is named and placed as its file wrote it."""
    assert {"countdown"} <= set(Expectations.model_fields) & set(
        Revolver2Expectations.model_fields)
    assert not {"border", "army"} & (set(Expectations.model_fields)
                                     | set(Revolver2Expectations.model_fields))
    renamed = PASSING.replace("border: 12", "countdown: 11").replace(
        "turn: mcready", "turn: mcready\n  countdown: 12")
    path = write(tmp_path, "renamed.yaml", renamed)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert f"{path}:16:3: countdown: expected 11, got 12" in result.stderr
    both = renamed.replace("turn: mcready\n  countdown: 12", "turn: mcready\n  border: 13")
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "former.yaml", both))])
    assert "countdown: expected 11, got 13" in result.stdout


def test_json_output_has_checks_steps_and_position(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.yaml", PASSING)
    result = runner.invoke(app, ["scenario", str(path), "--json"])
    data = json.loads(result.stdout)
    assert data["passed"] is True and data["failure"] is None
    assert [step["text"] for step in data["steps"]] == ["end play phase", "casualty: Bullet"]
    assert {check["name"] for check in data["checks"]} == {"dead", "border"}
    assert data["position"]["battlefields"]["bank-at-repentance-springs"]["mcready"] == [
        {"card": "deputy"}, {"card": "cowboy"}]
    assert data["position"]["to_act"] == "colty"


def test_an_action_no_one_can_take_fails_with_the_legal_ones(tmp_path: Path) -> None:
    path = write(tmp_path, "illegal.yaml", PASSING.replace("casualty: Bullet",
                                                           "casualty: Manolito"))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert f"{path}:12:5: action 2 'casualty: Manolito' (colty): no legal action reads so" \
        in result.stderr
    assert "casualty: Poppy McReady" in result.stderr


def test_an_ambiguous_prefix_fails(tmp_path: Path) -> None:
    path = write(tmp_path, "ambiguous.yaml", PASSING.replace("casualty: Bullet", "\"casualty:\""))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert "matches 4 legal actions" in result.stderr


def test_the_wrong_player_fails(tmp_path: Path) -> None:
    text = PASSING.replace("  - casualty: Bullet", "  - {do: 'casualty: Bullet', by: mcready}")
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "who.yaml", text))])
    assert result.exit_code == 1
    assert "it is colty who must decide now, not mcready" in result.stderr


@pytest.mark.parametrize(("change", "where", "message"), [
    (("mcready: [deputy, cowboy]", "mcready: [deputy, cowbey]"), ":9:25:",
     "unknown card 'cowbey' (fix: did you mean Cowboy"),
    (("dead: [bullet]", "dead: [bulet]"), ":14:10:", "unknown bandit 'bulet'"),
    (('space: "2"', 'space: "9"'), ":6:53:", "has no turn space '9'"),
    (("turn: mcready", "turn: sheriff"), ":5:3:", "position.turn: Input should be"),
    (("border: 12", "border: [12]"), ":15:3:", "expect.border: Input should be"),
    (("  - end play phase", "  - end play phase\n - oops"), ":12:2:", "invalid YAML"),
])
def test_unreadable_scenario_exits_2_with_file_line_col(
        tmp_path: Path, change: tuple[str, str], where: str, message: str) -> None:
    path = write(tmp_path, "bad.yaml", PASSING.replace(*change))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}{where}"), result.stderr
    assert message in result.stderr


def test_a_one_shot_card_cannot_be_set_in_play(tmp_path: Path) -> None:
    text = PASSING.replace("mcready: [deputy, cowboy]", "colty: [stick-of-dynamite]")
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "oneshot.yaml", text))])
    assert result.exit_code == 2
    assert "Stick of dynamite is a one-shot card: it cannot be in play" in result.stderr


def test_position_deals_hands_deck_tops_and_tokens_as_written(tmp_path: Path) -> None:
    text = """\
name: set-up check
rule: rulebook-en, Set-up
position:
  turn: colty
  marker: {battlefield: buzzard-point, space: "-"}
  border: 5
  face_spaces: [kittens]
  battlefields:
    whiskey-canyon:
      mcready: [{card: charlie-weathers, true_grit: 0, power: 2}]
  bandits:
    dead: [bullet, kittens-mackenzie]
    tokens: {cortez: {power: 1}}
  colty:
    hand: [38-special, sandstorm]
    deck: [gatling-gun, hail-of-bullets]
    rest_of_deck: none
    discard: [adios-amigo]
actions:
  - expect:
      hand: {colty: [sandstorm, 38-special]}
      discard: {colty: [adios-amigo]}
      tokens:
        charlie-weathers: {power: 2, true_grit: 0}
        cortez: {power: 1}
        skinny-landell: {power: 1}
      dead: [bullet, kittens-mackenzie]
      alive_count: 14
      border: 5
      face_spaces: [kittens]
      marker: {battlefield: buzzard-point, space: "-"}
  - end play phase
  - end play phase
expect:
  hand: {colty: [sandstorm, 38-special, gatling-gun, hail-of-bullets]}
  marker: {battlefield: buzzard-point, space: "1"}
"""
    result = run_scenario(write(tmp_path, "setup.yaml", text))
    assert result.passed, result.first_problem()
    assert len(result.state.decks[0]) == 0  # rest_of_deck: none


def test_colon_actions_need_no_quotes() -> None:
    from deckbuilder.games.revolver.scenario_model import ActionStep

    assert ActionStep.model_validate({"casualty": "Bullet"}).do == "casualty: Bullet"
    assert ActionStep.model_validate({"do": "end play phase"}).do == "end play phase"


# -- impossible positions: refused with the rule, and files that expect a refusal ----------------
REFUSED_FILES = sorted(SCENARIOS.glob("refused-*.yaml")) + sorted(
    (SCENARIOS / "revolver2").glob("refused-*.yaml"))
RULE_DOCUMENTS = ("rulebook-en", "tarnished-star-en", "malpaso-es", "the position's cards")


def without_expected_refusal(path: Path, folder: Path) -> Path:
    """The same file asking for nothing: its position alone, as a player would write it."""
    kept = [line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith(("expect: refused", "refused:"))]
    copy = folder / path.name
    copy.write_text("\n".join(kept).replace("$schema=../../../", "$schema=../../") + "\n",
                    encoding="utf-8")
    return copy


def test_every_class_of_impossible_position_has_a_refused_scenario() -> None:
    names = {path.stem for path in REFUSED_FILES}
    for words in ("dealt-again", "under-the-other-choice", "more-copies-than-the-deck",
                  "more-copies-than-the-box", "unique-card-twice", "more-tokens",
                  "four-cards", "row-blocking", "face-space", "gangs-hand",
                  "garrotte-in-a-deck", "eagle-token-on-a-location", "guardians-box",
                  "derail-used-before-the-train"):
        assert any(words in name for name in names), words


@pytest.mark.parametrize("path", REFUSED_FILES, ids=scenario_id)
def test_an_impossible_position_is_refused_with_its_words(path: Path, tmp_path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.first_problem()
    assert [check.name for check in result.checks] == ["refused"]
    assert result.state is None
    plain = runner.invoke(app, ["scenario", str(without_expected_refusal(path, tmp_path))])
    assert plain.exit_code == 2, plain.output
    lines = plain.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {tmp_path / path.name}:")
    assert result.scenario.refused.casefold() in lines[0].casefold()
    assert any(document in lines[0] for document in RULE_DOCUMENTS), lines[0]


def test_a_legal_position_expected_refused_fails_the_run(tmp_path: Path) -> None:
    text = PASSING.split("actions:")[0] + 'expect: refused\nrefused: "more copies"\n'
    path = write(tmp_path, "legal.yaml", text)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1, result.output
    assert "FAIL refused: expected \"more copies\", got the position was laid out" \
        in result.stdout
    assert f"{path}:11:1: refused:" in result.stderr


def test_a_refusal_for_another_reason_fails_the_run(tmp_path: Path) -> None:
    lawman = SCENARIOS / "refused-a-lawmans-card-in-the-gangs-hand.yaml"
    text = lawman.read_text(encoding="utf-8").replace('refused: "colty never holds it"',
                                                      'refused: "more copies"')
    assert 'refused: "more copies"' in text
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "other.yaml",
                                                       text.split("\n", 1)[1]))])
    assert result.exit_code == 1, result.output
    assert "Deputy is a mcready card: colty never holds it" in result.stdout


@pytest.mark.parametrize(("ending", "message"), [
    ("expect: refused\n", "`expect: refused` needs `refused`"),
    ('expect: {border: 12}\nrefused: "more copies"\n', "`refused` goes with `expect: refused`"),
])
def test_refused_and_expect_refused_go_together(tmp_path: Path, ending: str,
                                                message: str) -> None:
    path = write(tmp_path, "half.yaml", PASSING.split("actions:")[0] + ending)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2 and message in result.stderr, result.output


def test_a_position_expected_refused_plays_no_actions(tmp_path: Path) -> None:
    text = PASSING.split("expect:")[0] + 'expect: refused\nrefused: "more copies"\n'
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "acts.yaml", text))])
    assert result.exit_code == 2 and "plays no actions" in result.stderr, result.output


def test_a_game_whose_scenario_format_cannot_be_loaded_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's scenario format is found through the registry; one that cannot be imported is
    refused with the game's name and where it was looked for."""
    from types import SimpleNamespace

    from deckbuilder.declared import BY_ID
    from deckbuilder.errors import DeckbuilderError
    from deckbuilder.scenarios import model

    broken = SimpleNamespace(parts=SimpleNamespace(scenario="no_such_module:SCENARIO"))
    monkeypatch.setattr(model, "get_game", lambda name: broken)
    with pytest.raises(DeckbuilderError, match="game 'revolver2': its scenario format "
                                                r"\(no_such_module:SCENARIO\) cannot be loaded"):
        model.scenario_parts(BY_ID["revolver2"])
    assert model.PARTS["revolver2"].format.scenario.__name__ == "Revolver2Scenario"

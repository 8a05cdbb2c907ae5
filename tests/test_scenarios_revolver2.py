"""The Revolver 2 rulebook's worked examples, each a scenario file in tests/scenarios/revolver2.

Each file sets up a position past the poker tournament (the battlefield set is part of the
position), plays what the rulebook describes and states what must follow ("the Saloon:
three against three, no guardian dies, an army token goes"). A scenario the engine disagrees
with would stay here marked xfail with the reading it depends on. The rest of this module
checks what Revolver 2 positions and expectations can say, and the errors a bad file gets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from typer.testing import CliRunner

from deckbuilder.cli import app
from deckbuilder.engine.position import pile_ids
from deckbuilder.paths import PACKAGED_SCHEMAS
from deckbuilder.scenarios.run import run_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "revolver2"
SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
HEADER = "# yaml-language-server: $schema=../../../schemas/scenario.schema.json"
runner = CliRunner()

#: Scenarios where the engine (or its card data) and a reading of the rulebook disagree.
KNOWN_DISAGREEMENTS: dict[str, str] = {}

#: The rulebook's worked examples: each must have its scenario file (malpaso-es sections).
WORKED_EXAMPLES = {
    "attack-example-1-saloon.yaml": "4. Ataque, ejemplo 1",
    "attack-example-2-church.yaml": "4. Ataque, ejemplo 2",
    "casualty-lowest-rating-first.yaml": "Cartas de personaje guardián, ejemplo 1",
    "casualty-choice-among-equals.yaml": "Cartas de personaje guardián, ejemplo 2",
    "recruit-at-the-cathouse.yaml": "1a. Robar cartas de guardián, ejemplo",
    "optional-space-stay-at-the-jailhouse.yaml": "1. Marcador de giro avanzado, ejemplo",
    "optional-space-move-on-to-the-drinking-den.yaml": "1. Marcador de giro avanzado, ejemplo",
    "shotgun-with-silver-bullets-at-the-jailhouse.yaml": "3. Jugar a las cartas, ejemplo 1",
    "william-weston-costs-two-at-the-saloon.yaml": "3. Jugar a las cartas, ejemplo 2",
    "william-weston-free-at-the-silver-mine.yaml": "3. Jugar a las cartas, ejemplo 2",
    "dynamite-the-bridge.yaml": "Puente Los Quantos, ejemplo",
    "dynamite-the-bridge-once-and-the-turns-go-on-there.yaml": "Puente Los Quantos",
    "collapse-the-tunnels.yaml": "Mina de plata abandonada, ejemplo",
    "collapse-the-tunnels-again-on-a-later-turn.yaml": "Mina de plata abandonada",
    "gatling-gun.yaml": "Mina de plata abandonada",
}


def scenario_id(path: Path) -> str:
    return path.stem


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(HEADER + "\n" + text, encoding="utf-8")
    return path


# -- the rulebook, one scenario at a time ------------------------------------------------------
def test_every_worked_example_has_its_scenario() -> None:
    names = {path.name for path in SCENARIO_FILES}
    assert set(WORKED_EXAMPLES) <= names
    assert set(KNOWN_DISAGREEMENTS) <= names
    for name, section in WORKED_EXAMPLES.items():
        rule = YAML(typ="safe", pure=True).load((SCENARIOS / name).read_text())["rule"]
        assert rule.startswith(f"malpaso-es, {section}"), name


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=scenario_id)
def test_rulebook_scenario(path: Path, request: pytest.FixtureRequest) -> None:
    if path.name in KNOWN_DISAGREEMENTS:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DISAGREEMENTS[path.name],
                                              strict=True))
    result = run_scenario(path)
    assert result.passed, result.first_problem()
    assert result.checks, "a scenario must expect something"
    assert result.scenario.game == "revolver2"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=scenario_id)
def test_scenario_names_its_schema_and_a_rule_document(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == HEADER
    assert (path.parent / "../../../schemas/scenario.schema.json").resolve().is_file()
    schema = json.loads((PACKAGED_SCHEMAS / "scenario.schema.json").read_text())
    data = YAML(typ="safe", pure=True).load(text)
    errors = [error.message for error in Draft202012Validator(schema).iter_errors(data)]
    assert errors == []
    assert data["game"] == "revolver2"
    assert data["rule"].startswith(("malpaso-es", "research (grade")), \
        "say where the rule is from"


def test_the_schema_tells_the_games_apart() -> None:
    """An editor flags Revolver side names in a Revolver 2 file, and the other way round."""
    validator = Draft202012Validator(
        json.loads((PACKAGED_SCHEMAS / "scenario.schema.json").read_text()))
    revolver2 = {"name": "n", "rule": "r", "game": "revolver2", "position": {"turn": "esteban"}}
    assert list(validator.iter_errors(revolver2)) == []
    assert list(validator.iter_errors({**revolver2, "position": {"turn": "colty"}})) != []
    revolver = {"name": "n", "rule": "r", "position": {"turn": "colty"}}
    assert list(validator.iter_errors(revolver)) == []
    assert list(validator.iter_errors({**revolver, "position": {"turn": "esteban"}})) != []


# -- the command line --------------------------------------------------------------------------
def test_json_output_of_a_rulebook_scenario() -> None:
    path = SCENARIOS / "attack-example-1-saloon.yaml"
    result = runner.invoke(app, ["scenario", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["passed"] is True and data["failure"] is None
    assert [step["text"] for step in data["steps"]] == ["end play phase"]
    assert [step["player"] for step in data["steps"]] == ["mapache"]
    checks = {check["name"]: check for check in data["checks"]}
    assert checks["countdown"]["actual"] == 11 and checks["countdown"]["ok"] is True
    assert data["position"]["to_act"] == "esteban"
    assert data["position"]["battlefields"]["malpaso-saloon"]["mapache"] == [
        {"card": "rurales"}, {"card": "los-tiburon"}]


def test_text_output_names_the_sides_of_revolver2() -> None:
    path = SCENARIOS / "attack-example-2-church.yaml"
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. mapache: end play phase" in result.stdout
    assert "2. esteban: casualty: Malpaso villager 2" in result.stdout


PASSING = """\
name: Pancho Flores attacks at the Church
game: revolver2
rule: malpaso-es, 4. Ataque, ejemplo 2
position:
  turn: mapache
  marker: {battlefield: malpaso-church, space: "2"}
  battlefields:
    malpaso-church:
      mapache: [pancho-flores]
actions:
  - end play phase
  - casualty: Malpaso villager 1
expect:
  dead: [malpaso-villager-1]
  army: 12
"""


def test_passing_scenario_exits_0(tmp_path: Path) -> None:
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "ok.yaml", PASSING))])
    assert result.exit_code == 0, result.output
    assert "ok   army: 12" in result.stdout


def test_failed_expectation_exits_1_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "wrong.yaml", PASSING.replace("army: 12", "army: 11"))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert f"{path}:16:3: army: expected 11, got 12" in result.stderr


@pytest.mark.parametrize(("change", "where", "message"), [
    (("mapache: [pancho-flores]", "mapache: [pancho-flores, rurale]"), ":10:32:",
     "unknown card 'rurale' (fix: did you mean Rurales"),
    (("dead: [malpaso-villager-1]", "dead: [malpaso-villagr-1]"), ":15:10:",
     "unknown guardian 'malpaso-villagr-1'"),
    (("mapache: [pancho-flores]", "mapache: [deputy]"), ":10:17:",
     "'deputy' is a card of revolver, not of revolver2"),
    (('space: "2"', 'space: "7"'), ":7:41:", "Church has no turn space '7'"),
    (("turn: mapache", "turn: mcready"), ":6:3:", "position.turn: Input should be"),
    (("game: revolver2", "game: revolver3"), ":3:1:", "unknown game 'revolver3'"),
    (("  dead: [malpaso-villager-1]", "  dead: [malpaso-villager-1]\n  border: 3"), ":16:3:",
     "unknown field 'border'"),
    (("    malpaso-church:\n", "    malpaso-jailhouse:\n"), ":9:5:",
     "battlefield 'malpaso-jailhouse' belongs to the buffalo-falls set, not crystal-river"),
])
def test_a_bad_revolver2_file_exits_2_with_file_line_col(
        tmp_path: Path, change: tuple[str, str], where: str, message: str) -> None:
    path = write(tmp_path, "bad.yaml", PASSING.replace(*change))
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}{where}"), result.stderr
    assert message in result.stderr


def test_a_battlefield_of_the_other_set_is_not_in_play(tmp_path: Path) -> None:
    text = PASSING.replace("  turn: mapache\n", "  turn: mapache\n  battlefield_set: "
                                                "crystal-river\n")
    text = text.replace("  army: 12\n", "  at: {malpaso-cathouse: {mapache: []}}\n")
    path = write(tmp_path, "other-set.yaml", text)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}:17:"), result.stderr
    assert "battlefield 'malpaso-cathouse' belongs to the buffalo-falls set" in result.stderr


# -- what a Revolver 2 position can say ---------------------------------------------------------
POSITION = """\
name: position check
game: revolver2
rule: malpaso-es, Preparar
position:
  turn: esteban
  battlefield_set: buffalo-falls
  marker: {battlefield: malpaso-drinking-den, space: "1"}
  army: 4
  bridge_blown: true
  battlefield_tokens:
    malpaso: {esteban: 2, mapache: 1}
  battlefields:
    malpaso:
      esteban: [armed-villager]
      mapache: [rurales]
  guardians:
    alive: [padre-esteban, chief-kahana-redbow, hired-guardian-9]
    dead: [malpaso-spider]
    pile: [hired-guardian-1, malpaso-villager-6]
    tokens: {chief-kahana-redbow: {true_grit: 0}}
  esteban:
    hand: [malpaso-telegram]
actions:
  - expect:
      marker: {battlefield: malpaso-drinking-den, space: "1"}
      army: 4
      bridge_blown: true
      battlefield_tokens: {malpaso: {esteban: 2, mapache: 1}}
      alive: [padre-esteban, chief-kahana-redbow, hired-guardian-9]
      dead: [malpaso-spider, bobtail-harris, malpaso-villager-1, hired-guardian-2]
      alive_count: 3
      pile: [hired-guardian-1, malpaso-villager-6]
      pile_size: 2
      tokens:
        chief-kahana-redbow: {true_grit: 0}
        hired-guardian-9: {true_grit: 1}
      hand: {esteban: [malpaso-telegram]}
      at: {malpaso: {esteban: [armed-villager], mapache: [rurales]}}
"""


def test_a_revolver2_position_is_laid_out_as_written(tmp_path: Path) -> None:
    result = run_scenario(write(tmp_path, "position.yaml", POSITION))
    assert result.passed, result.first_problem()
    state = result.state
    assert state.spec.bfs[0].id == "malpaso-cathouse"  # the Buffalo Falls set is in play
    assert pile_ids(state) == ["hired-guardian-1", "malpaso-villager-6"]
    assert state.game_data.winner == 1  # Mapache "won" the skipped tournament
    state.check_invariants()


def test_the_battlefield_set_follows_the_battlefields_named(tmp_path: Path) -> None:
    text = POSITION.replace("  battlefield_set: buffalo-falls\n", "")
    result = run_scenario(write(tmp_path, "inferred.yaml", text))
    assert result.passed, result.first_problem()
    assert [bf.id for bf in result.state.spec.bfs[:3]] == [
        "malpaso-cathouse", "malpaso-jailhouse", "malpaso-drinking-den"]


def test_by_default_crystal_river_and_the_set_up_guardians(tmp_path: Path) -> None:
    text = """\
name: defaults
game: revolver2
rule: malpaso-es, Preparar
position:
  turn: mapache
expect:
  alive_count: 7
  pile_size: 12
  army: 12
  bridge_blown: false
  marker: {battlefield: malpaso-church, space: "1"}
  to_act: mapache
"""
    result = run_scenario(write(tmp_path, "defaults.yaml", text))
    assert result.passed, result.first_problem()
    assert result.state.spec.bfs[0].id == "malpaso-church"


def test_pile_size_keeps_the_seeds_order_and_the_rest_are_dead(tmp_path: Path) -> None:
    text = """\
name: pile size
game: revolver2
rule: malpaso-es, Preparar
seed: 7
position:
  turn: esteban
  guardians:
    pile_size: 3
"""
    result = run_scenario(write(tmp_path, "pile.yaml", text))
    assert result.passed, result.first_problem()
    state = result.state
    assert len(state.pile) == 3 and sum(state.alive) == 7
    starting = {c.idx for c in state.spec.characters if c.starting}
    assert not starting & set(state.pile)
    # the same seed without pile_size deals the same top three
    full = run_scenario(write(tmp_path, "full.yaml", text.replace("    pile_size: 3\n",
                                                                  "    dead: []\n")))
    assert pile_ids(full.state)[:3] == pile_ids(state)


@pytest.mark.parametrize(("guardians", "message"), [
    ("    alive: [padre-esteban]\n    dead: [padre-esteban]\n",
     "Padre Esteban is named in both `alive` and `dead`"),
    ("    pile: [hired-guardian-1]\n    pile_size: 1\n", "give either `pile` or `pile_size`"),
    ("    pile_size: 13\n", "the pile cannot hold 13 guardians"),
    ("    dead: [malpaso-spider]\n    tokens: {malpaso-spider: {true_grit: 1}}\n",
     "Spider is not in play: no tokens"),
])
def test_impossible_guardians_are_refused(tmp_path: Path, guardians: str, message: str) -> None:
    text = f"""\
name: bad guardians
game: revolver2
rule: malpaso-es, Preparar
position:
  turn: esteban
  guardians:
{guardians}"""
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "guardians.yaml", text))])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.startswith(f"error: {tmp_path / 'guardians.yaml'}:"), result.stderr


def test_an_unknown_rule_switch_is_refused(tmp_path: Path) -> None:
    text = PASSING.replace("game: revolver2\n", "game: revolver2\nswitches: {gatling: fast}\n")
    result = runner.invoke(app, ["scenario", str(write(tmp_path, "switch.yaml", text))])
    assert result.exit_code == 2, result.output
    assert "gatling" in result.stderr
    assert result.stderr.startswith(f"error: {tmp_path / 'switch.yaml'}:4:"), result.stderr


# -- the staging helper scenarios use ---------------------------------------------------------
def test_skip_tournament_starts_the_game_with_the_chosen_set() -> None:
    from deckbuilder.catalog import default_catalog
    from deckbuilder.games import new_game
    from deckbuilder.games.revolver2.staging import StagingError, skip_tournament

    catalog = default_catalog()
    decks = [catalog.base_deck("revolver2", "esteban"), catalog.base_deck("revolver2", "mapache")]
    state = new_game(decks, seed=3, game="revolver2")
    assert state.action_to_string(state.legal_actions()[0]).startswith("show ")  # poker
    skip_tournament(state, "buffalo-falls")
    assert [bf.id for bf in state.spec.bfs][:4] == [
        "malpaso-cathouse", "malpaso-jailhouse", "malpaso-drinking-den", "los-quantos-bridge"]
    assert state.game_data.winner == 1
    assert state.turn == 1 and state.current_player() == 0
    assert len(state.hands[1]) == 5 and len(state.hands[0]) == 7  # five, then his turn's two
    assert state.bf_power == (0,) * len(state.bf_power)  # no poker card, no set-up effect
    state.check_invariants()
    with pytest.raises(StagingError, match="already over"):
        skip_tournament(state, "crystal-river")
    with pytest.raises(StagingError, match="no battlefield set 'prairie'"):
        skip_tournament(new_game(decks, seed=3, game="revolver2"), "prairie")

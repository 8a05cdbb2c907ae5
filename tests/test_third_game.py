"""A third game plugs in with no edit outside its own package and one registry line (issue 20,
section 1): Standoff (tests/third_game/) is registered through the `deckbuilder.games` entry
point group only (the dist-info in tests/third_game/plugin_site stands for a plug-in package's
installed metadata), its card set is a user set, and it plays through the registry, the game
protocol, a scenario file, `simulate` and `play`.

The models' enums are derived from the declarations when the package is first imported, so
every check runs in a fresh interpreter with the plug-in on its path."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
TOY = TESTS / "third_game"


#: What a plug-in may import of deckbuilder: the plug-in surface for its rules, bots and entry;
#: the declarations' own module and the card models' base for its declaration and card model
#: (read while the models are built, before the engine exists).
SURFACE = {"deckbuilder.game_kit", "deckbuilder.declaration", "deckbuilder.models.common"}


def test_the_plug_in_imports_only_the_plug_in_surface() -> None:
    reached = {(path.name, node.module) for path in TOY.glob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ImportFrom) and node.module
               and node.module.split(".")[0] == "deckbuilder"}
    assert {module for _, module in reached} <= SURFACE, sorted(reached)
    assert ("rules.py", "deckbuilder.game_kit") in reached


@pytest.fixture(scope="module")
def plugged_in(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of an installation where the Standoff plug-in is installed: its entry
    point on the path, its base set installed as a user set."""
    home = tmp_path_factory.mktemp("home")
    (home / "sets").mkdir()
    shutil.copy(TOY / "standoff-base.yaml", home / "sets" / "standoff-base.yaml")
    env = dict(os.environ)
    env["DECKBUILDER_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join([str(TOY / "plugin_site"), str(TESTS),
                                         env.get("PYTHONPATH", "")])
    return env


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "deckbuilder", *args], env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_without_the_entry_point_the_game_is_unknown() -> None:
    """The entry point is what registers it: the same interpreter without it does not know
    the game (so the tests below measure the plug-in, not a leftover)."""
    result = run_python("""
        from deckbuilder.models.common import Faction, Game
        from deckbuilder.models.cards import Card
        from deckbuilder.models.effects import STEP_NAMES
        from deckbuilder.games import games
        print(sorted(games()), "sheriff" in set(Faction), "standoff" in set(Game),
              "reload" in STEP_NAMES, "bullets" in Card.model_fields)
    """, dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["['revolver',", "'revolver2']"] + ["False"] * 4


def test_its_own_step_and_card_field_are_declared_in_its_package(
        plugged_in: dict[str, str]) -> None:
    """Standoff's `reload` step and `bullets` card field are declared in its package
    (`card_model.py`, named by its declaration) and reach the vocabulary, the card model and
    its cards with no edit of deckbuilder; card data breaking the field's bounds is refused."""
    result = run_python("""
        from deckbuilder.catalog import build_catalog
        from deckbuilder.models.cards import Card
        from deckbuilder.models.effects import STEP_NAMES
        from pydantic import ValidationError
        shotgun = build_catalog().card("standoff-shotgun")
        fields = dict(id="x", name="X", faction="sheriff", category="firepower",
                      play="firepower", firepower=1)
        try:
            Card.model_validate({**fields, "bullets": 7})
            refused = False
        except ValidationError:
            refused = True
        print("reload" in STEP_NAMES, shotgun.bullets, refused,
              Card.model_validate(fields).bullets)
    """, plugged_in)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "2", "True", "0"]


def test_the_declaration_feeds_every_table(plugged_in: dict[str, str]) -> None:
    result = run_python("""
        import json
        from deckbuilder.app.card_search import KIND_WORDS
        from deckbuilder.commands.choices import FACTION, GAME, SIDE
        from deckbuilder.models.common import GAME_FACTIONS, Faction, Game
        from deckbuilder.rulesets import default_ruleset
        from deckbuilder.scenarios.model import SCENARIO_MODELS
        from deckbuilder.games import get_game
        game = get_game("standoff")
        print(json.dumps({
            "game": "standoff" in set(Game),
            "factions": [f for f in ("sheriff", "outlaws") if f in set(Faction)],
            "sides": GAME_FACTIONS["standoff"],
            "ruleset": default_ruleset("standoff"),
            "spelling": GAME("the standoff"), "side": SIDE("Bandidos"), "any": FACTION("law"),
            "kind": KIND_WORDS["deputy"],
            "scenario": SCENARIO_MODELS["standoff"].__name__,
            "title": game.title, "rules": type(game.rules).__name__,
        }))
    """, plugged_in)
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    assert facts == {
        "game": True, "factions": ["sheriff", "outlaws"], "sides": ["sheriff", "outlaws"],
        "ruleset": "standoff-rules", "spelling": "standoff", "side": "outlaws",
        "any": "sheriff", "kind": ["character", "standoff"], "scenario": "StandoffScenario",
        "title": "Standoff (a toy game)", "rules": "StandoffRules"}


def test_random_games_keep_the_protocol(plugged_in: dict[str, str]) -> None:
    """What the conformance test asks of every game, for the toy: sorted legal actions, an
    illegal action refused, a clone playing on alike, every action read, an outcome at the end;
    and the game's own decision named and read from its record."""
    result = run_python("""
        import random
        from collections import Counter
        from deckbuilder.catalog import build_catalog
        from deckbuilder.games import get_game, new_game
        from deckbuilder.protocol import IllegalActionError
        catalog = build_catalog()
        game = get_game("standoff")
        decks = [catalog.base_deck("standoff", side) for side in game.side_names]
        endings, decisions = Counter(), set()
        for seed in range(40):
            state = new_game(decks, seed, catalog=catalog)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.check_invariants()
                legal = state.legal_actions()
                assert legal == sorted(set(legal)), legal
                texts = [state.action_to_string(action) for action in legal]
                assert all(text and "outside" not in text for text in texts), texts
                outside = max(legal) + 1
                try:
                    state.clone().apply(outside)
                    raise AssertionError("an illegal action was taken")
                except IllegalActionError:
                    pass
                action = legal[rng.randrange(len(legal))]
                twin = state.clone()
                state.apply(action)
                twin.apply(action)
                assert twin.legal_actions() == state.legal_actions()
                if "call a truce" in texts:
                    decisions.add("truce: " + "/".join(texts))
            endings[state.outcome().termination.value] += 1
        print(sorted(endings), sorted(d for d in decisions if d))
    """, plugged_in)
    assert result.returncode == 0, result.stderr
    endings, _, decisions = result.stdout.partition("] [")
    assert "deputies_down" in endings and "dawn" in endings
    assert "truce: call a truce/fight on" in decisions


def test_its_decision_kind_is_named_by_its_record(plugged_in: dict[str, str]) -> None:
    result = run_python("""
        from deckbuilder.engine.actions import kind_name
        from deckbuilder.catalog import build_catalog
        from deckbuilder.games import get_game, new_game
        catalog = build_catalog()
        decks = [catalog.base_deck("standoff", side) for side in ("sheriff", "outlaws")]
        spec = new_game(decks, 0, catalog=catalog).spec
        print(kind_name(60, spec), "|", kind_name(60, new_game(
            [catalog.base_deck("revolver", s) for s in ("colty", "mcready")], 0,
            catalog=catalog).spec))
    """, plugged_in)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "call a truce or fight on | decision"


def test_its_table_view_draws_its_own_piece(plugged_in: dict[str, str]) -> None:
    """Its own piece (a truce can be called) reaches the terminal's lines and, with the web
    extra installed, the web board's panel from its package alone: its rules' `observe`,
    `pieces_lines`, `board_pieces` and its templates/board_panel.html."""
    import importlib.util

    web = importlib.util.find_spec("jinja2") is not None  # the compiled CI has no web extra
    result = run_python(f"""
        import json, random
        from deckbuilder.catalog import build_catalog
        from deckbuilder.games import get_game, new_game
        from deckbuilder.sim.records.session_view import position_view, view_lines
        if {web}:
            from deckbuilder.web.table_view import board_fragment
        catalog = build_catalog()
        decks = [catalog.base_deck("standoff", side) for side in ("sheriff", "outlaws")]
        shown = {{}}
        for seed in range(40):
            state, rng = new_game(decks, seed, catalog=catalog), random.Random(seed)
            while not state.is_terminal():
                view = position_view(state, 0)
                possible = view["game_pieces"]["truce_possible"]
                if str(possible) not in shown:
                    board = board_fragment(view, catalog, False, "") if {web} else ""
                    shown[str(possible)] = [view_lines(view), board]
                state.apply(rng.choice(state.legal_actions()))
        print(json.dumps(shown))
    """, plugged_in)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    (lines, board), (quiet_lines, quiet_board) = shown["True"], shown["False"]
    assert "truce: sheriff may call one at the start of his turn" in lines
    assert not any("truce" in line for line in quiet_lines)
    if web:
        assert 'id="truce"' in board and "sheriff may call a truce" in board
        assert 'id="truce"' not in quiet_board


@pytest.mark.parametrize(("name", "shown"), [
    ("truce", "ok   termination: truce"),
    ("reload", "ok   after action 1 hand_size sheriff: 2")])  # its own step, played
def test_a_scenario_in_the_generic_format(plugged_in: dict[str, str], name: str,
                                          shown: str) -> None:
    result = run_cli(plugged_in, "scenario", str(TOY / "scenarios" / f"{name}.yaml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout
    assert shown in result.stdout


def test_a_bad_scenario_of_the_toy_fails_its_check(plugged_in: dict[str, str],
                                                  tmp_path: Path) -> None:
    wrong = (TOY / "scenarios" / "truce.yaml").read_text(encoding="utf-8").replace(
        "termination: truce", "termination: dawn")
    path = tmp_path / "wrong.yaml"
    path.write_text(wrong, encoding="utf-8")
    result = run_cli(plugged_in, "scenario", str(path))
    assert result.returncode == 1
    assert "FAIL termination" in result.stdout


def test_simulate_plays_it(plugged_in: dict[str, str]) -> None:
    result = run_cli(plugged_in, "simulate", "sheriff", "-n", "12", "--bot", "random",
                     "--workers", "1", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    text = json.dumps(report)
    assert "sheriff" in text and "outlaws" in text
    assert "standoff-deputy-badge" in text


def test_play_plays_it(plugged_in: dict[str, str]) -> None:
    result = run_cli(plugged_in, "play", "--game", "standoff", "--bots", "greedy,random",
                     "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "-- turn 1: sheriff" in result.stdout
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("result: ") and "after" in last


def test_play_takes_a_deck_option_per_side(plugged_in: dict[str, str]) -> None:
    """`play` has one deck option per side of every declared game, made from the
    declarations: the plug-in's sides get theirs (`--sheriff`, `--outlaws`) with no edit
    outside its package, and one names the game it plays."""
    shown = run_cli(plugged_in, "play", "--help")
    assert shown.returncode == 0, shown.stderr
    for option in ("--sheriff", "--outlaws", "--colty", "--mapache"):
        assert option in shown.stdout
    result = run_cli(plugged_in, "play", "--outlaws", "outlaws", "--bots", "random",
                     "--seed", "2", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["game"] == "standoff"
    assert set(record["decks"]) == {"sheriff", "outlaws"}


def test_a_game_kind_may_not_take_a_table_code() -> None:
    """A game's decision kind with a code the table uses would read the table's actions in
    the game's words: refused when the game's spec is built."""
    from deckbuilder.declaration import DecisionKind
    from deckbuilder.engine.actions import K_MAIN, decision_kinds

    with pytest.raises(ValueError, match="taken by main"):
        decision_kinds((DecisionKind(K_MAIN, "mine", "my decision"),))
    assert decision_kinds((DecisionKind(60, "mine", "my decision"),))[60].words == "my decision"

"""The compiled build (what `pip install` builds where a C compiler is found, and the release
wheels; `DECKBUILDER_COMPILE=1` insists on it, see setup.py) plays exactly the games the plain
build plays.

Besides the command lines compared here, CI runs the engine-level test files themselves in the
compiled build (`.ci/compiled-tests`, the list and the tests that need the plain build in
tests/compiled_build.py); the last tests below keep that list true.

The comparison needs a compiled build: `$DECKBUILDER_COMPILED_PYTHON` names the Python of an
environment it is installed in (CI builds the compiled wheel beside the test run and installs
it in a fresh environment, see `.ci/run`). Without
it the comparison is skipped with one line, and fails instead when
`DECKBUILDER_REQUIRE_COMPILED=1` (CI).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from compiled_build import (
    ENGINE_TESTS,
    GAME_HEAVY,
    PLAIN_ONLY,
    compiled_run_files,
    played_by_the_compiled_run,
)

from deckbuilder.engine import state as engine_state

ROOT = Path(__file__).resolve().parent.parent
LISTED = ROOT / "compiled-modules.txt"
DECKS = ROOT / "decks"
ALL_MODULES = ["--module", "saloon-duel", "--module", "mcreadys-choice", "--module",
               "san-manzanillo-prison-rules", "--module", "ambushes", "--module",
               "frontier-deck", "--module", "frontier-deck-cards", "--module", "silver-dollars"]
#: Command lines both builds run; their output must be the same, byte for byte. Both games,
#: every bot, expansion cards, every Tarnished Star module and Expansion 1.2's prison.
COMMANDS: dict[str, list[str]] = {
    "revolver-greedy": ["simulate", "colty", "--games", "40", "--seed", "1", "--json"],
    "revolver-random": ["simulate", "mcready", "--bot", "random", "--opponent-bot", "random",
                        "--games", "60", "--seed", "2", "--json"],
    "revolver-search": ["simulate", str(DECKS / "example-mcready-pinkertons.yaml"), "--bot",
                        "search:rollouts=6", "--games", "3", "--seed", "3", "--json"],
    "revolver-playout": ["simulate", str(DECKS / "example-colty-fan-the-gun.yaml"), "--bot",
                         "greedy:judge=playout", "--games", "6", "--seed", "4", "--json"],
    "revolver-prison": ["simulate", str(DECKS / "example-colty-prison-break.yaml"), "--vs",
                        str(DECKS / "example-mcready-prison-guard.yaml"), "--module",
                        "san-manzanillo-prison-rules", "--games", "20", "--seed", "5", "--json"],
    "revolver-modules": ["play", *ALL_MODULES, "--seed", "6", "--bots", "greedy,greedy"],
    "revolver2-greedy": ["simulate", "mapache", "--games", "40", "--seed", "1", "--json"],
    "revolver2-random": ["simulate", "esteban", "--bot", "random", "--opponent-bot", "random",
                         "--games", "60", "--seed", "2", "--json"],
    "revolver2-search": ["simulate", "mapache", "--bot", "search:rollouts=6", "--games", "3",
                         "--seed", "3", "--json"],
    "revolver2-switch": ["play", "--game", "revolver2", "--seed", "7", "--bots",
                         "greedy,random", "--switch", "poker-tie=guardians"],
    # readings that reshape a copy of a card, a mode, an ability or a character for the game
    "revolver-readings": ["play", "--seed", "8", "--bots", "greedy,greedy",
                          "--switch", "skinny-token=power-firepower-only",
                          "--switch", "true-grit-kill=counts-as-kill",
                          "--switch", "jack-death=gang-fights-on",
                          "--switch", "jackson-clan-derailed=removed-from-game",
                          "--switch", "along-fer-the-ride=casualties",
                          "--switch", "quincey-rides=each-discard",
                          "--switch", "lawmen-removal=true-grit-ignored"],
}
#: Run by both builds: what `apply` raises for actions that are not ints (the protocol says
#: IllegalActionError; a compiled argument typed int would raise a TypeError of its own).
WRONG_ACTIONS = """
from deckbuilder.catalog import build_catalog
from deckbuilder.games import new_game
catalog = build_catalog()
for game, side in (("revolver", "mcready"), ("revolver2", "mapache")):
    other = "colty" if game == "revolver" else "esteban"
    state = new_game([catalog.base_deck(game, side), catalog.base_deck(game, other)], 1,
                     catalog=catalog)
    for wrong in ("1", 1.0, True, None):
        try:
            state.apply(wrong)
        except Exception as error:
            print(game, repr(wrong), type(error).__name__)
"""


def listed_modules() -> list[str]:
    """compiled-modules.txt's paths (the file setup.py compiles from)."""
    lines = LISTED.read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in lines
            if line.strip() and not line.strip().startswith("#")]


def test_a_listed_module_is_marked_cold_or_not_at_all() -> None:
    """A line is a path and, for a module no game spends time in, `cold` (compiled at a
    lower optimisation level): a mistyped mark would silently compile it at -O2."""
    for line in LISTED.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words and not words[0].startswith("#"):
            assert words[1:] in ([], ["cold"]), line


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_every_listed_module_exists_in_the_package() -> None:
    """A module renamed or moved without the list would leave the compiled build without it
    (or break the build)."""
    paths = listed_modules()
    assert paths, "compiled-modules.txt lists nothing"
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert path.startswith("deckbuilder/") and path.endswith(".py"), path
        assert (ROOT / path).is_file(), f"{path} is listed in compiled-modules.txt but missing"


def _compiled_python() -> str:
    python = os.environ.get("DECKBUILDER_COMPILED_PYTHON", "")
    if python and Path(python).exists():
        return python
    reason = ("no compiled build: set DECKBUILDER_COMPILED_PYTHON to the Python of an "
              "environment with the compiled wheel installed (`DECKBUILDER_COMPILE=1 pip "
              "wheel --no-deps .`, then pip install it; CI does)")
    if os.environ.get("DECKBUILDER_REQUIRE_COMPILED") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def _run(python: str, args: list[str]) -> str:
    # -P: not the checkout's source tree, the build installed in that Python's environment
    done = subprocess.run([python, "-P", "-m", "deckbuilder", *args], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, f"{python} {' '.join(args)}: {done.stderr[-2000:]}"
    return done.stdout


def test_the_compiled_build_loads_compiled_modules() -> None:
    python = _compiled_python()
    probe = ("import importlib, json, sys; print(json.dumps({name: importlib.import_module(name)"
             ".__file__ for name in sys.argv[1:]}))")
    names = [module_name(path) for path in listed_modules()]
    done = subprocess.run([python, "-P", "-c", probe, *names], capture_output=True, text=True,
                          timeout=120, check=True)
    files = json.loads(done.stdout)
    plain = [name for name, file in files.items() if not file.endswith(".so")]
    assert not plain, f"not compiled in {python}: {plain}"
    assert Path(engine_state.__file__).suffix == ".py", "this test process runs the compiled build"
    assert _run(python, ["--version"]).strip().endswith("(compiled with mypyc)")
    assert _run(sys.executable, ["--version"]).strip().endswith("(plain Python)")


def _games(output: str, args: list[str]) -> object:
    """What a command's output says of the games: a JSON report without its "build" entry
    (each build names itself there), or the text as printed."""
    if "--json" not in args:
        return output
    report = json.loads(output)
    report.pop("build")
    return report


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_the_compiled_build_plays_the_same_games(case: str) -> None:
    compiled = _run(_compiled_python(), COMMANDS[case])
    plain = _run(sys.executable, COMMANDS[case])
    assert plain.strip(), case
    assert _games(compiled, COMMANDS[case]) == _games(plain, COMMANDS[case]), \
        f"{case}: the builds played different games"
    if "--json" in COMMANDS[case]:  # and each report names the build that played it
        assert json.loads(compiled)["build"]["name"] == "compiled with mypyc"
        assert json.loads(compiled)["build"]["faster"] is None
        assert json.loads(plain)["build"]["name"] == "plain Python"


def test_both_builds_refuse_an_action_that_is_not_an_int_alike() -> None:
    compiled_python = _compiled_python()
    outputs = []
    for python in (compiled_python, sys.executable):
        done = subprocess.run([python, "-P", "-c", WRONG_ACTIONS], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[1].count("IllegalActionError") == 8, outputs[1]


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name.startswith("test")}


def test_the_compiled_run_lists_test_files_that_exist() -> None:
    tests = ROOT / "tests"
    assert len(set(ENGINE_TESTS)) == len(ENGINE_TESTS)
    for name in ENGINE_TESTS:
        assert (tests / name).is_file(), f"{name} is listed in compiled_build.py but missing"
        assert _test_functions(tests / name), f"{name} holds no test"
    # the engine-level oracles issue 20 names: conformance, scenarios, goldens, rule switches,
    # rules edges and the third game
    for oracle in ("test_conformance.py", "test_engine_properties.py", "test_scenarios.py",
                   "test_scenarios_revolver2.py", "test_golden.py", "test_revolver_switches.py",
                   "test_module_switches.py", "test_rules_edges.py", "test_third_game.py"):
        assert oracle in ENGINE_TESTS, oracle


def test_each_test_skipped_in_the_compiled_run_exists_and_says_why() -> None:
    for entry, reason in PLAIN_ONLY.items():
        module, test = entry.split("::")
        assert f"{module}.py" in ENGINE_TESTS, f"{entry}: not in the compiled run"
        assert test in _test_functions(ROOT / "tests" / f"{module}.py"), \
            f"{entry} in compiled_build.PLAIN_ONLY names no test"
        assert len(reason) > 20, entry


def test_each_game_heavy_test_exists_outside_the_engine_files_and_says_why() -> None:
    for entry, reason in GAME_HEAVY.items():
        module, test = entry.split("::")
        assert f"{module}.py" not in ENGINE_TESTS, f"{entry}: its whole file is played already"
        assert f"{module}.py" in compiled_run_files(), entry
        assert test in _test_functions(ROOT / "tests" / f"{module}.py"), \
            f"{entry} in compiled_build.GAME_HEAVY names no test"
        assert len(reason) > 20, entry


def _item(module: str, test: str) -> Any:
    """What played_by_the_compiled_run reads of a collected test."""
    return SimpleNamespace(path=ROOT / "tests" / f"{module}.py",
                           nodeid=f"tests/{module}.py::{test}[case-1]")


def test_ci_plays_each_test_in_exactly_one_build() -> None:
    """CI's plain run leaves out what the compiled run plays: every test of an engine file
    but those that need the plain build, and the game-heavy tests of other files."""
    plain_only = next(iter(PLAIN_ONLY)).split("::")
    heavy = next(iter(GAME_HEAVY)).split("::")
    assert not played_by_the_compiled_run(_item(*plain_only))
    assert played_by_the_compiled_run(_item(plain_only[0], "test_anything_else"))
    assert played_by_the_compiled_run(_item(*heavy))
    assert not played_by_the_compiled_run(_item(heavy[0], "test_a_quick_one"))
    assert not played_by_the_compiled_run(_item("test_web_play", "test_anything"))

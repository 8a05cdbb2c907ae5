"""The compiled build (`DECKBUILDER_COMPILE=1 pip install .`, see setup.py) plays exactly the
games the plain build plays.

The comparison needs a compiled build: `$DECKBUILDER_COMPILED_PYTHON` names the Python of an
environment it is installed in (CI builds one beside the test run, see `.ci/run`). Without
it the comparison is skipped with one line, and fails instead when
`DECKBUILDER_REQUIRE_COMPILED=1` (CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
}


def listed_modules() -> list[str]:
    """compiled-modules.txt's paths (the file setup.py compiles from)."""
    lines = LISTED.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


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
              "environment with `DECKBUILDER_COMPILE=1 pip install .` (CI does)")
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


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_the_compiled_build_plays_the_same_games(case: str) -> None:
    compiled = _run(_compiled_python(), COMMANDS[case])
    plain = _run(sys.executable, COMMANDS[case])
    assert plain.strip(), case
    assert compiled == plain, f"{case}: the builds played different games"

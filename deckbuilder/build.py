"""Which build of the package runs: plain Python, or the game loop compiled by mypyc.

`--version` and every simulation report say which, and in the plain build how to get the
faster one; how much faster is measured (data/speed.json, kept by benchmarks/bench_games.py
--write), not written here. setup.py loads this file by its path, before any install.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
from pathlib import Path

COMPILED = "compiled with mypyc"
PLAIN = "plain Python"
#: Each build's measured speed: benchmarks/bench_games.py --write writes it.
SPEED_FILE = Path(__file__).resolve().parent / "data" / "speed.json"


def speed_claim(path: Path = SPEED_FILE) -> str:
    """"LOW to HIGH times as fast (measured at COMMIT)": the compiled build's decisions a
    second over the plain build's, each as a multiple of UNO's (the runs' shared yardstick)."""
    builds = json.loads(path.read_text(encoding="utf-8"))["builds"]
    fast, slow = builds[COMPILED], builds[PLAIN]
    ratios = [fast["x_uno"][row] / slow["x_uno"][row] for row in fast["x_uno"]
              if row in slow["x_uno"]]
    at = fast["commit"] if fast["commit"] == slow["commit"] else \
        f"{fast['commit']} compiled, {slow['commit']} plain"
    return f"{min(ratios):.1f} to {max(ratios):.1f} times as fast (measured at {at})"


#: One line for a plain build: what the compiled build gives and how to install it.
FASTER_BUILD_HINT = (
    f"the compiled build plays the same games {speed_claim()}: with a C compiler and "
    "Python's headers installed (e.g. apt install gcc python3-dev), reinstall with "
    "`pip install --force-reinstall --no-cache-dir --no-deps revolver-deckbuilder` (or "
    "`pip install .` in a clone); see docs/players/install.md"
)


def compiled() -> bool:
    """Does the game loop run compiled? Asked of the module's file without importing it
    (which would build the models: most of `--version`'s start-up)."""
    found = importlib.util.find_spec("deckbuilder.engine.state")
    path = (found.origin if found is not None else None) or ""
    return any(path.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def describe() -> str:
    """How `--version` names the build: "compiled with mypyc" or "plain Python"."""
    return COMPILED if compiled() else PLAIN


def faster_build_hint() -> str | None:
    """How to get the faster build, or None when this one is it."""
    return None if compiled() else FASTER_BUILD_HINT


def build_facts() -> dict[str, object]:
    """This process's build, as the simulation reports record it (`"build"` of `--json`)."""
    return {"compiled": compiled(), "name": describe(), "faster": faster_build_hint()}


def build_line(build: dict[str, object] | None = None) -> str:
    """The reports' one line: "Build: compiled with mypyc." or "Build: plain Python; ..."."""
    build = build if build is not None else build_facts()
    faster = build.get("faster")
    return f"Build: {build['name']}" + (f"; {faster}." if faster else ".")

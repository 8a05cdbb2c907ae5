"""Which build of the package runs: plain Python, or the game loop compiled by mypyc.

The compiled build (`DECKBUILDER_COMPILE=1 pip install .`, see setup.py) turns the modules
that play a game into C extension modules; `--version` and the benchmarks say which build
they measure, since the same games play about twice as fast compiled.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util


def compiled() -> bool:
    """Does the game loop run compiled (an extension module, not a .py file)? Asked of the
    module's file without importing it (importing the state builds the models: most of
    `--version`'s start-up)."""
    found = importlib.util.find_spec("deckbuilder.engine.state")
    path = (found.origin if found is not None else None) or ""
    return any(path.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def describe() -> str:
    """How `--version` names the build: "compiled with mypyc" or "plain Python"."""
    return "compiled with mypyc" if compiled() else "plain Python"

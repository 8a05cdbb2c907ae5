"""The build: plain Python by default; `DECKBUILDER_COMPILE=1` compiles the game loop.

Everything else about the package is in pyproject.toml. The compiled build runs the modules
listed in compiled-modules.txt through mypyc (C extension modules made from the same typed
Python, playing the same games, about twice as fast). It needs a C compiler; mypy, which
holds mypyc, and the package's own dependencies (mypyc starts from a type check) are asked
for as build requirements of that build only, so the default build needs neither.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def compile_requires() -> list[str]:
    """What the compiled build needs besides setuptools: mypy (which holds mypyc) and the
    package's own dependencies from pyproject.toml, which the type check imports."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return ["mypy>=2.4", *project["dependencies"]]


def compiled_modules() -> list[str]:
    """The paths compiled-modules.txt lists (comments and blank lines skipped)."""
    text = (HERE / "compiled-modules.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def wants_compiled() -> bool:
    return os.environ.get("DECKBUILDER_COMPILE", "").strip().lower() in {"1", "true", "yes"}


if not wants_compiled():
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # The build front end first asks which requirements the build has (setuptools runs
        # this file for it); it installs these and runs the file again to build.
        setup(setup_requires=compile_requires())
    else:
        os.chdir(HERE)  # mypyc reads pyproject.toml's [tool.mypy] from here
        setup(ext_modules=mypycify(compiled_modules(), opt_level="3", debug_level="0"))

"""The build: the game loop compiled by mypyc when a C compiler is found, else plain Python.

Everything else about the package is in pyproject.toml. The compiled build runs the modules
listed in compiled-modules.txt through mypyc (C extension modules made from the same typed
Python, playing the same games 2.4 to 4.5 times as fast); the release wheels are built that
way.
`DECKBUILDER_COMPILE` chooses:

- unset (or `auto`): compiled when a C compiler that finds Python's headers works, else the
  plain package with a warning in the build output (`pip install -v` shows it); a compiled
  build that fails also falls back to plain, saying so. An editable install
  (`pip install -e .`) is plain: a compiled module would hide every edit of its source.
- `1`: compiled or fail (CI and release wheels: never a plain wheel by accident).
- `0`: plain Python (the test environment: the tests patch engine classes, which compiled
  classes do not allow).

mypy (which holds mypyc) and the package's own dependencies (mypyc starts from a type check)
are asked for as build requirements only when the build compiles; a plain build needs neither.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path
from types import FrameType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
WARNING = "deckbuilder build: WARNING:"
PLAIN_COST = ("the package is built as plain Python, which plays the same games 2.4 to 4.5 "
              "times slower than the compiled build")
HOW_TO_COMPILE = ("install a C compiler and Python's headers (e.g. `apt install gcc "
                  "python3-dev`) and install again; DECKBUILDER_COMPILE=0 builds plain Python "
                  "without this warning")


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


def compile_mode() -> str:
    """"plain", "auto" or "required", from DECKBUILDER_COMPILE."""
    value = os.environ.get("DECKBUILDER_COMPILE", "").strip().lower()
    if value in {"0", "false", "no", "off"}:
        return "plain"
    if value in {"1", "true", "yes", "on"}:
        return "required"
    if value in {"", "auto"}:
        return "auto"
    raise SystemExit(f"DECKBUILDER_COMPILE={value!r}: use 1 (compiled), 0 (plain) or auto")


def warn(text: str) -> None:
    print(f"{WARNING} {text}", file=sys.stderr, flush=True)


def compiler_problem() -> str | None:
    """Why no C extension can be built here (None: a compiler compiled a file that includes
    Python.h). Asked before mypy is even fetched: a machine without a compiler builds plain
    Python at once."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("#include <Python.h>\nint deckbuilder_probe(void) { return 0; }\n",
                          encoding="utf-8")
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            compiler.compile([str(source)], output_dir=folder,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as error:  # any failure means the same: no extension here
            return " ".join(str(error).split())[:300] or type(error).__name__
    return None


def asked_for_requirements() -> bool:
    """Is the build front end asking which requirements the build has (PEP 517's
    get_requires_for_build_*)? setuptools answers by running this file with a Distribution
    that reports setup_requires instead of fetching them. At any other time setup_requires
    would be fetched by setuptools itself (past pip, offline or not), so they are not given."""
    import distutils.core  # setuptools' copy (setuptools is imported): the one it patches

    return distutils.core.Distribution.__module__ == "setuptools.build_meta"


#: PEP 517/660 hooks whose build needs no compiled module: an editable install (a compiled
#: module would hide every edit of its source) and the sdist (sources only).
PLAIN_HOOKS = {"get_requires_for_build_editable", "prepare_metadata_for_build_editable",
               "build_editable", "get_requires_for_build_sdist", "build_sdist"}


def building_plain_only() -> bool:
    """Is this an editable install or an sdist? The build runs `editable_wheel` or `sdist`;
    the question of its requirements comes through its own hook, found on the call stack
    (which spares a development install or an sdist fetching mypy for nothing)."""
    if {"editable_wheel", "sdist"} & set(sys.argv[1:]):
        return True
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name in PLAIN_HOOKS:
            return True
        frame = frame.f_back
    return False


def building_extensions() -> bool:
    """Is this run the one that builds (a wheel, or the legacy install)? Metadata and the
    sdist need no extension, and mypyc (a type check, then C) takes minutes."""
    return bool({"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:]))


def mypyc_extensions() -> list[Extension] | None:
    """The compiled modules' extensions, made by mypyc (None, with a warning, when mypyc
    fails and the compiled build was not required)."""
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypyc reads pyproject.toml's [tool.mypy] from here
    try:
        return list(mypycify(compiled_modules(), opt_level="3", debug_level="0"))
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        if compile_mode() == "required":
            raise
        warn(f"mypyc failed ({' '.join(str(error).split())[:300]}): {PLAIN_COST}.")
        return None


class CompileOrFallBack(build_ext):
    """build_ext that, unless the compiled build was required, falls back to plain Python
    when the C compiler fails: no extension is left behind, the .py modules are the package
    (in a wheel still tagged for this platform)."""

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as error:
            if compile_mode() == "required":
                raise
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            warn(f"the compiled build failed ({' '.join(str(error).split())[:300]}): "
                 f"{PLAIN_COST}.")


def plan() -> str:
    """"plain", "compile" or "ask" (return the compiled build's requirements), warning why
    a build that could have compiled does not."""
    mode = compile_mode()
    if mode == "plain" or (building_plain_only() and mode == "auto"):
        return "plain"
    problem = compiler_problem()
    if problem is not None:
        if mode == "required":
            raise SystemExit(f"DECKBUILDER_COMPILE=1 but no C extension can be built here: "
                             f"{problem}")
        warn(f"no working C compiler ({problem}): {PLAIN_COST}; {HOW_TO_COMPILE}.")
        return "plain"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        if asked_for_requirements():
            return "ask"
        if mode == "required":
            raise SystemExit("DECKBUILDER_COMPILE=1 but mypyc is missing: build with "
                             "build isolation (the default of pip and `python -m build`), "
                             "or install mypy first") from None
        warn(f"mypyc is missing (a build without isolation, with no mypy installed): "
             f"{PLAIN_COST}; install mypy first, or build with isolation.")
        return "plain"
    return "compile"


def main() -> None:
    chosen = plan()
    if chosen == "ask":
        setup(setup_requires=compile_requires())
        return
    extensions = mypyc_extensions() if chosen == "compile" and building_extensions() else None
    if extensions is None:
        setup()
    else:
        setup(ext_modules=extensions, cmdclass={"build_ext": CompileOrFallBack})


if __name__ == "__main__":  # as setuptools runs it (tests import it to check `plan`)
    main()

"""Which build gets installed, and saying which one runs: setup.py compiles where it can and
falls back to plain Python saying so; `--version` and every simulation report name the build
and, when it is the plain one, how to get the faster one (deckbuilder/build.py).

The wheels themselves are built in tests/test_build_wheels.py (slow: isolated builds)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import toy_game as toy
from rich.console import Console

from deckbuilder import build
from deckbuilder.sim import Contestant, build_report, print_report, simulate
from deckbuilder.sim.html_report import simulate_html

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def setup_py() -> ModuleType:
    """setup.py as a module (it calls setup() only when run as a script)."""
    spec = importlib.util.spec_from_file_location("deckbuilder_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _plan(setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch, *, mode: str,
          compiler: str | None = None, mypyc: bool = True, asking: bool = False,
          argv: tuple[str, ...] = ("setup.py", "bdist_wheel")) -> str:
    monkeypatch.setenv("DECKBUILDER_COMPILE", mode)
    monkeypatch.setattr(setup_py, "compiler_problem", lambda: compiler)
    monkeypatch.setattr(setup_py, "asked_for_requirements", lambda: asking)
    monkeypatch.setattr(sys, "argv", list(argv))
    if not mypyc:
        monkeypatch.setitem(sys.modules, "mypyc.build", None)  # import fails
    return str(setup_py.plan())


def test_the_default_build_compiles_where_a_compiler_works(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _plan(setup_py, monkeypatch, mode="") == "compile"
    assert _plan(setup_py, monkeypatch, mode="auto") == "compile"
    # the front end asks for the build's requirements first: mypy and the dependencies
    assert _plan(setup_py, monkeypatch, mode="", mypyc=False, asking=True) == "ask"
    assert setup_py.compile_requires()[0].startswith("mypy")
    assert any(r.startswith("pydantic") for r in setup_py.compile_requires())


def test_without_a_compiler_the_default_build_is_plain_and_says_so(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _plan(setup_py, monkeypatch, mode="", compiler="gcc: not found", asking=True,
                 mypyc=False) == "plain"  # mypy is not even fetched
    warning = capsys.readouterr().err
    assert "WARNING" in warning and "no working C compiler (gcc: not found)" in warning
    assert "plain Python" in warning and "DECKBUILDER_COMPILE=0" in warning


def test_a_build_without_mypyc_falls_back_instead_of_fetching_it(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Past the requirements question (a build without isolation), setuptools would fetch
    setup_requires on its own, offline or not: the build is plain, with a warning."""
    assert _plan(setup_py, monkeypatch, mode="", mypyc=False, asking=False) == "plain"
    assert "mypyc is missing" in capsys.readouterr().err


def test_the_opt_out_and_the_editable_install_are_plain_without_a_word(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for mode in ("0", "false", "no", "off"):
        assert _plan(setup_py, monkeypatch, mode=mode, compiler="no compiler") == "plain"
    assert _plan(setup_py, monkeypatch, mode="",
                 argv=("setup.py", "editable_wheel")) == "plain"
    assert capsys.readouterr().err == ""
    # an editable install compiled on request
    assert _plan(setup_py, monkeypatch, mode="1", argv=("setup.py", "editable_wheel")) == \
        "compile"


def test_a_required_compiled_build_fails_rather_than_build_plain(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="no C extension can be built here: cc: not found"):
        _plan(setup_py, monkeypatch, mode="1", compiler="cc: not found")
    with pytest.raises(SystemExit, match="mypyc is missing"):
        _plan(setup_py, monkeypatch, mode="1", mypyc=False)
    with pytest.raises(SystemExit, match=r"use 1 \(compiled\), 0 \(plain\) or auto"):
        _plan(setup_py, monkeypatch, mode="maybe")


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="no C compiler here")
def test_the_compiler_probe_tells_a_working_compiler_from_a_missing_one(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    assert setup_py.compiler_problem() is None
    monkeypatch.setenv("CC", "/nonexistent/cc")
    problem = setup_py.compiler_problem()
    assert problem and "/nonexistent/cc" in problem


# -- saying which build runs -----------------------------------------------------------------
def test_version_prints_one_line_and_the_way_to_the_faster_build_on_stderr() -> None:
    done = subprocess.run([sys.executable, "-m", "deckbuilder", "--version"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.count("\n") == 1
    assert done.stdout.strip().endswith(f"({build.describe()})")
    if build.compiled():
        assert done.stderr == ""
    else:
        assert "compiled build plays the same games" in done.stderr
        assert "pip install" in done.stderr


def _toy_report() -> dict[str, Any]:
    run = simulate(Contestant("racer", toy.TOY_DECK, "greedy"),
                   Contestant("rival", toy.TOY_DECK, "random"), side=0, games=6, seed=2,
                   new_game=toy.new_game, evaluate=toy.evaluate, game="toy", ruleset="toy")
    return build_report(run, toy.PLAYER_NAMES["toy"])


def _text(report: dict[str, Any]) -> str:
    console = Console(record=True, width=1000)
    print_report(console, report)
    return console.export_text()


def test_every_report_says_which_build_played_and_how_to_get_the_faster_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "compiled", lambda: False)
    report = _toy_report()
    assert report["build"] == {"compiled": False, "name": "plain Python",
                               "faster": build.FASTER_BUILD_HINT}
    line = [row for row in _text(report).splitlines() if row.startswith("Build:")]
    assert line == [f"Build: plain Python; {build.FASTER_BUILD_HINT}."]
    assert "Build: plain Python; the compiled build plays" in simulate_html(report)

    monkeypatch.setattr(build, "compiled", lambda: True)
    report = _toy_report()
    assert report["build"] == {"compiled": True, "name": "compiled with mypyc", "faster": None}
    assert "Build: compiled with mypyc." in _text(report).splitlines()
    page = simulate_html(report)
    assert "Build: compiled with mypyc." in page and "pip install" not in page


def test_an_editable_install_and_an_sdist_ask_for_no_compiler_tools(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question of an editable install's (PEP 660) or an sdist's requirements is told from
    a wheel's: neither fetches mypy."""
    monkeypatch.setattr(setup_py, "compiler_problem", lambda: None)
    monkeypatch.setattr(setup_py, "asked_for_requirements", lambda: True)
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info"])
    monkeypatch.delenv("DECKBUILDER_COMPILE", raising=False)

    def get_requires_for_build_editable() -> str:
        return str(setup_py.plan())

    def get_requires_for_build_wheel() -> str:
        return str(setup_py.plan())

    def get_requires_for_build_sdist() -> str:
        return str(setup_py.plan())

    assert get_requires_for_build_editable() == "plain"
    assert get_requires_for_build_sdist() == "plain"
    assert get_requires_for_build_wheel() == "ask"

"""Which build gets installed, and saying which one runs: setup.py compiles where it can and
falls back to plain Python saying so; `--version` and every simulation report name the build
and, when it is the plain one, how to get the faster one (deckbuilder/build.py).

The wheels themselves are built in tests/test_build_wheels.py (slow: isolated builds)."""

from __future__ import annotations

import ast
import importlib.util
import io
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
from deckbuilder.sim.reports.html_report import simulate_html

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """setup.py as a module (it calls setup() only when run as a script), with no cache of
    built modules (one the user's installs left would answer "cached")."""
    monkeypatch.setenv("DECKBUILDER_BUILD_CACHE", "off")
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


# -- the pre-commit hook's environment, the cache of built modules, what the user sees -------
def test_the_environment_pre_commit_makes_for_the_hooks_builds_plain(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """pre-commit runs `pip install .` in its clone of the hook repository with VIRTUAL_ENV
    naming `py_env-VERSION` inside it; checking files costs the same in either build, the
    compile takes minutes."""
    monkeypatch.setenv("VIRTUAL_ENV", str(ROOT / "py_env-python3.11"))
    assert _plan(setup_py, monkeypatch, mode="") == "plain"
    assert "pre-commit" in capsys.readouterr().err
    assert _plan(setup_py, monkeypatch, mode="1") == "compile"  # compiled on request
    monkeypatch.setenv("VIRTUAL_ENV", str(ROOT.parent / "py_env-python3.11"))  # not the clone's
    assert _plan(setup_py, monkeypatch, mode="") == "compile"
    monkeypatch.setenv("VIRTUAL_ENV", str(ROOT / ".venv"))
    assert _plan(setup_py, monkeypatch, mode="") == "compile"


@pytest.fixture
def source_tree(setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
                tmp_path: Path) -> Path:
    """A small package tree setup.py reads instead of the checkout, and a cache of its own."""
    tree = tmp_path / "tree"
    (tree / "deckbuilder" / "engine").mkdir(parents=True)
    for name in ("setup.py", "compiled-modules.txt", "pyproject.toml"):
        shutil.copy2(ROOT / name, tree / name)
    (tree / "deckbuilder" / "engine" / "state.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(setup_py, "HERE", tree)
    monkeypatch.setenv("DECKBUILDER_BUILD_CACHE", str(tmp_path / "cache"))
    return tree


def _built(folder: Path, text: str) -> dict[str, str]:
    """A build folder as build_ext leaves it: name -> path of each extension module."""
    outputs = {"deckbuilder.engine.state": "deckbuilder/engine/state.so", "abc__mypyc": "abc.so"}
    for relative in outputs.values():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")
    return outputs


def test_a_second_install_of_the_same_sources_copies_the_compiled_modules(
        setup_py: ModuleType, source_tree: Path, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """`pip install .` then `pip install ".[web]"`: pip builds a local folder again each time
    (it caches no wheel of one); the second build copies the modules the first compiled and
    fetches no mypy. An edited module is compiled afresh."""
    assert setup_py.cached_build() is None
    assert _plan(setup_py, monkeypatch, mode="", mypyc=False, asking=True) == "ask"
    outputs = _built(tmp_path / "lib", "compiled")
    setup_py.keep_in_cache(str(tmp_path / "lib"), outputs)
    assert _plan(setup_py, monkeypatch, mode="", mypyc=False, asking=True) == "cached"
    assert [extension.name for extension in setup_py.cached_extensions()] == list(outputs)

    # the copy build_ext makes from the cache
    from setuptools import Distribution

    command = setup_py.FromCache(Distribution({"ext_modules": setup_py.cached_extensions()}))
    command.build_lib = str(tmp_path / "wheel-lib")
    command.run()
    assert (tmp_path / "wheel-lib" / "deckbuilder" / "engine" / "state.so").read_text(
        encoding="utf-8") == "compiled"

    (source_tree / "deckbuilder" / "engine" / "state.py").write_text("X = 2\n", encoding="utf-8")
    assert setup_py.cached_build() is None
    assert _plan(setup_py, monkeypatch, mode="", mypyc=False, asking=True) == "ask"
    monkeypatch.setenv("DECKBUILDER_BUILD_CACHE", "off")
    setup_py.keep_in_cache(str(tmp_path / "lib"), outputs)  # kept nowhere
    assert setup_py.cached_build() is None


def test_the_cache_keeps_the_newest_builds_only(setup_py: ModuleType, source_tree: Path,
                                                  tmp_path: Path) -> None:
    module = source_tree / "deckbuilder" / "engine" / "state.py"
    outputs = _built(tmp_path / "lib", "compiled")
    for version in range(setup_py.CACHE_KEPT + 2):
        module.write_text(f"X = {version}\n", encoding="utf-8")
        setup_py.keep_in_cache(str(tmp_path / "lib"), outputs)
        assert setup_py.cached_build() is not None
    kept = list((tmp_path / "cache").iterdir())
    assert len(kept) == setup_py.CACHE_KEPT and setup_py.cached_build() in kept


class FakeTerminal(io.StringIO):
    def close(self) -> None:  # keep what was written readable
        pass


def test_progress_and_warnings_reach_the_terminal_pip_hides_the_output_from(
        setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """pip captures a build's stdout and stderr and shows them only under -v: the build's
    lines go to the terminal too (on a line of their own: pip's spinner goes on below)."""
    terminal = FakeTerminal()
    opened: list[str] = []

    def fake_open(path: str, *args: object, **kwargs: object) -> FakeTerminal:
        opened.append(path)
        return terminal

    monkeypatch.setattr(setup_py, "open", fake_open, raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    setup_py.say("compiling")
    setup_py.say("compiled 3/98 C files", terminal=False)
    setup_py.warn("no working C compiler")
    assert opened == ["/dev/tty", "/dev/tty"]
    assert terminal.getvalue() == ("\ndeckbuilder build: compiling\n"
                                   "\ndeckbuilder build: WARNING: no working C compiler\n")
    assert capsys.readouterr().err.splitlines() == [
        "deckbuilder build: compiling", "deckbuilder build: compiled 3/98 C files",
        "deckbuilder build: WARNING: no working C compiler"]
    monkeypatch.setattr(sys, "argv", ["setup.py", "dist_info"])  # pip asks again: no repeat
    setup_py.warn("no working C compiler")
    assert len(opened) == 2


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="no C compiler here")
def test_the_c_files_are_compiled_in_parallel_saying_how_far(
        setup_py: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    sources = []
    for number in range(4):
        source = tmp_path / f"part{number}.c"
        source.write_text(f"int part{number}(void) {{ return {number}; }}\n"
                          + "/* the biggest first */\n" * number, encoding="utf-8")
        sources.append(str(source))
    parallel = setup_py.ParallelCompile(compiler, jobs=2, total=4)
    objects = parallel.compile(sources, output_dir=str(tmp_path / "objects"))
    assert len(objects) == 4 and all(Path(made).is_file() for made in objects)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        f"deckbuilder build: compiled {done}/4 C files" for done in range(1, 5)]

    broken = tmp_path / "broken.c"
    broken.write_text("int broken(void) { return }\n", encoding="utf-8")
    # the compiler's error, raised (build_ext's fall-back to plain Python catches it)
    with pytest.raises(Exception, match="exit code 1"):
        setup_py.ParallelCompile(compiler, jobs=2, total=5).compile(
            [str(broken), *sources], output_dir=str(tmp_path / "again"))


def test_no_class_binds_a_method_as_a_class_attribute() -> None:
    """`moment = staticmethod(function)` in a class body: mypyc does not take it as an override
    of a compiled base class's method, so a compiled caller still runs the base's (the modules'
    and the games' moments did nothing in the compiled build, while the plain build's tests
    passed). A method that calls the function is the override both builds honour."""
    package = ROOT / "deckbuilder"
    bound = [f"{path.relative_to(package)}:{node.lineno}"
             for path in package.rglob("*.py")
             for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(cls, ast.ClassDef)
             for node in cls.body
             if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
             and isinstance(node.value.func, ast.Name)
             and node.value.func.id in ("staticmethod", "classmethod")]
    assert not bound, f"methods bound as class attributes: {bound}"

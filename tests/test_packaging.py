"""The package works when installed from a wheel, not only from the source tree."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from installed_package import INSTALLED_VARIABLE, installed_distribution, is_editable

ROOT = Path(__file__).resolve().parent.parent
#: What a fresh clone does not hold: builds, environments, caches.
UNTRACKED = shutil.ignore_patterns(".git", ".venv*", "build", "site", "*.egg-info", "__pycache__",
                                   ".mypy_cache", ".ruff_cache", ".pytest_cache")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build a wheel and unpack it into a folder of its own (dependencies from this env)."""
    wheels = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = wheels.glob("revolver_deckbuilder-*.whl")
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def run_installed(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(site), "DECKBUILDER_HOME": str(cwd / "home")}
    return subprocess.run(
        [sys.executable, "-m", "deckbuilder", *args],
        cwd=cwd, env=environment, capture_output=True, text=True, timeout=120,
    )


def test_wheel_ships_card_data_and_schemas(installed: Path) -> None:
    data = installed / "deckbuilder" / "data"
    assert sorted(p.name for p in (data / "schemas").glob("*.json")) == sorted(
        p.name for p in (ROOT / "schemas").glob("*.json")
    )
    assert sorted(p.name for p in (data / "expansions").glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "expansions").glob("*.yaml")
    )
    assert sorted(p.name for p in (data / "decks").glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "decks").glob("*.yaml")
    )


def test_installed_package_runs_outside_the_source_tree(installed: Path, tmp_path: Path) -> None:
    result = run_installed(installed, "cards", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import deckbuilder; print(deckbuilder.__file__)"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)},
        capture_output=True, text=True, check=True,
    )
    assert probe.stdout.strip().startswith(str(installed)), "imported the source tree instead"


def test_every_public_name_resolves_and_is_typed(tmp_path: Path) -> None:
    """The lazy exports exist (a stale name would fail only when a user reached it), and type
    checkers see each one's real type, not Any."""
    import deckbuilder

    for name in deckbuilder.__all__:
        assert getattr(deckbuilder, name) is not None, name
    probe = "import deckbuilder\nreveal_type(deckbuilder.load_catalog)\n"
    (tmp_path / "probe.py").write_text(probe)
    home = Path(deckbuilder.__file__).resolve().parent.parent
    # an editable install's import hook is invisible to mypy: point it at the source tree
    search = {} if "site-packages" in home.parts else {"MYPYPATH": str(home)}
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                             "--config-file", os.devnull, "probe.py"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            env={**os.environ, **search})
    assert "def (" in result.stdout and "Any" not in result.stdout.split("Revealed type is")[1], \
        result.stdout


def test_packaged_example_decks_are_reachable_from_the_api(installed: Path,
                                                           tmp_path: Path) -> None:
    """The README's Python example, outside the checkout: an example deck found through the
    installed package, read and validated."""
    script = ("import deckbuilder\n"
              "catalog = deckbuilder.load_catalog()\n"
              "path = deckbuilder.packaged_deck('example-mcready-pinkertons')\n"
              "deck = deckbuilder.load_deck(path, catalog)\n"
              "print(deckbuilder.validate_deck(deck, catalog).is_legal, path)\n")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(installed), "DECKBUILDER_HOME": str(tmp_path)},
        timeout=120)
    assert result.returncode == 0, result.stderr
    legal, path = result.stdout.split()
    assert legal == "True" and path.startswith(str(installed))


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The source distribution built from a clean copy of the checkout (as from a fresh clone:
    a `*.egg-info/SOURCES.txt` left by an earlier build keeps every file it ever listed), each
    file's path and bytes."""
    folder, source = tmp_path_factory.mktemp("sdist"), tmp_path_factory.mktemp("source")
    shutil.copytree(ROOT, source, symlinks=True, dirs_exist_ok=True, ignore=UNTRACKED)
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(folder),
                    str(source)], check=True, capture_output=True, text=True, timeout=600)
    (archive,) = folder.glob("revolver_deckbuilder-*.tar.gz")
    with tarfile.open(archive) as opened:
        return {member.name.split("/", 1)[1]: extracted.read()
                for member in opened.getmembers() if member.isfile() and "/" in member.name
                if (extracted := opened.extractfile(member)) is not None}


def test_the_sdist_holds_what_its_tests_need(sdist: dict[str, bytes]) -> None:
    """Every test file, fixture, golden and scenario, the benchmarks, the licence and the data
    the tests read are in the source distribution (the data once, in the package: the
    checkout's top-level links to it are made by tests/conftest.py)."""
    wanted = {str(path.relative_to(ROOT)) for folder in ("tests", "benchmarks")
              for path in (ROOT / folder).rglob("*")
              if path.is_file() and "__pycache__" not in path.parts}
    wanted |= {"LICENSE", "README.md", "pyproject.toml", ".ci/run"}
    wanted |= {f"deckbuilder/data/{folder}/{path.name}"
               for folder in ("schemas", "decks", "expansions")
               for path in (ROOT / "deckbuilder" / "data" / folder).iterdir()}
    assert not wanted - set(sdist), sorted(wanted - set(sdist))[:10]


def test_the_sdist_holds_each_file_once_and_no_screenshots(sdist: dict[str, bytes]) -> None:
    """The data and schemas once (not again under the top-level links), and none of the docs'
    screenshots (1.8 MB that the browser tests make afresh)."""
    assert not [name for name in sdist if name.startswith(("schemas/", "decks/", "expansions/"))]
    assert not [name for name in sdist if name.endswith(".png") or "screenshots" in name]
    by_content: dict[bytes, list[str]] = {}
    for name, content in sdist.items():
        if content and not name.endswith(".egg-info/PKG-INFO"):  # setuptools writes PKG-INFO twice
            by_content.setdefault(content, []).append(name)
    assert [names for names in by_content.values() if len(names) > 1] == []


def imported_modules(source: Path) -> dict[str, str]:
    """The top-level names of the modules a package's files import (`from . import` and imports
    guarded by `except ImportError`, which have a fall-back, left out), each with one file."""
    found: dict[str, str] = {}
    for path in sorted(source.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(node) for guard in ast.walk(tree) if isinstance(guard, ast.Try)
                   and any(_catches_import_error(handler) for handler in guard.handlers)
                   for statement in guard.body for node in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in guarded:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.partition(".")[0], str(path.relative_to(ROOT)))
    return found


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(name, ast.Name) and name.id in {"ImportError", "ModuleNotFoundError"}
               for name in names)


def declared_distributions() -> set[str]:
    """Every distribution pyproject.toml declares (dependencies and extras), and the extras
    named in them (`dask[distributed]` declares distributed), normalised."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"],
                    *(r for extra in project["optional-dependencies"].values() for r in extra)]
    declared = set()
    for requirement in requirements:
        parsed = re.match(r"([A-Za-z0-9._-]+)\s*(?:\[([^\]]*)\])?", requirement)
        assert parsed, requirement
        name, extras = parsed.groups()
        declared |= {name, *(extras or "").split(",")}
    return {_normalised(name) for name in declared if name}


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def test_every_third_party_import_is_declared() -> None:
    """A module of deckbuilder/ that imports a package pyproject.toml does not declare works
    only where something else installed it (markupsafe, imported by the web pages, came with
    jinja2)."""
    distributions = metadata.packages_distributions()
    third_party = {name: where for name, where in imported_modules(ROOT / "deckbuilder").items()
                   if name not in sys.stdlib_module_names and name != "deckbuilder"}
    assert {"pydantic", "starlette", "markupsafe", "distributed"} <= set(third_party)
    declared = declared_distributions()
    undeclared = {name: where for name, where in third_party.items()
                  if not {_normalised(d) for d in distributions.get(name, [name])} & declared}
    assert undeclared == {}, "declare them in pyproject.toml (dependencies or an extra)"


def test_the_tests_import_the_installed_package() -> None:
    """What the suite tests is what users install: deckbuilder comes from the installed
    distribution's files (the checkout only when that is an editable install of it), in this
    process and in a process a test starts in the checkout, whose folder `python -c` and
    `python -m` put first on `sys.path`."""
    import deckbuilder

    distribution = installed_distribution()
    assert distribution is not None
    imported = Path(deckbuilder.__file__).resolve().parent
    checkout = (ROOT / "deckbuilder").resolve()
    if is_editable(distribution):
        assert imported == checkout
        assert os.environ.get(INSTALLED_VARIABLE) != "1", "CI tests a non-editable install"
    else:
        assert imported == Path(str(distribution.locate_file("deckbuilder"))).resolve()
        assert imported != checkout, "imported the checkout instead of the installed package"
    probe = subprocess.run(
        [sys.executable, "-c", "import deckbuilder; print(deckbuilder.__file__)"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    assert Path(probe.stdout.strip()).resolve().parent == imported


def test_all_names_every_lazy_export() -> None:
    import deckbuilder

    assert set(deckbuilder._EXPORTS) <= set(deckbuilder.__all__)


def test_the_command_line_starts_without_the_models() -> None:
    """Building the pydantic models is most of a command's start-up (about 0.4 s): the
    command modules import them inside the commands that need them, not at import."""
    probe = ("import sys, deckbuilder.cli\n"
             "print(sorted(m for m in sys.modules if m.startswith(('deckbuilder.models', "
             "'deckbuilder.yamlio'))))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.strip() == "[]", result.stdout

"""The package works when installed from a wheel, not only from the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from installed_package import INSTALLED_VARIABLE, installed_distribution, is_editable

ROOT = Path(__file__).resolve().parent.parent


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


def test_the_sdist_holds_what_its_tests_need(tmp_path: Path) -> None:
    """Every test file, fixture, golden and scenario, the benchmarks, the licence and the data
    folders the tests read are in the source distribution."""
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path),
                    str(ROOT)], check=True, capture_output=True, text=True, timeout=600)
    (archive,) = tmp_path.glob("revolver_deckbuilder-*.tar.gz")
    import tarfile

    with tarfile.open(archive) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    wanted = {str(path.relative_to(ROOT)) for folder in ("tests", "benchmarks")
              for path in (ROOT / folder).rglob("*")
              if path.is_file() and "__pycache__" not in path.parts}
    wanted |= {"LICENSE", "README.md", "pyproject.toml", ".ci/run"}
    wanted |= {f"{folder}/{path.name}" for folder in ("schemas", "decks", "expansions")
               for path in (ROOT / folder).iterdir()}
    assert not wanted - names, sorted(wanted - names)[:10]


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

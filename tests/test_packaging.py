"""The package works when installed from a wheel, not only from the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

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
    (wheel,) = wheels.glob("deckbuilder-*.whl")
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

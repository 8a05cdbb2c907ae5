"""Shared fixtures: every test runs with its own user data folder, never the real one."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from deckbuilder import paths

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SET_FIXTURES = FIXTURES / "sets"
BAD_FIXTURES = FIXTURES / "bad"


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the whole run: it is content-addressed, so sharing it is safe and fast."""
    return tmp_path_factory.mktemp("deckbuilder-cache")


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_cache: Path) -> Path:
    """An empty `DECKBUILDER_HOME` for every test, so nothing touches the user's own folder.

    The cache (derived data, outside the home folder) goes to a temporary folder too.
    """
    home = tmp_path / "deckbuilder-home"
    monkeypatch.setenv(paths.HOME_VARIABLE, str(home))
    monkeypatch.setenv(getattr(paths, "CACHE_VARIABLE", "DECKBUILDER_CACHE"), str(shared_cache))
    return home


@pytest.fixture
def package_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Path]]:
    """Replace the packaged sets with chosen fixture sets (none by default).

    Tests of the importer and the overlay then do not depend on the card data other people
    are still writing: `package_sets("homebrew-base.yaml")` makes that fixture "packaged".
    """
    folder = tmp_path / "packaged-sets"
    folder.mkdir()
    monkeypatch.setattr(paths, "PACKAGED_SETS", folder)

    def add(*names: str) -> Path:
        for name in names:
            shutil.copyfile(SET_FIXTURES / name, folder / name)
        return folder

    yield add


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes]]:
    """Every file under a folder with its bytes: compare before and after a refused change."""

    def take(root: Path) -> dict[str, bytes]:
        if not root.exists():
            return {}
        return {
            str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob("*"))
            if path.is_file()
        }

    return take


@pytest.fixture
def deck_folder(tmp_path: Path) -> Path:
    """An empty folder for the web app's decks (`WebConfig(deck_folder=...)`)."""
    folder = tmp_path / "decks"
    folder.mkdir()
    return folder

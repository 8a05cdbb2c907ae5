"""Shared fixtures: every test runs with its own user data folder, never the real one.

The tests test the installed package (what users get), never the checkout's `deckbuilder/`
folder by accident: `python -m pytest` puts the current folder first on `sys.path`, so before
anything imports deckbuilder this file takes the checkout off it (and sets `PYTHONSAFEPATH=1`
for the processes the tests start) unless the installed package is an editable install of the
checkout. The report header names the package imported.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from compiled_build import (
    SPLIT_VALUE,
    SPLIT_VARIABLE,
    deselect,
    entry_of,
    played_by_the_compiled_run,
)
from installed_package import (
    DISTRIBUTION,
    INSTALLED_VARIABLE,
    ROOT,
    installed_distribution,
    is_editable,
    off_the_checkout,
)

#: The checkout's links into the package data (the paths data files and tests name); an
#: unpacked sdist holds that data once, in deckbuilder/data/, and the session makes them.
DATA_LINKS = ("schemas", "decks", "expansions")


def use_the_installed_package() -> None:
    """Take the checkout off `sys.path` (here and in the processes tests start) unless the
    installed package is the checkout (an editable install)."""
    distribution = installed_distribution()
    if distribution is None:
        raise pytest.UsageError(
            f"{DISTRIBUTION} is not installed in {sys.executable}: the tests test the installed "
            'package; install it first (pip install ".[test]", or pip install -e ".[test]" to '
            "edit)")
    if is_editable(distribution):
        if os.environ.get(INSTALLED_VARIABLE) == "1":
            raise pytest.UsageError(f"{INSTALLED_VARIABLE}=1 but {DISTRIBUTION} is an editable "
                                    'install of the checkout: pip install ".[test]" (not -e)')
        return
    sys.path[:] = off_the_checkout(sys.path)
    os.environ["PYTHONSAFEPATH"] = "1"


def link_the_data_folders() -> None:
    """Make the top-level links into deckbuilder/data/ where they are missing (an sdist)."""
    for name in DATA_LINKS:
        link, target = ROOT / name, ROOT / "deckbuilder" / "data" / name
        if not link.exists() and not link.is_symlink() and target.is_dir():
            with contextlib.suppress(FileExistsError):  # another worker made it
                link.symlink_to(Path("deckbuilder") / "data" / name, target_is_directory=True)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Before anything imports deckbuilder (collection does): the installed package, and the
    data links an unpacked sdist lacks."""
    use_the_installed_package()
    link_the_data_folders()


#: The package builds the tests make (test_packaging) are plain Python unless a test asks for
#: the compiled one: a compiled build takes minutes (tests/test_build_wheels.py checks it).
os.environ.setdefault("DECKBUILDER_COMPILE", "0")

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SET_FIXTURES = FIXTURES / "sets"
BAD_FIXTURES = FIXTURES / "bad"

#: The slow lane, and why: a test module, or `module::test` (every parameter of it), that
#: builds, drives a browser, runs processes (and waits on them or on locks), or plays or
#: simulates many games, taking seconds a test. `python -m pytest -m "not slow" -n 2` leaves
#: them out (the fast lane); CI runs everything. tests/test_fast_lane.py checks the entries.
SLOW: dict[str, str] = {
    "test_optimize": "the optimiser: simulates hundreds of games per candidate deck",
    "test_packaging": "builds a wheel and an sdist, installs them, runs mypy on them",
    "test_build_wheels": "builds wheels in isolated pip environments",
    "test_precommit": "runs pre-commit's hooks in a new git repository",
    "test_dask": "starts local Dask clusters (scheduler and worker processes)",
    "test_compiled": "runs the compiled (mypyc) build in subprocesses",
    "test_web_browser_play": "drives Chromium through Playwright",
    "test_web_browser_decks": "drives Chromium through Playwright",
    "test_web_browser_deck_tools": "drives Chromium through Playwright (and prints a PDF)",
    "test_web_browser_faces": "drives Chromium through Playwright",
    "test_web_browser_friends": "drives two Chromium contexts through whole games",
    "test_web_browser_replays": "drives Chromium through Playwright",
    "test_web_browser_data": "drives Chromium through Playwright",
    "test_words_players_use::test_the_report_page_shows_its_settings_at_desktop_and_phone_width":
        "drives Chromium through Playwright",
    "test_docs": "builds the documentation site with MkDocs",
    "test_conformance::test_long_random_games_keep_the_protocol":
        "150 random games per ruleset and card pool, every check at every step",
    "test_conformance::test_clones_are_independent": "plays a clone out at every fifth step",
    "test_conformance::test_observation_hides_the_opponents_hand_and_deck_order":
        "re-deals the hidden cards at every step of 20 games",
    "test_conformance::test_resampled_worlds_play_on_legally_from_either_side":
        "plays re-dealt worlds out from many steps of 25 games",
    "test_engine_properties::test_engine_game_machine":
        "hypothesis's stateful machine: many short games of clones, re-deals and replays",
    "test_module_a::test_random_games_keep_the_protocol": "long random play with modules",
    "test_hostile_input::test_a_fifo_never_blocks":
        "command lines in subprocesses against FIFOs, waiting on their timeouts",
    "test_hostile_input::test_an_unwritable_cache_changes_nothing": "command lines in processes",
    "test_edges_cli::test_a_full_disk_on_stdout_is_one_line_and_its_own_exit_code":
        "command lines in processes writing to /dev/full",
    "test_edges_cli::test_the_first_command_on_a_full_disk_runs_and_the_next_one_caches":
        "command lines in processes on a full disk",
    "test_edges_cli::test_a_reader_that_goes_away_ends_the_command_with_141_quietly":
        "command lines in processes behind a closed pipe",
    "test_writing::test_concurrent_swaps_on_one_deck_all_survive": "processes and file locks",
    "test_writing::test_concurrent_overlay_corrections_all_survive": "processes and file locks",
    "test_shell::test_the_shell_completes_games_rulesets_and_bots":
        "shell completion through subprocesses",
    "test_shell::test_progress_goes_to_stderr_when_it_is_a_terminal":
        "command lines in processes on pseudo-terminals",
    "test_play_human": "plays whole games through a pseudo-terminal in a subprocess",
    "test_writing::test_an_add_on_never_outlives_the_set_it_requires":
        "two command lines in processes racing for the lock",
    "test_edges_cli::test_a_failed_check_still_exits_1_and_success_0": "command lines in processes",
    "test_bad_input::test_a_real_process_prints_no_traceback": "command lines in processes",
    "test_hostile_input::test_a_deck_of_many_distinct_entries_is_refused_by_its_model":
        "builds and refuses a deck file of many thousand entries",
    "test_hostile_input::test_a_record_of_fifty_thousand_lines_is_read_linearly":
        "writes and reads a record of fifty thousand lines",
    "test_aligned::test_aligned_pairs_disagree_less_often_than_sorted_ones":
        "plays hundreds of paired games to compare two deck orders",
    "test_silent_wrongs::test_simulate_reports_when_a_bound_cut_the_bots_play_short":
        "simulates games with bounded search bots",
    "test_web_play::test_a_simulation_stops_when_the_page_goes_away":
        "a simulation in worker processes, stopped from the page",
    "test_scoring::test_for_mcready_both_prefer_a_card_that_makes_the_attack_kill":
        "the search bot over many positions",
    "test_scoring::test_greedy_plays_every_card_of_both_base_decks": "plays many greedy games",
    "test_bots::test_on_revolver_every_bot_plays_only_legal_moves_from_each_side":
        "whole games of every bot, the search bot included",
    "test_bots::test_on_revolver_equal_greedy_bots_give_a_contested_game":
        "plays many greedy games",
    "test_reports::test_png_charts_are_written_with_matplotlib": "imports and renders matplotlib",
    "test_api_examples::test_the_examples_pass_mypy_strict":
        "runs mypy --strict in a subprocess (a cold cache reads the package's types)",
}


def slow_reason(item: pytest.Item) -> str | None:
    """Why `item` belongs to the slow lane (None: the fast lane)."""
    return SLOW.get(entry_of(item)) or SLOW.get(item.path.stem)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow lane; in CI's plain run, leave out what its compiled run plays."""
    for item in items:
        reason = slow_reason(item)
        if reason is not None:
            item.add_marker(pytest.mark.slow(reason=reason))
    if os.environ.get(SPLIT_VARIABLE) == SPLIT_VALUE:
        deselect(config, items, played_by_the_compiled_run)


def stale_files(package: Path) -> list[str]:
    """The checkout's modules a non-editable install lacks or holds otherwise (not yet
    reinstalled after an edit)."""
    source = ROOT / "deckbuilder"
    return sorted(str(path.relative_to(ROOT)) for path in source.rglob("*.py")
                  if "__pycache__" not in path.parts
                  and not _same_bytes(path, package / path.relative_to(source)))


def _same_bytes(one: Path, other: Path) -> bool:
    return other.is_file() and one.read_bytes() == other.read_bytes()


def imported_package_line() -> str:
    """Which deckbuilder the tests import, and whether it is the checkout's current source."""
    import deckbuilder
    from deckbuilder.build import compiled, describe

    package = Path(deckbuilder.__file__).resolve().parent
    if package == (ROOT / "deckbuilder").resolve():
        return f"deckbuilder: {describe()} build, the checkout's {package} (editable install)"
    line = f"deckbuilder: {describe()} build, installed in {package}"
    stale = [] if compiled() else stale_files(package)
    if stale:
        line += (f"\nwarning: {len(stale)} modules of the checkout differ from the installed "
                 f"ones ({', '.join(stale[:3])}, ...): the tests test the installed package; "
                 'reinstall (pip install ".[test]") or use an editable install (pip install -e)')
    return line


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [imported_package_line()]
    if os.environ.get(SPLIT_VARIABLE) == SPLIT_VALUE:
        lines.append(f"{SPLIT_VARIABLE}={SPLIT_VALUE}: the engine-level and game-heavy tests "
                     "are left to the compiled build's run (.ci/compiled-tests)")
    return lines


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the whole run: it is content-addressed, so sharing it is safe and fast."""
    return tmp_path_factory.mktemp("deckbuilder-cache")


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_cache: Path) -> Path:
    """An empty `DECKBUILDER_HOME` for every test, so nothing touches the user's own folder.

    The cache (derived data, outside the home folder) goes to a temporary folder too.
    """
    from deckbuilder import paths

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
    from deckbuilder import paths

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

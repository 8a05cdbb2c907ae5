"""A pytest plug-in for the engine-level tests run in the compiled build (`.ci/compiled-tests`).

`ENGINE_TESTS` are the test files that play games (conformance, properties, scenarios,
goldens, switches, modules, bots, the third game); the compiled build (`DECKBUILDER_COMPILE=1
pip install .`, mypyc) must pass them as the plain build does. `GAME_HEAVY` are tests of other
files that play thousands of games (the optimiser's planted weaknesses); the compiled run plays
them too, and only them of their files. Loaded with `-p compiled_build`, this plug-in refuses to
run unless the package imported is the compiled build installed in the interpreter's
environment (never the checkout's `deckbuilder/`), names the build in the report header, and
skips, with the reason, the few tests that need the plain build (`PLAIN_ONLY`).
tests/test_compiled.py checks that every entry names a test that exists.

CI plays each of these tests once, in the compiled build: its run of the README's test command
sets `DECKBUILDER_ENGINE_TESTS=compiled`, and tests/conftest.py then leaves out of the plain run
what the compiled run plays (`played_by_the_compiled_run`); without the variable (a developer's
run) the plain run plays everything.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The test files (under tests/) run in the compiled build.
ENGINE_TESTS = (
    "test_conformance.py", "test_engine_properties.py",
    "test_scenarios.py", "test_scenarios_revolver2.py", "test_golden.py",
    "test_revolver_switches.py", "test_module_switches.py", "test_rules_edges.py",
    "test_third_game.py", "test_game_options.py",
    "test_engine_base_game.py", "test_engine_effects.py", "test_engine_expansions.py",
    "test_engine_revolver2.py", "test_engine_rules.py", "test_state_zones.py",
    "test_card_text.py", "test_tarnished_cards.py",
    "test_ambush.py", "test_prison.py", "test_frontier.py", "test_module_a.py",
    "test_play_replay.py",
    "test_bots.py", "test_revolver2_bots.py", "test_bot_sanity.py", "test_scoring.py",
    "test_quick.py", "test_aligned.py", "test_chance.py",
)

#: `module::test` (every parameter of it) -> why it needs the plain build. Each one looks
#: inside the Python implementation, which a mypyc class does not expose to Python code.
PLAIN_ONLY: dict[str, str] = {
    "test_state_zones::test_clone_copies_every_slot":
        "reads State.__slots__, which a mypyc native class does not have",
    "test_bots::test_sequential_halving_gives_the_last_contenders_most_of_the_budget":
        "replaces a method on a SearchBot instance (a compiled class's methods are read-only)",
    "test_scoring::test_the_honesty_check_catches_a_scorer_that_peeks":
        "patches Reading.__init__, which compiled callers do not look up",
    "test_scoring::test_a_step_no_profile_knows_is_played_out":
        "subclasses a compiled bot in Python (mypyc forbids interpreted subclasses)",
}


#: `module::test` (every parameter of it) outside `ENGINE_TESTS` that the compiled run plays
#: too, and why: each plays thousands of games, four times as fast compiled.
GAME_HEAVY: dict[str, str] = {
    "test_optimize::test_a_planted_weakness_is_found_at_every_seed":
        "the optimiser plays 1,200 games a seed, for eight seeds",
    "test_optimize::test_a_planted_weakness_in_a_revolver2_deck_is_found":
        "the optimiser plays 1,200 Revolver 2 games",
}
#: Set to this by CI's plain run: what the compiled run plays is left out of it.
SPLIT_VARIABLE = "DECKBUILDER_ENGINE_TESTS"
SPLIT_VALUE = "compiled"


def compiled_run_files() -> list[str]:
    """The test files (under tests/) the compiled run collects."""
    heavy = sorted({f"{entry.split('::')[0]}.py" for entry in GAME_HEAVY})
    return [*ENGINE_TESTS, *(name for name in heavy if name not in ENGINE_TESTS)]


def entry_of(item: pytest.Item) -> str:
    """`module::test` of a collected item, its parameters left off."""
    test = item.nodeid.split("::")[1].split("[")[0] if "::" in item.nodeid else ""
    return f"{item.path.stem}::{test}"


def collected_by_the_compiled_run(item: pytest.Item) -> bool:
    """Is `item` one of the compiled run's tests (played there, or skipped as PLAIN_ONLY)?"""
    return f"{item.path.stem}.py" in ENGINE_TESTS or entry_of(item) in GAME_HEAVY


def played_by_the_compiled_run(item: pytest.Item) -> bool:
    """Does the compiled run play `item` (not skip it, not leave it out)?"""
    return collected_by_the_compiled_run(item) and entry_of(item) not in PLAIN_ONLY


def deselect(config: pytest.Config, items: list[pytest.Item],
             left_out: Callable[[pytest.Item], bool]) -> None:
    """Leave the `left_out` items out of the run, reported as deselected."""
    kept, dropped = [], []
    for item in items:
        (dropped if left_out(item) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def installed_build() -> tuple[str, Path]:
    """How the imported package was built, and where it lies."""
    import deckbuilder
    from deckbuilder.build import describe

    return describe(), Path(deckbuilder.__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    build, where = installed_build()
    # The checkout's own package folder (CI's environments lie inside the checkout, so a
    # path under it is not enough to tell: .venv-compiled/lib/.../site-packages/deckbuilder).
    if where == (ROOT / "deckbuilder").resolve():
        raise pytest.UsageError(f"deckbuilder is imported from the checkout ({where}), not "
                                "from the compiled build: run from another folder with "
                                "PYTHONSAFEPATH=1 (.ci/compiled-tests does)")
    if build != "compiled with mypyc":
        raise pytest.UsageError(f"the deckbuilder in {where} is the {build} build: install it "
                                "with DECKBUILDER_COMPILE=1 (see .ci/run)")


def pytest_report_header(config: pytest.Config) -> str:
    build, where = installed_build()
    return f"deckbuilder: {build}, from {where}"


def plain_only_reason(item: pytest.Item) -> str | None:
    return PLAIN_ONLY.get(entry_of(item))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip what needs the plain build; leave out the files' other tests than GAME_HEAVY's."""
    deselect(config, items, lambda item: not collected_by_the_compiled_run(item))
    for item in items:
        reason = plain_only_reason(item)
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=f"needs the plain build: {reason}"))

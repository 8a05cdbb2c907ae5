"""Expansion 1.1's bandits (module `gunshot-trail-bandits`): Sister Sarah and her Mule joins
the gang as a marked reading, so the Texas Ranger's cancel "if Sister Sarah is dead" can happen;
without the module every game is as before (the goldens and decision hashes say so too).

The scenarios `tests/scenarios/ambush-sister-sarah-*.yaml` stage the cancel (she dies in
McReady's attack, then a Ranger cancels Banditos), its absence while she lives, and the
refusal of a position naming her without the module."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.cli import app
from deckbuilder.games.revolver.modules import PLAYABLE_MODULES, check_modules
from deckbuilder.games.revolver.new_bandits import NEW_BANDITS
from deckbuilder.games.revolver.rules import new_game
from deckbuilder.scenarios.run import run_scenario

SARAH = "sister-sarah-and-her-mule"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
KILLED = SCENARIOS / "ambush-sister-sarah-killed-then-a-texas-ranger-cancels-banditos.yaml"
runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


def decks(catalog: Catalog) -> list[dict[str, int]]:
    return [dict(catalog.base_deck("revolver", "colty")),
            dict(catalog.base_deck("revolver", "mcready"))]


def bandit_ids(state: object) -> list[str]:
    return [character.id for character in state.spec.characters]  # type: ignore[attr-defined]


def test_the_module_is_1_1_s_a_marked_reading_the_engine_plays(catalog: Catalog) -> None:
    card_set = catalog.sets["ambush-on-gunshot-trail"].card_set
    module = next(module for module in card_set.modules if module.id == NEW_BANDITS)
    assert module.cards == [SARAH]
    assert {"description", "setup"} <= set(module.provenance.unconfirmed)
    assert "READING" in module.description and "unconfirmed" in (module.provenance.note or "")
    assert NEW_BANDITS in PLAYABLE_MODULES
    assert check_modules(catalog, [NEW_BANDITS]) == (NEW_BANDITS,)


def test_with_the_module_she_is_in_the_gang_from_set_up(catalog: Catalog) -> None:
    state = new_game(decks(catalog), seed=1, catalog=catalog, modules=[NEW_BANDITS])
    assert bandit_ids(state)[-1] == SARAH and len(bandit_ids(state)) == 17
    assert all(state.alive)


def test_without_the_module_she_is_absent_and_the_game_unchanged(catalog: Catalog) -> None:
    plain = new_game(decks(catalog), seed=1, catalog=catalog)
    assert SARAH not in bandit_ids(plain) and len(bandit_ids(plain)) == 16
    other = new_game(decks(catalog), seed=1, catalog=catalog, modules=["ambushes"])
    assert SARAH not in bandit_ids(other)  # the ambushes alone bring no bandit


def test_with_the_prison_santiago_still_waits_after_her(catalog: Catalog) -> None:
    state = new_game(decks(catalog), seed=1, catalog=catalog,
                     modules=[NEW_BANDITS, "san-manzanillo-prison-rules"])
    ids = bandit_ids(state)
    assert ids[-2:] == [SARAH, "santiago"]
    assert state.alive[ids.index(SARAH)] and not state.alive[ids.index("santiago")]


def test_she_dies_in_a_seeded_game_by_the_casualty_rule(catalog: Catalog) -> None:
    """Played out with random moves, she dies in some game as any bandit does: only once the
    bandits rated below her (survival 2, unconfirmed) are all dead."""
    for seed in range(40):
        state = new_game(decks(catalog), seed=seed, catalog=catalog, modules=[NEW_BANDITS])
        rng = random.Random(seed)
        sarah = bandit_ids(state).index(SARAH)
        while not state.is_terminal() and state.alive[sarah]:
            state.apply(rng.choice(state.legal_actions()))
        if not state.alive[sarah]:
            break
    assert not state.alive[sarah], "she never died in 40 seeded games"
    lower = [index for index, character in enumerate(state.spec.characters)
             if character.survival < 2]
    assert not any(state.alive[index] for index in lower)


def test_the_ranger_cancel_needs_the_module(tmp_path: Path) -> None:
    with_module = run_scenario(KILLED)
    assert with_module.passed, with_module.first_problem()
    without = tmp_path / KILLED.name
    without.write_text(KILLED.read_text(encoding="utf-8").replace(
        "modules: [gunshot-trail-bandits, frontier-deck]", "modules: [frontier-deck]"),
        encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(without)])
    assert result.exit_code == 2
    assert f"bandit '{SARAH}' is not in this game" in result.stderr


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("ambush-sister-sarah-*.yaml")),
                         ids=lambda path: path.stem)
def test_the_sister_sarah_scenarios_pass(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.first_problem()


def test_simulate_names_the_module(catalog: Catalog) -> None:
    result = runner.invoke(app, ["simulate", "example-mcready-pinkertons", "--games", "2",
                                 "--module", NEW_BANDITS])
    assert result.exit_code == 0, result.output
    assert NEW_BANDITS in result.output

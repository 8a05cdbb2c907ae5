"""The San Manzanillo Prison of Expansion 1.2 as a module (prison.py): its place in the row
(switch prison-position), Santiago held and freed (switch santiago-release), the silenced
texts, the Garrotte under Santiago (Module B), and whole games with every module."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from table_staging import refresh, stage, stage_marker

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.addons import cards_under_character
from deckbuilder.engine.compiled import game_spec
from deckbuilder.engine.dead_cards import dead_cards
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.games.revolver import modules, prison
from deckbuilder.games.revolver.rules import RULES, setup
from deckbuilder.protocol import UnplayableDeckError

GANG, LAWMEN = 0, 1
P = prison.PRISON_MODULE
BASE_ROW = ["bank-at-repentance-springs", "whiskey-canyon", "buzzard-point",
            "rattlesnake-creek", "3-15-express"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return default_catalog()


def decks(catalog: Catalog) -> list[dict[str, int]]:
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def row(state: State) -> list[str]:
    return [battlefield.id for battlefield in state.spec.bfs]


def game_at(catalog: Catalog, position: str, release: str = prison.NO_DOUBLE_GUARD,
            seed: int = 1) -> State:
    """A prison game built with the layout naming the position (what `modules.layout_of`
    must give the table once it carries the switch)."""
    switches = {prison.POSITION.id: position, prison.RELEASE.id: release}
    layout = f"modules:{P},{prison.POSITION.id}={position}"
    gang, lawmen = decks(catalog)
    lawmen = {**lawmen, prison.DOUBLE_THE_GUARD: 1}
    spec = game_spec(catalog, RULES, [gang, lawmen], None, layout=layout, switches=switches,
                     modules=(P,))
    return setup(spec, seed, 200)


def advance_from(state: State, battlefield: str, label: str) -> None:
    """Put the marker on `battlefield` space `label` and let the gang's next turn advance it."""
    from deckbuilder.games.revolver.rules import t_advance

    stage_marker(state, battlefield, label)
    prison.marker_moved(state)
    t_advance(state, (t_advance,))


# -- the row ------------------------------------------------------------------------------------
def test_the_base_row_is_kept_without_the_prison_module(catalog: Catalog) -> None:
    plain = new_game(decks(catalog), seed=1, catalog=catalog)
    duel_only = new_game(decks(catalog), seed=1, catalog=catalog, modules=("saloon-duel",))
    assert row(plain) == BASE_ROW
    assert row(duel_only) == BASE_ROW


def test_the_prison_joins_the_row_after_whiskey_canyon_by_default(catalog: Catalog) -> None:
    state = new_game(decks(catalog), seed=1, catalog=catalog, modules=(P,))
    assert row(state) == [*BASE_ROW[:2], prison.PRISON, *BASE_ROW[2:]]


def test_switch_prison_position_moves_the_prison_and_changes_where_the_marker_goes(
        catalog: Catalog) -> None:
    """The two readings put a different battlefield after Whiskey Canyon: the gang's advance
    from its last space enters the prison under one, Buzzard Point under the other."""
    default = game_at(catalog, "after-whiskey-canyon")
    later = game_at(catalog, "after-buzzard-point")
    assert row(later) == [*BASE_ROW[:3], prison.PRISON, *BASE_ROW[3:]]
    entered = {}
    for name, state in (("default", default), ("later", later)):
        advance_from(state, "whiskey-canyon", "5")
        entered[name] = state.spec.bfs[state.marker_bf].id
    assert entered == {"default": prison.PRISON, "later": "buzzard-point"}
    assert default.silent_bf == default.marker_bf and later.silent_bf == -1


def test_a_switch_the_row_was_not_compiled_for_is_refused(catalog: Catalog) -> None:
    with pytest.raises(UnplayableDeckError, match="prison-position"):
        spec = game_spec(catalog, RULES, decks(catalog), None,
                         layout=f"modules:{P}",
                         switches={prison.POSITION.id: "after-buzzard-point"}, modules=(P,))
        setup(spec, 1, 200)


def test_the_prison_cannot_be_put_last(catalog: Catalog) -> None:
    bfs = [bf for card_set in catalog.sets.values() for bf in card_set.card_set.battlefields
           if card_set.card_set.game == "revolver"]
    ordered = modules.select_battlefields(bfs, f"modules:{P}")
    assert [bf.id for bf in ordered][2] == prison.PRISON
    with pytest.raises(UnplayableDeckError):
        prison.place_prison(ordered, f"modules:{P},{prison.POSITION.id}=after-3-15-express")


# -- texts and Santiago ---------------------------------------------------------------------------
def test_texts_are_ignored_only_while_the_marker_is_at_the_prison(catalog: Catalog) -> None:
    state = game_at(catalog, "after-whiskey-canyon")
    assert state.silent_bf == -1
    advance_from(state, "whiskey-canyon", "5")
    assert state.silent_bf == state.spec.bfs.index(
        next(bf for bf in state.spec.bfs if bf.id == prison.PRISON))
    advance_from(state, prison.PRISON, "3")
    assert state.silent_bf == -1


def test_santiago_is_out_of_the_lineup_until_freed(catalog: Catalog) -> None:
    state = game_at(catalog, "after-whiskey-canyon")
    index = prison.prison_facts(state).santiago
    assert state.spec.characters[index].id == prison.SANTIAGO
    assert not state.alive[index] and prison.santiago_place(state) == prison.IMPRISONED
    advance_from(state, prison.PRISON, "3")
    assert state.alive[index] and prison.santiago_place(state) == prison.FREED
    state.check_invariants()


def test_double_the_guard_keeps_him_unless_the_reading_is_a_fight(catalog: Catalog) -> None:
    """santiago-release: Double the guard (firepower 2) alone against a gang card of
    firepower 3 keeps him in by default, and is outgunned under the other reading."""
    freed = {}
    for release in sorted(prison.KNOWN_VARIANTS[prison.RELEASE.id]):
        state = game_at(catalog, "after-whiskey-canyon", release)
        stage(state, LAWMEN, prison.DOUBLE_THE_GUARD, "play", prison.PRISON)
        stage(state, GANG, "hail-of-bullets", "play", prison.PRISON)
        advance_from(state, prison.PRISON, "3")
        freed[release] = prison.santiago_place(state)
        state.check_invariants()
    assert freed == {prison.NO_DOUBLE_GUARD: prison.IMPRISONED, prison.OUTGUN: prison.FREED}


def test_the_duster_is_played_only_at_the_prison(catalog: Catalog) -> None:
    gang = dict(catalog.base_deck("revolver", "colty"))
    gang["duster"] = 1
    state = new_game([gang, catalog.base_deck("revolver", "mcready")], seed=2,
                     catalog=catalog, modules=(P,))
    stage(state, GANG, "duster", "hand")
    offered = {}
    for battlefield, label in (("whiskey-canyon", "2"), (prison.PRISON, "1")):
        stage_marker(state, battlefield, label)
        prison.marker_moved(state)
        refresh(state)
        offered[battlefield] = "play Duster" in {state.action_to_string(a)
                                                 for a in state.legal_actions()}
    assert offered == {"whiskey-canyon": False, prison.PRISON: True}


# -- Module B: the Garrotte ----------------------------------------------------------------------
def choice_game(catalog: Catalog, dollars: int) -> State:
    state = new_game(decks(catalog), seed=4, catalog=catalog,
                     modules=("saloon-duel", "mcreadys-choice", P))
    wanted = f"start with {'two' if dollars == 2 else 'one'} silver dollar"
    state.apply(next(a for a in state.legal_actions()
                     if state.action_to_string(a).startswith(wanted)))
    return state


def test_two_dollars_put_the_garrotte_under_santiago_and_his_release_hands_it_over(
        catalog: Catalog) -> None:
    state = choice_game(catalog, 2)
    facts = prison.prison_facts(state)
    assert cards_under_character(state, facts.santiago) == [facts.garrotte]
    assert facts.garrotte not in state.hands[GANG]
    prison.free_santiago(state)
    assert facts.garrotte in state.hands[GANG]
    assert not cards_under_character(state, facts.santiago)
    state.check_invariants()


def test_one_dollar_leaves_the_garrotte_out_of_the_game(catalog: Catalog) -> None:
    state = choice_game(catalog, 1)
    facts = prison.prison_facts(state)
    assert facts.garrotte in state.removed[GANG]
    assert not cards_under_character(state, facts.santiago)


# -- whole games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("chosen", [(P,), ("saloon-duel", "mcreadys-choice", P)])
def test_random_games_with_the_prison_end_cleanly(catalog: Catalog, chosen: tuple) -> None:
    gang = dict(catalog.base_deck("revolver", "colty"))
    gang["duster"] = 1
    lawmen = dict(catalog.base_deck("revolver", "mcready"))
    lawmen["double-the-guard"] = 1
    rng = random.Random(7)
    places = set()
    for seed in range(12):
        state = new_game([gang, lawmen], seed=seed, catalog=catalog, modules=chosen)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            state.check_invariants()
        places.add(prison.santiago_place(state))
    assert places & {prison.FREED, "dead"}  # he is freed in some games


def test_double_the_guard_is_not_dead_with_the_prison(catalog: Catalog) -> None:
    """Without the prison Double the guard can do nothing; with it, it should be playable
    (the table's `placements` must offer the prison: see the report)."""
    lawmen = dict(catalog.base_deck("revolver", "mcready"))
    lawmen["double-the-guard"] = 1
    plain = new_game([catalog.base_deck("revolver", "colty"), lawmen], seed=1, catalog=catalog)
    assert any(plain.spec.defs[d].id == prison.DOUBLE_THE_GUARD for d in dead_cards(plain.spec))


def test_rules_lists_the_prison_switches() -> None:
    out = subprocess.run([sys.executable, "-m", "deckbuilder", "rules"], capture_output=True,
                         text=True, check=True).stdout
    for text in ("prison-position", "after-whiskey-canyon", "after-buzzard-point",
                 "santiago-release", "no-double-guard", "outgun-the-guards"):
        assert text in out

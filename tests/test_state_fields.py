"""Each field of the table's records is named once, and the rest is tied to that name.

The state's fields are listed once (`STATE_FIELDS`, its `__slots__`) and typed once (its
annotations); `snapshot()` is derived from the list, while `blank` and `clone` set each field
by hand for speed. These tests tie them together: the annotations name exactly the listed
fields, `blank` and `clone` set every one, a clone shares no mutable container with its
original at any depth, and every field but those `NOT_IN_SNAPSHOT` names (with its reason)
changes the snapshot. The spec's and the card records' slots are tied to their annotations
and to what a built game sets the same way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.card_records import BattlefieldDef, CardDef, CharDef
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.state import NOT_IN_SNAPSHOT, SNAPSHOT_FIELDS, STATE_FIELDS, State
from deckbuilder.games import get_game, new_game

#: Fields a clone shares with its original on purpose: the fixed spec, values replaced and
#: never mutated (tuples, frozensets, the game's own data), and the RNG's snapshot.
SHARED_BY_CLONE = frozenset({
    "spec", "_rng", "_rng_snapshot", "pending_resume", "pending_data", "_legal",
    "used_abilities", "pieces_used", "game_data", "termination",
})


def _played(game: str, seed: int, moves: int) -> State:
    catalog = default_catalog()
    decks = [catalog.base_deck(game, side) for side in get_game(game).side_names]
    state = new_game(decks, seed, catalog=catalog, verbose=True)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _declared(cls: type) -> set[str]:
    return set(getattr(cls, "__annotations__", {}))


def test_the_state_annotations_name_exactly_its_fields() -> None:
    assert len(set(STATE_FIELDS)) == len(STATE_FIELDS)
    assert tuple(State.__slots__) == STATE_FIELDS
    assert _declared(State) == set(STATE_FIELDS)


@pytest.mark.parametrize("record", [SpecFields, CardDef, CharDef, BattlefieldDef])
def test_each_record_annotates_exactly_its_slots(record: type) -> None:
    assert _declared(record) == set(record.__slots__), record.__name__


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_a_built_game_sets_every_field_of_its_spec_and_cards(game: str) -> None:
    spec = _played(game, 1, 0).spec
    assert [name for name in SpecFields.__slots__ if not hasattr(spec, name)] == []
    for record, fields in ((spec.card_def[0], CardDef.__slots__),
                           (spec.characters[0], CharDef.__slots__),
                           (spec.bfs[0], BattlefieldDef.__slots__)):
        assert [name for name in fields if not hasattr(record, name)] == []


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_blank_sets_every_field(game: str) -> None:
    spec = _played(game, 2, 0).spec
    state = State.blank(spec, 2, 200, False)
    assert [name for name in STATE_FIELDS if not hasattr(state, name)] == []


def _mutables(value: Any, found: dict[int, str], path: str) -> None:
    """Every mutable container inside `value` (through lists, tuples and dicts), by id."""
    if isinstance(value, (list, dict, set)):
        found[id(value)] = path
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _mutables(item, found, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _mutables(item, found, f"{path}[{key!r}]")


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
@pytest.mark.parametrize("records", [True, False])
def test_a_clone_sets_every_field_and_shares_nothing_it_could_change(game: str,
                                                                      records: bool) -> None:
    state = _played(game, 5, 40)
    copy = state.clone(records=records)
    assert [name for name in STATE_FIELDS if not hasattr(copy, name)] == []
    shared = []
    for name in STATE_FIELDS:
        if name in SHARED_BY_CLONE:
            continue
        original: dict[int, str] = {}
        _mutables(getattr(state, name), original, name)
        copied: dict[int, str] = {}
        _mutables(getattr(copy, name), copied, name)
        shared.extend(path for key, path in copied.items() if key in original)
    assert shared == []
    same = copy.snapshot() == state.snapshot()
    if records:
        assert same
    else:  # a look-ahead copy keeps no record of the actions so far
        assert not same and copy.history == []
        copy.history = state.history[:]
        assert copy.snapshot() == state.snapshot()


def _changed(value: Any) -> Any:
    """A different value of the same shape (to show the snapshot sees the field)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return 1
    if isinstance(value, list):
        return [*value, 0]
    if isinstance(value, tuple):
        return (*value, 0)
    if isinstance(value, frozenset):
        return value | {("changed",)}
    return None


def test_the_snapshot_leaves_out_only_the_fields_it_names() -> None:
    assert set(STATE_FIELDS) > NOT_IN_SNAPSHOT
    assert set(SNAPSHOT_FIELDS) | NOT_IN_SNAPSHOT == set(STATE_FIELDS)


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
@pytest.mark.parametrize("field", SNAPSHOT_FIELDS)
def test_every_field_of_the_position_changes_the_snapshot(game: str, field: str) -> None:
    """Before, `snapshot()` left out whether the attack or the card was cancelled, the task
    stack, the open decision's data, the seed and the turn limit: a clone that lost one of
    them compared equal."""
    state = _played(game, 3, 25)
    copy = state.clone()
    setattr(copy, field, _changed(getattr(copy, field)))
    assert copy.snapshot() != state.snapshot(), field


def test_a_replay_has_the_same_snapshot_tasks_and_all() -> None:
    """Tasks and decisions hold functions and compiled parameters: the snapshot compares them
    by name and content, so a replay (another build of the same game) compares equal after
    every action, mid-move (a cost, a target) too."""
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", side) for side in get_game("revolver").side_names]
    state = new_game(decks, 7, catalog=catalog, verbose=True)
    replay = new_game(decks, 7, catalog=catalog, verbose=True)
    rng = random.Random(7)
    mid_move = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        state.apply(action)
        replay.apply(action)
        assert replay.snapshot() == state.snapshot()
        mid_move += state.pending_data is not None
    assert mid_move > 0

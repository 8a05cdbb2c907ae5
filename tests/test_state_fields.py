"""Each field of the table's records is named once, and the rest is tied to that name.

The state's fields are listed once (`STATE_FIELDS`, its `__slots__`) and typed once (its
annotations); `snapshot()` is derived from the list, while `blank` and `clone` set each field
by hand for speed. These tests tie them together: the annotations name exactly the listed
fields, `blank` and `clone` set every one, a clone shares no mutable container with its
original at any depth, and every field but those `NOT_IN_SNAPSHOT` names (with its reason)
changes the snapshot.

The spec's fields (`SpecFields`) and the card records' (`card_records.py`) are each named in
their `__slots__` (one tuple), typed in their annotations (ModeDef and AbilityDef: in their
`__init__`), and set where the spec or a record is built (`compiled._build_spec`,
`definitions.compile_*`). Deriving the slots from the annotations would need code run at
import in the class body, which the compiled build (mypyc) does not accept, and an `exec`,
which the project forbids; so the tests below tie the three: the annotations name exactly
the slots, and every record a built game holds has every slot set (setting a name that is not
a slot fails at once, `__slots__` has no `__dict__`), its copy too.
"""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path
from typing import Any

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.card_records import (
    AbilityDef,
    BattlefieldDef,
    CardDef,
    CharDef,
    ModeDef,
)
from deckbuilder.engine.compiled import GameSpec
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.state import NOT_IN_SNAPSHOT, SNAPSHOT_FIELDS, STATE_FIELDS, State
from deckbuilder.games import get_game, new_game

#: Fields a clone shares with its original on purpose: the fixed spec, values replaced and
#: never mutated (tuples, frozensets, the game's own data), the RNG's snapshot, and the
#: per-card lists, copied by whichever writes first (see the copy-on-write tests below).
COPIED_ON_WRITE = frozenset({"placed", "power", "grit", "eagle"})
SHARED_BY_CLONE = frozenset({
    "spec", "_rng", "_rng_snapshot", "pending_resume", "pending_data", "_legal",
    "used_abilities", "pieces_used", "game_data", "termination",
}) | COPIED_ON_WRITE


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


def test_the_spec_declares_its_fields_in_one_class() -> None:
    """`GameSpec` adds no field of its own and types none again: `SpecFields` is the one
    declaration (a second annotation could drift from the first)."""
    assert GameSpec.__slots__ == ()
    assert _declared(GameSpec) <= {"__slots__"}


def _records(spec: Any) -> list[tuple[type, Any]]:
    """Every card record the spec holds: each card, its modes and abilities, each character
    and battlefield."""
    found: list[tuple[type, Any]] = [(SpecFields, spec)]
    for card in spec.defs:
        found.append((CardDef, card))
        found.extend((ModeDef, mode) for mode in card.modes)
        found.extend((AbilityDef, ability) for ability in card.abilities)
    found.extend((CharDef, character) for character in spec.characters)
    found.extend((BattlefieldDef, battlefield) for battlefield in spec.bfs)
    return found


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_a_built_game_sets_every_field_of_its_spec_and_cards(game: str) -> None:
    spec = _played(game, 1, 0).spec
    records = _records(spec)
    kinds = {SpecFields, CardDef, ModeDef, CharDef, BattlefieldDef}
    kinds |= {AbilityDef} if game == "revolver" else set()  # Revolver 2's cards have none
    assert {kind for kind, _record in records} >= kinds
    unset = [(kind.__name__, getattr(record, "id", ""), name) for kind, record in records
             for name in kind.__slots__ if not hasattr(record, name)]
    assert unset == []


@pytest.mark.parametrize("fresh", [ModeDef(0, "", 0, 0, 0, False, -1, (), None, ()),
                                   AbilityDef("", 0, False, (), None, False)],
                         ids=["ModeDef", "AbilityDef"])
def test_a_record_typed_in_its_init_sets_every_slot_there(fresh: Any) -> None:
    """ModeDef and AbilityDef are typed by their `__init__` (mypy reads the assignments), so
    their `__init__` is the second place: it sets every slot."""
    assert [name for name in type(fresh).__slots__ if not hasattr(fresh, name)] == []


def _any_built(kind: type) -> Any:
    return next(record for found, record in _records(_played("revolver", 1, 0).spec)
                if found is kind)


@pytest.mark.parametrize("record", [ModeDef, AbilityDef, CardDef, CharDef])
def test_a_copied_record_keeps_every_field(record: type) -> None:
    """A rule switch's reading reshapes a copy of a record: the copy lists its fields from
    the record's one tuple, so it keeps each of them."""
    original = _any_built(record)
    copied = copy.copy(original)
    assert copied is not original
    assert [name for name in record.__slots__
            if getattr(copied, name) is not getattr(original, name)] == []


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


def test_adopt_takes_over_every_field() -> None:
    """`adopt` sets each field by hand, as `clone` does: every one of them, each the very
    object the other state held (sentinels tell a forgotten field from an equal value)."""
    state = _played("revolver", 5, 10)
    other = state.clone()
    sentinels = {name: object() for name in STATE_FIELDS}
    for name, sentinel in sentinels.items():
        object.__setattr__(other, name, sentinel)
    state.adopt(other)
    assert [name for name in STATE_FIELDS if getattr(state, name) is not sentinels[name]] == []


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_a_state_that_adopts_a_copy_plays_on_as_the_copy(game: str) -> None:
    """After `adopt` the state is the copy: the same position, and the same game after it
    (its own generator included), move for move."""
    state = _played(game, 6, 30)
    copy = state.clone()
    copy.apply(copy.legal_actions()[-1])
    reference = copy.clone()
    state.adopt(copy)
    del copy
    assert state.snapshot() == reference.snapshot()
    for played in (state, reference):
        rng = random.Random(3)
        while not played.is_terminal() and len(played.history) < 400:
            actions = played.legal_actions()
            played.apply(actions[rng.randrange(len(actions))])
    assert len(state.history) > 31
    assert state.snapshot() == reference.snapshot()


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


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
@pytest.mark.parametrize("writer", ["original", "copy"])
def test_a_write_to_a_per_card_list_after_a_clone_changes_one_side_only(game: str,
                                                                         writer: str) -> None:
    state = _played(game, 5, 40)
    copy = state.clone()
    before = state.snapshot()
    changed, kept = (state, copy) if writer == "original" else (copy, state)
    uid = next(uid for uid, mode in enumerate(changed.placed) if mode is not None)
    changed.own_power()[uid] += 1
    changed.own_grit()[uid] += 1
    changed.own_eagle()[uid] += 1
    changed.own_placed()[uid] = None
    assert kept.snapshot() == before
    assert (kept.power[uid] + 1, kept.grit[uid] + 1, kept.eagle[uid] + 1) == (
        changed.power[uid], changed.grit[uid], changed.eagle[uid])
    assert kept.placed[uid] is not None and changed.placed[uid] is None
    for name in COPIED_ON_WRITE:
        assert getattr(kept, name) is not getattr(changed, name)
    # A second write goes to the list already copied: the other side still does not see it.
    changed.own_power()[uid] += 1
    assert kept.snapshot() == before


def _writes_to_a_shared_list(tree: ast.AST) -> list[int]:
    """Lines that assign into a per-card list (`state.power[uid] = ...`, `power[uid] += ...`)
    other than through `own_power()` and the like."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for item in (target.elts if isinstance(target, ast.Tuple) else [target]):
                if not isinstance(item, ast.Subscript):
                    continue
                holder = item.value
                name = (holder.attr if isinstance(holder, ast.Attribute)
                        else holder.id if isinstance(holder, ast.Name) else None)
                if name in COPIED_ON_WRITE:
                    found.append(item.lineno)
    return found


def test_the_per_card_lists_are_written_only_through_their_owners() -> None:
    """A write straight into `state.power` (or an alias of it) would change every clone
    sharing the list: the package writes them only through `State.own_power()` and the
    like, which copy a shared list first."""
    package = Path(__file__).resolve().parent.parent / "deckbuilder"
    offending = [f"{path.relative_to(package.parent)}:{line}"
                 for path in sorted(package.rglob("*.py"))
                 for line in _writes_to_a_shared_list(ast.parse(path.read_text("utf-8")))]
    assert offending == []


def test_the_write_check_finds_a_direct_write() -> None:
    code = "state.power[uid] += 1\npower = state.grit\ngrit[uid] = 0\na, state.eagle[1] = 1, 2\n"
    assert _writes_to_a_shared_list(ast.parse(code)) == [1, 3, 4]
    assert _writes_to_a_shared_list(ast.parse("state.own_power()[uid] += 1")) == []

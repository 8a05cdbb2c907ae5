"""Properties of the engine that hold for every registered game, on games hypothesis plays.

Hypothesis draws the set-up (game, ruleset, modules, seed) and every action, so a failing
property shrinks to a short game: the smallest seed, no module, the first legal action where
any action will do. The properties say nothing about who wins (the rules may change); they
tie the engine's own operations together:

- a clone given the same actions stays the same state (every slot, not only `snapshot()`);
- a game record, written and read back, replays to the same state and the same event log;
- re-dealing the cards a player cannot see keeps every zone he can see and every zone's size;
- `action_to_string` gives each legal action its own text.

`EngineGame` checks the first three together as a stateful machine (slow lane); the tests
above it check one property each on whole games (fast lane).
"""

from __future__ import annotations

import functools
import itertools
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.addons import is_hidden
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import EVERYONE, OWNER, PLAYER_ZONES, State
from deckbuilder.games import games, get_game, new_game
from deckbuilder.protocol import UnplayableDeckError
from deckbuilder.rulesets import list_rulesets
from deckbuilder.sim.records.session import replay_record
from deckbuilder.sim.records.transcript import (
    GameRecord,
    Step,
    game_outcome,
    new_record,
    read_record,
)

GAME_NAMES = sorted(games())
#: A longest game is a few hundred actions; a runaway loop stops here instead of hanging.
MAX_ACTIONS = 3000
SEEDS = st.integers(0, 2**31 - 1)
#: Whole games per property: each example plays one game and checks it at every step.
FAST = settings(max_examples=12, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: Slots that are not the game's state: the shared compiled spec (a clone shares it), the
#: random generator (compared through `rng_state()`), the lazily listed legal actions, and
#: which per-card lists are shared with a copy (bookkeeping for copy-on-write).
NOT_STATE = frozenset({"spec", "_rng", "_rng_snapshot", "_legal", "_shared"})


# -- set-ups ---------------------------------------------------------------------------------
def _decks(game: str) -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck(game, side) for side in get_game(game).side_names]


def _rulesets(game: str) -> list[str]:
    default = get_game(game).default_ruleset
    others = sorted(r.id for r in list_rulesets(default_catalog(), game) if r.id != default)
    return [default, *others]  # the default first: a failure shrinks towards it


def _start(game: str, ruleset: str, modules: tuple[str, ...], seed: int) -> State:
    return new_game(_decks(game), seed, ruleset, game=game, verbose=True, modules=modules)


@functools.cache
def _module_choices(game: str) -> list[tuple[str, ...]]:
    """No module, then each module the game plays with the base decks: alone, or else with
    the first other module that makes it playable (a module may need another)."""
    modules = sorted(get_game(game).rules.modules)
    choices: list[tuple[str, ...]] = [()]
    for module in modules:
        for chosen in ((module,), *((module, other) for other in modules if other != module)):
            try:
                _start(game, get_game(game).default_ruleset, chosen, 0)
            except UnplayableDeckError:
                continue
            choices.append(chosen)
            break
    return choices


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, str, tuple[str, ...], int]:
    game = draw(st.sampled_from(GAME_NAMES))
    return (game, draw(st.sampled_from(_rulesets(game))),
            draw(st.sampled_from(_module_choices(game))), draw(SEEDS))


def _started(setup: tuple[str, str, tuple[str, ...], int]) -> State:
    try:
        return _start(*setup)
    except UnplayableDeckError:  # a ruleset that rules out a module: not a game to play
        reject()


# -- what makes two states the same ----------------------------------------------------------
def _slots(state: State) -> list[str]:
    return [name for name in getattr(type(state), "__slots__", ()) if name not in NOT_STATE]


def state_facts(state: State) -> dict[str, Any]:
    """Everything a state is and shows: every slot (`snapshot()` leaves some out), its
    random generator, the legal actions and their texts, each player's observation."""
    facts: dict[str, Any] = {}
    for name in _slots(state):
        value = getattr(state, name)
        if name == "placed":  # modes are the spec's objects: compare where they sit
            value = tuple(-1 if mode is None else mode.index for mode in value)
        facts[name] = value
    legal = state.legal_actions()
    facts["snapshot()"] = state.snapshot()
    facts["rng_state()"] = state.rng_state()
    facts["legal_actions()"] = legal
    facts["action texts"] = [state.action_to_string(action) for action in legal]
    facts["observe(0)"] = observe(state, 0)
    facts["observe(1)"] = observe(state, 1)
    return facts


def assert_same_state(expected: State, actual: State, context: str,
                      not_compared: frozenset[str] = frozenset()) -> None:
    want, got = state_facts(expected), state_facts(actual)
    differing = [name for name in want if name not in not_compared
                 and want[name] != got.get(name)]
    assert not differing, f"{context}: the states differ in {', '.join(differing)}"


# -- re-dealing hidden cards -----------------------------------------------------------------
def assert_redeal_keeps_what_is_seen(state: State, player: int, seed: int) -> None:
    """`resample_hidden(player)` changes only what `player` cannot see."""
    world = state.resample_hidden(player, random.Random(seed))
    world.check_invariants()
    for field, zone, seen_by in PLAYER_ZONES:
        for side in (0, 1):
            before, after = getattr(state, field)[side], getattr(world, field)[side]
            assert len(after) == len(before), f"{zone} of player {side} changed size"
            if seen_by == EVERYONE or (seen_by == OWNER and side == player):
                assert after == before, f"{zone} of player {side} changed, {player} sees it"
    assert sorted(world.decks[player]) == sorted(state.decks[player]), \
        f"player {player}'s own deck changed its cards, not only their order"
    assert [len(row) for row in world.rows] == [len(row) for row in state.rows]
    for row_before, row_after in zip(state.rows, world.rows, strict=True):
        for before, after in zip(row_before, row_after, strict=True):
            face_down = is_hidden(state, before) and state.spec.owner[before] != player
            assert face_down or after == before, "a card in play that everyone sees changed"
    assert len(world.pile) == len(state.pile)
    # limbo is no public zone: a module may keep hidden cards there (the Frontier deck's)
    assert len(world.limbo) == len(state.limbo)
    assert world.under_characters == state.under_characters
    assert observe(world, player) == observe(state, player), \
        f"player {player} sees a different game after re-dealing what he cannot see"


# -- whole games, one property each (fast lane) ----------------------------------------------
def _choose(data: st.DataObject, state: State) -> int:
    legal = state.legal_actions()
    return legal[data.draw(st.integers(0, len(legal) - 1), label="action index")]


@FAST
@given(setup=setups(), clone_at=st.integers(0, 150), data=st.data())
def test_a_clone_given_the_same_actions_stays_the_same_state(
        setup: tuple[str, str, tuple[str, ...], int], clone_at: int,
        data: st.DataObject) -> None:
    """A clone made at every step follows the next action alike; one made at `clone_at`
    follows the rest of the game alike."""
    state = _started(setup)
    twin: State | None = None
    for step in range(MAX_ACTIONS):
        if step == clone_at:
            twin = state.clone()
        if state.is_terminal():
            break
        fresh = state.clone()
        assert_same_state(state, fresh, f"cloned after {step} actions")
        action = _choose(data, state)
        for copy in (state, fresh) if twin is None else (state, fresh, twin):
            copy.apply(action)
        assert_same_state(state, fresh, f"cloned after {step} actions, then one more")
        if twin is not None:
            assert_same_state(state, twin, f"cloned after {clone_at}, now {step + 1} actions")
    assert state.is_terminal()


def _record_of(state: State, setup: tuple[str, str, tuple[str, ...], int],
               steps: list[Step]) -> GameRecord:
    game, _ruleset, modules, seed = setup
    record = new_record(state, _decks(game), seed, ["hypothesis", "hypothesis"],
                        state.max_turns, {}, modules)
    record.steps = list(steps)
    return record


def _step(state: State, action: int) -> Step:
    player = get_game(state.spec.game).side_names[state.current_player()]
    return Step(len(state.history), player, action, state.action_to_string(action))


@FAST
@given(setup=setups(), data=st.data())
def test_a_written_record_replays_to_the_same_state(
        setup: tuple[str, str, tuple[str, ...], int], data: st.DataObject) -> None:
    state = _started(setup)
    started = state.clone()
    steps: list[Step] = []
    while not state.is_terminal():
        assert len(steps) < MAX_ACTIONS
        action = _choose(data, state)
        steps.append(_step(state, action))
        state.apply(action)
    record = _record_of(started, setup, steps)
    record.winner, record.termination, record.turns = game_outcome(state)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_text(record.to_jsonl(), encoding="utf-8")
        read = read_record(path)
    assert read.steps == record.steps
    events: list[str] = []
    result = replay_record(read, narrate=lambda _step, logged, _state: events.extend(logged))
    assert result.mismatch is None, result.mismatch
    # the replay hands its events to the narrator as it goes (its own log is drained)
    assert events == state.log
    assert_same_state(state, result.state, "replayed from the record", frozenset({"log"}))


@FAST
@given(setup=setups(), data=st.data())
def test_redealing_hidden_cards_keeps_every_public_zone_and_every_size(
        setup: tuple[str, str, tuple[str, ...], int], data: st.DataObject) -> None:
    state = _started(setup)
    every = data.draw(st.integers(1, 12), label="re-deal every n actions")
    for step in range(MAX_ACTIONS):
        if step % every == 0:
            for player in (0, 1):
                assert_redeal_keeps_what_is_seen(state, player, data.draw(SEEDS, label="rng"))
        if state.is_terminal():
            break
        state.apply(_choose(data, state))


@FAST
@given(setup=setups(), data=st.data())
def test_each_legal_action_reads_differently(
        setup: tuple[str, str, tuple[str, ...], int], data: st.DataObject) -> None:
    state = _started(setup)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        texts = [state.action_to_string(action) for action in legal]
        repeated = sorted({text for text in texts if texts.count(text) > 1})
        assert not repeated, f"actions read alike: {repeated}"
        state.apply(_choose(data, state))


def test_two_copies_in_play_read_differently() -> None:
    """The example hypothesis found: Esteban plays Cut-throat razor twice, and discarding
    either read 'discard own Cut-throat razor from play'. Each copy now says which it is, as
    a scenario file numbers actions that read alike."""
    state = _start("revolver2", "rulebook-es", (), 2)
    for index in (0, 0, 0, 0, 1, 2):
        state.apply(state.legal_actions()[index])
    texts = [state.action_to_string(action) for action in state.legal_actions()]
    razors = [text for text in texts if text.startswith("discard own Cut-throat razor")]
    assert razors == ["discard own Cut-throat razor from play #1",
                      "discard own Cut-throat razor from play #2"]
    assert len(set(texts)) == len(texts)


# -- the stateful machine (slow lane) --------------------------------------------------------
class EngineGame(RuleBasedStateMachine):
    """One game played a few actions at a time, with clones riding along, hidden cards
    re-dealt and the record replayed between moves; a failure shrinks to a few rules."""

    def __init__(self) -> None:
        super().__init__()
        self.setup: tuple[str, str, tuple[str, ...], int] = ("", "", (), 0)
        self.state: State | None = None
        self.twins: list[State] = []
        self.steps: list[Step] = []
        self.record_start: State | None = None

    @initialize(setup=setups())
    def set_up(self, setup: tuple[str, str, tuple[str, ...], int]) -> None:
        self.setup = setup
        self.state = _started(setup)
        self.record_start = self.state.clone()

    def _playing(self) -> bool:
        return self.state is not None and not self.state.is_terminal()

    @precondition(_playing)
    @rule(choices=st.lists(st.integers(0, 63), min_size=1, max_size=40))
    def act(self, choices: list[int]) -> None:
        state = self.state
        assert state is not None
        for choice in choices:
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = legal[choice % len(legal)]
            self.steps.append(_step(state, action))
            state.apply(action)
            for twin in self.twins:
                twin.apply(action)

    @precondition(lambda self: self.state is not None and len(self.twins) < 2)
    @rule()
    def clone(self) -> None:
        assert self.state is not None
        self.twins.append(self.state.clone())

    @precondition(lambda self: self.state is not None)
    @rule(player=st.integers(0, 1), seed=SEEDS)
    def redeal(self, player: int, seed: int) -> None:
        assert self.state is not None
        assert_redeal_keeps_what_is_seen(self.state, player, seed)

    @precondition(lambda self: self.state is not None)
    @rule()
    def replay(self) -> None:
        state, start = self.state, self.record_start
        assert state is not None and start is not None
        record = _record_of(start, self.setup, self.steps)
        if state.is_terminal():
            record.winner, record.termination, record.turns = game_outcome(state)
        events: list[str] = []
        result = replay_record(record,
                               narrate=lambda _step, logged, _state: events.extend(logged))
        assert result.step in (None, len(self.steps)), result.mismatch
        assert (result.mismatch is None) == state.is_terminal(), result.mismatch
        assert events == state.log
        assert_same_state(state, result.state, f"replayed {len(self.steps)} actions",
                          frozenset({"log"}))

    @invariant()
    def holds_together(self) -> None:
        if self.state is None:
            return
        self.state.check_invariants()
        for twin in self.twins:
            assert_same_state(self.state, twin, "a clone given the same actions")


EngineGame.TestCase.settings = settings(
    max_examples=100, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
test_engine_game_machine = EngineGame.TestCase


def test_every_registered_game_is_drawn() -> None:
    """The set-ups cover the registry (a game added there is played here unasked)."""
    assert sorted(games()) == GAME_NAMES
    for game in GAME_NAMES:
        assert _module_choices(game)[0] == ()
        started = [_start(game, ruleset, (), 1) for ruleset in _rulesets(game)]
        assert all(state.spec.game == game for state in started)
    assert set(itertools.chain.from_iterable(
        choice for game in GAME_NAMES for choice in _module_choices(game))) == {
        module for game in GAME_NAMES for module in get_game(game).rules.modules}

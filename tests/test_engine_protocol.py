"""Protocol conformance: random legal play on every engine game we can build.

Game-agnostic: only the protocol (ENGINE_PROTOCOL.md) is used, plus `check_invariants()` and
`snapshot()`. Each game source plays hundreds of seeded random games.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from engine_cards import HOMEBREW_CARDS, UNPLAYABLE, synthetic_catalog, synthetic_decks

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.protocol import TERMINAL, IllegalActionError

GAMES = 150


def _base_decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def _homebrew_decks() -> list[dict[str, int]]:
    decks = synthetic_decks()
    for card in HOMEBREW_CARDS:
        if card["id"] not in UNPLAYABLE | {"cursed-idol"}:
            decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return decks


def _sources() -> dict[str, tuple[Callable[[int, str], State], list[dict[str, int]]]]:
    sources: dict = {
        "synthetic": (lambda seed, ruleset: new_game(synthetic_decks(), seed, ruleset,
                                                      catalog=synthetic_catalog()),
                      synthetic_decks()),
        "homebrew": (lambda seed, ruleset: new_game(_homebrew_decks(), seed, ruleset,
                                                     catalog=synthetic_catalog()),
                     _homebrew_decks()),
    }
    if default_catalog().base_set_id("revolver") and sum(_base_decks()[0].values()):
        sources["base"] = (lambda seed, ruleset: new_game(_base_decks(), seed, ruleset),
                           _base_decks())
    return sources


SOURCES = _sources()


def _play_random(state: State, rng: random.Random, check: Callable[[State], None]) -> None:
    while not state.is_terminal():
        check(state)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("ruleset", ["rulebook-en", "reviews"])
def test_random_games_keep_the_protocol(source: str, ruleset: str) -> None:
    make, _decks = SOURCES[source]
    capped = 0
    for seed in range(GAMES):
        state = make(seed, ruleset)
        rng = random.Random(seed * 7 + 1)
        steps = 0
        while not state.is_terminal():
            state.check_invariants()
            actions = state.legal_actions()
            assert actions, "legal actions are empty before the end"
            assert actions == sorted(set(actions))
            assert state.current_player() in (0, 1)
            assert state.outcome() is None
            if steps % 5 == 0:
                illegal = rng.choice([-1, max(actions) + 1, 10**6])
                before = state.snapshot()
                with pytest.raises(IllegalActionError):
                    state.apply(illegal)
                assert state.snapshot() == before, "a refused action changed the state"
            state.apply(actions[rng.randrange(len(actions))])
            steps += 1
        state.check_invariants()
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner in (0, 1, None)
        if outcome.termination.value == "turn_cap":
            capped += 1
            assert outcome.winner is None
        assert len(state.history) == steps
    assert capped <= GAMES // 20, f"{capped} of {GAMES} games hit the turn cap"


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_clones_are_independent(source: str) -> None:
    make, _decks = SOURCES[source]
    for seed in range(40):
        rng = random.Random(seed)

        def play_a_clone(state: State, rng: random.Random = rng, seed: int = seed) -> None:
            if rng.random() < 0.2:
                before = state.snapshot()
                copy = state.clone()
                assert copy.snapshot() == before
                _play_random(copy, random.Random(seed + 1000), lambda s: None)
                assert state.snapshot() == before, "playing a clone changed the original"
                copy.check_invariants()

        _play_random(make(seed, "rulebook-en"), rng, play_a_clone)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_same_seed_same_trace_even_with_global_random_disturbed(source: str) -> None:
    make, _decks = SOURCES[source]
    for seed in range(30):
        traces = []
        for disturb in (False, True):
            state = make(seed, "rulebook-en")
            rng = random.Random(seed)
            trace = []
            while not state.is_terminal():
                if disturb:
                    random.seed(len(trace) * 31 + seed)
                    random.shuffle(list(range(10)))
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                trace.append((action, state.current_player()))
                state.apply(action)
            traces.append((trace, state.snapshot()))
        assert traces[0] == traces[1]


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_replaying_history_reproduces_the_game(source: str) -> None:
    make, _decks = SOURCES[source]
    for seed in range(30):
        state = make(seed, "rulebook-en")
        _play_random(state, random.Random(seed + 5), lambda s: None)
        replay = make(seed, "rulebook-en")
        for action in state.history:
            replay.apply(action)
        assert replay.snapshot() == state.snapshot()
        assert replay.outcome() == state.outcome()


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_observation_hides_the_opponents_hand_and_deck_order(source: str) -> None:
    make, _decks = SOURCES[source]
    for seed in range(20):
        rng = random.Random(seed)

        def check_views(state: State, rng: random.Random = rng) -> None:
            for player in (0, 1):
                seen = observe(state, player)
                assert seen.opponent_hand_size == len(state.hands[1 - player])
                assert sorted(seen.hand) == sorted(state.spec.card_def[u].id
                                                   for u in state.hands[player])
                # re-dealing everything this player cannot see leaves his view unchanged
                other_world = state.resample_hidden(player, random.Random(rng.random()))
                other_world.check_invariants()
                assert observe(other_world, player) == seen

        _play_random(make(seed, "rulebook-en"), rng, check_views)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_resampled_worlds_play_on_legally_from_either_side(source: str) -> None:
    make, _decks = SOURCES[source]
    for seed in range(25):
        rng = random.Random(seed)

        def play_a_world(state: State, rng: random.Random = rng, seed: int = seed) -> None:
            if rng.random() < 0.15:
                world = state.resample_hidden(rng.randrange(2), random.Random(rng.random()))
                _play_random(world, random.Random(seed), lambda s: s.check_invariants())

        _play_random(make(seed, "rulebook-en"), rng, play_a_world)


def test_resampling_redeals_the_opponents_hand() -> None:
    make, _decks = SOURCES["synthetic"]
    state = make(3, "rulebook-en")
    changed = 0
    for attempt in range(20):
        world = state.resample_hidden(0, random.Random(attempt))
        changed += sorted(world.hands[1]) != sorted(state.hands[1])
        assert sorted(world.hands[0]) == sorted(state.hands[0])
        assert len(world.hands[1]) == len(state.hands[1])
    assert changed >= 10


def test_turn_cap_ends_the_game_without_a_winner() -> None:
    state = new_game(synthetic_decks(), 1, catalog=synthetic_catalog(), max_turns=3)
    while not state.is_terminal():
        state.apply(0)  # always pass
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination.value == "turn_cap"
    assert state.turn == 3  # turns played

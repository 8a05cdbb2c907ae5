"""The game protocol (ENGINE_PROTOCOL.md) holds for every registered game: random games from
both seats with every bundled deck, every ruleset and every module; every state's invariants;
every action listed legal and nothing else; clones, replays and re-dealt hidden cards that
behave; the global `random` never consulted; and a recorded game's actions mean the same after
an unrelated card set is installed.

Only the protocol is used, plus `check_invariants()`, `snapshot()`, `observe` and
`resample_hidden`. The games come from the registry, so a game added there is checked here.
Revolver also plays two synthetic card pools (tests/engine_cards.py: the rulebook's example
values, and homebrew cards for the effect steps the base game never uses). The long sweeps
(150 games a case) run in the slow lane; every case also runs a few games in the fast one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from engine_cards import HOMEBREW_CARDS, UNPLAYABLE, synthetic_catalog, synthetic_decks

from deckbuilder.catalog import build_catalog, default_catalog
from deckbuilder.decks import load_deck
from deckbuilder.engine.compiled import compiled_catalog
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import State
from deckbuilder.games import games, get_game, new_game
from deckbuilder.protocol import TERMINAL, IllegalActionError, UnplayableDeckError
from deckbuilder.rulesets import list_rulesets

DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
#: Games per bundled deck or module, each ruleset (fast lane).
GAMES_PER_CASE = 6
#: Games per ruleset of each sweep (slow lane): enough to say how often the turn cap is hit.
SWEEP_GAMES = 150
#: Not actions at all: apply must refuse each with IllegalActionError, changing nothing.
NOT_ACTIONS = ("1", None, 1.0, True, b"\x01")
#: Ints out of the action table.
OUT_OF_TABLE = (-1, 10**6, 10**9)
#: Check the refusals every this many steps (they copy the whole state).
REFUSAL_EVERY = 5


@dataclass(frozen=True)
class Source:
    """One way to set up games: a game, the decks in each seat and the modules in use."""

    label: str
    game: str
    start: Callable[[int, str], State]  # (seed, ruleset) -> a new game
    rulesets: tuple[str, ...]


def _rulesets(game: str) -> tuple[str, ...]:
    found = [r.id for r in list_rulesets(default_catalog(), game)]
    return tuple(found) or (get_game(game).default_ruleset,)


def _base_decks(game: str) -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck(game, side) for side in get_game(game).side_names]


def _seated(game: str, deck_file: str) -> list[dict[str, int]]:
    """The bundled deck in its faction's seat, the other faction's base deck opposite."""
    catalog = default_catalog()
    deck = load_deck(DECKS / deck_file, catalog)
    sides = get_game(game).side_names
    seat = sides.index(deck.faction)
    other = catalog.base_deck(game, sides[1 - seat])
    cards = deck.counts()
    return [cards, other] if seat == 0 else [other, cards]


def _deck_files(game: str) -> list[str]:
    catalog = default_catalog()
    return sorted(p.name for p in DECKS.glob("*.yaml") if load_deck(p, catalog).game == game)


def _homebrew_decks() -> list[dict[str, int]]:
    decks = synthetic_decks()
    for card in HOMEBREW_CARDS:
        if card["id"] not in UNPLAYABLE | {"cursed-idol"}:
            decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return decks


def _module_sets(game: str) -> list[tuple[str, ...]]:
    """Each module the game plays with its base decks: alone, or with the first other module
    that makes it playable (a module may need another)."""
    modules = sorted(get_game(game).rules.modules)
    found = []
    for module in modules:
        for chosen in ((module,), *((module, other) for other in modules if other != module)):
            try:
                new_game(_base_decks(game), 0, game=game, modules=chosen)
            except UnplayableDeckError:
                continue
            found.append(chosen)
            break
    return found


def _base_source(game: str) -> Source:
    decks = _base_decks(game)
    return Source(f"{game}-base", game, lambda seed, ruleset: new_game(
        decks, seed, ruleset, game=game), _rulesets(game))


def sweep_sources() -> dict[str, Source]:
    """The long sweeps: each game's base decks, and Revolver's synthetic card pools."""
    sources = {f"{game}-base": _base_source(game) for game in sorted(games())}
    synthetic = (("synthetic", synthetic_decks), ("homebrew", _homebrew_decks))
    for label, decks in synthetic:
        sources[label] = Source(label, "revolver", lambda seed, ruleset, decks=decks: new_game(
            decks(), seed, ruleset, catalog=synthetic_catalog()), ("rulebook-en", "reviews"))
    return sources


def case_sources() -> dict[str, Source]:
    """The short cases: every bundled deck seated, and each module with the base decks."""
    sources = {}
    for game in sorted(games()):
        for deck_file in _deck_files(game):
            decks = _seated(game, deck_file)
            sources[f"{game}-{deck_file}"] = Source(
                deck_file, game, lambda seed, ruleset, decks=decks, game=game: new_game(
                    decks, seed, ruleset, game=game), _rulesets(game))
        for modules in _module_sets(game):
            decks = _base_decks(game)
            sources[f"{game}+{'+'.join(modules)}"] = Source(
                "+".join(modules), game, lambda seed, ruleset, decks=decks, game=game,
                modules=modules: new_game(decks, seed, ruleset, game=game, modules=modules),
                (get_game(game).default_ruleset,))
    return sources


SWEEPS = sweep_sources()
CASES = case_sources()


def _pairs(sources: dict[str, Source]) -> list[tuple[str, str]]:
    return [(label, ruleset) for label, source in sources.items() for ruleset in source.rulesets]


def test_every_game_has_cases_for_each_ruleset() -> None:
    for name in games():
        assert f"{name}-base" in SWEEPS
        assert _deck_files(name), f"{name} has no bundled deck"
        cases = {ruleset for label, ruleset in _pairs(CASES) if CASES[label].game == name}
        assert cases == set(_rulesets(name))
        assert {module for modules in _module_sets(name) for module in modules} == \
            set(get_game(name).rules.modules), f"a module of {name} is never played"
    assert {ruleset for label, ruleset in _pairs(CASES)
            if CASES[label].game == "revolver2"} >= {"rulebook-es", "review-ameritrash-nl"}


# -- random games ----------------------------------------------------------------------------
def _refusals_change_nothing(state: State, legal: list[int]) -> None:
    """Whatever is not a legal action is refused with IllegalActionError, changing nothing."""
    before = state.snapshot()
    unlisted = next((action for action in range(max(legal)) if action not in legal), None)
    wrong = (*NOT_ACTIONS, *OUT_OF_TABLE, max(legal) + 1,
             *(() if unlisted is None else (unlisted,)))
    for action in wrong:
        with pytest.raises(IllegalActionError):
            state.apply(action)  # type: ignore[arg-type]
    assert state.snapshot() == before, "a refused action changed the state"
    assert state.clone().snapshot() == before


def play_checked_games(source: Source, ruleset: str, count: int) -> None:
    """Random games with every check of the protocol at every step."""
    terminations = get_game(source.game).terminations
    rng = random.Random(f"{source.label}/{ruleset}")
    capped = 0
    for index in range(count):
        state = source.start(rng.randrange(1 << 30), ruleset)
        steps = 0
        while not state.is_terminal():
            state.check_invariants()
            legal = state.legal_actions()
            assert legal, f"legal actions are empty before the end (step {steps})"
            assert legal == sorted(set(legal))
            assert state.current_player() in (0, 1)
            assert state.outcome() is None
            if steps % REFUSAL_EVERY == index % REFUSAL_EVERY:
                _refusals_change_nothing(state, legal)
            action = legal[rng.randrange(len(legal))]
            assert isinstance(state.action_to_string(action), str)
            state.apply(action)
            steps += 1
            assert steps < 5000
        state.check_invariants()
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner in (0, 1, None)
        assert isinstance(outcome.termination, terminations)
        if outcome.termination.value == "turn_cap":
            capped += 1
            assert outcome.winner is None
        assert len(state.history) == steps
        with pytest.raises(IllegalActionError):
            state.apply(0)
    if count >= 20:  # a rate needs a sample
        assert capped <= count // 20, f"{capped} of {count} games hit the turn cap"


@pytest.mark.parametrize(("source", "ruleset"), _pairs(CASES))
def test_random_games_keep_the_protocol(source: str, ruleset: str) -> None:
    play_checked_games(CASES[source], ruleset, GAMES_PER_CASE)


@pytest.mark.parametrize(("source", "ruleset"), _pairs(SWEEPS))
def test_long_random_games_keep_the_protocol(source: str, ruleset: str) -> None:
    play_checked_games(SWEEPS[source], ruleset, SWEEP_GAMES)


# -- clones, replays, determinism ------------------------------------------------------------
def _play_random(state: State, rng: random.Random, check: Callable[[State], None]) -> None:
    while not state.is_terminal():
        check(state)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def _start(source: str, seed: int) -> State:
    chosen = SWEEPS[source]
    return chosen.start(seed, chosen.rulesets[0])


@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_clones_are_independent(source: str) -> None:
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

        _play_random(_start(source, seed), rng, play_a_clone)


@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_same_seed_same_trace_even_with_global_random_disturbed(source: str) -> None:
    for seed in range(30):
        traces = []
        for disturb in (False, True):
            state = _start(source, seed)
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


@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_replaying_history_reproduces_the_game(source: str) -> None:
    for seed in range(30):
        state = _start(source, seed)
        _play_random(state, random.Random(seed + 5), lambda s: None)
        replay = _start(source, seed)
        for action in state.history:
            replay.apply(action)
        assert replay.snapshot() == state.snapshot()
        assert replay.outcome() == state.outcome()


# -- hidden information ----------------------------------------------------------------------
@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_observation_hides_the_opponents_hand_and_deck_order(source: str) -> None:
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

        _play_random(_start(source, seed), rng, check_views)


@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_resampled_worlds_play_on_legally_from_either_side(source: str) -> None:
    for seed in range(25):
        rng = random.Random(seed)

        def play_a_world(state: State, rng: random.Random = rng, seed: int = seed) -> None:
            if rng.random() < 0.15:
                world = state.resample_hidden(rng.randrange(2), random.Random(rng.random()))
                _play_random(world, random.Random(seed), lambda s: s.check_invariants())

        _play_random(_start(source, seed), rng, play_a_world)


def test_redealing_the_poker_tournament_deals_each_card_once() -> None:
    """The guardians' face-down card stays in their hand until revealed: Mapache's re-deal
    once pooled it twice ((0, 1, 2, 3, 5) became (0, 0, 1, 3, 5), seed 0)."""
    state = _start("revolver2-base", 0)
    state.apply(state.legal_actions()[0])  # the guardians put a card face down
    before = state.game_data
    guardians = sorted((*before.hands[0], before.set_aside[0]))
    face_downs = set()
    for seed in range(20):
        world = state.resample_hidden(1, random.Random(seed))
        tournament = world.game_data
        assert sorted((*tournament.hands[0], tournament.set_aside[0])) == guardians
        assert tournament.face_down in tournament.hands[0]
        assert tournament.hands[1] == before.hands[1]  # Mapache's own cards stay
        legal = world.legal_actions()
        assert len(set(legal)) == len(legal)
        face_downs.add(tournament.face_down)
    assert len(face_downs) > 1  # which card lies face down is re-dealt too


@pytest.mark.parametrize("source", sorted(SWEEPS))
def test_resampling_redeals_the_opponents_hand(source: str) -> None:
    state = _start(source, 3)
    while len(state.hands[1]) < 2 or not state.decks[1]:  # Revolver 2 deals after the poker
        state.apply(state.legal_actions()[0])
    changed = 0
    for attempt in range(20):
        world = state.resample_hidden(0, random.Random(attempt))
        changed += sorted(world.hands[1]) != sorted(state.hands[1])
        assert sorted(world.hands[0]) == sorted(state.hands[0])
        assert len(world.hands[1]) == len(state.hands[1])
    assert changed >= 10


@pytest.mark.parametrize("game", sorted(games()))
def test_turn_cap_ends_the_game_without_a_winner(game: str) -> None:
    state = new_game(_base_decks(game), 1, game=game, max_turns=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination.value == "turn_cap"
    assert state.turn == 3  # turns played


def test_turn_cap_of_the_synthetic_cards_when_every_player_passes() -> None:
    state = new_game(synthetic_decks(), 1, catalog=synthetic_catalog(), max_turns=3)
    while not state.is_terminal():
        state.apply(0)  # always pass
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination.value == "turn_cap"
    assert state.turn == 3


# -- records across installations ------------------------------------------------------------
HOMEBREW = """\
id: a-unrelated-homebrew
name: An unrelated homebrew card
version: "1.0"
game: {game}
kind: homebrew
cards:
  - id: a-unrelated-{game}-card
    name: Unrelated {game} card
    faction: {faction}
    category: firepower
    play: firepower
    copies: 1
    cost: 0
    firepower: 1
"""


@pytest.mark.parametrize("game", sorted(games()))
def test_a_record_means_the_same_after_an_unrelated_set_is_installed(
        game: str, tmp_path: Path) -> None:
    plain = build_catalog(use_user_data=False)
    sides = get_game(game).side_names
    decks = [plain.base_deck(game, side) for side in sides]
    state = new_game(decks, 11, catalog=plain)
    rng = random.Random(11)
    actions, texts = [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        texts.append(state.action_to_string(action))
        state.apply(action)
    home_set = tmp_path / "homebrew.yaml"
    home_set.write_text(HOMEBREW.format(game=game, faction=sides[0]), encoding="utf-8")
    extended = build_catalog(user_sets=[home_set], overlay=tmp_path / "no-overlay.yaml")
    assert len(list(extended.cards())) == len(list(plain.cards())) + 1
    # The game's catalog holds one card more (a numbering over it would shift the actions
    # that pay, retrieve or name cards); the decks' own numbering does not move.
    rules = get_game(game).rules
    assert len(compiled_catalog(extended, rules).defs) == \
        len(compiled_catalog(plain, rules).defs) + 1
    replayed = new_game(decks, 11, catalog=extended)
    assert replayed.spec.layout.size == state.spec.layout.size
    for action, text in zip(actions, texts, strict=True):
        assert replayed.action_to_string(action) == text
        replayed.apply(action)
    assert replayed.outcome() == state.outcome()

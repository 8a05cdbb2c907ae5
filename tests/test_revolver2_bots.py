"""Revolver 2's bots: the scoring greedy's values are the heuristic's own, it reads nothing
hidden, it plays every decision legally, and the ladder holds against random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from deckbuilder.bots import make_bot, settle_move
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import CHARACTER_BASE, K_CASUALTY, K_MAIN, K_SACRIFICE, PASS
from deckbuilder.engine.card_steps import kill_candidates, removable
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver2.bots.evaluate import Reading, evaluate, value_of
from deckbuilder.games.revolver2.bots.play_changes import changes, is_plain
from deckbuilder.games.revolver2.bots.quick import quick_choice
from deckbuilder.games.revolver2.bots.scoring import ScoringGreedy, _from_numbers
from deckbuilder.games.revolver2.pieces import _resume_hit

HEURISTICS = get_game("revolver2").heuristics


def decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver2", "esteban"), catalog.base_deck("revolver2", "mapache")]


def _greedy_positions(games: int, switches: dict[str, str] | None = None):
    """Every open decision along seeded games of the greedy against itself (the position is
    yielded before the bot takes the decision)."""
    bot = ScoringGreedy()
    for seed in range(games):
        state = new_game(decks(), seed, switches=switches)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(bot.choose(state, rng))


def positions(games: int = 6):
    """Play-phase positions along seeded greedy games."""
    for state in _greedy_positions(games):
        if state.pending_kind == K_MAIN and len(state.legal_actions()) > 1:
            yield state


def _kind_of(state, card, player) -> str:
    """Which of `play_changes`' kinds of play a card valued from the numbers is."""
    if is_plain(state, card, player):
        return "plain"
    mode = card.modes[0]
    if not mode.effect:
        return "placed"
    return mode.effect[0][0].__name__  # run_draw, run_add_token, run_kill, run_destroy


def _draws(state, action: int, player: int) -> bool:
    layout = state.spec.layout
    if not layout.play_base <= action < layout.pay_base:
        return False
    found = changes(state, state.spec.defs[state.spec.action_def[action]], player)
    return found is not None and found[1] > 0


def test_every_option_valued_from_the_numbers_is_valued_as_its_play_out() -> None:
    """The value from the numbers equals the value of the option played out and settled (the
    look-ahead's choices inside the move taken by the value too), for every kind of play
    `play_changes` reads, with and without a choice inside it."""
    checked: Counter[str] = Counter()
    for state in positions(10):
        player = state.current_player()
        reading = Reading(state, player)
        for action in state.legal_actions():
            if action == PASS:
                continue
            scored = _from_numbers(state, reading, action)
            if scored is None or _draws(state, action, player):
                continue  # a draw is valued at its deck's average symbols: no one play-out's
            after = state.clone()
            after.apply(action)
            settle_move(after, evaluate, random.Random(0), quick=quick_choice)
            name = state.action_to_string(action)
            assert abs(scored - evaluate(after, player)) < 1e-9, name
            layout = state.spec.layout
            if layout.play_base <= action < layout.pay_base:
                card = state.spec.defs[state.spec.action_def[action]]
                ends = changes(state, card, player)
                assert ends is not None
                kind = _kind_of(state, card, player)
                checked[kind] += 1
                if len(ends[0]) > 1:  # the play asks which card
                    checked[kind + " with a choice"] += 1
            else:
                checked["discard own card"] += 1
    for kind in ("plain", "placed", "run_add_token", "run_kill", "run_destroy",
                 "discard own card"):
        assert checked[kind] >= 20, (kind, checked)
    for kind in ("run_add_token", "run_kill", "run_destroy"):
        assert checked[kind + " with a choice"] >= 3, (kind, checked)


@pytest.mark.parametrize(("runner", "speaks"), [("run_kill", "on_death"),
                                                  ("run_destroy", "on_destroyed")])
def test_a_target_that_speaks_when_it_goes_sends_the_play_to_the_play_out(
        runner: str, speaks: str) -> None:
    """A kill or destroy whose target has text for its death (or destruction) is more than its
    firepower: the play is played out, not valued from the numbers."""
    for state in positions(10):
        player = state.current_player()
        layout = state.spec.layout
        for action in state.legal_actions():
            if not layout.play_base <= action < layout.pay_base:
                continue
            card = state.spec.defs[state.spec.action_def[action]]
            if not card.modes[0].effect or card.modes[0].effect[0][0].__name__ != runner:
                continue
            found = changes(state, card, player)
            if found is None or found[0] == [(0, 0)]:
                continue
            target, params = card.modes[0].effect[0][1][0], card.modes[0].effect[0][1]
            victims = (kill_candidates(state, params, (player, -1, state.marker_bf), 0)
                       if runner == "run_kill" else
                       removable(state, target, (player, -1, state.marker_bf), False))
            victim = state.spec.card_def[victims[0]]
            before = getattr(victim, speaks)
            setattr(victim, speaks, ((lambda *_: None, ()),))  # any step at all
            try:
                assert changes(state, card, player) is None
            finally:
                setattr(victim, speaks, before)
            assert changes(state, card, player) is not None
            return
    pytest.fail(f"no position offered a {runner} with a target")


def test_ending_the_play_phase_is_valued_as_the_position_itself() -> None:
    for state in positions(2):
        player = state.current_player()
        reading = Reading(state, player)
        assert value_of(reading, reading.attack, reading.defence, *reading.hands,
                        reading.held) == evaluate(state, player)
        assert PASS in state.legal_actions()


def _scored_from_numbers(state, action: int, player: int) -> bool:
    if action == PASS:
        return True
    reading = Reading(state, player)
    return _from_numbers(state, reading, action) is not None


def test_the_scoring_greedy_reads_nothing_hidden() -> None:
    """Where every option is scored from the numbers, re-dealing what the player cannot see
    (the opponent's hand, both decks, the guardian pile) never changes the choice."""
    bot = ScoringGreedy()
    compared = 0
    for state in positions(16):
        player = state.current_player()
        plain = all(_scored_from_numbers(state, action, player)
                    for action in state.legal_actions())
        if not plain:
            continue
        choice = bot.choose(state, random.Random(1))
        for trial in range(3):
            world = state.resample_hidden(player, random.Random(trial))
            assert bot.choose(world, random.Random(1)) == choice
        compared += 1
    assert compared > 30


def _wins(first: str, second: str, games: int) -> list[int]:
    bots = [make_bot(first, HEURISTICS), make_bot(second, HEURISTICS)]
    wins = [0, 0]
    for seed in range(games):
        state = new_game(decks(), 1000 + seed)
        rngs = [random.Random(seed), random.Random(seed + 99)]
        while not state.is_terminal():
            player = state.current_player()
            state.apply(bots[player].choose(state, rngs[player]))
        winner = state.outcome().winner
        if winner is not None:
            wins[winner] += 1
    return wins


def test_greedy_beats_random_from_both_seats() -> None:
    assert _wins("greedy", "random", 12)[0] >= 11
    assert _wins("random", "greedy", 12)[1] >= 10


def test_greedy_is_the_scoring_one_and_the_play_out_greedy_stays_available() -> None:
    assert isinstance(make_bot("greedy", HEURISTICS), ScoringGreedy)
    playout = make_bot("greedy:judge=playout", HEURISTICS)
    assert playout.name == "greedy:judge=playout" and not isinstance(playout, ScoringGreedy)
    search = make_bot("search:rollouts=8", HEURISTICS)
    assert isinstance(search.rollout_bot, ScoringGreedy)


def _guardian_losses(kind: int, games: int = 12):
    """Decisions of `kind` among guardians of different true grit, along seeded greedy games."""
    for state in _greedy_positions(games):
        actions = state.legal_actions()
        if state.pending_kind == kind and len(actions) > 1:
            base = state.spec.character_base - CHARACTER_BASE
            if len({state.grit[base + action] for action in actions}) > 1:
                yield state, actions


def _gatling_hit_kinds(switches: dict[str, str], games: int = 12) -> Counter[int]:
    """The kinds of the decisions the Gatling Gun's hits open, along seeded greedy games."""
    return Counter(state.pending_kind for state in _greedy_positions(games, switches)
                   if state.pending_resume is _resume_hit)


def test_a_gatling_hit_the_owner_chooses_is_a_sacrifice_where_no_token_saves() -> None:
    """gatling-casualty=owner-chooses: where true grit does not save (the default reading) the
    guardian is lost outright, and the decision says so (the player reads "lose", and the bot
    keeps his true grit: the test below); where it saves, it is a casualty."""
    lost = _gatling_hit_kinds({"gatling-casualty": "owner-chooses"})
    assert lost[K_SACRIFICE] >= 3 and lost[K_CASUALTY] == 0
    saved = _gatling_hit_kinds({"gatling-casualty": "owner-chooses", "gatling-true-grit": "saves"})
    assert saved[K_CASUALTY] >= 3 and saved[K_SACRIFICE] == 0


def test_a_guardian_lost_outright_is_the_one_with_the_least_true_grit() -> None:
    """Where no token saves him (a sacrifice: the Gatling Gun's hits by default), the bot keeps
    the guardians with true grit (the tokens stay on the living) and Padre Esteban. Where a
    token saves him (a casualty), the one with true grit is hit first."""
    seen = 0
    for state, actions in _guardian_losses(K_SACRIFICE):
        base = state.spec.character_base - CHARACTER_BASE
        leader = CHARACTER_BASE + state.spec.leader
        chosen = quick_choice(state, actions)
        assert chosen is not None
        others = [a for a in actions if a != leader]  # Padre Esteban only when he is alone
        assert chosen != leader or not others
        assert state.grit[base + chosen] == min(state.grit[base + a] for a in others or actions)
        seen += 1
    assert seen >= 3
    seen = 0
    for state, actions in _guardian_losses(K_CASUALTY, 40):
        base = state.spec.character_base - CHARACTER_BASE
        chosen = quick_choice(state, actions)
        assert chosen is not None
        assert state.grit[base + chosen] == max(state.grit[base + a] for a in actions)
        seen += 1
    assert seen >= 1

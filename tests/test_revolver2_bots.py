"""Revolver 2's bots: the scoring greedy's values are the heuristic's own, it reads nothing
hidden, it plays every decision legally, and the ladder holds against random play."""

from __future__ import annotations

import random

from deckbuilder.bots import make_bot, settle_move
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.expansion_steps import card_cost
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver2.bots.evaluate import Reading, evaluate, value_of
from deckbuilder.games.revolver2.bots.quick import quick_choice
from deckbuilder.games.revolver2.bots.scoring import ScoringGreedy, _payment, drawn_by, is_plain

HEURISTICS = get_game("revolver2").heuristics


def decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver2", "esteban"), catalog.base_deck("revolver2", "mapache")]


def positions(games: int = 6):
    """Play-phase positions along seeded greedy games."""
    bot = ScoringGreedy()
    for seed in range(games):
        state = new_game(decks(), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.pending_kind == K_MAIN and len(state.legal_actions()) > 1:
                yield state
            state.apply(bot.choose(state, rng))


def test_a_plain_card_is_valued_as_if_played_and_paid() -> None:
    checked = 0
    for state in positions():
        player = state.current_player()
        reading = Reading(state, player)
        for action in state.legal_actions():
            if not state.spec.layout.play_base <= action < state.spec.layout.pay_base:
                continue
            definition = state.spec.action_def[action]
            card = state.spec.defs[definition]
            if not is_plain(state, card, player):
                continue
            after = state.clone()
            after.apply(action)
            settle_move(after, evaluate, random.Random(0), quick=quick_choice)
            cost = card_cost(state, player, card, state.marker_bf)
            kegs, ammunition = _payment(state, player, definition, cost)
            lost = (card.kegs + kegs) if player == 0 else (card.ammunition + ammunition)
            hands = list(reading.hands)
            hands[player] -= 1 + cost
            power = card.modes[0].firepower + card.enter_power
            attack = reading.attack + (power if player == 1 else 0)
            defence = reading.defence + (power if player == 0 else 0)
            scored = value_of(reading, attack, defence, hands[0], hands[1], reading.held - lost)
            assert abs(scored - evaluate(after, player)) < 1e-9, card.name
            checked += 1
    assert checked > 100


def test_ending_the_play_phase_is_valued_as_the_position_itself() -> None:
    for state in positions(2):
        player = state.current_player()
        reading = Reading(state, player)
        assert value_of(reading, reading.attack, reading.defence, *reading.hands,
                        reading.held) == evaluate(state, player)
        assert PASS in state.legal_actions()


def _scored_from_numbers(state, action: int, player: int) -> bool:
    layout = state.spec.layout
    if action == PASS or layout.own_base <= action < layout.ability_base:
        return True
    if not layout.play_base <= action < layout.pay_base:
        return False
    card = state.spec.defs[state.spec.action_def[action]]
    return is_plain(state, card, player) or drawn_by(state, card, player) > 0


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

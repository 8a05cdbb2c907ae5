"""Quick choices inside the greedy look-ahead: which card pays a cost, without judging each."""

from __future__ import annotations

import random

import pytest

from deckbuilder.bots import BotSpecError, GreedyBot, make_bot
from deckbuilder.catalog import build_catalog
from deckbuilder.engine.actions import K_MAIN, K_PAY
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver.bots.evaluate import evaluate
from deckbuilder.games.revolver.bots.quick import card_worth, quick_choice

REVOLVER = get_game("revolver").heuristics


def _decks() -> list[dict[str, int]]:
    catalog = build_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def _worth(state, card_id: str) -> float:
    spec = state.spec
    return card_worth(next(card for card in spec.defs if card.id == card_id))


def test_a_card_that_kills_or_fires_harder_is_worth_keeping_longer() -> None:
    state = new_game(_decks(), seed=1)
    assert _worth(state, "get-the-rope-ready-boys") > _worth(state, "cowboy")
    assert _worth(state, "deputy") > _worth(state, "cowboy")
    assert _worth(state, "hail-of-bullets") > _worth(state, "38-special")


def _first_decision(kind: int, seed: int):
    state = new_game(_decks(), seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        if state.pending_kind == kind and len(actions) > 1:
            return state, actions
        state.apply(actions[rng.randrange(len(actions))])
    return None


def test_a_payment_discards_the_card_of_least_worth() -> None:
    checked = 0
    for seed in range(20):
        found = _first_decision(K_PAY, seed)
        if found is None:
            continue
        state, actions = found
        choice = quick_choice(state, actions)
        assert choice in actions
        action_def = state.spec.action_def
        worths = [card_worth(state.spec.defs[action_def[action]]) for action in actions]
        assert card_worth(state.spec.defs[action_def[choice]]) == min(worths)
        checked += 1
    assert checked >= 5


def test_other_decisions_are_left_to_the_bot() -> None:
    found = _first_decision(K_MAIN, 3)
    assert found is not None
    assert quick_choice(*found) is None


def test_quick_payments_save_heuristic_calls_in_the_same_game() -> None:
    calls = {"quick": 0, "full": 0}

    def counting(label: str):
        def judge(state, player: int) -> float:
            calls[label] += 1
            return evaluate(state, player)
        return judge

    for label, quick in (("quick", quick_choice), ("full", None)):
        bot = GreedyBot(counting(label), quick=quick)
        state = new_game(_decks(), seed=5)
        rng = random.Random(5)
        for _ in range(120):
            if state.is_terminal():
                break
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
            state.apply(action)
    assert 0 < calls["quick"] < calls["full"]


def test_the_spec_switches_quick_choices_off() -> None:
    assert make_bot("greedy:judge=playout", REVOLVER).quick is quick_choice
    off = make_bot("greedy:judge=playout,quick=false", REVOLVER)
    assert off.quick is None and off.name == "greedy:judge=playout,quick=false"
    both = make_bot("greedy:judge=playout,settle=false,quick=false", REVOLVER)
    assert both.name == "greedy:judge=playout,quick=false,settle=false"
    # Quick choices belong to the play-out greedy: the scoring greedy takes no such option.
    with pytest.raises(BotSpecError, match="judge=playout"):
        make_bot("greedy:quick=false", REVOLVER)
    # A bot given another game's heuristic gets no Revolver shortcuts.
    assert make_bot("greedy", lambda state, player: 0.0).quick is None

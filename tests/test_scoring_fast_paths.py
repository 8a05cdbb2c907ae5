"""The Revolver greedy bot's fast paths give what the plain formulas give, to the last bit.

The compiled build's speed work (issue 22 §4) replaced sorts of card tuples, hands remembered
by tuple keys and a sort by a called key with loops over small ints. Every decision must stay
the same, so each fast path is held here to the plain formula it replaced, over many random
hands of the base decks and of the homebrew decks (whose cards make other orders).
"""

from __future__ import annotations

import random

import pytest
from engine_cards import HOMEBREW_CARDS, UNPLAYABLE, synthetic_catalog, synthetic_decks

from deckbuilder.catalog import build_catalog
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.state import ATTACKER, DEFENDER
from deckbuilder.games import new_game
from deckbuilder.games.revolver.bots.card_profiles import profiles_for
from deckbuilder.games.revolver.bots.evaluate_tables import (
    MAX_EXPECTED_HAND,
    Tables,
    answer_of,
    fire_ranks,
    firepower_of,
)
from deckbuilder.games.revolver.bots.scoring_rules import hand_after_paying

HANDS = 400


def _base_spec() -> SpecFields:
    catalog = build_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    return new_game(decks, 0, catalog=catalog).spec


def _homebrew_spec() -> SpecFields:
    decks = synthetic_decks()
    for card in HOMEBREW_CARDS:
        if card["id"] not in UNPLAYABLE | {"cursed-idol"}:
            decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return new_game(decks, 0, catalog=synthetic_catalog()).spec


SPECS = [pytest.param(_base_spec, id="base"), pytest.param(_homebrew_spec, id="homebrew")]


def _hands(spec: SpecFields, side: int, seed: int) -> list[list[int]]:
    """Random hands (0 to 9 cards) from the side's deck, in a random order."""
    rng = random.Random(seed)
    deck = list(spec.decks[side])
    return [rng.sample(deck, rng.randrange(min(10, len(deck)) + 1)) for _ in range(HANDS)]


def _plain_answer(tables: Tables, hand: list[int], room: int) -> float:
    """`answer_of` as it was: the hand's firepower tuples sorted, strongest first."""
    fires = sorted((fire for uid in hand if (fire := tables.gang_fire[uid]) is not None),
                   reverse=True)
    budget, total = len(hand), 0.0
    for power, cost, counts in fires:
        if cost < budget and (room > 0 or not counts):
            total += power
            budget -= 1 + cost
            room -= counts
    return total


@pytest.mark.parametrize("make", SPECS)
def test_hand_firepower_is_the_sorted_tuples_sum(make) -> None:  # type: ignore[no-untyped-def]
    spec = make()
    tables = Tables(spec)
    assert tables.lawman_rank is not None  # the fast path is the one tested
    for hand in _hands(spec, ATTACKER, 1):
        for bf in range(-1, spec.n_bf):
            fires = [fire for uid in hand if (fire := tables.uid_fire[uid]) is not None]
            expected = firepower_of(fires, len(hand), bf) if fires else 0.0
            assert tables.hand_firepower(hand, bf) == expected


@pytest.mark.parametrize("make", SPECS)
def test_the_gangs_answer_is_the_sorted_tuples_sum(make) -> None:  # type: ignore[no-untyped-def]
    spec = make()
    tables = Tables(spec)
    assert tables.gang_rank is not None
    for hand in _hands(spec, DEFENDER, 2):
        for room in range(4):
            assert answer_of(tables, hand, room) == _plain_answer(tables, hand, room)


@pytest.mark.parametrize("make", SPECS)
def test_gang_here_adds_the_gang_to_each_later_answer(make) -> None:  # type: ignore[no-untyped-def]
    spec = make()
    tables = Tables(spec)
    for hand in _hands(spec, DEFENDER, 3)[:100]:
        for seen in (True, False):
            for here in range(4):
                now, later = tables.gang_answers(hand, 2, here, seen)
                assert len(later) == here
                here_now, here_gang = tables.gang_here(hand, 2, here, seen, 1.5)
                assert here_now == now
                assert here_gang == [1.5 + answer for answer in later]
                if not seen:  # McReady's view: the average for a hand of that size
                    size = min(len(hand), MAX_EXPECTED_HAND)
                    assert now == tables.expected_answer[2][size]


def test_the_ranks_follow_the_tuple_order_and_refuse_a_partial_one() -> None:
    waived = [(4, 3, frozenset({3, 4})), None, (4, 3, frozenset({4})), (2, 0, frozenset())]
    ranks, ranked = fire_ranks(waived)
    assert ranks == [0, -1, 1, 2]
    assert ranked == sorted({fire for fire in waived if fire is not None}, reverse=True)
    # Neither set of battlefields holds the other: no order to rank by.
    assert fire_ranks([(4, 3, frozenset({3})), (4, 3, frozenset({4}))]) == (None, [])


@pytest.mark.parametrize("make", SPECS)
def test_paying_takes_what_a_stable_sort_by_rank_puts_first(make) -> None:  # type: ignore[no-untyped-def]
    spec = make()
    profiles = profiles_for(spec)
    rank = profiles.pay_rank
    for side in (ATTACKER, DEFENDER):
        for hand in _hands(spec, side, 4 + side):
            for cost in range(len(hand) + 2):
                paid = sorted(hand, key=rank.__getitem__)[:cost]
                expected = [uid for uid in hand if uid not in paid]
                assert hand_after_paying(profiles, hand, cost) == expected

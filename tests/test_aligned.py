"""Aligned deck orders: a changed deck lies like its reference but for the changed cards, so
paired games share their draws (deckbuilder.sim.runs.aligned, engine.compiled.deck_order)."""

from __future__ import annotations

from collections import Counter

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.compiled import deck_order
from deckbuilder.games import new_game
from deckbuilder.protocol import InvariantError
from deckbuilder.sim.runs.aligned import aligned_order
from deckbuilder.sim.runs.runner import GameJob, deck_items, play_one
from deckbuilder.sim.runs.seeds import game_seed


def _swapped(deck: dict[str, int], out: str, into: str, copies: int) -> dict[str, int]:
    changed = dict(deck)
    changed[out] -= copies
    if not changed[out]:
        del changed[out]
    changed[into] = changed.get(into, 0) + copies
    return changed


def test_the_reference_itself_lies_in_the_default_order() -> None:
    deck = default_catalog().base_deck("revolver", "mcready")
    assert list(aligned_order(deck, deck)) == deck_order(deck)


@pytest.mark.parametrize(("out", "into", "copies"), [
    ("deputy", "texas-ranger", 1), ("deputy", "texas-ranger", 10), ("deputy", "cowboy", 2)])
def test_an_aligned_deck_keeps_every_shared_card_in_its_place(out: str, into: str,
                                                              copies: int) -> None:
    reference = default_catalog().base_deck("revolver", "mcready")
    deck = _swapped(reference, out, into, copies)
    order = aligned_order(deck, reference)
    assert Counter(order) == Counter({card: n for card, n in deck.items() if n})
    changed = [i for i, (a, b) in enumerate(zip(order, deck_order(reference), strict=True))
               if a != b]
    assert len(changed) == copies
    assert {deck_order(reference)[i] for i in changed} == {out}
    assert {order[i] for i in changed} == {into}


def test_an_aligned_deck_is_shuffled_like_its_reference_but_for_the_swapped_card() -> None:
    catalog = default_catalog()
    colty = catalog.base_deck("revolver", "colty")
    reference = catalog.base_deck("revolver", "mcready")
    deck = _swapped(reference, "deputy", "texas-ranger", 1)

    def dealt(cards: dict[str, int], order: tuple[str, ...] | None) -> list[str]:
        state = new_game([colty, cards], 11, catalog=catalog, orders=(None, order))
        ids = state.spec.card_def
        return [ids[uid].id for uid in state.hands[1] + state.decks[1]]

    same_seed = dealt(reference, None)
    aligned = dealt(deck, aligned_order(deck, reference))
    sorted_by_id = dealt(deck, None)
    assert sum(a != b for a, b in zip(aligned, same_seed, strict=True)) == 1
    assert sum(a != b for a, b in zip(sorted_by_id, same_seed, strict=True)) >= 5


def test_an_order_must_hold_the_decks_cards() -> None:
    with pytest.raises(InvariantError):
        deck_order({"deputy": 2}, ["deputy"])
    with pytest.raises(InvariantError):
        deck_order({"deputy": 1}, ["cowboy"])


def test_aligned_pairs_disagree_less_often_than_sorted_ones() -> None:
    """The point of it: paired games of a one-card swap end differently less often."""
    catalog = default_catalog()
    opponent = deck_items(catalog.base_deck("revolver", "colty"))
    reference = catalog.base_deck("revolver", "mcready")
    deck = _swapped(reference, "deputy", "texas-ranger", 1)
    order = aligned_order(deck, reference)
    differ = {"sorted": 0, "aligned": 0}
    for index in range(100):
        seed = game_seed(3, index)
        base = play_one(GameJob(index, seed, (opponent, deck_items(reference)),
                                ("greedy", "greedy"))).winner
        for how, orders in (("sorted", (None, None)), ("aligned", (None, order))):
            result = play_one(GameJob(index, seed, (opponent, deck_items(deck)),
                                      ("greedy", "greedy"), orders=orders))
            differ[how] += result.winner != base
    assert differ["aligned"] < differ["sorted"], differ

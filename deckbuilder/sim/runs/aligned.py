"""Deck orders that make paired games share their luck. The shuffle depends only on the seed
and the deck's size, so the order before it decides which card comes up when. Sorted by id,
one card swapped shifts every card between them and the two games draw different hands from
the first turn; laid out by `aligned_order`, the changed deck keeps the reference's cards in
their places and puts each new card where a removed one lay, so both games draw alike until a
changed card comes up.

    >>> aligned_order({"a": 1, "b": 2, "c": 1}, reference={"a": 2, "b": 2})
    ('a', 'c', 'b', 'b')
"""

from __future__ import annotations

from collections.abc import Mapping

from deckbuilder.engine.compiled import deck_order


def aligned_order(deck: Mapping[str, int], reference: Mapping[str, int]) -> tuple[str, ...]:
    """`deck`'s cards, one per copy, laid out along `reference`'s default order (the deck's
    other cards, sorted by id, fill the places of removed ones; any beyond those come last)."""
    left = {card: copies for card, copies in deck.items() if copies}
    places: list[str | None] = []
    for card in deck_order(reference):
        if left.get(card, 0) > 0:
            left[card] -= 1
            places.append(card)
        else:
            places.append(None)
    extra = iter(deck_order(left))
    laid = [card if card is not None else next(extra, None) for card in places]
    return tuple(card for card in laid if card is not None) + tuple(extra)


#: `GameJob.orders`: per seat, how its deck lies before the shuffle (None: sorted by id).
SeatOrders = tuple[tuple[str, ...] | None, tuple[str, ...] | None]


def seat_orders(deck: Mapping[str, int], reference: Mapping[str, int], side: int) -> SeatOrders:
    """The orders of a game with `deck` in seat `side`, laid out along `reference` (none when
    it is the reference itself, which lies in the default order as in its own games)."""
    held = {card: copies for card, copies in deck.items() if copies}
    if held == {card: copies for card, copies in reference.items() if copies}:
        return (None, None)
    order = aligned_order(deck, reference)
    return (order, None) if side == 0 else (None, order)

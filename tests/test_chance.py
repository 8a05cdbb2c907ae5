"""The engine's own draws (engine/chance.py) are the standard library's, draw for draw: a seed
deals the same game as before they were compiled, and leaves the generator where it did."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckbuilder.engine.chance import below, choice, shuffle, sort_at_random


@given(seed=st.integers(0, 2**32), size=st.integers(0, 200))
def test_shuffle_is_the_standard_librarys(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    items = list(range(size))
    expected = items[:]
    shuffle(ours, items)
    theirs.shuffle(expected)
    assert items == expected
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**32), n=st.integers(1, 10**12))
def test_below_is_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for _ in range(5)] == [theirs.randrange(n) for _ in range(5)]
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**32), items=st.lists(st.integers(), min_size=1, max_size=50))
def test_choice_is_the_standard_librarys(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert choice(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


def test_choice_of_nothing_is_refused() -> None:
    with pytest.raises(IndexError):
        choice(random.Random(1), [])


@given(seed=st.integers(0, 2**32), items=st.lists(st.integers(0, 139), max_size=140))
def test_sort_at_random_is_a_sort_by_random_keys(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    expected = items[:]
    sort_at_random(items, ours)
    expected.sort(key=lambda _item: theirs.random())
    assert items == expected
    assert ours.getstate() == theirs.getstate()


def test_below_draws_with_a_subclass_own_bits() -> None:
    """A generator that draws its own bits (as SystemRandom does) is asked for them: the
    short way past the bound method is only for a plain `random.Random`."""

    class Counting(random.Random):
        def __init__(self) -> None:
            super().__init__(0)
            self.asked: list[int] = []

        def getrandbits(self, k: int) -> int:
            self.asked.append(k)
            return 3

    rng = Counting()
    assert below(rng, 10) == 3
    assert rng.asked == [4]

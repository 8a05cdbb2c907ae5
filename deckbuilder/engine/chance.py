"""The engine's draws from a `random.Random`, in compiled code.

`random.Random.shuffle`, `randrange(n)` and `choice` are written in Python: in the compiled
build a game's set-up spent more time in two deck shuffles than in the rest of it. These
functions draw the same numbers in the same order, by the same algorithm as CPython's
(`_randbelow_with_getrandbits` over `getrandbits`), so a seed deals the same game in either
build, and as before: tests/test_chance.py holds them to the standard library's answers.
The re-deal of a bot's look-ahead sorts by random keys (`sort_at_random`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

T = TypeVar("T")


#: `random.Random`'s own `getrandbits` (its C base class's), called with the generator as its
#: first argument: reading `rng.getrandbits` makes a bound method at every draw.
_GETRANDBITS: Final = random.Random.getrandbits
#: The plain generator's class, read once: a module attribute is looked up at every use.
_PLAIN: Final = random.Random


def below(rng: random.Random, n: int) -> int:
    """A uniform int in [0, n) for n > 0: `rng.randrange(n)`, the same draw."""
    # A subclass may draw its own bits (SystemRandom does): its method, by its class.
    getrandbits = _GETRANDBITS if type(rng) is _PLAIN else type(rng).getrandbits
    bits = n.bit_length()  # not (n - 1): n may be 1
    drawn: int = getrandbits(rng, bits)
    while drawn >= n:
        drawn = getrandbits(rng, bits)
    return drawn


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle `items` in place: `rng.shuffle(items)`, the same order."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j: int = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """One of `items` (not empty) at random: `rng.choice(items)`, the same draw."""
    if not items:
        raise IndexError("cannot choose from an empty list")
    return items[below(rng, len(items))]


def sort_at_random(items: list[int], rng: random.Random) -> None:
    """Sort `items` by a fresh `rng.random()` key each, drawn in the list's order: a uniform
    shuffle, the one the bots' look-aheads have always re-dealt with (~2.5 times as fast as
    `random.shuffle` in plain Python). The key is typed `object`: the compiled build then hands
    the sort the drawn float itself, not one unboxed and boxed again (a seventh less)."""
    draw: Callable[[], object] = rng.random
    items.sort(key=lambda _item: draw())  # type: ignore[arg-type,return-value]

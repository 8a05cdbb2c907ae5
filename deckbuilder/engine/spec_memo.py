"""A value worked out once per game rather than at every decision: the bots' tables of a game's
cards (their worths, their ranks, what answers a play) depend on its spec alone.

A game asks for the same spec's value thousands of times in a row, so the last one is kept at
hand and checked by identity first; the few specs before it are kept too (an optimiser's race
alternates decks), up to `keep`, so a long-running process (an optimiser's run, the web app)
holds a bounded number of specs alive, never one per deck it ever played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar, cast

if TYPE_CHECKING:
    from deckbuilder.engine.spec_fields import SpecFields

__all__ = ["SpecMemo"]

Value = TypeVar("Value")

#: Specs kept, the last one among them, by default (decks raced side by side in an optimiser's
#: run).
KEEP = 64


class SpecMemo(Generic[Value]):
    """`make(spec)`, worked out once per spec (see the module docstring)."""

    def __init__(self, make: Callable[[SpecFields], Value], keep: int = KEEP) -> None:
        self._make = make
        self._keep = keep
        self._last_spec: object = None
        self._last_value: object = None
        #: id(spec) -> (spec, value): the spec itself kept, so a recycled id is never mistaken
        self._recent: dict[int, tuple[object, object]] = {}

    def of(self, spec: SpecFields) -> Value:
        """The spec's value, made on its first request."""
        if spec is self._last_spec:
            return cast(Value, self._last_value)
        found = self._recent.get(id(spec))
        if found is None or found[0] is not spec:
            if len(self._recent) >= self._keep:
                self._recent.clear()
            found = self._recent[id(spec)] = (spec, self._make(spec))
        self._last_spec, self._last_value = found
        return cast(Value, found[1])

"""Greedy makes no moves a player would laugh at: no pointless discards from play.

`benchmarks/sanity.py` defines a pointless discard (a card that gave firepower,
discarded without its place being needed before the phase ends). Before the fix of the
scoring greedy's discard value, greedy made about 3.8 of them a game as the gang and 2.5 as
McReady (who has no card limit to make room under) on Revolver's base decks.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game

_SPEC = importlib.util.spec_from_file_location(
    "benchmark_sanity", Path(__file__).resolve().parent.parent / "benchmarks" / "sanity.py")
assert _SPEC is not None and _SPEC.loader is not None
sanity = sys.modules["benchmark_sanity"] = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(sanity)
watched_game = sanity.watched_game

SEEDS = range(1, 41)
#: Pointless discards per game a side may make, on average over `SEEDS`.
BOUND = 0.5


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return build_catalog()


def _base_decks(catalog, game: str) -> tuple[dict[str, int], dict[str, int]]:  # type: ignore[no-untyped-def]
    first, second = get_game(game).side_names
    return catalog.base_deck(game, first), catalog.base_deck(game, second)


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_greedy_makes_few_pointless_discards_from_either_seat(catalog, game: str) -> None:  # type: ignore[no-untyped-def]
    decks = _base_decks(catalog, game)
    results = [watched_game(game, decks, ("greedy", "greedy"), seed, catalog) for seed in SEEDS]
    for side in (0, 1):
        per_game = sum(result.pointless[side] for result in results) / len(results)
        assert per_game < BOUND, (game, side, per_game,
                                  [result.pointless_cards[side] for result in results])


def test_the_check_sees_pointless_discards_when_they_are_made(catalog) -> None:  # type: ignore[no-untyped-def]
    """Random play discards from play for nothing: the watch must count it (it is not blind),
    and never more pointless discards than discards."""
    decks = _base_decks(catalog, "revolver")
    results = [watched_game("revolver", decks, ("random", "random"), seed, catalog)
               for seed in range(1, 11)]
    assert sum(sum(result.pointless) for result in results) > 10
    for result in results:
        for side in (0, 1):
            assert result.pointless[side] <= result.discards[side]

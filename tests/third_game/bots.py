"""What Standoff hands the bots: a plain judgement of a position."""

from __future__ import annotations

from typing import Any

from deckbuilder.game_kit import Heuristics


def evaluate(state: Any, player: int) -> float:
    """Living deputies against the Dawn's tokens, from `player`'s seat."""
    deputies = sum(state.alive)
    score = 0.2 * deputies - 0.1 * state.countdown
    return score if player == 0 else -score


HEURISTICS = Heuristics(evaluate)

"""Revolver's heuristics for the game-agnostic bots: the race model (`evaluate`), the scoring
greedy (`scoring`), and the small decisions taken without judging (`quick`)."""

from __future__ import annotations

from deckbuilder.games.revolver.bots.evaluate import evaluate_spent
from deckbuilder.games.revolver.bots.quick import quick_choice
from deckbuilder.games.revolver.bots.scoring import ScoringBot
from deckbuilder.protocol import Bot, Heuristics


def _scoring_greedy() -> Bot:
    return ScoringBot(name="greedy")


HEURISTICS = Heuristics(evaluate=evaluate_spent, quick=quick_choice, greedy=_scoring_greedy)

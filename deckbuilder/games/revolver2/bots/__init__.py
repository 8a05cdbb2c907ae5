"""Revolver 2's heuristics for the game-agnostic bots: the race model (`evaluate`), the
scoring greedy (`scoring`) and what a play changes in the model's numbers (`play_changes`),
the small decisions taken without judging (`quick`), the search's judge (`search_judge`)."""

from __future__ import annotations

from deckbuilder.games.revolver2.bots.evaluate import evaluate
from deckbuilder.games.revolver2.bots.quick import quick_choice
from deckbuilder.games.revolver2.bots.scoring import ScoringGreedy
from deckbuilder.games.revolver2.bots.search_judge import judge
from deckbuilder.protocol import Bot, Heuristics


def _scoring_greedy() -> Bot:
    return ScoringGreedy(name="greedy")


HEURISTICS = Heuristics(evaluate=evaluate, quick=quick_choice, greedy=_scoring_greedy,
                        search_judge=judge)

"""Revolver 2's heuristics for the game-agnostic bots (the race model in `evaluate`)."""

from __future__ import annotations

from deckbuilder.games.revolver2.bots.evaluate import evaluate
from deckbuilder.games.revolver2.bots.quick import quick_choice
from deckbuilder.protocol import Heuristics

HEURISTICS = Heuristics(evaluate=evaluate, quick=quick_choice)

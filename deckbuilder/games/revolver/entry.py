"""Revolver's parts for the registry (its declaration's `entry`)."""

from __future__ import annotations

from deckbuilder.engine.game_rules import GameParts
from deckbuilder.games.revolver.bots import HEURISTICS
from deckbuilder.games.revolver.endings import Termination
from deckbuilder.games.revolver.rules import RULES, new_game

GAME = GameParts(RULES, new_game, HEURISTICS, Termination,
                 scenario="deckbuilder.games.revolver.scenario:SCENARIO")

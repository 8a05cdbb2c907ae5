"""Standoff's parts for the registry (its declaration's `entry`)."""

from __future__ import annotations

from deckbuilder.game_kit import GameParts
from third_game.bots import HEURISTICS
from third_game.rules import RULES, Termination, new_game

GAME = GameParts(RULES, new_game, HEURISTICS, Termination)

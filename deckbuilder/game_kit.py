"""The plug-in surface: everything a game's rules, bots and entry import from deckbuilder.

A game reaches the table through this one module instead of the engine's own, so the engine
may rearrange its modules while the names here keep their meaning. A game's `declaration.py`
and `card_model.py` are read before the engine exists, so they import
`deckbuilder.declaration` instead; see docs/maintainers/new-game.md.
"""

from __future__ import annotations

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.actions import MODE_BASE
from deckbuilder.engine.board import draw
from deckbuilder.engine.compiled import game_spec
from deckbuilder.engine.game_rules import GameParts, GameRules, RowChoice, StepEntry
from deckbuilder.engine.marker import advance_marker, first_space, next_space
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.engine.turn import begin_turn, t_begin_play, t_draw_phase
from deckbuilder.protocol import (
    Bot,
    Evaluator,
    GameState,
    Heuristics,
    IllegalActionError,
    Outcome,
    QuickChoice,
)

__all__ = [
    "ATTACKER",
    "DEFENDER",
    "MODE_BASE",
    "Bot",
    "Catalog",
    "Evaluator",
    "GameParts",
    "GameRules",
    "GameState",
    "Heuristics",
    "IllegalActionError",
    "Outcome",
    "QuickChoice",
    "RowChoice",
    "State",
    "StepEntry",
    "advance_marker",
    "begin_turn",
    "default_catalog",
    "draw",
    "first_space",
    "game_spec",
    "next_space",
    "t_begin_play",
    "t_draw_phase",
]

"""The plug-in surface: everything a game's rules, bots and entry import from deckbuilder.

A game reaches the table through this one module instead of the engine's own, so the engine
may rearrange its modules while the names here keep their meaning. A game's `declaration.py`
and `card_model.py` are read before the engine exists, so they import
`deckbuilder.declaration` instead; see docs/maintainers/new-game.md.
"""

from __future__ import annotations

from deckbuilder.catalog import Catalog as Catalog
from deckbuilder.catalog import default_catalog as default_catalog
from deckbuilder.engine.actions import MODE_BASE as MODE_BASE
from deckbuilder.engine.board import draw as draw
from deckbuilder.engine.compiled import game_spec as game_spec
from deckbuilder.engine.game_rules import GameParts as GameParts
from deckbuilder.engine.game_rules import GameRules as GameRules
from deckbuilder.engine.game_rules import RowChoice as RowChoice
from deckbuilder.engine.game_rules import StepEntry as StepEntry
from deckbuilder.engine.marker import advance_marker as advance_marker
from deckbuilder.engine.marker import first_space as first_space
from deckbuilder.engine.marker import next_space as next_space
from deckbuilder.engine.state import ATTACKER as ATTACKER
from deckbuilder.engine.state import DEFENDER as DEFENDER
from deckbuilder.engine.state import State as State
from deckbuilder.engine.turn import begin_turn as begin_turn
from deckbuilder.engine.turn import t_begin_play as t_begin_play
from deckbuilder.engine.turn import t_draw_phase as t_draw_phase
from deckbuilder.protocol import Bot as Bot
from deckbuilder.protocol import Evaluator as Evaluator
from deckbuilder.protocol import GameState as GameState
from deckbuilder.protocol import Heuristics as Heuristics
from deckbuilder.protocol import IllegalActionError as IllegalActionError
from deckbuilder.protocol import Outcome as Outcome
from deckbuilder.protocol import QuickChoice as QuickChoice

"""The headless rules engine for Revolver (see .notes/ENGINE_PROTOCOL.md).

    >>> from deckbuilder.engine import new_game
    >>> # state = new_game([colty_deck, mcready_deck], seed=7)
    >>> # while not state.is_terminal(): state.apply(state.legal_actions()[0])
"""

from deckbuilder.engine.actions import IllegalActionError
from deckbuilder.engine.compiled import UnplayableDeckError
from deckbuilder.engine.evaluate import evaluate
from deckbuilder.engine.observe import Observation, observe
from deckbuilder.engine.revolver import default_catalog, new_game
from deckbuilder.engine.rulesets import DEFAULT_RULESET, UnknownRulesetError
from deckbuilder.engine.state import (
    PLAYER_NAMES,
    TERMINAL,
    InvariantError,
    Outcome,
    PlayerStats,
    State,
    Termination,
)

__all__ = [
    "DEFAULT_RULESET",
    "PLAYER_NAMES",
    "TERMINAL",
    "IllegalActionError",
    "InvariantError",
    "Observation",
    "Outcome",
    "PlayerStats",
    "State",
    "Termination",
    "UnknownRulesetError",
    "UnplayableDeckError",
    "default_catalog",
    "evaluate",
    "new_game",
    "observe",
]

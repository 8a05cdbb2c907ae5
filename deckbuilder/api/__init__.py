"""The library as a script uses it: simulate, a gauntlet, a tournament, a better deck, each a
typed, frozen result (also exported as `deckbuilder.simulate` ...).

    >>> from deckbuilder.api import simulate
    >>> simulate("colty", "mcready", games=2, seed=5, bot="random").games
    2
"""

from __future__ import annotations

from deckbuilder.api.fields import gauntlet, tournament
from deckbuilder.api.optimizing import optimize
from deckbuilder.api.simulation import simulate
from deckbuilder.app.results import (
    CardFigures,
    Ending,
    GauntletResult,
    Interval,
    Lengths,
    Matchup,
    OptimizeResult,
    Pairing,
    Settings,
    SimulationResult,
    Standing,
    Summary,
    Swap,
    TournamentResult,
)
from deckbuilder.app.running import SettingError
from deckbuilder.decks import DeckInputError, DeckSource

__all__ = [
    "CardFigures",
    "DeckInputError",
    "DeckSource",
    "Ending",
    "GauntletResult",
    "Interval",
    "Lengths",
    "Matchup",
    "OptimizeResult",
    "Pairing",
    "SettingError",
    "Settings",
    "SimulationResult",
    "Standing",
    "Summary",
    "Swap",
    "TournamentResult",
    "gauntlet",
    "optimize",
    "simulate",
    "tournament",
]

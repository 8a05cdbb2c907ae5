"""The library as a script uses it: simulate a deck, run a gauntlet or a tournament, search
for a better deck, each answered by a typed, frozen result.

Decks are given as loaded decks (`deckbuilder.load_deck`), `Deck` models, paths, packaged
deck names or factions; seats follow from the decks' factions; rates come with 95%
intervals. The same functions are exported by the package itself (`deckbuilder.simulate`).

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

"""deckbuilder: build, check and play-test decks for the Revolver card games.

The public API, imported lazily so the command line starts fast::

    >>> import deckbuilder
    >>> catalog = deckbuilder.load_catalog()
    >>> len(catalog.base_deck("revolver", "colty")) > 0
    True

A script simulates, runs gauntlets and tournaments and searches for better decks with
`simulate`, `gauntlet`, `tournament` and `optimize` (`deckbuilder.api`: typed results, decks
given any way, no seats)::

    >>> result = deckbuilder.simulate("mcready", against="colty", games=4, seed=1)
    >>> result.wins + result.draws + result.losses, result.side
    (4, 'mcready')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the exports' types, for type checkers (they are imported lazily below)
    from deckbuilder.api import (
        DeckSource,
        GauntletResult,
        Interval,
        OptimizeResult,
        SimulationResult,
        TournamentResult,
        gauntlet,
        optimize,
        simulate,
        tournament,
    )
    from deckbuilder.app.deck_verdict import DeckVerdict, deck_verdict
    from deckbuilder.catalog import Catalog
    from deckbuilder.catalog import build_catalog as load_catalog
    from deckbuilder.decks import load_deck, packaged_deck, packaged_decks
    from deckbuilder.engine.observe import observe
    from deckbuilder.errors import DeckbuilderError
    from deckbuilder.games import new_game
    from deckbuilder.importer import check_file as check_set
    from deckbuilder.importer import import_set as install_set
    from deckbuilder.legality import validate_deck
    from deckbuilder.sim.records.session_view import position_view

from deckbuilder.version import __version__

_EXPORTS = {
    "load_catalog": ("deckbuilder.catalog", "build_catalog"),
    "Catalog": ("deckbuilder.catalog", "Catalog"),
    "load_deck": ("deckbuilder.decks", "load_deck"),
    "packaged_deck": ("deckbuilder.decks", "packaged_deck"),
    "packaged_decks": ("deckbuilder.decks", "packaged_decks"),
    "validate_deck": ("deckbuilder.legality", "validate_deck"),
    "deck_verdict": ("deckbuilder.app.deck_verdict", "deck_verdict"),
    "DeckVerdict": ("deckbuilder.app.deck_verdict", "DeckVerdict"),
    "check_set": ("deckbuilder.importer", "check_file"),
    "install_set": ("deckbuilder.importer", "import_set"),
    "new_game": ("deckbuilder.games", "new_game"),
    "observe": ("deckbuilder.engine.observe", "observe"),
    "position_view": ("deckbuilder.sim.records.session_view", "position_view"),
    # a script's simulation, gauntlet, tournament and search (`deckbuilder.sim.simulate` is
    # the library's own, which takes contestants and a seat)
    "simulate": ("deckbuilder.api", "simulate"),
    "gauntlet": ("deckbuilder.api", "gauntlet"),
    "tournament": ("deckbuilder.api", "tournament"),
    "optimize": ("deckbuilder.api", "optimize"),
    "DeckSource": ("deckbuilder.api", "DeckSource"),
    "Interval": ("deckbuilder.api", "Interval"),
    "SimulationResult": ("deckbuilder.api", "SimulationResult"),
    "GauntletResult": ("deckbuilder.api", "GauntletResult"),
    "TournamentResult": ("deckbuilder.api", "TournamentResult"),
    "OptimizeResult": ("deckbuilder.api", "OptimizeResult"),
    "DeckbuilderError": ("deckbuilder.errors", "DeckbuilderError"),
}

__all__ = [
    "Catalog", "DeckSource", "DeckVerdict", "DeckbuilderError", "GauntletResult", "Interval",
    "OptimizeResult", "SimulationResult", "TournamentResult", "__version__", "check_set",
    "deck_verdict", "gauntlet", "install_set", "load_catalog", "load_deck", "new_game",
    "observe", "optimize", "packaged_deck", "packaged_decks", "position_view", "simulate",
    "tournament", "validate_deck",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'deckbuilder' has no attribute {name!r}")
    module_name, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value

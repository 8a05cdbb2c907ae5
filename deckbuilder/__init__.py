"""deckbuilder: build, check and play-test decks for the Revolver card games.

The public API, imported lazily so the command line starts fast::

    >>> import deckbuilder
    >>> catalog = deckbuilder.load_catalog()
    >>> len(catalog.base_deck("revolver", "colty")) > 0
    True
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "load_catalog": ("deckbuilder.catalog", "build_catalog"),
    "Catalog": ("deckbuilder.catalog", "Catalog"),
    "load_deck": ("deckbuilder.decks", "load_deck"),
    "validate_deck": ("deckbuilder.legality", "validate_deck"),
    "check_set": ("deckbuilder.importer", "check_set"),
    "install_set": ("deckbuilder.importer", "install_set"),
    "new_game": ("deckbuilder.games", "new_game"),
    "observe": ("deckbuilder.engine.observe", "observe"),
    "simulate": ("deckbuilder.sim", "simulate"),
    "DeckbuilderError": ("deckbuilder.errors", "DeckbuilderError"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'deckbuilder' has no attribute {name!r}")
    module_name, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value

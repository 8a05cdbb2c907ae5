"""deckbuilder: build, check and play-test decks for the Revolver card games.

The public API, imported lazily so the command line starts fast::

    >>> import deckbuilder
    >>> catalog = deckbuilder.load_catalog()
    >>> len(catalog.base_deck("revolver", "colty")) > 0
    True
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the exports' types, for type checkers (they are imported lazily below)
    from deckbuilder.catalog import Catalog
    from deckbuilder.catalog import build_catalog as load_catalog
    from deckbuilder.decks import load_deck
    from deckbuilder.engine.observe import observe
    from deckbuilder.errors import DeckbuilderError
    from deckbuilder.games import new_game
    from deckbuilder.importer import check_file as check_set
    from deckbuilder.importer import import_set as install_set
    from deckbuilder.legality import validate_deck
    from deckbuilder.sim import simulate

from deckbuilder.version import __version__

_EXPORTS = {
    "load_catalog": ("deckbuilder.catalog", "build_catalog"),
    "Catalog": ("deckbuilder.catalog", "Catalog"),
    "load_deck": ("deckbuilder.decks", "load_deck"),
    "validate_deck": ("deckbuilder.legality", "validate_deck"),
    "check_set": ("deckbuilder.importer", "check_file"),
    "install_set": ("deckbuilder.importer", "import_set"),
    "new_game": ("deckbuilder.games", "new_game"),
    "observe": ("deckbuilder.engine.observe", "observe"),
    "simulate": ("deckbuilder.sim", "simulate"),
    "DeckbuilderError": ("deckbuilder.errors", "DeckbuilderError"),
}

__all__ = [
    "Catalog", "DeckbuilderError", "__version__", "check_set", "install_set", "load_catalog",
    "load_deck", "new_game", "observe", "packaged_deck", "packaged_decks", "simulate",
    "validate_deck",
]


def packaged_decks() -> dict[str, Path]:
    """The decks that ship with the package (base decks and examples), by name: the same
    files as the checkout's `decks/`, found wherever the package is installed."""
    from deckbuilder.paths import PACKAGED_DECKS

    return {path.stem: path for path in sorted(PACKAGED_DECKS.glob("*.yaml"))}


def packaged_deck(name: str) -> Path:
    """One packaged deck file by name (`example-mcready-pinkertons`, `colty-base`, ...)."""
    decks = packaged_decks()
    stem = name.removesuffix(".yaml")
    if stem not in decks:
        from deckbuilder.errors import DeckbuilderError

        raise DeckbuilderError(f"no packaged deck named '{name}'",
                               fix=f"choose among: {', '.join(decks)}")
    return decks[stem]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'deckbuilder' has no attribute {name!r}")
    module_name, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value

"""A deck given to the API any way a script has one: what `deckbuilder.load_deck` returns, a
deck model (`deckbuilder.models.Deck`), a file's path, a packaged deck's name or a faction
(its base deck), read by the one reader (`decks.read_deck`) and checked for play as the
command line checks it (`app.play_decks`).

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog()
    >>> read_deck("mcready", catalog).name
    'mcready base deck'
    >>> read_deck(42, catalog)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    deckbuilder.decks.DeckInputError: a deck must be ... not int (fix: ...)
"""

from __future__ import annotations

from deckbuilder.app.play_decks import SimDeck, load_side_deck, side_of_deck
from deckbuilder.app.play_decks import load_sim_deck as read_deck
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckInputError, DeckSource
from deckbuilder.decks import deck_text as spec_text

__all__ = ["DeckInputError", "DeckSource", "read_deck", "read_side_deck", "side_of_deck",
           "spec_text"]


def read_side_deck(deck: DeckSource, side: str, game: str, catalog: Catalog, *,
                   allow_illegal: bool = False, what: str = "against") -> SimDeck:
    """`read_deck` for one side of a game: another side's deck (or another game's) is one
    line naming the argument."""
    return load_side_deck(deck, side, game, what, catalog, allow_illegal)

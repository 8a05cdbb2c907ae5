"""A deck given to the API any way a script has one: what `deckbuilder.load_deck` returns, a
deck model (`deckbuilder.models.Deck`), a file's path, a packaged deck's name or a faction
(its base deck).

Names and paths are read exactly as the command line reads them (`app.play_decks`), so a
deck the engine cannot play, or an illegal one, is refused with the same one line; a deck
object is checked by the same rules (the validator), its location being its file when it
was read from one, else its name.

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog()
    >>> read_deck("mcready", catalog).name
    'mcready base deck'
    >>> read_deck(42, catalog)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    deckbuilder.api.decks.DeckInputError: a deck must be ... not int (fix: ...)
"""

from __future__ import annotations

import os
from typing import TypeAlias

from deckbuilder.app.play_decks import SimDeck, an, check_sim_deck, load_sim_deck, side_error
from deckbuilder.catalog import Catalog
from deckbuilder.decks import LoadedDeck, resolve_deck
from deckbuilder.errors import DeckError
from deckbuilder.games import get_game
from deckbuilder.models import Deck

__all__ = ["DeckInputError", "DeckSource", "read_deck", "read_side_deck", "side_of_deck",
           "spec_text"]

#: A deck as the API takes it: loaded (`load_deck`), a model, a path, or a name (a packaged
#: deck's, or a faction's for its base deck).
DeckSource: TypeAlias = LoadedDeck | Deck | str | os.PathLike[str]


class DeckInputError(DeckError):
    """A value given as a deck is none of the things a deck may be given as."""


def spec_text(deck: object, what: str = "deck") -> str | None:
    """A name or path as the command line's text (None: a deck object); anything else is a
    `DeckInputError`."""
    if isinstance(deck, str):
        return deck
    if isinstance(deck, os.PathLike) and isinstance(path := os.fspath(deck), str):
        return path
    if isinstance(deck, LoadedDeck | Deck):
        return None
    raise DeckInputError(
        f"a {what} must be a loaded deck, a Deck, a path or a name, not {type(deck).__name__}",
        fix="pass deckbuilder.load_deck(path, catalog), a deck file's path, a packaged "
            "deck's name (example-mcready-pinkertons) or a faction (mcready)")


def read_deck(deck: object, catalog: Catalog, *, allow_illegal: bool = False,
              what: str = "deck") -> SimDeck:
    """The deck ready to play (card ids and copies, game, faction, warnings)."""
    text = spec_text(deck, what)
    if text is not None:
        return load_sim_deck(text, catalog, allow_illegal)
    loaded = deck if isinstance(deck, LoadedDeck) else resolve_deck(_model(deck), catalog)
    return _checked(loaded, catalog, allow_illegal)


def _model(deck: object) -> Deck:
    assert isinstance(deck, Deck)  # spec_text let only a LoadedDeck or a Deck through
    return deck


def read_side_deck(deck: object, side: str, game: str, catalog: Catalog, *,
                   allow_illegal: bool = False, what: str = "against") -> SimDeck:
    """`read_deck` for one side of a game: another side's deck (or another game's) is one
    line naming the argument."""
    found = read_deck(deck, catalog, allow_illegal=allow_illegal, what=what)
    if found.faction != side or found.game != game:
        raise side_error(what, side, game, found)
    return found


def side_of_deck(deck: SimDeck, what: str = "deck") -> tuple[int, tuple[str, ...]]:
    """The deck's seat (read from its faction) and its game's sides: a script never names
    a seat."""
    sides = tuple(get_game(deck.game).side_names)
    if deck.faction not in sides:
        raise DeckError(f"{what}: '{deck.faction}' is not a side of {deck.game}: nothing to "
                        "play", fix=f"give {an(sides[0])} or {an(sides[1])} deck")
    return sides.index(deck.faction), sides


def _checked(loaded: LoadedDeck, catalog: Catalog, allow_illegal: bool) -> SimDeck:
    """The checks `load_sim_deck` makes of a deck file, made of a deck object, its fixes in
    Python's terms."""
    return check_sim_deck(loaded, catalog, allow_illegal,
                          how_to_validate="deckbuilder.validate_deck(deck, catalog)",
                          how_to_allow="pass allow_illegal=True to play-test it anyway")



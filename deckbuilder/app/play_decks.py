"""Decks read for play, however they are given, checked before any game is set up: every
face reads its decks here, so a deck the engine cannot play, or an illegal one, is refused
(or, with --allow-illegal, played with a warning) in the same one line everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource, LoadedDeck, read_deck
from deckbuilder.errors import DeckError, Location
from deckbuilder.games import games, get_game
from deckbuilder.legality import PLAY_TESTING, Code, Supply, Violation, validate_deck
from deckbuilder.legality.pairing import an as an  # re-exported: app.field reads it here
from deckbuilder.models import Deck
from deckbuilder.yamlio import position


@dataclass(frozen=True)
class SimDeck:
    """A deck ready to play: resolved card ids, and what the user should know about it;
    `source` identifies it (its file resolved, `base:FACTION`, or a deck object's name)."""

    name: str
    game: str
    faction: str
    cards: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    source: str = ""


def load_sim_deck(source: DeckSource, catalog: Catalog, allow_illegal: bool = False,
                  what: str = "deck", supply: Supply = PLAY_TESTING) -> SimDeck:
    """A deck the engine cannot play is refused; another illegal one too, unless
    `allow_illegal` (a warning: a deck can be play-tested before it is legal). A deck
    object comes from a script: the fixes are said in Python's terms."""
    argument = read_deck(source, catalog, what)
    loaded = argument.loaded
    if argument.kind == "faction":  # the box's deck: nothing to check
        return SimDeck(f"{argument.faction} base deck", loaded.game, loaded.faction,
                       loaded.counts(), source=argument.source)
    path: Path | str = loaded.path if loaded.path is not None else str(loaded.label)
    validate, allow = (f"`deckbuilder validate {path}`",
                       "add --allow-illegal to play-test it anyway")
    if argument.kind == "object":
        validate, allow = ("deckbuilder.validate_deck(deck, catalog)",
                           "pass allow_illegal=True to play-test it anyway")
    if loaded.game not in games():
        found = position(loaded.document, ["game"]) if loaded.document is not None else None
        raise DeckError(f"the engine does not play {loaded.game}",
                        Location(path, *(found or (None, None))),
                        f"play and simulate decks of {', '.join(games())}")
    warnings = _legality_warnings(loaded, catalog, allow_illegal, path, validate, allow,
                                  supply)
    return SimDeck(loaded.name, loaded.game, loaded.faction, loaded.counts(), warnings,
                   argument.source)


def _legality_warnings(loaded: LoadedDeck, catalog: Catalog, allow_illegal: bool,
                       path: Path | str, validate: str, allow: str,
                       supply: Supply) -> list[str]:
    report = validate_deck(loaded, catalog, supply=supply)
    more = (f" ({len(report.violations)} problems in all: {validate})"
            if len(report.violations) > 1 else "")
    refused = [violation for violation in report.violations
               if _is_unplayable(violation, loaded.game, catalog)]
    if refused:
        first = refused[0]
        raise DeckError(f"{first.code}: {first.message}{more}",
                        _entry_location(loaded, first, path), first.fix or f"see {validate}")
    if report.is_legal:
        return []
    first = report.violations[0]
    if not allow_illegal:
        raise DeckError(f"not a legal deck: {first.code}: {first.message}{more}",
                        _entry_location(loaded, first, path),
                        (first.fix or f"see {validate}") + f"; or {allow}")
    where = f" (line {first.line})" if first.line is not None else ""
    return [f"{path} is not a legal deck ({len(report.violations)} problem(s), first: "
            f"{first.code}{where}: {first.message}); simulating it anyway (see {validate})"]


def _entry_location(loaded: LoadedDeck, violation: Violation, shown: Path | str) -> Location:
    """file:line:col of the deck entry a violation names (file:line when it names none)."""
    for entry in loaded.entries:
        if entry.line is not None and entry.line == violation.line \
                and loaded.document is not None:
            found = position(loaded.document, ["cards", entry.key])
            if found is not None and found[0] == entry.line:
                return Location(shown, *found)
    return Location(shown, violation.line)


def _is_unplayable(violation: Violation, game: str, catalog: Catalog) -> bool:
    """Whether the violation names a card the engine refuses in a game of `game`."""
    return violation.code == Code.UNKNOWN_CARD or any(
        (entry := catalog.entries.get(card)) is None or entry.kind != "card"
        or entry.game != game for card in violation.cards)


def load_side_deck(source: DeckSource, side: str, game: str, option: str, catalog: Catalog,
                   allow_illegal: bool = False, supply: Supply = PLAY_TESTING) -> SimDeck:
    """`load_sim_deck` for one side of a game: a deck of another side or another game is
    refused with `side_error`, naming the option (or form field, or argument) it came from."""
    deck = load_sim_deck(source, catalog, allow_illegal, option, supply)
    if deck.faction != side or deck.game != game:
        raise side_error(option, side, game, deck)
    return deck


def search_template(source: DeckSource, catalog: Catalog, played: SimDeck) -> Deck:
    """The deck as the optimiser starts from it: a file's own model or a script's (its
    `sets:` limit what goes in), else the cards as played (any installed set)."""
    argument = read_deck(source, catalog)
    if argument.kind in ("file", "object"):
        return argument.loaded.deck
    return Deck(name=played.name, game=played.game, faction=played.faction,
                cards=dict(played.cards))


def side_of_deck(deck: SimDeck, what: str = "deck") -> tuple[int, tuple[str, ...]]:
    """The deck's seat (read from its faction) and its game's sides: a script never names
    a seat."""
    sides = tuple(get_game(deck.game).side_names)
    if deck.faction not in sides:
        raise DeckError(f"{what}: '{deck.faction}' is not a side of {deck.game}: nothing to "
                        "play", fix=f"give {an(sides[0])} or {an(sides[1])} deck")
    return sides.index(deck.faction), sides


def side_error(option: str, wanted: str, game: str, deck: SimDeck) -> DeckError:
    """The one-line refusal of a deck given for the wrong side (or for another game)."""
    if deck.game != game:
        return DeckError(f"{option} got {an(deck.game)} deck ({deck.faction}), but the game "
                         f"is {game}: both decks must be of one game",
                         fix=f"give {an(wanted)} deck for {option}")
    return DeckError(f"{option} must be {an(wanted)} deck, not {deck.faction}",
                     fix=f"give {an(wanted)} deck file, or leave {option} out")


def sides_of_decks(texts: Sequence[str], given: Mapping[str, str | None],
                   catalog: Catalog) -> dict[str, str | None]:
    """The deck options with decks given without one (`play my-deck.yaml`) put on the side
    their faction names. A side given twice (two decks, or a deck and its option) and a deck
    of a faction that is no side of a game are refused, naming the options to use."""
    sides = dict(given)
    for text in texts:
        argument = read_deck(text, catalog)
        faction = str(argument.loaded.faction)
        if faction not in sides:
            raise DeckError(f"{text} is {an(faction)} deck: no side of a game plays it",
                            fix="give a deck of " + ", ".join(sides))
        if sides[faction] is not None:
            raise DeckError(f"{text} is {an(faction)} deck, but the {faction} side already "
                            f"has {sides[faction]}",
                            fix=f"give one deck per side (--{faction} FILE names it)")
        sides[faction] = text
    return sides

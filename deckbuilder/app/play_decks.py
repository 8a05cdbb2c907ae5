"""Decks read for play: a deck file or a faction name, checked before any game is set up.

`simulate`, `optimize`, the web simulator and the web game table all read their decks here,
so a deck the engine cannot play is refused with the same one line everywhere, and an
illegal one is refused (or, with --allow-illegal, played with a warning) alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckbuilder.decks import read_deck_argument
from deckbuilder.errors import DeckError, Location
from deckbuilder.games import games
from deckbuilder.legality import PLAY_TESTING, Code, validate_deck
from deckbuilder.yamlio import position


@dataclass(frozen=True)
class SimDeck:
    """A deck ready to play: resolved card ids, and what the user should know about it."""

    name: str
    game: str
    faction: str
    cards: dict[str, int]
    warnings: list[str] = field(default_factory=list)


def an(word: str) -> str:
    """`word` with its indefinite article: "a colty deck", "an esteban deck"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def load_sim_deck(text: str, catalog: Any, allow_illegal: bool = False) -> SimDeck:
    """Read a deck for play: a deck file, a faction name meaning its base deck, or a
    packaged deck's name (`deckbuilder.decks.read_deck_argument`, as every command reads one).

    A deck the engine cannot play (an unknown card, a card of another game, a record that is
    no deck card) is refused with the validator's first such violation. Any other illegal deck
    is refused too, with the validator's report, unless `allow_illegal` (--allow-illegal):
    then it gets a warning, so that a deck can be play-tested before it is legal.
    """
    argument = read_deck_argument(text, catalog)
    loaded = argument.loaded
    if argument.kind == "faction":  # the box's deck: nothing to check
        return SimDeck(f"{argument.faction} base deck", loaded.game, loaded.faction,
                       loaded.counts())
    return check_sim_deck(loaded, catalog, allow_illegal,
                          shown=loaded.path if loaded.path is not None else Path(text))


def check_sim_deck(loaded: Any, catalog: Any, allow_illegal: bool = False, *,
                   shown: Path | str | None = None, how_to_validate: str | None = None,
                   how_to_allow: str = "add --allow-illegal to play-test it anyway") -> SimDeck:
    """A loaded deck (from a file or made in Python) checked for play, as `load_sim_deck`
    says. `shown` names it in messages (its path, else its label); `how_to_validate` and
    `how_to_allow` are the fixes in the caller's terms (a command, or a Python call)."""
    path: Path | str = shown if shown is not None else (
        loaded.path if loaded.path is not None else str(loaded.label))
    validate = how_to_validate or f"`deckbuilder validate {path}`"
    if loaded.game not in games():
        found = position(loaded.document, ["game"]) if loaded.document is not None else None
        raise DeckError(f"the engine does not play {loaded.game}",
                        Location(path, *(found or (None, None))),
                        f"play and simulate decks of {', '.join(games())}")
    report = validate_deck(loaded, catalog, supply=PLAY_TESTING)
    more = (f" ({len(report.violations)} problems in all: {validate})"
            if len(report.violations) > 1 else "")
    refused = [violation for violation in report.violations
               if _is_unplayable(violation, loaded.game, catalog)]
    if refused:
        first = refused[0]
        raise DeckError(f"{first.code}: {first.message}{more}",
                        _entry_location(loaded, first, path), first.fix or f"see {validate}")
    warnings = []
    if not report.is_legal and not allow_illegal:
        first = report.violations[0]
        raise DeckError(f"not a legal deck: {first.code}: {first.message}{more}",
                        _entry_location(loaded, first, path),
                        (first.fix or f"see {validate}") + f"; or {how_to_allow}")
    if not report.is_legal:
        first = report.violations[0]
        where = f" (line {first.line})" if first.line is not None else ""
        warnings.append(
            f"{path} is not a legal deck ({len(report.violations)} problem(s), first: "
            f"{first.code}{where}: {first.message}); simulating it anyway (see {validate})"
        )
    return SimDeck(loaded.name, loaded.game, loaded.faction, loaded.counts(), warnings)


def _entry_location(loaded: Any, violation: Any, shown: Any) -> Any:
    """file:line:col of the deck entry a violation names (file:line when it names none)."""
    for entry in loaded.entries:
        if entry.line is not None and entry.line == violation.line \
                and loaded.document is not None:
            found = position(loaded.document, ["cards", entry.key])
            if found is not None and found[0] == entry.line:
                return Location(shown, *found)
    return Location(shown, violation.line)


def _is_unplayable(violation: Any, game: str, catalog: Any) -> bool:
    """Whether the violation names a card the engine refuses in a game of `game`."""
    if violation.code == Code.UNKNOWN_CARD:
        return True
    for card in violation.cards:
        entry = catalog.entries.get(card)
        if entry is None or entry.kind != "card" or entry.game != game:
            return True
    return False


def load_side_deck(text: str, side: str, game: str, option: str, catalog: Any,
                   allow_illegal: bool = False) -> SimDeck:
    """`load_sim_deck` for one side of a game: a deck of another side or another game is
    refused with `side_error`, naming the option (or form field) it came from."""
    deck = load_sim_deck(text, catalog, allow_illegal)
    if deck.faction != side:
        raise side_error(option, side, game, deck)
    return deck


def side_error(option: str, wanted: str, game: str, deck: SimDeck) -> DeckError:
    """The one-line refusal of a deck given for the wrong side (or for another game)."""
    if deck.game != game:
        return DeckError(f"{option} got {an(deck.game)} deck ({deck.faction}), but the game "
                         f"is {game}: both decks must be of one game",
                         fix=f"give {an(wanted)} deck for {option}")
    return DeckError(f"{option} must be {an(wanted)} deck, not {deck.faction}",
                     fix=f"give {an(wanted)} deck file, or leave {option} out")


def sides_of_decks(texts: Sequence[str], given: Mapping[str, str | None],
                   catalog: Any) -> dict[str, str | None]:
    """The deck options with decks given without one (`play my-deck.yaml`) put on the side
    their faction names. A side given twice (two decks, or a deck and its option) and a deck
    of a faction that is no side of a game are refused, naming the options to use."""
    sides = dict(given)
    for text in texts:
        argument = read_deck_argument(text, catalog)
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

"""Option values that are choices: games, factions, sets, rulesets and bots. Each forgives
case, spacing and the documents' own spellings ("Colti" in the Tarnished Star sheet), completes
itself, and an unknown value is a usage error naming the choices. Use one as
`typer.Option("--faction", **FACTION.option(), help=...)`; the command gets `colty`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict

import typer

from deckbuilder.app.card_search import choose, set_names, spelling_table
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.spellings import (
    FACTION_SPELLINGS,
    UnknownBotError,
    faction_names,
    game_names,
    normalized,
    read_bot_spec,
    side_ids,
    spellings_of,
)
from deckbuilder.bots import BOT_OFFERS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import games
from deckbuilder.rulesets import list_rulesets


class OptionWords(TypedDict):
    """The keyword arguments a choice gives `typer.Option`/`typer.Argument`."""

    parser: Callable[[str], str]
    autocompletion: Callable[[str], list[str]]
    metavar: str


class _Choice:
    """What typer needs of a choice: `parser`, `autocompletion` and `metavar`."""

    metavar = "VALUE"

    def __call__(self, value: str) -> str:
        raise NotImplementedError

    def complete(self, incomplete: str) -> list[str]:
        raise NotImplementedError

    def option(self) -> OptionWords:
        """The keyword arguments of `typer.Option`/`typer.Argument` for this choice."""
        return {"parser": self, "autocompletion": self.complete, "metavar": self.metavar}


class NamedChoice(_Choice):
    """A choice among canonical values, each with other spellings (`load`, run only when the
    option is given: it may read the catalog). If `load` fails (a broken set) the value passes
    unchanged, and the command reports the real problem."""

    def __init__(self, what: str, load: Callable[[], Mapping[str, Iterable[str]]],
                 metavar: str | None = None) -> None:
        self.what = what
        self._load = load
        self.metavar = metavar or what.upper()

    def __call__(self, value: str) -> str:
        try:
            table = spelling_table(self._load())
        except DeckbuilderError:
            return value
        try:
            return choose(value, table, self.what)
        except DeckbuilderError as error:
            raise typer.BadParameter(f"{error.message}; {error.fix}") from None

    def complete(self, incomplete: str) -> list[str]:
        try:
            spellings = spellings_of(self._load())
        except DeckbuilderError:
            return []
        typed = normalized(incomplete)
        return [value for value, names in sorted(spellings.items())
                if any(normalized(name).startswith(typed) for name in names)]


class BotChoice(_Choice):
    """A bot spec (`greedy`, `search:rollouts=50`), or with `pair` two of them separated by a
    comma. The bot's name forgives case and must be known; its options are checked when the
    bot is built (one line naming the option)."""

    def __init__(self, pair: bool = False) -> None:
        self.pair = pair
        self.metavar = "BOT,BOT" if pair else "BOT"

    def __call__(self, value: str) -> str:
        try:
            return read_bot_spec(value, self.pair)
        except UnknownBotError as error:
            raise typer.BadParameter(error.message) from None

    def complete(self, incomplete: str) -> list[str]:
        before, comma, last = incomplete.rpartition(",") if self.pair else ("", "", incomplete)
        return [before + comma + spec
                for spec in BOT_OFFERS if spec.startswith(last.lower())]


def _rulesets() -> dict[str, tuple[str, ...]]:
    catalog = project_catalog()
    return {ruleset.id: (ruleset.name,) for game in games()
            for ruleset in list_rulesets(catalog, game)}


GAME = NamedChoice("game", game_names, metavar=f"[{'|'.join(game_names())}]")
#: A faction of any card (colty, mcready, frontier, esteban, mapache, neutral): `cards`.
FACTION = NamedChoice("faction", faction_names, metavar=f"[{'|'.join(FACTION_SPELLINGS)}]")
#: A faction that is a side with a base deck (colty, mcready, esteban, mapache): `deck new`.
SIDE = NamedChoice("faction", lambda: faction_names(sides_only=True),
                   metavar=f"[{'|'.join(side_ids())}]")
SET = NamedChoice("set", lambda: set_names(project_catalog()), metavar="SET-ID")
RULESET = NamedChoice("ruleset", _rulesets, metavar="RULESET-ID")
BOT = BotChoice()
#: The bots `--bot` takes, for its help: the registry's names and examples.
BOT_LIST = ", ".join(BOT_OFFERS)
BOTS = BotChoice(pair=True)

"""The names a player may type for a game, a faction or a bot, as the documents spell them
("Colti" in the Tarnished Star sheet is "Colty"): the command line and the web forgive the
same spellings."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from deckbuilder.bots import BOT_EXAMPLES as BOT_EXAMPLES  # the web simulator offers them
from deckbuilder.bots import BOT_NAMES
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models.common import Faction

#: Other spellings of each faction, as the documents write them (each game's declaration).
FACTION_SPELLINGS: dict[str, tuple[str, ...]] = {
    **{side.id: side.spellings for declaration in DECLARATIONS
       for side in (*declaration.sides, *declaration.other_factions)},
    "neutral": ("Neutral",),
}
#: Other spellings of each game (its title is one as well).
GAME_SPELLINGS: dict[str, tuple[str, ...]] = {
    declaration.id: declaration.spellings for declaration in DECLARATIONS}


class UnknownBotError(DeckbuilderError):
    """A bot spec whose bot is not one of `BOT_NAMES`."""


def normalized(text: str) -> str:
    """The spelling-blind form of a name: case, accents, spaces, hyphens and a leading "the"
    do not count ("The Colty gang" == "colty-gang" == "COLTY GANG")."""
    text = unicodedata.normalize("NFKD", text).casefold().strip()
    text = re.sub(r"^the\s+", "", text)
    return re.sub(r"[^0-9a-z]", "", text)


def game_names() -> dict[str, tuple[str, ...]]:
    """Each game's id -> its title and other spellings."""
    return {declaration.id: (declaration.title, *declaration.spellings)
            for declaration in DECLARATIONS}


def side_ids() -> list[str]:
    """The factions that are a side of some game (those with a base deck)."""
    return [side for declaration in DECLARATIONS for side in declaration.side_ids]


def faction_names(sides_only: bool = False) -> dict[str, tuple[str, ...]]:
    """Each faction -> its other spellings; `sides_only`: the sides of the games only."""
    wanted = side_ids() if sides_only else [str(faction) for faction in Faction]
    return {faction: FACTION_SPELLINGS.get(faction, ()) for faction in wanted}


def spellings_of(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """canonical value -> every accepted spelling, its own id first."""
    return {value: [value, *others] for value, others in names.items()}


def read_bot_spec(value: str, pair: bool = False) -> str:
    """A bot spec (`Search:rollouts=50`) with its bot's name checked and lower-cased (`pair`:
    two, comma-separated); its options are checked when the bot is built."""
    parts = [part.strip() for part in value.split(",")] if pair else [value.strip()]
    fixed = []
    for part in parts:
        kind, colon, options = part.partition(":")
        if "=" in kind and not colon:  # an option of the bot before (search:a=1,b=2)
            fixed.append(part)
            continue
        if kind.strip().lower() not in BOT_NAMES:
            raise UnknownBotError(
                f"unknown bot '{kind.strip()}'; choose one of: "
                f"{', '.join(BOT_NAMES)} (e.g. {', '.join(BOT_EXAMPLES)})")
        fixed.append(kind.strip().lower() + colon + options)
    return ",".join(fixed)

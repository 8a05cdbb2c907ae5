"""Shared vocabulary of the data models: ids, enums and provenance."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from deckbuilder.declaration import SideDeclaration
from deckbuilder.declared import DECLARATIONS

CARD_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

CardId = Annotated[
    str,
    Field(
        pattern=CARD_ID_PATTERN,
        max_length=80,
        description="Stable kebab-case id; never reused once published.",
    ),
]

UNCONFIRMED = "unconfirmed"


class Strict(BaseModel):
    """Base for every file-backed model: unknown keys are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, use_enum_values=True)


def _declared_enum(name: str, values: Iterable[str]) -> Any:
    return StrEnum(name, {value.upper().replace("-", "_"): value
                          for value in dict.fromkeys(values)}, module=__name__)


if TYPE_CHECKING:  # the members code names; the rest come from the declarations

    class Game(StrEnum):
        REVOLVER = "revolver"
        REVOLVER2 = "revolver2"

    class Faction(StrEnum):
        NEUTRAL = "neutral"

else:
    #: Every game's id, from the games' declarations (`declared.py`).
    Game = _declared_enum("Game", (declaration.id for declaration in DECLARATIONS))
    #: Every faction a card may belong to: each game's sides and other factions, and neutral.
    Faction = _declared_enum("Faction", [
        *(side.id for declaration in DECLARATIONS
          for side in (*declaration.sides, *declaration.other_factions)),
        "neutral"])


#: The two players' factions in each game, in turn order (the first player first).
GAME_FACTIONS: dict[str, tuple[str, str]] = {
    declaration.id: declaration.side_ids for declaration in DECLARATIONS}
#: The card factions that are no player's side (a game's `other_factions`, the cards of a deck
#: both players share), by id: their cards never go into a player's deck.
SHARED_FACTIONS: dict[str, SideDeclaration] = {
    side.id: side for declaration in DECLARATIONS for side in declaration.other_factions}


class PlayType(StrEnum):
    """How a card is put on the table (base rulebook, "There are three types of cards")."""

    FIREPOWER = "firepower"
    ROW_BLOCKING = "row-blocking"
    ONE_SHOT = "one-shot"


class Category(StrEnum):
    """Deck-building category (Tarnished Star, Module D, rules C and D)."""

    ACTION = "action"
    CHARACTER = "character"
    FIREPOWER = "firepower"
    LOCATION = "location"
    OPEN_RANGE = "open-range"


class Chip(StrEnum):
    WHITE = "white"
    BLACK = "black"
    RED = "red"


class Icon(StrEnum):
    TRUE_GRIT = "true-grit"
    IMPERVIOUS = "impervious"
    COME_INTO_PLAY = "come-into-play"
    CLOCK_PLUS_1 = "clock-plus-1"
    CLOCK_MINUS_1 = "clock-minus-1"
    EXTRA_FIREPOWER = "extra-firepower"
    DISCARD = "discard"
    RANDOM_DISCARD = "random-discard"
    SILVER_DOLLAR = "silver-dollar"
    LOCK = "lock"
    SCOPE = "scope"
    HAND = "hand"
    STAR = "star"
    GRAVESTONE = "gravestone"
    DARK_HAND = "dark-hand"  # Tarnished Star: named only by its shape (Volcanic pistol)


class Provenance(Strict):
    """Where each value of a record comes from.

    `sources` maps a field name to the document that states its value; `unconfirmed` lists
    the fields whose values no document states (a plausible value was chosen so the data
    works). A field is never in both; a value set in data is always in one of them.
    """

    sources: dict[str, str] = Field(default_factory=dict)
    unconfirmed: list[str] = Field(default_factory=list)
    note: str | None = None

    @model_validator(mode="after")
    def _disjoint(self) -> Provenance:
        both = sorted(set(self.sources) & set(self.unconfirmed))
        if both:
            raise ValueError(f"fields both sourced and unconfirmed: {', '.join(both)}")
        if len(set(self.unconfirmed)) != len(self.unconfirmed):
            raise ValueError("a field is listed twice in unconfirmed")
        return self

    def source_of(self, field: str) -> str:
        return UNCONFIRMED if field in self.unconfirmed else self.sources.get(field, UNCONFIRMED)

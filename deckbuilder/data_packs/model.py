"""The data pack file: values players read from their printed cards, each with its source, for
the card-set versions it names. A pack is data, never code."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, JsonValue, StrictStr

from deckbuilder.models.common import CardId, Strict
from deckbuilder.models.decks import MAX_COLLECTION_ENTRIES

#: The version of the pack format this program reads and writes.
PACK_FORMAT = 1
#: How a value a pack sets names its source in the record's provenance (`data pack ID VERSION:
#: what the pack says`); `standing` reads it back.
PACK_SOURCE_PREFIX = "data pack "
#: How `catalog.apply_overlay_document` names the overlay's values.
OVERLAY_SOURCE_PREFIX = "overlay "
#: The source a review answer carries (with the date and, if given, the player's name).
PRINTED_CARD = "read from the printed card"
#: Fields a pack never sets: the key, what the layer writes, and what follows from others (a
#: renamed record keeps its old name as an alias by itself; the text is our paraphrase).
NOT_PACK_FIELDS = frozenset({"id", "provenance", "aliases", "text"})
#: Fields that hold engine data (effect steps, turn spaces): a pack or an answer may confirm
#: their reading as it stands, never reshape it (`deckbuilder overlay set` can).
ENGINE_FIELDS = frozenset({"effect", "modes", "triggers", "abilities", "on_death", "spaces"})
MAX_NAME = 120

FieldName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
SetVersion = Annotated[StrictStr, Field(min_length=1, max_length=40)]


def printed_card_source(day: date, player: str | None = None) -> str:
    """The source of a value a player read from the printed card on `day`.

    >>> printed_card_source(date(2025, 3, 1), "Ann")
    'read from the printed card, 2025-03-01, by Ann'
    """
    return f"{PRINTED_CARD}, {day.isoformat()}" + (f", by {player}" if player else "")


class PackValue(Strict):
    """One value and where it comes from (`read from the printed card, DATE, by NAME`)."""

    value: JsonValue = Field(description="the value, in the shape the record's field takes")
    source: StrictStr = Field(min_length=1, max_length=500,
                              description="where the value comes from")


class DataPack(Strict):
    """A data pack: card values read from the printed cards, shared between players."""

    format: Literal[1] = Field(1, description="the pack format's version (1)")
    id: CardId = Field(description="the pack's id (kebab-case); its file name once imported")
    version: StrictStr = Field(min_length=1, max_length=40,
                               description="the pack's own version; a newer one replaces it")
    name: StrictStr | None = Field(None, max_length=200)
    description: StrictStr | None = Field(None, max_length=2000)
    applies_to: dict[CardId, SetVersion] = Field(
        min_length=1, max_length=100,
        description="card set id -> the set's version the values were read for")
    values: dict[CardId, dict[FieldName, PackValue]] = Field(
        min_length=1, max_length=MAX_COLLECTION_ENTRIES,
        description="record id -> field -> the value and its source")


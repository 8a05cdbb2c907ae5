"""Decks, collections and local overlays: the files a user writes."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, JsonValue, StrictInt, StrictStr

from deckbuilder.models.common import CardId, Faction, Game, Strict

#: Copies of one card: a whole number, never true/false, "10" or 10.0 (strict: not coerced).
CopyCount = Annotated[StrictInt, Field(ge=1, le=99)]
#: Copies in a deck that may leave a card out (scenario decks, game records).
DeckCount = Annotated[StrictInt, Field(ge=0, le=99)]
#: A card named by id or by name, as a deck or collection writes it.
CardKey = Annotated[StrictStr, Field(min_length=1, max_length=200)]
#: Distinct entries of a deck: a deck has 62 cards, so a few hundred is already absurd.
MAX_DECK_ENTRIES = 200
#: Distinct entries of a collection or an overlay (the catalog has a few hundred records).
MAX_COLLECTION_ENTRIES = 5000


class Deck(Strict):
    """A deck: cards by id or name, with counts."""

    name: StrictStr = Field(min_length=1, max_length=200)
    game: Game
    faction: Faction
    sets: list[CardId] | None = Field(
        None, description="sets this deck may draw from; omitted: every installed set"
    )
    description: StrictStr | None = None
    cards: dict[CardKey, CopyCount] = Field(
        max_length=MAX_DECK_ENTRIES, description="card id or name -> number of copies")


class Collection(Strict):
    """What a player owns: whole boxes (sets) and loose cards (promos, singles)."""

    name: StrictStr | None = None
    sets: dict[CardId, CopyCount] = Field(
        default_factory=dict, max_length=MAX_COLLECTION_ENTRIES,
        description="set id -> number of copies of that product owned",
    )
    cards: dict[CardKey, CopyCount] = Field(
        default_factory=dict, max_length=MAX_COLLECTION_ENTRIES,
        description="card id or name -> copies",
    )


class Correction(Strict):
    """New values for one record, with where they come from."""

    source: StrictStr = Field(min_length=1, max_length=500,
                              description="where the corrected values come from")
    values: dict[str, JsonValue] = Field(
        min_length=1,
        description="field -> new value (any shape the field takes: a number, a list of turn "
        "spaces, effect steps ...); checked against the record's model when applied",
    )


class Overlay(Strict):
    """Local corrections to package data, keyed by card id; never touches package files."""

    corrections: dict[CardId, Correction] = Field(default_factory=dict,
                                                  max_length=MAX_COLLECTION_ENTRIES)

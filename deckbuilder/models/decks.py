"""Decks, collections and local overlays: the files a user writes."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, JsonValue

from deckbuilder.models.common import CardId, Faction, Game, Strict

CopyCount = Annotated[int, Field(ge=1, le=99)]


class Deck(Strict):
    """A deck: cards by id or name, with counts."""

    name: str = Field(min_length=1, max_length=200)
    game: Game
    faction: Faction
    sets: list[CardId] | None = Field(
        None, description="sets this deck may draw from; omitted: every installed set"
    )
    description: str | None = None
    cards: dict[str, CopyCount] = Field(description="card id or name -> number of copies")


class Collection(Strict):
    """What a player owns: whole boxes (sets) and loose cards (promos, singles)."""

    name: str | None = None
    sets: dict[CardId, CopyCount] = Field(
        default_factory=dict, description="set id -> number of copies of that product owned"
    )
    cards: dict[str, CopyCount] = Field(
        default_factory=dict, description="card id or name -> copies"
    )


class Correction(Strict):
    """New values for one record, with where they come from."""

    source: str = Field(min_length=1, description="where the corrected values come from")
    values: dict[str, JsonValue] = Field(
        min_length=1,
        description="field -> new value (any shape the field takes: a number, a list of turn "
        "spaces, effect steps ...); checked against the record's model when applied",
    )


class Overlay(Strict):
    """Local corrections to package data, keyed by card id; never touches package files."""

    corrections: dict[CardId, Correction] = Field(default_factory=dict)

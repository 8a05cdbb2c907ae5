"""Pydantic models: the single source of truth for data files and their JSON Schemas."""

from deckbuilder.models.cards import (
    Battlefield,
    BattlefieldTokens,
    Card,
    Character,
    Placement,
    PokerCard,
    SpaceKind,
    Special,
    Token,
    TurnSpace,
)
from deckbuilder.models.common import (
    GAME_FACTIONS,
    Category,
    Chip,
    Faction,
    Game,
    Icon,
    PlayType,
    Provenance,
)
from deckbuilder.models.decks import Collection, Correction, Deck, Overlay
from deckbuilder.models.sets import CardSet, Module, Ruleset, RuleSwitch, SetKind, Variant

__all__ = [
    "GAME_FACTIONS",
    "Battlefield",
    "BattlefieldTokens",
    "Card",
    "CardSet",
    "Category",
    "Character",
    "Chip",
    "Collection",
    "Correction",
    "Deck",
    "Faction",
    "Game",
    "Icon",
    "Module",
    "Overlay",
    "Placement",
    "PlayType",
    "PokerCard",
    "Provenance",
    "RuleSwitch",
    "Ruleset",
    "SetKind",
    "SpaceKind",
    "Special",
    "Token",
    "TurnSpace",
    "Variant",
]

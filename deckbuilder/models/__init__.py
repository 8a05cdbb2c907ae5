"""Pydantic models: the single source of truth for data files and their JSON Schemas."""

from deckbuilder.models.cards import Battlefield, Card, Special
from deckbuilder.models.decks import Collection, Deck, Overlay
from deckbuilder.models.sets import CardSet, Ruleset, RuleSwitch, SetKind

__all__ = ["Battlefield", "Card", "CardSet", "Collection", "Deck", "Overlay", "RuleSwitch",
           "Ruleset", "SetKind", "Special"]

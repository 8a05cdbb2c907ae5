"""Card sets (base games, expansions, modules, promos, homebrew) and rulesets."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, StrictStr

from deckbuilder.models.cards import Battlefield, Card, Character, Special, Token
from deckbuilder.models.common import CardId, Game, Provenance, Strict

#: A set's lists of records and the kind of record each holds ("card", "character" ...).
RECORD_LISTS: tuple[tuple[str, str], ...] = (
    ("cards", "card"), ("characters", "character"), ("battlefields", "battlefield"),
    ("specials", "special"), ("tokens", "token"))


class SetKind(StrEnum):
    BASE = "base"
    EXPANSION = "expansion"
    PROMO = "promo"
    HOMEBREW = "homebrew"


class Module(Strict):
    """A part of a set that changes set-up or switches a rule on (Tarnished Star A-D)."""

    id: CardId
    letter: str | None = Field(None, max_length=2)
    name: StrictStr
    description: StrictStr
    requires_modules: list[CardId] = Field(default_factory=list)
    setup: list[str] = Field(default_factory=list, description="set-up steps, in order")
    switches: dict[str, str | int | bool] = Field(default_factory=dict)
    cards: list[CardId] = Field(default_factory=list, description="cards this module uses")
    provenance: Provenance = Field(default_factory=Provenance)


class Variant(Strict):
    """One way a rule can be read, when the documents disagree."""

    value: str
    description: StrictStr
    source: str
    params: dict[str, str | int | bool] = Field(
        default_factory=dict,
        description="what the reading names, e.g. {character: cortez, before: 3-15-express}",
    )


class RuleSwitch(Strict):
    id: CardId
    description: StrictStr
    default: str
    variants: list[Variant] = Field(min_length=2)


class Ruleset(Strict):
    """A named choice of variants for every rule switch (the English rulebook by default)."""

    id: CardId
    name: StrictStr
    description: StrictStr
    choices: dict[str, str] = Field(default_factory=dict)


class CardSet(Strict):
    """One YAML file under expansions/: everything a product (or a homebrew set) adds."""

    id: CardId
    name: StrictStr
    version: str = Field(pattern=r"^\d+\.\d+(\.\d+)?$")
    game: Game
    kind: SetKind
    number: str | None = Field(None, description="the publisher's number, e.g. 1.4")
    requires: list[CardId] = Field(default_factory=list, description="ids of sets it needs")
    complete: bool = Field(True, description="false: the full card list is not known")
    completeness_note: str | None = None
    cards: list[Card] = Field(default_factory=list)
    characters: list[Character] = Field(default_factory=list)
    battlefields: list[Battlefield] = Field(default_factory=list)
    specials: list[Special] = Field(default_factory=list)
    tokens: list[Token] = Field(default_factory=list)
    modules: list[Module] = Field(default_factory=list)
    rule_switches: list[RuleSwitch] = Field(default_factory=list)
    rulesets: list[Ruleset] = Field(default_factory=list)
    provenance: Provenance = Field(default_factory=Provenance)

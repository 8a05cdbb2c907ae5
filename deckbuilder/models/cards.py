"""Cards, characters, battlefields, special cards and tokens as they stand in set files."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, StrictInt, StrictStr, create_model, model_validator

from deckbuilder.models.common import (
    CardId,
    Category,
    Chip,
    Faction,
    Icon,
    PlayType,
    Provenance,
    Strict,
)
from deckbuilder.models.effects import Ability, Mode, Step, Trigger, game_declared


class Placement(StrEnum):
    """Where a card may be placed when played."""

    CURRENT = "current"  # the current battlefield (the default rule)
    ANY = "any"  # any battlefield (Josie "Dead-eye" Logan, Apache scout)
    OPPONENT_ANY = "opponent-any"  # the opponent's side of any battlefield (Rickety Bridge)
    BESIDE = "beside"  # beside the current battlefield (Sandstorm)
    OPEN_RANGE = "open-range"  # on the table next to the player, at no battlefield
    PRISON = "prison"  # only in the San Manzanillo Prison (Double the guard)


class Record(Strict):
    """What every named thing in a set file has."""

    id: CardId
    name: StrictStr = Field(min_length=1, max_length=120)
    aliases: list[StrictStr] = Field(default_factory=list)
    text: StrictStr | None = Field(None, description="a short paraphrase of the printed text")
    provenance: Provenance = Field(default_factory=Provenance)


class Card(Record):
    """A card of a player's deck (or of a module / the Frontier deck)."""

    faction: Faction
    category: Category
    play: PlayType
    copies: StrictInt = Field(1, ge=0, le=62, description="copies of this card in its set")
    deckable: bool = Field(True, description="may stand in a player's deck (Module D)")
    unique: bool = False
    gunslinger: bool = Field(False, description="unique gunslinger: never replaced (rule B)")
    cost: StrictInt = Field(0, ge=0, le=10, description="cards to discard to play it")
    firepower: StrictInt | None = Field(None, ge=0, le=20)
    chip: Chip | None = None
    icons: list[Icon] = Field(default_factory=list)
    powder_kegs: StrictInt = Field(0, ge=0, le=4, description="Revolver 2, Malpaso guardians")
    ammunition: StrictInt = Field(0, ge=0, le=4, description="Revolver 2, Mapache raiders")
    silver_dollars: StrictInt = Field(0, ge=0, le=4, description="extra cost in silver dollars")
    placement: Placement = Placement.CURRENT
    counts_toward_limit: bool = Field(True, description="counts toward the 3-card limit")
    movable: bool = Field(
        True,
        description="false: stays where it was placed; no card moves or returns it to a hand, "
        "and its owner cannot discard it from play (The Jackson Clan, locations)",
    )
    reshuffles: bool = Field(
        True, description="false: removed from the game when the discard pile is reshuffled"
    )
    cost_waived_at: list[CardId] = Field(
        default_factory=list, description="battlefields where the cost is not paid"
    )
    not_at: list[CardId] = Field(default_factory=list, description="battlefields it can't be used")
    played_when_drawn: bool = Field(
        False, description="played at once, for free, by the player who draws it (The Legend "
                           "of Boggy Creek: 'Play this card immediately')")
    effect: list[Step] = Field(default_factory=list, description="on play / come into play")
    triggers: list[Trigger] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)
    modes: list[Mode] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if self.gunslinger and not self.unique:
            raise ValueError("a unique gunslinger must also be unique")
        if self.play == PlayType.FIREPOWER and self.firepower is None:
            raise ValueError("a firepower card needs a firepower value")
        return self


_GAME_FIELDS: dict[str, Any] = {
    name: spec for fields in game_declared("CARD_FIELDS") for name, spec in fields.items()}
if _GAME_FIELDS and not TYPE_CHECKING:  # each game's own card fields, after the table's
    Card = create_model("Card", __base__=Card, __doc__=Card.__doc__, **_GAME_FIELDS)


class Character(Record):
    """A bandit (Revolver) or guardian (Revolver 2) card: the lives of the defending side."""

    faction: Faction
    survival: StrictInt = Field(ge=0, le=9, description="survival rating; lowest dies first")
    leader: bool = Field(False, description="Jack Colty / Padre Esteban")
    starting: bool = Field(True, description="in front of the player at set-up (Revolver 2: 7)")
    true_grit: StrictInt = Field(0, ge=0, le=3, description="true grit tokens at set-up")
    power_tokens: StrictInt = Field(
        0, ge=0, le=3,
        description="power tokens at set-up; on a bandit a power token is an extra life",
    )
    on_death: list[Step] = Field(default_factory=list)
    triggers: list[Trigger] = Field(default_factory=list)


class SpaceKind(StrEnum):
    REGULAR = "regular"
    EXTRA = "extra"  # a "-" space, used only when a card moves the marker before space 1
    OPTIONAL = "optional"  # Revolver 2: the defender may skip the remaining optional spaces
    FACE = "face"  # Rattlesnake Creek: used only by Kittens' and Skinny's extra turns


class TurnSpace(Strict):
    label: str = Field(min_length=1, max_length=20)
    kind: SpaceKind = SpaceKind.REGULAR
    face: str | None = Field(None, description="for face spaces: whose face (kittens, skinny)")
    recruit: StrictInt = Field(0, ge=0, le=5,
                               description="Revolver 2: guardians drawn on this space")


class Battlefield(Record):
    order: StrictInt = Field(ge=1, le=20, description="position from the left (1 = first)")
    group: str = Field("fixed", description="Revolver 2: fixed, crystal-river, buffalo-falls")
    defence: StrictInt = Field(ge=0, le=10)
    spaces: list[TurnSpace] = Field(min_length=1)


class BattlefieldTokens(Strict):
    """Power tokens a poker card puts on a battlefield card at set-up (Revolver 2).

    The tokens are the owner's own kind (Malpaso guardian or General Mapache power tokens).
    `side` matters because it decides what they add to: on the guardians' side of the card
    they add to its defence, on the Mapache side to his firepower at that battlefield.
    """

    battlefield: CardId = Field(description="the battlefield card the tokens go on")
    side: Literal["self", "opponent"] = Field(
        "self", description="whose side of the battlefield card, relative to the card's owner"
    )
    count: StrictInt = Field(ge=1, le=9, description="how many power tokens")


class PokerCard(Strict):
    """An All Rivers Poker tournament card as the set-up reads it (Revolver 2).

    Structured so the rules engine can play the tournament without parsing `text`: a round
    compares `value`, a cheat beats any card that does not call cheats, and every card played
    (won or lost) applies its set-up effect: extra opening cards and power tokens.
    """

    value: StrictInt = Field(
        ge=0, le=20, description="rank in a round: higher wins (a cheat's value is not compared)"
    )
    cheat: bool = Field(
        False, description="wins its round unless the opponent plays a card that calls cheats"
    )
    calls_cheat: bool = Field(False, description="beats a cheat card (You cheat Dawg!)")
    returns_to_hand: bool = Field(
        False, description="goes back to its owner's hand after its round instead of discarded"
    )
    extra_cards: StrictInt = Field(
        0, ge=0, le=10, description="extra cards its side draws in the opening hand"
    )
    battlefield_tokens: list[BattlefieldTokens] = Field(
        default_factory=list, description="power tokens it puts on battlefield cards at set-up"
    )


class Special(Record):
    """A card beside the battlefields (Derail the Train, the Mexican Border, the duel ...)."""

    faction: Faction = Faction.NEUTRAL
    tokens: StrictInt = Field(0, ge=0, le=20, description="tokens placed on it at set-up")
    beside: CardId | None = Field(None, description="the battlefield it lies beside")
    effect: list[Step] = Field(default_factory=list)
    poker: PokerCard | None = Field(
        None, description="Revolver 2: an All Rivers Poker tournament card's data"
    )


class Token(Record):
    count: StrictInt = Field(ge=0, le=99, description="how many are in the box")

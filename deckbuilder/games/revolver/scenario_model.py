"""Revolver's scenario files: the sides are colty (the Colty gang, who move first) and mcready
(McReady's lawmen, who attack).

Besides what every game's position holds, a Revolver position names the Mexican Border tokens
left, the face spaces in use, whether Derail the Train was used, the silver dollars and the
modules' pieces (McReady's choice, the bandits a module holds). Its expectations check the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import AliasChoices, Field

from deckbuilder.games.revolver.declaration import DECLARATION as REVOLVER
from deckbuilder.models.common import Strict
from deckbuilder.models.decks import MAX_DECK_ENTRIES, CardKey, DeckCount
from deckbuilder.scenario_kit.generic import Characters, GameScenario, GameStep, ScenarioFormat
from deckbuilder.scenario_kit.parts import CardInPlay, Count, GameExpectations, Marker, Side, Tokens
from deckbuilder.scenario_kit.sides import literal_of, per_side

PLAYERS: tuple[str, str] = REVOLVER.side_ids
if TYPE_CHECKING:  # built from the side names below; for mypy, a side's name and a model
    Player: TypeAlias = str
    PlayerOrNone: TypeAlias = str
    Sides: TypeAlias = Strict
    PerPlayerCards: TypeAlias = Strict
    PerPlayerCount: TypeAlias = Strict
    SidesExpected: TypeAlias = Strict
    ScenarioDecks: TypeAlias = Strict
else:
    Player = literal_of(*PLAYERS)
    PlayerOrNone = literal_of(*PLAYERS, "none")
    Sides = per_side("Sides", PLAYERS, list[CardInPlay], default_factory=list, doc=(
        "Cards at one battlefield, listed under their owner (row-blocking cards under "
        "McReady)."))
    PerPlayerCards = per_side("PerPlayerCards", PLAYERS, list[str] | None)
    PerPlayerCount = per_side("PerPlayerCount", PLAYERS, int | None)
    SidesExpected = per_side("SidesExpected", PLAYERS, list[str] | None, doc=(
        "Cards expected at a battlefield, per owner: exactly these (order ignored)."))
    ScenarioDecks = per_side("ScenarioDecks", PLAYERS, dict[CardKey, DeckCount] | None,
                             max_length=MAX_DECK_ENTRIES)


class Bandits(Characters):
    """Who of the gang is alive (default: everyone) and their tokens (default: set-up's)."""

    tokens: dict[str, Tokens] = Field(default_factory=dict, description="bandit id -> tokens")
    freed: list[str] = Field(
        default_factory=list,
        description="bandits a module held at set-up who are out now (Santiago, freed from the "
                    "San Manzanillo Prison): alive in the gang unless `dead` names him (or "
                    "`alive` leaves him out). A held bandit not named here is still held: "
                    "neither alive nor dead, so `alive`, `dead` and `tokens` may not name him")


class Position(Strict):
    """The position to set up; what is left out is as at the start of a game."""

    turn: Player = Field(description="whose turn it is")
    phase: Literal["play", "start"] = Field(
        "play", description="play: that player's play phase is open; start: the turn begins "
                            "(advance the marker, draw two) and then the play phase opens")
    turn_number: int | None = Field(None, ge=1, description="game turns counted so far "
                                                            "(default: 3 for colty, 4 mcready)")
    marker: Marker | None = None
    countdown: Count | None = Field(
        None, ge=0, validation_alias=AliasChoices("countdown", "border"),
        description="Mexican Border tokens left (`border`, the former key, still reads)")
    face_spaces: list[str] = Field(default_factory=list,
                                   description="face spaces already in use (kittens, skinny)")
    derail_used: bool = False
    killed_this_turn: bool = Field(False, description="a bandit already died this turn")
    forbidden: list[str] = Field(default_factory=list,
                                 description="cards no longer playable (as after Bruno's death)")
    battlefields: dict[str, Sides] = Field(default_factory=dict)
    bandits: Bandits = Field(default_factory=Bandits)
    colty: Side = Field(default_factory=Side)
    mcready: Side = Field(default_factory=Side)
    silver_dollars: PerPlayerCount | None = Field(
        None, description="silver dollar tokens each player holds (default: as the set-up "
                          "and modules give them)")
    mcreadys_choice: Literal[1, 2] | None = Field(
        None, description="Module B (mcreadys-choice): the silver dollars McReady chose "
                          "before the game, with what follows (two: a true grit token on the "
                          "Armed train guard, the Garrotte under Santiago in the prison); "
                          "required when the module is in use")


class Expectations(GameExpectations):
    """What must hold. Card lists compare as multisets; a field left out is not checked."""

    to_act: PlayerOrNone | None = None
    decision: str | None = Field(None, description='the open decision, e.g. "choose the casualty"')
    turn: int | None = None
    marker: Marker | None = None
    countdown: Count | None = Field(
        None, validation_alias=AliasChoices("countdown", "border"),
        description="Mexican Border tokens left (`border`, the former key, still reads)")
    face_spaces: list[str] | None = Field(None, description="exactly these face spaces in use")
    derail_used: bool | None = None
    alive: list[str] | None = Field(None, description="these bandits are alive (others may be)")
    dead: list[str] | None = Field(None, description="these bandits are dead (others may be)")
    alive_count: int | None = None
    tokens: dict[str, Tokens] | None = Field(
        None, description="bandit id, or card id (card-id@battlefield-id) in play -> tokens "
                          "(summed over the copies in play; #N: the N-th copy there)")
    at: dict[str, SidesExpected] | None = Field(None, description="battlefield id -> cards")
    hand: PerPlayerCards | None = None
    hand_size: PerPlayerCount | None = None
    deck_size: PerPlayerCount | None = Field(None, description="cards left in each deck")
    deck_top: PerPlayerCards | None = Field(
        None, description="the top cards of each deck, first drawn first (only as many as "
                          "listed are compared, in order)")
    discard: PerPlayerCards | None = None
    removed: PerPlayerCards | None = None
    firepower: PerPlayerCount | None = Field(
        None, description="the totals an attack here compares (the gang's includes defence)")
    silver_dollars: PerPlayerCount | None = Field(
        None, description="silver dollar tokens each player holds")
    winner: PlayerOrNone | None = None


class ActionStep(GameStep[Player, Expectations]):
    """An action (`do`), optionally by a named player, and/or checks after it (`expect`)."""


class RevolverScenario(GameScenario[ScenarioDecks, Position, ActionStep, Expectations]):
    """One rules question of Revolver: a position, what is played, what must follow."""

    game: Literal["revolver"] = "revolver"
    ruleset: str = "rulebook-en"
    modules: list[str] = Field(
        default_factory=list, description="the modules in use, by id (e.g. saloon-duel)")


#: Revolver's scenario models: the file, an action item, the expectations.
FORMAT = ScenarioFormat(RevolverScenario, ActionStep, Expectations)

__all__ = ["FORMAT", "ActionStep", "Bandits", "Expectations", "Position", "RevolverScenario"]

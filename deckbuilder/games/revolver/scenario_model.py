"""Revolver's scenario files: the sides are colty (the Colty gang, who move first) and mcready
(McReady's lawmen, who attack). A position adds the Mexican Border tokens, the face spaces,
Derail the Train, the silver dollars and the modules' pieces; its expectations check the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import AliasChoices, Field

from deckbuilder.games.revolver.declaration import DECLARATION as REVOLVER
from deckbuilder.models.common import Strict
from deckbuilder.scenario_kit.generic import (
    Characters,
    GameScenario,
    GameStep,
    GenericExpectations,
    GenericPosition,
    ScenarioFormat,
    side_models,
)
from deckbuilder.scenario_kit.parts import Count, Side, Tokens

PLAYERS: tuple[str, str] = REVOLVER.side_ids
if TYPE_CHECKING:  # built from the side names; for mypy, a side's name and a model
    Player: TypeAlias = str
    PlayerOrNone: TypeAlias = str
    Sides: TypeAlias = Strict
    PerPlayerCards: TypeAlias = Strict
    PerPlayerCount: TypeAlias = Strict
    ScenarioDecks: TypeAlias = Strict
else:
    Player, PlayerOrNone, Sides, PerPlayerCards, PerPlayerCount, ScenarioDecks = side_models(
        REVOLVER)


class Bandits(Characters):
    """Who of the gang is alive (default: everyone) and their tokens (default: set-up's)."""

    tokens: dict[str, Tokens] = Field(default_factory=dict, description="bandit id -> tokens")
    freed: list[str] = Field(
        default_factory=list,
        description="bandits a module held at set-up who are out now (Santiago, freed from the "
                    "San Manzanillo Prison): alive in the gang unless `dead` names him (or "
                    "`alive` leaves him out). A held bandit not named here is still held: "
                    "neither alive nor dead, so `alive`, `dead` and `tokens` may not name him")


class Position(GenericPosition[Player, Sides]):
    """The position to set up; what is left out is as at the start of a game."""

    countdown: Count | None = Field(
        None, ge=0, validation_alias=AliasChoices("countdown", "border"),
        description="Mexican Border tokens left (`border`, the former key, still reads)")
    face_spaces: list[str] = Field(default_factory=list,
                                   description="face spaces already in use (kittens, skinny)")
    derail_used: bool = False
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


class Expectations(GenericExpectations[PlayerOrNone, PerPlayerCards, PerPlayerCount]):
    """What must hold. Card lists compare as multisets; a field left out is not checked."""

    countdown: Count | None = Field(
        None, validation_alias=AliasChoices("countdown", "border"),
        description="Mexican Border tokens left (`border`, the former key, still reads)")
    face_spaces: list[str] | None = Field(None, description="exactly these face spaces in use")
    derail_used: bool | None = None
    silver_dollars: PerPlayerCount | None = Field(
        None, description="silver dollar tokens each player holds")


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

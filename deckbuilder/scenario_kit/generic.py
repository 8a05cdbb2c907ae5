"""A game's scenario format: the file (`GameScenario`) and its action steps (`GameStep`) every
game's format is made of, and the format of a game that brings none (`generic_format`), built
from its declaration's side names with what every game on the table has. Revolver's and
Revolver 2's formats (`games/<game>/scenario_model.py`) subclass `GenericPosition` and
`GenericExpectations` with their own pieces, their per-side parts built by `side_models`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, NamedTuple, TypeVar

from pydantic import Field, create_model, model_validator

from deckbuilder.declaration import GameDeclaration
from deckbuilder.models.common import Strict
from deckbuilder.models.decks import MAX_DECK_ENTRIES, CardKey, DeckCount
from deckbuilder.scenario_kit.parts import (
    EXPECT_DESCRIPTION,
    CardInPlay,
    ColonAction,
    Count,
    GameExpectations,
    Marker,
    ScenarioBase,
    Side,
    StepBase,
    Tokens,
    allow_refused,
)
from deckbuilder.scenario_kit.sides import literal_of, per_side, side_fields


@dataclass(frozen=True)
class ScenarioFormat:
    """One game's scenario models: the file, an action item, the expectations."""

    scenario: type[Strict]
    step: type[StepBase]
    expectations: type[Strict]


PlayerT = TypeVar("PlayerT")
DecksT = TypeVar("DecksT")
PositionT = TypeVar("PositionT", bound=Strict)
StepT = TypeVar("StepT", bound=StepBase)
ExpectT = TypeVar("ExpectT", bound=Strict)


class GameStep(StepBase, Generic[PlayerT, ExpectT]):
    """An action (`do`), optionally by a named player, and/or checks after it (`expect`)."""

    by: PlayerT | None = None
    expect: ExpectT | None = None


class GameScenario(ScenarioBase, Generic[DecksT, PositionT, StepT, ExpectT]):
    """One rules question: a position, what is played, what must follow. A game's scenario
    names its decks, position, action step and expectations, its `game` and its ruleset."""

    name: str = Field(min_length=1)
    rule: str = Field(min_length=1, description="where in the rulebook this comes from")
    note: str | None = Field(None, description="readings, assumptions, data it depends on")
    game: str
    ruleset: str
    switches: dict[str, str] = Field(
        default_factory=dict, description="rule switch id -> reading, over the ruleset's")
    seed: int = Field(1, description="shuffles the rest of the decks")
    max_turns: int = Field(200, ge=1)
    decks: DecksT | None = Field(None, description="default: the base decks (copies are added "
                                                   "when the position needs more)")
    position: PositionT
    actions: list[Annotated[str | StepT | ColonAction, Field(union_mode="left_to_right")]] = Field(
        default_factory=list, description="action texts as the engine prints them (exact, or "
                                          "a unique prefix), or {do, by, expect} items")
    expect: ExpectT | None = Field(None, description=EXPECT_DESCRIPTION,
                                   json_schema_extra=allow_refused)


class Characters(Strict):
    """Who of the first side's characters is alive (default: everyone) and their tokens
    (default: set-up's)."""

    alive: list[str] | None = Field(None, description="only these are alive")
    dead: list[str] = Field(default_factory=list, description="these are dead")
    tokens: dict[str, Tokens] = Field(default_factory=dict,
                                      description="character id -> tokens")

    @model_validator(mode="after")
    def _one_way(self) -> Characters:
        if self.alive is not None and self.dead:
            raise ValueError("give either `alive` or `dead`, not both")
        return self


SidesT = TypeVar("SidesT")
CardsT = TypeVar("CardsT")
CountT = TypeVar("CountT")


class GenericPosition(Strict, Generic[PlayerT, SidesT]):
    """The position to set up; what is left out is as at the start of a game."""

    turn: PlayerT = Field(description="whose turn it is")
    phase: Literal["play", "start"] = Field(
        "play", description="play: that player's play phase is open; start: the turn begins "
                            "(the marker, the draw) and then the play phase opens")
    turn_number: int | None = Field(None, ge=1, description="game turns counted so far "
                                                            "(default: 3 on the first side's "
                                                            "turn, 4 on the second's)")
    marker: Marker | None = None
    countdown: Count | None = Field(None, ge=0, description="tokens left on the countdown card")
    killed_this_turn: bool = Field(False, description="a character already died this turn")
    forbidden: list[str] = Field(default_factory=list, description="cards no longer playable")
    battlefields: dict[str, SidesT] = Field(
        default_factory=dict, description="battlefield id -> the cards in play there")


class GenericExpectations(GameExpectations, Generic[PlayerT, CardsT, CountT]):
    """What must hold. Card lists compare as multisets; a field left out is not checked."""

    to_act: PlayerT | None = None
    decision: str | None = Field(None, description='the open decision, e.g. "choose the '
                                                   'casualty"')
    turn: int | None = None
    marker: Marker | None = None
    countdown: Count | None = Field(None, description="tokens left on the countdown card")
    alive: list[str] | None = Field(None, description="these characters are alive (others "
                                                      "may be)")
    dead: list[str] | None = Field(None, description="these characters are dead (others may "
                                                     "be)")
    alive_count: int | None = None
    tokens: dict[str, Tokens] | None = Field(
        None, description="character id, or card id (card-id@battlefield-id) in play -> tokens "
                          "(summed over the copies in play; #N: the N-th copy there)")
    at: dict[str, CardsT] | None = Field(
        None, description="battlefield id -> exactly these cards, per owner (order ignored)")
    hand: CardsT | None = None
    hand_size: CountT | None = None
    deck_size: CountT | None = Field(None, description="cards left in each deck")
    deck_top: CardsT | None = Field(
        None, description="the top cards of each deck, first drawn first (only as many as "
                          "listed are compared, in order)")
    discard: CardsT | None = None
    removed: CardsT | None = None
    firepower: CountT | None = Field(
        None, description="the totals an attack here compares (the first side's includes the "
                          "defence)")
    winner: PlayerT | None = None


class SideModels(NamedTuple):
    """The per-side pieces of a game's scenario format, built from its declaration's side
    names and named after the game (`RevolverCards` ...)."""

    player: Any  # Literal of the side names
    player_or_none: Any  # ... or "none"
    in_play: type[Strict]  # the cards at one battlefield, per owner
    cards: type[Strict]  # a list of cards per side (expectations)
    counts: type[Strict]  # a number per side
    decks: type[Strict]  # a deck per side


def _stem(declaration: GameDeclaration) -> str:
    """The game's id as a model name's start (`Revolver2`, `Toy`)."""
    return "".join(part.capitalize() for part in declaration.id.replace("_", "-").split("-"))


def side_models(declaration: GameDeclaration) -> SideModels:
    sides = declaration.side_ids
    stem = _stem(declaration)
    return SideModels(
        literal_of(*sides), literal_of(*sides, "none"),
        per_side(f"{stem}Sides", sides, list[CardInPlay], default_factory=list,
                 doc="Cards at one battlefield, listed under their owner (a row-blocking card "
                     "too, though it lies in the other side's column)."),
        per_side(f"{stem}Cards", sides, list[str] | None),
        per_side(f"{stem}Count", sides, int | None),
        per_side(f"{stem}Decks", sides, dict[CardKey, DeckCount] | None,
                 max_length=MAX_DECK_ENTRIES))


def _of(generic: Any, *params: Any) -> Any:
    """`generic[params]` for models made at run time, whose types mypy cannot see."""
    return generic[params]


def generic_format(declaration: GameDeclaration) -> ScenarioFormat:
    """The scenario models of `declaration`'s game, named after it (`ToyScenario` ...)."""
    sides = side_models(declaration)
    stem = _stem(declaration)
    position_fields: dict[str, Any] = {
        "characters": (Characters, Field(default_factory=Characters)),
        **side_fields(declaration.side_ids, Side, default_factory=Side)}
    position: type[Strict] = create_model(
        f"{stem}Position", __base__=_of(GenericPosition, sides.player, sides.in_play),
        __doc__=GenericPosition.__doc__, **position_fields)
    expectations_base: type[Strict] = _of(GenericExpectations, sides.player_or_none, sides.cards,
                                          sides.counts)
    expectations = create_model(
        f"{stem}Expectations", __doc__=GenericExpectations.__doc__, __base__=expectations_base)
    step_base: type[StepBase] = _of(GameStep, sides.player, expectations)
    step = create_model(f"{stem}ActionStep", __doc__=GameStep.__doc__, __base__=step_base)
    scenario_base: type[Strict] = _of(GameScenario, sides.decks, position, step, expectations)
    scenario_fields: dict[str, Any] = {"game": (literal_of(declaration.id), ...),
                                       "ruleset": (str, declaration.default_ruleset)}
    scenario = create_model(
        f"{stem}Scenario", __base__=scenario_base,
        __doc__=f"One rules question of {declaration.title}: a position, what is played, what "
                "must follow.",
        **scenario_fields)
    return ScenarioFormat(scenario, step, expectations)

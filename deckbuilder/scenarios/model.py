"""Rules questions as files: set up a position by card id, play actions, check what follows.

A scenario file (YAML, schema `scenario.schema.json`) answers one rules question the way the
rulebook's examples do: "McReady has a Deputy and a Cowboy at the Bank, the gang a .38 Special;
he attacks; the gang must take a casualty". It names

- `game`: revolver (the default) or revolver2; the sides are named as the game names them
  (colty/mcready, esteban/mapache) everywhere in the file;
- `position`: whose turn and phase, the turn marker, the countdown card's tokens, each side's
  cards at each battlefield with their tokens, which characters are alive and their tokens,
  hands, the top of each deck, discard piles (and each game's own pieces);
- `actions`: what the players do, written as `action_to_string` prints them ("play Stick of
  dynamite", "casualty: Bullet"), matched exactly or by a unique prefix, so files survive a
  renumbering of the action table; an item may also check expectations on the way;
- `expect`: what must hold at the end (see `Expectations`).

This module holds Revolver's format and `Scenario`, the union of every game's (the schema);
Revolver 2's is in `revolver2_model.py`. `run_scenario` answers with every check and the final
position; `deckbuilder scenario FILE` prints them and exits 0 (all hold), 1 (one fails) or 2
(the file cannot be read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, RootModel, Tag, model_validator

from deckbuilder.models.common import Strict
from deckbuilder.models.decks import MAX_DECK_ENTRIES, CardKey, DeckCount
from deckbuilder.scenarios.parts import (
    CardInPlay,
    Check,
    ColonAction,
    Count,
    GameExpectations,
    Marker,
    PlayedStep,
    ScenarioError,
    ScenarioResult,
    Side,
    Source,
    StepBase,
    Tokens,
)
from deckbuilder.scenarios.revolver2_model import (
    Revolver2ActionStep,
    Revolver2Expectations,
    Revolver2Scenario,
)

Player = Literal["colty", "mcready"]
PLAYERS: tuple[str, str] = ("colty", "mcready")


class Sides(Strict):
    """Cards at one battlefield, listed under their owner (row-blocking cards under McReady)."""

    colty: list[CardInPlay] = Field(default_factory=list)
    mcready: list[CardInPlay] = Field(default_factory=list)


class Bandits(Strict):
    """Who of the gang is alive (default: everyone) and their tokens (default: set-up's)."""

    alive: list[str] | None = Field(None, description="only these are alive")
    dead: list[str] = Field(default_factory=list, description="these are dead")
    tokens: dict[str, Tokens] = Field(default_factory=dict, description="bandit id -> tokens")
    freed: list[str] = Field(
        default_factory=list,
        description="bandits a module held at set-up who are out now (Santiago, freed from the "
                    "San Manzanillo Prison): alive in the gang unless `dead` names him (or "
                    "`alive` leaves him out). A held bandit not named here is still held: "
                    "neither alive nor dead, so `alive`, `dead` and `tokens` may not name him")

    @model_validator(mode="after")
    def _one_way(self) -> Bandits:
        if self.alive is not None and self.dead:
            raise ValueError("give either `alive` or `dead`, not both")
        return self


class Position(Strict):
    """The position to set up; what is left out is as at the start of a game."""

    turn: Player = Field(description="whose turn it is")
    phase: Literal["play", "start"] = Field(
        "play", description="play: that player's play phase is open; start: the turn begins "
                            "(advance the marker, draw two) and then the play phase opens")
    turn_number: int | None = Field(None, ge=1, description="game turns counted so far "
                                                            "(default: 3 for colty, 4 mcready)")
    marker: Marker | None = None
    border: Count | None = Field(None, ge=0, description="Mexican Border tokens left")
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


class PerPlayerCards(Strict):
    colty: list[str] | None = None
    mcready: list[str] | None = None


class PerPlayerCount(Strict):
    colty: int | None = None
    mcready: int | None = None


class SidesExpected(Strict):
    """Cards expected at a battlefield, per owner: exactly these (order ignored)."""

    colty: list[str] | None = None
    mcready: list[str] | None = None


class Expectations(GameExpectations):
    """What must hold. Card lists compare as multisets; a field left out is not checked."""

    to_act: Literal["colty", "mcready", "none"] | None = None
    decision: str | None = Field(None, description='the open decision, e.g. "choose the casualty"')
    turn: int | None = None
    marker: Marker | None = None
    border: Count | None = None
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
    winner: Literal["colty", "mcready", "none"] | None = None


class ActionStep(StepBase):
    """An action (`do`), optionally by a named player, and/or checks after it (`expect`)."""

    by: Player | None = None
    expect: Expectations | None = None


ActionItem = Annotated[str | ActionStep | ColonAction, Field(union_mode="left_to_right")]


class ScenarioDecks(Strict):
    colty: dict[CardKey, DeckCount] | None = Field(None, max_length=MAX_DECK_ENTRIES)
    mcready: dict[CardKey, DeckCount] | None = Field(None, max_length=MAX_DECK_ENTRIES)


class RevolverScenario(Strict):
    """One rules question of Revolver: a position, what is played, what must follow."""

    name: str = Field(min_length=1)
    rule: str = Field(min_length=1, description="where in the rulebook this comes from")
    note: str | None = Field(None, description="readings, assumptions, data it depends on")
    game: Literal["revolver"] = "revolver"
    ruleset: str = "rulebook-en"
    switches: dict[str, str] = Field(
        default_factory=dict, description="rule switch id -> reading, over the ruleset's")
    modules: list[str] = Field(
        default_factory=list, description="the modules in use, by id (e.g. saloon-duel)")
    seed: int = Field(1, description="shuffles the rest of the decks")
    max_turns: int = Field(200, ge=1)
    decks: ScenarioDecks | None = Field(None, description="default: the base decks (copies are "
                                                          "added when the position needs more)")
    position: Position
    actions: list[ActionItem] = Field(
        default_factory=list, description="action texts as the engine prints them (exact, or "
                                          "a unique prefix), or {do, by, expect} items")
    expect: Expectations | None = None


AnyScenario = RevolverScenario | Revolver2Scenario
#: game name -> its scenario model
SCENARIO_MODELS: dict[str, type[RevolverScenario] | type[Revolver2Scenario]] = {
    "revolver": RevolverScenario,
    "revolver2": Revolver2Scenario,
}
#: game name -> the model of an action item / of expectations
STEP_MODELS: dict[str, type[StepBase]] = {"revolver": ActionStep,
                                          "revolver2": Revolver2ActionStep}
EXPECTATION_MODELS: dict[str, type[Strict]] = {"revolver": Expectations,
                                               "revolver2": Revolver2Expectations}
DEFAULT_GAME = "revolver"


def _game_of(data: Any) -> str:
    if isinstance(data, dict):
        return str(data.get("game", DEFAULT_GAME))
    return str(getattr(data, "game", DEFAULT_GAME))


class Scenario(RootModel[Annotated[
        Annotated[RevolverScenario, Tag("revolver")] | Annotated[Revolver2Scenario,
                                                                 Tag("revolver2")],
        Discriminator(_game_of)]]):
    """A scenario file of either game; `game` (default revolver) says which format it is."""


def load_scenario(path: Path | str) -> tuple[AnyScenario, Source]:
    """Read and validate a scenario file in its game's format (errors carry file:line:col)."""
    from deckbuilder.yamlio import load_yaml, validate_document

    path = Path(path)
    document = load_yaml(path)
    source = Source(path, document)
    game = document.get("game", DEFAULT_GAME) if isinstance(document, dict) else DEFAULT_GAME
    model = SCENARIO_MODELS.get(game) if isinstance(game, str) else None
    if model is None:
        raise source.error(f"unknown game '{game}'", ("game",),
                           f"use one of: {', '.join(SCENARIO_MODELS)}")
    return validate_document(document, model, path), source


__all__ = ["AnyScenario", "Check", "Count", "Expectations", "Marker", "PlayedStep", "Position",
           "RevolverScenario", "Scenario", "ScenarioError", "ScenarioResult", "Side", "Source",
           "Tokens", "load_scenario"]

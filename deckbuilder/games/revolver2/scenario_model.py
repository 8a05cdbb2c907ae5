"""Revolver 2's scenario files: the sides are esteban (the Malpaso guardians, who move first)
and mapache (General Mapache's raiders, who attack). A position adds the battlefield set, the
poker tournament, the power tokens on the battlefield cards, the guardians, the Mexican Army
tokens and the bridge; its expectations check the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import AliasChoices, Field, model_validator

from deckbuilder.games.revolver2.declaration import DECLARATION as REVOLVER2
from deckbuilder.models.common import Strict
from deckbuilder.scenario_kit import generic
from deckbuilder.scenario_kit.parts import Count, Side, Tokens
from deckbuilder.scenario_kit.sides import per_side

MALPASO_PLAYERS: tuple[str, str] = REVOLVER2.side_ids
BattlefieldSet = Literal["crystal-river", "buffalo-falls"]
if TYPE_CHECKING:  # built from the side names; for mypy, a side's name and a model
    MalpasoPlayer: TypeAlias = str
    MalpasoPlayerOrNone: TypeAlias = str
    MalpasoSides: TypeAlias = Strict
    BattlefieldTokens: TypeAlias = Strict
    PokerCards: TypeAlias = Strict
    PokerCount: TypeAlias = Strict
    MalpasoCards: TypeAlias = Strict
    MalpasoCount: TypeAlias = Strict
    Revolver2Decks: TypeAlias = Strict
else:
    MalpasoPlayer, MalpasoPlayerOrNone, MalpasoSides, MalpasoCards, MalpasoCount, \
        Revolver2Decks = generic.side_models(REVOLVER2)
    BattlefieldTokens = per_side(
        "BattlefieldTokens", MALPASO_PLAYERS, Count | None, ge=0,
        doc="Power tokens lying on each side of a battlefield card (the poker tournament puts "
            "them\n    on Malpaso): the guardians' add to the defence, Mapache's to his "
            "firepower there.")
    PokerCards = per_side("PokerCards", MALPASO_PLAYERS, list[str], default_factory=list,
                          doc="Poker cards per side, by id (all-rivers-poker-esteban-1) or name.")
    PokerCount = per_side("PokerCount", MALPASO_PLAYERS, Count, default=0, ge=0)


class Guardians(Strict):
    """The guardians: in play (in front of the Malpaso player), in the face-down guardian
    pile, or dead. Left out: the seven starting guardians are in play and the other twelve in
    the pile (in the order the seed shuffles them), less those named elsewhere; a starting
    guardian not in play is dead (he cannot go back to the pile). A guardian neither in play
    nor in the pile is dead."""

    alive: list[str] | None = Field(None, description="exactly these are in play")
    dead: list[str] = Field(default_factory=list, description="these are dead")
    pile: list[str] | None = Field(
        None, description="exactly these are in the guardian pile, the first drawn first")
    pile_size: Count | None = Field(
        None, ge=0, description="the pile holds this many of the twelve set-up's pile "
                                "guardians neither in play nor dead (in the seed's order); "
                                "the others are dead")
    tokens: dict[str, Tokens] = Field(default_factory=dict, description="guardian id -> tokens")

    @model_validator(mode="after")
    def _one_pile(self) -> Guardians:
        if self.pile is not None and self.pile_size is not None:
            raise ValueError("give either `pile` or `pile_size`, not both")
        return self


class PokerPosition(Strict):
    """The All Rivers Poker tournament under way (malpaso-es: Torneo de poker): the position
    is before the game, so no card is in play or in hand and the decks are whole. When it
    ends, its winner's battlefield set comes in and every played card's set-up effect applies
    (bigger opening hands, power tokens on Malpaso), as in a played tournament."""

    hands: PokerCards = Field(description="the poker cards each side holds")
    played: PokerCards = Field(
        default_factory=PokerCards,
        description="the cards each side has played, round by round (as many for each side; "
                    "You cheat Dawg! played goes back to its owner's hand, so it may be held "
                    "too)")
    set_aside: PokerCards | None = Field(
        None, description="the card each side put back in the box unseen (default: the one of "
                          "its six neither held nor played)")
    face_down: str | None = Field(
        None, description="the guardians' card chosen face down this round (one they hold): "
                          "Mapache is to choose")
    wins: PokerCount | None = Field(
        None, description="rounds won so far; checked against the rounds `played` gives")


class Revolver2Position(generic.GenericPosition[MalpasoPlayer | None, MalpasoSides]):
    """The position to set up, past the poker tournament (or, with `poker`, during it); what is
    left out is as at the start of a game (no poker card's set-up effect applies)."""

    turn: MalpasoPlayer | None = Field(
        None, description="whose turn it is (required, except during the poker tournament)")
    countdown: Count | None = Field(
        None, ge=0, validation_alias=AliasChoices("countdown", "army"),
        description="Mexican Army tokens left (default 12; `army`, the former key, still reads)")
    poker: PokerPosition | None = Field(
        None, description="the poker tournament is under way: only `poker` describes the "
                          "position (who chooses next follows from `face_down`)")
    battlefield_set: BattlefieldSet | None = Field(
        None, description="the three battlefields before Los Quantos Bridge: crystal-river "
                          "(the guardians won the poker tournament) or buffalo-falls (Mapache "
                          "won); default: the set of the battlefields the file names, else "
                          "crystal-river")
    bridge_blown: bool = Field(False, description="Los Quantos Bridge is already blown up")
    battlefield_tokens: dict[str, BattlefieldTokens] = Field(
        default_factory=dict, description="battlefield id -> power tokens on its card's sides")
    guardians: Guardians = Field(default_factory=Guardians)
    esteban: Side = Field(default_factory=Side)
    mapache: Side = Field(default_factory=Side)

    @model_validator(mode="after")
    def _turn_or_tournament(self) -> Revolver2Position:
        if self.poker is None and self.turn is None:
            raise ValueError("say whose turn it is (`turn`), or stage the poker tournament "
                             "(`poker`)")
        if self.poker is not None and self.turn is not None:
            raise ValueError("during the poker tournament it is nobody's turn: leave `turn` "
                             "out (`poker.face_down` says who chooses)")
        return self


class Revolver2Expectations(generic.GenericExpectations[MalpasoPlayerOrNone, MalpasoCards,
                                                MalpasoCount]):
    """What must hold. Card lists compare as multisets; a field left out is not checked."""

    countdown: Count | None = Field(
        None, validation_alias=AliasChoices("countdown", "army"),
        description="Mexican Army tokens left (`army`, the former key, still reads)")
    bridge_blown: bool | None = None
    pile: list[str] | None = Field(
        None, description="exactly these guardians in the pile, the first drawn first")
    pile_size: int | None = None
    battlefield_tokens: dict[str, BattlefieldTokens] | None = Field(
        None, description="battlefield id -> power tokens on its card's sides")
    battlefield_set: BattlefieldSet | Literal["none"] | None = Field(
        None, description="the battlefield set in play (the poker tournament's winner's); "
                          "none while the tournament goes on")
    poker_wins: PokerCount | None = Field(None, description="poker rounds each side has won")


class Revolver2ActionStep(generic.GameStep[MalpasoPlayer, Revolver2Expectations]):
    """An action (`do`), optionally by a named player, and/or checks after it (`expect`)."""


class Revolver2Scenario(generic.GameScenario[Revolver2Decks, Revolver2Position, Revolver2ActionStep,
                                     Revolver2Expectations]):
    """One rules question of Revolver 2: a position, what is played, what must follow."""

    game: Literal["revolver2"]
    ruleset: str = "rulebook-es"
    seed: int = Field(1, description="shuffles the rest of the decks and the guardian pile")


#: Revolver 2's scenario models: the file, an action item, the expectations.
FORMAT = generic.ScenarioFormat(Revolver2Scenario, Revolver2ActionStep, Revolver2Expectations)

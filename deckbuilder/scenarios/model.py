"""Rules questions as files: set up a position by card id, play actions, check what follows.

A scenario file (YAML, schema `scenario.schema.json`) answers one rules question the way the
rulebook's examples do: "McReady has a Deputy and a Cowboy at the Bank, the gang a .38 Special;
he attacks; the gang must take a casualty". It names

- `position`: whose turn and phase, the turn marker, border tokens, each side's cards at each
  battlefield with their tokens, which bandits are alive and their tokens, hands, the top of
  each deck, discard piles;
- `actions`: what the players do, written as `action_to_string` prints them ("play Stick of
  dynamite", "casualty: Bullet"), matched exactly or by a unique prefix, so files survive a
  renumbering of the action table; an item may also check expectations on the way;
- `expect`: what must hold at the end (see `Expectations`).

`run_scenario` answers with every check and the final position; `deckbuilder scenario FILE`
prints them and exits 0 (all hold), 1 (one fails) or 2 (the file cannot be read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from deckbuilder.errors import DataFileError, Location
from deckbuilder.models.common import Strict

Player = Literal["colty", "mcready"]
PLAYERS: tuple[str, str] = ("colty", "mcready")
Count = int


class Tokens(Strict):
    """Tokens on a card or bandit; a kind left out is not set (or not checked)."""

    power: Count | None = Field(None, ge=0, description="power (extra firepower) tokens")
    true_grit: Count | None = Field(None, ge=0, description="true grit (extra life) tokens")


class PlacedCard(Strict):
    """A card in play with its tokens (printed tokens are added unless given here)."""

    card: str = Field(description="card id (or name)")
    power: Count | None = Field(None, ge=0)
    true_grit: Count | None = Field(None, ge=0)
    mode: str | None = Field(None, description="for cards with several ways to be played: "
                                               "the mode's name (default: the first one that "
                                               "stays in play)")


CardInPlay = str | PlacedCard


class Sides(Strict):
    """Cards at one battlefield, listed under their owner (row-blocking cards under McReady)."""

    colty: list[CardInPlay] = Field(default_factory=list)
    mcready: list[CardInPlay] = Field(default_factory=list)


class Marker(Strict):
    battlefield: str = Field(description="battlefield id")
    space: str | int = Field(description='turn space label: "-", "1" ... or a face ("kittens")')


class Bandits(Strict):
    """Who of the gang is alive (default: everyone) and their tokens (default: set-up's)."""

    alive: list[str] | None = Field(None, description="only these are alive")
    dead: list[str] = Field(default_factory=list, description="these are dead")
    tokens: dict[str, Tokens] = Field(default_factory=dict, description="bandit id -> tokens")

    @model_validator(mode="after")
    def _one_way(self) -> Bandits:
        if self.alive is not None and self.dead:
            raise ValueError("give either `alive` or `dead`, not both")
        return self


class Side(Strict):
    """One player's cards out of play."""

    hand: list[str] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list, description="the top of the deck, first "
                                                              "drawn first")
    rest_of_deck: Literal["shuffled", "none"] = Field(
        "shuffled", description="shuffled: the rest of the deck list lies under `deck`; none: "
                                "the deck holds only the cards listed in `deck`")
    discard: list[str] = Field(default_factory=list, description="bottom first")
    removed: list[str] = Field(default_factory=list, description="out of the game")


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


class Expectations(Strict):
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
                          "(summed over the copies in play)")
    at: dict[str, SidesExpected] | None = Field(None, description="battlefield id -> cards")
    hand: PerPlayerCards | None = None
    hand_size: PerPlayerCount | None = None
    discard: PerPlayerCards | None = None
    removed: PerPlayerCards | None = None
    firepower: PerPlayerCount | None = Field(
        None, description="the totals an attack here compares (the gang's includes defence)")
    winner: Literal["colty", "mcready", "none"] | None = None
    termination: str | None = None
    over: bool | None = None
    legal: list[str] | None = Field(None, description="exactly these legal actions")
    legal_includes: list[str] | None = Field(
        None, description="each is a legal action (exact text or a prefix of one)")
    legal_excludes: list[str] | None = Field(
        None, description="none is a legal action (no legal action reads so or starts so)")
    log_includes: list[str] | None = Field(
        None, description="each is part of some event logged since the scenario began")


class ActionStep(Strict):
    """An action (`do`), optionally by a named player, and/or checks after it (`expect`)."""

    do: str | None = None
    by: Player | None = None
    expect: Expectations | None = None

    @model_validator(mode="before")
    @classmethod
    def _colon_text(cls, data: Any) -> Any:
        """`- casualty: Bullet` is YAML for a one-key mapping; read it as the action text
        "casualty: Bullet" (as `action_to_string` prints it) instead of refusing it."""
        if isinstance(data, dict) and len(data) == 1:
            (key, value), = data.items()
            if key not in cls.model_fields and isinstance(value, str | int):
                return {"do": f"{key}: {value}"}
        return data

    @model_validator(mode="after")
    def _something(self) -> ActionStep:
        if self.do is None and self.expect is None:
            raise ValueError("an action item needs `do` or `expect`")
        return self


#: `- casualty: Bullet` (YAML reads a one-key mapping): an action text with a colon, unquoted.
#: `ActionStep` accepts it; this member only lets the JSON Schema (editors) accept it too.
ColonAction = Annotated[dict[str, str], Field(min_length=1, max_length=1)]
ActionItem = Annotated[str | ActionStep | ColonAction, Field(union_mode="left_to_right")]


class ScenarioDecks(Strict):
    colty: dict[str, int] | None = None
    mcready: dict[str, int] | None = None


class Scenario(Strict):
    """One rules question: a position, what is played, what must follow."""

    name: str = Field(min_length=1)
    rule: str = Field(min_length=1, description="where in the rulebook this comes from")
    note: str | None = Field(None, description="readings, assumptions, data it depends on")
    game: Literal["revolver"] = "revolver"
    ruleset: str = "rulebook-en"
    seed: int = Field(1, description="shuffles the rest of the decks")
    max_turns: int = Field(200, ge=1)
    decks: ScenarioDecks | None = Field(None, description="default: the base decks (copies are "
                                                          "added when the position needs more)")
    position: Position
    actions: list[ActionItem] = Field(
        default_factory=list, description="action texts as the engine prints them (exact, or "
                                          "a unique prefix), or {do, by, expect} items")
    expect: Expectations | None = None


class ScenarioError(DataFileError):
    """A scenario file that cannot be set up (unknown ids, an impossible position)."""


@dataclass
class Check:
    """One expectation: what was expected, what the engine shows, and where it was written."""

    name: str
    ok: bool
    expected: Any
    actual: Any
    where: str

    def line(self) -> str:
        status = "ok  " if self.ok else "FAIL"
        detail = f"{self.expected}" if self.ok else f"expected {self.expected}, got {self.actual}"
        return f"{status} {self.name}: {detail}"


@dataclass
class PlayedStep:
    index: int
    player: str
    text: str


@dataclass
class ScenarioResult:
    scenario: Scenario
    path: Path
    state: Any
    steps: list[PlayedStep] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    failure: str | None = None  # an action that could not be played

    @property
    def passed(self) -> bool:
        return self.failure is None and all(check.ok for check in self.checks)

    def first_problem(self) -> str | None:
        if self.failure is not None:
            return self.failure
        for check in self.checks:
            if not check.ok:
                return f"{check.where}: {check.name}: expected {check.expected}, " \
                       f"got {check.actual}"
        return None


class Source:
    """The file a scenario came from, to point at the line of anything it got wrong."""

    def __init__(self, path: Path, document: Any) -> None:
        self.path = path
        self.document = document

    def where(self, *loc: Any) -> Location:
        from deckbuilder.yamlio import position

        found = position(self.document, loc) if self.document is not None else None
        return Location(self.path, *(found or (None, None)))

    def error(self, message: str, loc: tuple, fix: str | None = None) -> ScenarioError:
        return ScenarioError(message, self.where(*loc), fix)


def load_scenario(path: Path | str) -> tuple[Scenario, Source]:
    """Read and validate a scenario file (errors carry file:line:col)."""
    from deckbuilder.yamlio import load_model

    path = Path(path)
    scenario, document = load_model(path, Scenario)
    return scenario, Source(path, document)


__all__ = ["Check", "Expectations", "Position", "Scenario", "ScenarioError", "ScenarioResult",
           "Source", "load_scenario"]

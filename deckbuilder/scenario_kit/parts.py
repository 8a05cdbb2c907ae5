"""What every game's scenario files share: the pieces of a position (a card in play with its
tokens, the marker, one player's hand and deck), an action item, and the answer of a run
(every check with the line that wrote it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Discriminator, Field, PrivateAttr, Tag, model_validator
from pydantic.functional_validators import ModelWrapValidatorHandler

from deckbuilder.engine.state import State
from deckbuilder.errors import DataFileError, Location
from deckbuilder.models.common import Strict

Count = int


class Tokens(Strict):
    """Tokens on a card or character; a kind left out is not set (or not checked)."""

    power: Count | None = Field(None, ge=0, description="power (extra firepower) tokens")
    true_grit: Count | None = Field(None, ge=0, description="true grit (extra life) tokens")
    eagle: Count | None = Field(None, ge=0, le=1, description="an eagle token (1) or none (0): "
                                                              "the card has no value, icon or "
                                                              "text, nor have the cards under it")


class PlacedCard(Strict):
    """A card in play with its tokens (printed tokens are added unless given here) and the
    cards lying under it (attachments)."""

    card: str = Field(description="card id (or name)")
    power: Count | None = Field(None, ge=0)
    true_grit: Count | None = Field(None, ge=0)
    eagle: Count | None = Field(None, ge=0, le=1,
                                description="1: an eagle token lies on it (it and the cards "
                                            "under it have no value, icon or text)")
    mode: str | None = Field(None, description="for cards with several ways to be played: "
                                               "the mode's name (default: the first one that "
                                               "stays in play)")
    under: list[str] = Field(default_factory=list,
                             description="cards lying under this one, by id, each played in "
                                         "its mode that puts it under a card (Volcanic "
                                         "pistol, Trained in the Pinkerton ways)")


def _card_form(value: object) -> str:
    return "card-id" if isinstance(value, str) else "card-with-tokens"


#: a card in play: its id, or a mapping with its tokens (so a wrong key in the mapping is
#: reported as that key, not as "not a string")
CardInPlay = Annotated[Annotated[str, Tag("card-id")]
                       | Annotated[PlacedCard, Tag("card-with-tokens")],
                       Discriminator(_card_form)]


class Marker(Strict):
    battlefield: str = Field(description="battlefield id")
    space: str | int = Field(description='turn space label: "-", "1" ... or a face ("kittens")')


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


class StepBase(Strict):
    """An action item: an action (`do`) and, in each game's subclass, who plays it (`by`) and
    the checks after it (`expect`)."""

    do: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _colon_text(cls, data: object) -> object:
        """`- casualty: Bullet` is YAML for a one-key mapping; read it as the action text
        "casualty: Bullet" (as `action_to_string` prints it) instead of refusing it."""
        if isinstance(data, dict) and len(data) == 1:
            (key, value), = data.items()
            if key not in cls.model_fields and isinstance(value, str | int):
                return {"do": f"{key}: {value}"}
        return data

    @model_validator(mode="after")
    def _something(self) -> StepBase:
        if self.do is None and getattr(self, "expect", None) is None:
            raise ValueError("an action item needs `do` or `expect`")
        return self


#: `expect: refused`: the file's position must be refused (with `refused`: the words it says)
REFUSED = "refused"
EXPECT_DESCRIPTION = ("what must hold after the last action; `refused`: the position must be "
                      "refused (`refused` says how)")


def allow_refused(schema: dict[str, Any]) -> None:
    """The schema of `expect`: a game's expectations, or the word `refused`."""
    schema.setdefault("anyOf", []).insert(0, {"const": REFUSED, "type": "string"})


class ScenarioBase(Strict):
    """What a scenario file of every game may say: that its position must be refused
    (`expect: refused`, with the words in `refused`), to write down an impossible position."""

    refused: str | None = Field(
        None, min_length=1,
        description='with `expect: refused`: words the refusal must say (case ignored), e.g. '
                    '"more copies"')
    _expects_refusal: bool = PrivateAttr(False)

    @property
    def expects_refusal(self) -> bool:
        return self._expects_refusal

    @model_validator(mode="wrap")
    @classmethod
    def _refusal(cls, data: object, handler: ModelWrapValidatorHandler[ScenarioBase]
                 ) -> ScenarioBase:
        expecting = isinstance(data, dict) and data.get("expect") == REFUSED
        if expecting and isinstance(data, dict):  # (isinstance again: for mypy)
            data = {**data, "expect": None}
        scenario = handler(data)
        if expecting and scenario.refused is None:
            raise ValueError('`expect: refused` needs `refused`: words the refusal must say, '
                             'e.g. refused: "more copies"')
        if scenario.refused is not None and not expecting:
            raise ValueError("`refused` goes with `expect: refused`")
        if expecting and getattr(scenario, "actions", None):
            raise ValueError("a position expected to be refused plays no actions")
        scenario._expects_refusal = expecting
        return scenario


class Offered(Strict):
    """A decision met during the scenario: who, which, its options (a field left out is not
    checked; each given one must hold of the same decision)."""

    decision: str | None = Field(None, description='its name, as `decision` writes it, e.g. '
                                                   '"pay an optional cost?"')
    by: str | None = Field(None, description="the side that had to decide")
    options: list[str] | None = Field(None, description="exactly these options (order ignored)")
    includes: list[str] | None = Field(None, description="these among its options (exact text "
                                                         "or a prefix)")

    @model_validator(mode="after")
    def _something(self) -> Offered:
        if self.decision is None and self.options is None and not self.includes:
            raise ValueError("say which decision: `decision`, `options` or `includes`")
        return self


class GameExpectations(Strict):
    """The expectations every game's scenarios share (how the game ended, the legal actions,
    the log); each game's model adds its own pieces and side names."""

    termination: str | None = None
    over: bool | None = None
    legal: list[str] | None = Field(None, description="exactly these legal actions")
    legal_includes: list[str] | None = Field(
        None, description="each is a legal action (exact text or a prefix of one)")
    legal_excludes: list[str] | None = Field(
        None, description="none is a legal action (no legal action reads so or starts so)")
    log_includes: list[str] | None = Field(
        None, description="each is part of some event logged since the scenario began")
    offered: list[Offered] | None = Field(
        None, description="each was a decision the scenario met (the one open now, or one an "
                          "earlier action answered)")
    under: dict[str, list[str]] | None = Field(
        None, description="card in play (card-id, card-id@battlefield-id, with #N for the "
                          "N-th copy there) -> exactly the cards lying under it")


#: `- casualty: Bullet` (YAML reads a one-key mapping): an action text with a colon, unquoted.
#: The action steps accept it; this member only lets the JSON Schema (editors) accept it too.
ColonAction = Annotated[dict[str, str], Field(min_length=1, max_length=1)]


class ScenarioError(DataFileError):
    """A scenario file that cannot be set up (unknown ids, an impossible position)."""


@dataclass
class Check:
    """One expectation: what was expected, what the engine shows, and where it was written."""

    name: str
    ok: bool
    expected: object
    actual: object
    where: str

    shown: str | None = None  # what the engine showed, printed even when the check holds

    def line(self) -> str:
        status = "ok  " if self.ok else "FAIL"
        detail = f"{self.expected}" if self.ok else f"expected {self.expected}, got {self.actual}"
        if self.shown is not None:
            detail = f"{detail}: {self.shown}"
        return f"{status} {self.name}: {detail}"


@dataclass
class PlayedStep:
    index: int
    player: str
    text: str


@dataclass
class Offer:
    """A decision the scenario met: after `step` actions, `player` chose among `options`."""

    step: int
    player: str
    decision: str
    options: list[str]


@dataclass
class ScenarioResult:
    scenario: Any  # the game's scenario model (model.RevolverScenario, Revolver2Scenario)
    path: Path
    state: State | None  # None: the position could not be laid out (refused)
    steps: list[PlayedStep] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)  # every decision met, in order
    failure: str | None = None  # an action that could not be played

    @property
    def passed(self) -> bool:
        return self.failure is None and all(check.ok for check in self.checks)

    def first_problem(self) -> str | None:
        if self.failure is not None:
            return self.failure
        return next((f"{check.where}: {check.name}: expected {check.expected}, got "
                     f"{check.actual}" for check in self.checks if not check.ok), None)


class Source:
    """The file a scenario came from, to point at the line of anything it got wrong."""

    def __init__(self, path: Path, document: Any) -> None:
        self.path = path
        self.document = document

    def as_written(self, loc: tuple[str | int, ...], model: Strict, key: str) -> str:
        """The spelling the file gave field `key` of `model` at `loc`: its name, or a former
        spelling it still reads (`border` for `countdown`), so a message names what he wrote."""
        alias = type(model).model_fields[key].validation_alias
        if not isinstance(alias, AliasChoices):
            return key
        node = self.document
        for part in loc:
            found = (isinstance(node, dict) and part in node) or (
                isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node))
            if not found:
                return key
            node = node[part]
        return next((spelling for spelling in alias.choices
                     if isinstance(spelling, str) and isinstance(node, dict)
                     and spelling in node), key)

    def where(self, *loc: str | int) -> Location:
        from deckbuilder.yamlio import located

        return located(self.path, self.document, loc)

    def error(self, message: str, loc: tuple, fix: str | None = None) -> ScenarioError:
        return ScenarioError(message, self.where(*loc), fix)

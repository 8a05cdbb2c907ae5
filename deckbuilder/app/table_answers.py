"""What a table's answer may be: the JSON of the table API (docs/reference/table-api.md) as
pydantic models of the fields `deckbuilder join` reads, every size bounded. A link may name
any server, so its answers are untrusted input: the terminal draws only what passed here.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from deckbuilder.app.json_values import deeper_than
from deckbuilder.games import games
from deckbuilder.sim.records.seed_commitment import commitment_matches

#: How deep an answer may nest (a state's deepest field, a card in a battlefield's column,
#: lies 7 levels down).
MOST_DEPTH = 24
#: The most digits a number may have (a seed has at most 20).
MOST_DIGITS = 24

Name = Annotated[str, StringConstraints(max_length=200)]
Line = Annotated[str, StringConstraints(max_length=4_000)]
#: A table's token (as a link carries it).
TOKEN_PATTERN = r"[A-Za-z0-9_-]{1,128}"
Token = Annotated[str, StringConstraints(pattern=f"^{TOKEN_PATTERN}$")]
Hex = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{1,128}$")]
Count = Annotated[int, Field(ge=0, le=1_000_000_000)]
Small = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Scalar = Name | bool | int | float | None
Piece = Scalar | list[Scalar | list[Scalar]]


class AnswerError(Exception):
    """An answer that is not a table's: what was wrong with it, in a few words."""


class Answer(BaseModel):
    """Strict JSON types ("3" is no number); fields the client does not read are ignored."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class Named(Answer):
    id: Name = ""
    name: Name


class CardSeen(Named):
    mode: Name | None = None
    firepower: Small = 0
    power: Small = 0
    true_grit: Small = 0
    eagle: bool = False
    hidden: bool = False
    under: Name | None = None


class Character(Named):
    survival: Small
    alive: bool
    true_grit: Small = 0
    power: Small = 0


class Characters(Answer):
    name: Name
    in_play: list[Character] = Field(alias="list", max_length=200)
    pile: Count | None = None
    dead: list[Name] = Field(default_factory=list, max_length=200)  # ids, as `list` has them
    held: dict[Name, Name] = Field(default_factory=dict, max_length=200)  # id: where


class Marker(Answer):
    name: Name
    space: Name


class Countdown(Answer):
    name: Name
    tokens: Small


class Battlefield(Answer):
    name: Name
    defence: Small
    marker: bool
    firepower: dict[Name, Small] = Field(max_length=2)
    cards: dict[Name, list[CardSeen]] = Field(max_length=2)
    power_tokens: dict[Name, Small] | None = Field(default=None, max_length=2)


class UnderCharacter(Answer):
    character: Name
    card: Name


class ViewOutcome(Answer):
    winner: Name | None = None
    termination: Name | None = None


class RuleWords(Answer):
    words: Line
    source: Line


class NotOffered(Answer):
    """A card in hand not offered now, and why (`engine.why_not.NotOffered`)."""

    card: Name = ""
    name: Name
    reason: Line
    rules: list[RuleWords] = Field(default_factory=list, max_length=20)
    engine_reading: bool = False
    note: Line = ""


class SeatView(Answer):
    """A seat's position (`session_view.position_view`): every field the terminal draws."""

    game: Name
    player: Name
    players: list[Name] = Field(min_length=2, max_length=2)
    turn: Count
    active: Name
    phase: Name
    to_act: Name | None = None
    decision: Line | None = None
    row_known: bool
    marker: Marker
    countdown: Countdown
    pieces_used: list[Name] = Field(max_length=100)
    battlefields: list[Battlefield] = Field(max_length=100)
    open_range: dict[Name, list[CardSeen]] = Field(max_length=2)
    characters: Characters
    under_characters: list[UnderCharacter] = Field(max_length=200)
    silver_dollars: dict[Name, Small] = Field(max_length=2)
    game_pieces: dict[Name, Piece] = Field(max_length=200)
    piece_names: dict[Name, Name] = Field(default_factory=dict, max_length=1_000)
    discards: dict[Name, list[Named]] = Field(max_length=2)
    decks: dict[Name, Count] = Field(max_length=2)
    removed: dict[Name, list[Named]] = Field(max_length=2)
    opponent_hand: Count
    hand: list[Named] = Field(max_length=1_000)
    symbols_in_hand: dict[Name, Small] = Field(default_factory=dict, max_length=20)
    not_offered: list[NotOffered] = Field(default_factory=list, max_length=1_000)
    outcome: ViewOutcome | None = None

    @model_validator(mode="after")
    def _sides_agree(self) -> SeatView:
        """Every per-side field names both sides, and the seat is one of them."""
        names = self.players
        if len(set(names)) != 2 or self.player not in names:
            raise ValueError("the view's players are not two sides, one of them the seat")
        by_side: list[dict[str, Any]] = [self.open_range, self.discards, self.decks,
                                         self.removed]
        by_side += [field.cards for field in self.battlefields]
        if any(set(names) - set(mapping) for mapping in by_side):
            raise ValueError("a part of the view does not name both sides")
        game = games().get(self.game)
        if game is None:
            raise ValueError(f"the view is of a game not installed here: {self.game!r}")
        game.rules.check_pieces(self.game_pieces)
        return self


class Choice(Answer):
    action: Count
    text: Line
    summary: Line | None = None
    record: Name | None = None
    group: Name = ""
    key: Name = ""  # `sim.records.choices.choice_keys` ("": a server that sends none)


class LogEntry(Answer):
    index: Count | None = None
    player: Name | None = None
    action: Line | None = None
    lines: list[Line] = Field(default_factory=list, max_length=10_000)
    turn: Count = 0


class Ended(Answer):
    end: Name | None = None


class TableState(Answer):
    """One seat's state (a spectator's: `seat` None): what `deckbuilder join` reads of it."""

    seat: Name | None = None
    heading: Line = ""
    over: bool
    your_turn: bool
    to_move: Name | None = None
    step: Count
    version: Count
    decision: Line = ""
    choices: list[Choice] = Field(default_factory=list, max_length=5_000)
    view: SeatView | None = None
    log: list[LogEntry] = Field(default_factory=list, max_length=200_000)
    log_start: Count = 0
    log_next: Count = 0
    outcome: Line | None = None
    ended: Ended | None = None
    record: Line | None = None
    commitment: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = None
    seed: Annotated[int, Field(ge=0, le=2**64)] | None = None
    seed_salt: Hex | None = None
    notices: list[Line] = Field(default_factory=list, max_length=100)
    seat_token: Token | None = None
    seat_url: Line | None = None
    seat_api: Line | None = None

    @model_validator(mode="before")
    @classmethod
    def _spectators_view_unread(cls, data: Any) -> Any:
        """A spectator's view has no hand; the terminal never draws it, so it is not read."""
        if isinstance(data, dict) and data.get("seat") is None:
            return {key: value for key, value in data.items() if key != "view"}
        return data

    @model_validator(mode="after")
    def _decision_complete(self) -> TableState:
        """A decision of this seat comes with its position and at least one action."""
        if self.your_turn and (self.over or self.seat is None or self.view is None
                               or not self.choices):
            raise ValueError("it is the seat's turn, but there is no view or no action")
        if self.log_start > self.log_next or self.log_start + len(self.log) > self.log_next:
            raise ValueError("its log does not fit log_start and log_next")
        if (self.seed is None) != (self.seed_salt is None):
            raise ValueError("it reveals the seed without its salt, or the salt alone")
        return self

    def deal_matches(self, commitment: str) -> bool | None:
        """Whether the revealed seed is the one `commitment` was made from; None while hidden."""
        if self.seed is None or self.seed_salt is None:
            return None
        return commitment_matches(self.seed, self.seed_salt, commitment)


class Refusal(Answer):
    """A refusal: the line, and the table as it is now (or where to watch it)."""

    error: Annotated[str, StringConstraints(min_length=1, max_length=4_000)]
    state: TableState | None = None
    watch: Line | None = None


def decode_answer(body: bytes) -> Any:
    """The JSON value of an answer's bytes; `AnswerError` for what a table never sends."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise AnswerError("it is not UTF-8 text") from None
    if deeper_than(body, MOST_DEPTH):
        raise AnswerError(f"it is nested more than {MOST_DEPTH} levels deep")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_short_int,
                          parse_float=_finite_float)
    except ValueError:  # the hooks below raise AnswerError, which passes through
        raise AnswerError("it is not JSON") from None


def _no_constant(word: str) -> Any:
    raise AnswerError(f"it holds {word}, which is no number JSON knows")


def _short_int(digits: str) -> int:
    if len(digits) > MOST_DIGITS:
        raise AnswerError(f"it holds a number of {len(digits)} digits")
    return int(digits)


def _finite_float(digits: str) -> float:
    number = float(digits) if len(digits) <= 4 * MOST_DIGITS else math.inf
    if not math.isfinite(number):
        raise AnswerError(f"it holds a number too large to be one ({digits[:30]})")
    return number


AnswerT = TypeVar("AnswerT", bound="Answer")


def read_answer(model: type[AnswerT], value: object) -> AnswerT:
    if not isinstance(value, dict):
        raise AnswerError(f"it is {_kind(value)}, not a JSON object")
    try:
        return model.model_validate(value)
    except ValidationError as error:
        problems = error.errors(include_url=False, include_input=False)
        first = problems[0]
        where = ".".join(str(part)[:40] for part in first["loc"]) or "the answer"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise AnswerError(f"{where}: {first['msg']}{more}") from None


def _kind(value: object) -> str:
    kinds = {list: "a list", str: "a string", bool: "true or false", int: "a number",
             float: "a number", type(None): "null"}
    return kinds.get(type(value), "not an object")

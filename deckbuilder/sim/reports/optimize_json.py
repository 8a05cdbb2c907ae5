"""What `optimize` found, as one frozen value: the text, the page and the charts read its fields,
and `optimize --json` prints its dump (`json_of`). An interval is `{"estimate", "low", "high"}`;
a field left None where `_absent` says so is left out of the JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter
from pydantic.dataclasses import dataclass

_OPEN = ConfigDict(validate_by_name=True)


def _absent(value: object) -> bool:
    return value is None


@dataclass(frozen=True, config=_OPEN)
class SwapJson:
    """`count` copies of `out` out, as many of `into` in."""

    out: str
    into: Annotated[str, Field(alias="in")]
    count: int
    text: str


@dataclass(frozen=True)
class WonJson:
    games: int
    wins: int
    rate: dict[str, float]


@dataclass(frozen=True)
class CardJson:
    """A card the report speaks of: its id and name."""

    card: str
    name: str


@dataclass(frozen=True)
class CardWorthJson(CardJson):
    """One card of a swap in the explanation: its games with it drawn and without."""

    role: str  # "in" or "out"
    copies: int
    worth_per_copy: float
    games: int
    drawn_in: int
    played_per_game: float
    when_drawn: WonJson
    when_not_drawn: WonJson
    model_units: int  # racing units of the swaps moving this card


@dataclass(frozen=True)
class ChangedGameJson:
    """A paired game whose winner the swap changed."""

    seed: int
    opponent: str
    deck: str
    with_swap: str
    deck_turns: int
    with_swap_turns: int
    replay_deck: str | None = Field(default=None, exclude_if=_absent)
    replay_with_swap: str | None = Field(default=None, exclude_if=_absent)


@dataclass(frozen=True)
class ExplanationJson:
    swaps: list[SwapJson]
    cards: list[CardWorthJson]
    paired_games: int
    changed_winner: int
    turned_for_the_deck: int
    turned_against: int
    #: the confirmed difference's interval leaves out zero: only then are the games the swap
    #: changed told in words (otherwise which games changed is chance)
    told_apart: bool
    games: list[ChangedGameJson]
    replay_note: str


@dataclass(frozen=True)
class FinalistJson:
    """A finalist: its difference confirmed on fresh seeds, and the one the race saw."""

    swaps: list[SwapJson]
    difference: dict[str, float]
    confirmation_games: int
    selection_difference: dict[str, float]
    selection_games: int
    verdict: str


@dataclass(frozen=True)
class RacedJson:
    label: str
    swaps: list[SwapJson]
    games: int
    dropped_after: int  # racing units played when it was dropped (0: never)
    dropped_by: str
    difference: dict[str, float]


@dataclass(frozen=True)
class LeftOutJson(CardJson):
    why: str


@dataclass(frozen=True)
class OpponentShareJson:
    name: str
    weight: float  # of the field, the weights scaled to sum to 1


@dataclass(frozen=True, kw_only=True)
class OptimizeJson:
    """What the search found (`report_json`)."""

    games: int
    budget: int
    supply: str  # what every candidate was judged against
    seed: int
    game: str
    bot: str
    opponent_bot: str
    opponents: list[OpponentShareJson]
    confirmation_games: int
    candidates: int
    improved: bool
    method: str
    selection: str
    told_apart: dict[str, int]
    advice: str
    left_out: list[LeftOutJson]
    finalists: list[FinalistJson]
    race: list[RacedJson]
    rests_on: Mapping[str, object]  # `sensitivity.RestsOnJson`
    data: dict[str, object]
    explanation: ExplanationJson | None = Field(default=None, exclude_if=_absent)  # a best swap


@dataclass(frozen=True, kw_only=True)
class OptimizeReport(OptimizeJson):
    """What `optimize --json` prints: the search, and the decks, rules and output named."""

    deck: str
    opponent: str
    field_notes: list[str]
    ruleset: str | None
    switches: Mapping[str, str]
    modules: list[str]
    module_names: dict[str, str]
    max_turns: int
    output: str | None
    output_is_a_guess: bool
    gain_rests_on: Mapping[str, object] | None  # `app.data_notes.swap_rests_on`
    bot_check: Mapping[str, object] | None  # `app.bot_checks.check_swap`


_REPORT = TypeAdapter(OptimizeReport)


def json_of(report: OptimizeReport) -> dict[str, object]:
    """The JSON `optimize --json` prints, its keys in the fields' order."""
    dumped: dict[str, object] = _REPORT.dump_python(report, by_alias=True)
    return dumped

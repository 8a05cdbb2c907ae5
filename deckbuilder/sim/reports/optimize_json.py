"""The JSON `optimize --json` prints, as the text report, the page and the charts read it.
An interval is `{"estimate", "low", "high"}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from deckbuilder.sim.reports.bot_check import BotCheckJson
from deckbuilder.sim.reports.sensitivity import RestsOnJson, SwapRestsOnJson

#: One swap of a candidate: `count` copies of `out` out, as many of `in` in.
SwapJson = TypedDict("SwapJson", {"out": str, "in": str, "count": int, "text": str})


class WonJson(TypedDict):
    games: int
    wins: int
    rate: dict[str, float]


class CardWorthJson(TypedDict):
    """One card of a swap in the explanation: its games with it drawn and without."""

    card: str
    name: str
    role: str  # "in" or "out"
    copies: int
    worth_per_copy: float
    games: int
    drawn_in: int
    played_per_game: float
    when_drawn: WonJson
    when_not_drawn: WonJson
    model_units: NotRequired[int]  # added once the race's units are counted


class ChangedGameJson(TypedDict):
    """A paired game whose winner the swap changed."""

    seed: int
    opponent: str
    deck: str
    with_swap: str
    deck_turns: int
    with_swap_turns: int
    replay_deck: NotRequired[str]
    replay_with_swap: NotRequired[str]


class ExplanationJson(TypedDict):
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


class FinalistJson(TypedDict):
    """A finalist: its difference confirmed on fresh seeds, and the one the race saw."""

    swaps: list[SwapJson]
    difference: dict[str, float]
    confirmation_games: int
    selection_difference: dict[str, float]
    selection_games: int
    verdict: str


class RacedJson(TypedDict):
    label: str
    swaps: list[SwapJson]
    games: int
    dropped_after: int  # racing units played when it was dropped (0: never)
    dropped_by: str
    difference: dict[str, float]


class LeftOutJson(TypedDict):
    card: str
    name: str
    why: str


class OpponentShareJson(TypedDict):
    name: str
    weight: float  # of the field, the weights scaled to sum to 1


class OptimizeJson(TypedDict):
    """What the search found (`report_json`)."""

    games: int
    budget: int
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
    rests_on: RestsOnJson
    data: dict[str, object]
    supply: str  # what every candidate was judged against
    explanation: NotRequired[ExplanationJson]  # when there is a best swap
    build: NotRequired[dict[str, object]]  # none today: the page names this build


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
    gain_rests_on: NotRequired[SwapRestsOnJson | None]  # `app.data_notes.swap_rests_on`
    bot_check: NotRequired[BotCheckJson | None]  # `app.bot_checks.check_swap`

"""The JSON `simulate --json` prints, as the text report, the page and the charts read it.
An interval is `Interval.as_dict`, a summary of a count `Summary.as_dict`."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from deckbuilder.sim.reports.bot_check import BotCheckJson
from deckbuilder.sim.reports.sensitivity import RestsOnJson


class PlayerJson(TypedDict):
    name: str
    faction: str
    seat: int
    bot: str


class SideJson(TypedDict):
    seat: int
    faction: str
    deck: str
    bot: str
    is_deck_under_test: bool
    wins: int
    win_rate: dict[str, float]


class EndingJson(TypedDict):
    termination: str
    games: int
    share: float
    winners: dict[str, int]  # side (or "draw") -> games
    words: NotRequired[str]  # the ending in words, added by the tool


class LengthJson(TypedDict):
    turns: dict[str, float]
    decisions: dict[str, float]
    turn_counts: list[list[int]]  # [turns, games], shortest first


class CardRowJson(TypedDict):
    """One card of a seat over the games (`sim.runs.tally.card_rows`)."""

    id: str
    name: str
    faction: str
    seat: int
    copies: int
    drawn_per_game: float
    played_per_game: float
    games_played: int
    wins_when_played: int
    win_rate_when_played: float | None
    win_rate_when_not_played: float | None
    when_played: dict[str, float] | None  # an interval; None: never played
    games_not_played: int
    wins_when_not_played: int
    when_not_played: dict[str, float] | None


class CardsJson(TypedDict):
    deck: list[CardRowJson]
    opponent: list[CardRowJson]
    note: str


class TargetJson(TypedDict):
    precision: float
    games_needed: int
    games_needed_worst_case: int


class PrecisionJson(TypedDict):
    deck_win_rate_half_width: float
    planning_rate: float
    targets: list[TargetJson]


class BaselineJson(TypedDict):
    deck: str
    bot: str
    wins: int
    win_rate: dict[str, float]
    difference: dict[str, float]
    games_with_different_winner: int
    method: str
    verdict: str
    progress: list[dict[str, float]]


class ToolAdded(TypedDict):
    """What the tool adds to every report of runs (a deck's, a gauntlet's, a tournament's)."""

    title: NotRequired[str]
    module_names: NotRequired[dict[str, str]]
    warnings: NotRequired[list[str]]
    notes: NotRequired[list[str]]
    supply: NotRequired[str]  # what the decks were judged against
    rests_on: NotRequired[RestsOnJson]
    bot_check: NotRequired[BotCheckJson | None]  # `app.bot_checks`
    data: NotRequired[dict[str, object]]


class RunJson(ToolAdded):
    """What every report of runs states: the rules, the seed, the build."""

    note: str
    game: str
    ruleset: str
    seed: int
    games: int
    max_turns: int
    reproducible: bool
    build: dict[str, object]


class SimulationReport(RunJson):
    """A deck against one opponent: what `simulate --json` prints."""

    deck: PlayerJson
    opponent: PlayerJson
    sides: list[SideJson]
    draws: dict[str, float]  # games, rate
    cut_short: list[dict[str, str | int]]  # bot, times, warning
    endings: list[EndingJson]
    length: LengthJson
    progress: list[dict[str, float]]
    cards: CardsJson
    precision: PrecisionJson
    baseline: BaselineJson | None
    # added by the tool (`app.simulation_plan.simulation_report`), besides `ToolAdded`'s
    switches: NotRequired[dict[str, str]]
    modules: NotRequired[list[str]]
    terminations: NotRequired[list[str]]

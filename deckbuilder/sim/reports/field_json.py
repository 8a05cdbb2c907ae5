"""The JSON of a gauntlet (`simulate DECK --vs A --vs B --json`) and of a tournament
(`tournament --json`), as TypedDicts: `tournament_report`'s text, page and charts read it by
these names. An interval is `{"estimate", "low", "high"}`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from deckbuilder.sim.reports.simulate_json import CardRowJson, ToolAdded


class FieldJson(ToolAdded):
    """What gauntlets and tournaments share: the rules, the seed, the notes (`ToolAdded`'s,
    from `app.field_runs`)."""

    note: str
    seeds_note: str
    build: dict[str, object]
    game: str
    ruleset: str
    switches: dict[str, str]
    modules: list[str]
    max_turns: int
    seed: int
    games: int
    reproducible: bool


class EndedJson(TypedDict):
    termination: str
    games: int
    words: NotRequired[str]


class OpponentJson(TypedDict):
    name: str
    bot: str
    share: float  # of the field's figure
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: dict[str, float]
    mean_turns: float
    endings: list[EndedJson]
    cards: list[CardRowJson]
    weight: NotRequired[float]  # as given
    source: NotRequired[str]  # how the opponent was given


class GauntletDeckJson(TypedDict):
    name: str
    faction: str
    bot: str


class FieldResultJson(TypedDict):
    win_rate: dict[str, float]
    method: str
    weakest: str


class GauntletReport(FieldJson):
    kind: Literal["gauntlet"]
    games_per_opponent: int
    deck: GauntletDeckJson
    opponent_faction: str
    opponents: list[OpponentJson]
    field: FieldResultJson


class StandingJson(TypedDict):
    rank: int
    deck: str
    faction: str
    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: dict[str, float]
    rating: dict[str, float]  # Elo points
    cards: list[CardRowJson]


class PairingJson(TypedDict):
    first: str
    second: str
    games: int
    first_wins: int
    first_win_rate: dict[str, float]  # the first deck's
    second_wins: int
    draws: int


class TournamentReport(FieldJson):
    kind: Literal["tournament"]
    sides: list[str]
    games_per_pairing: int
    standings: list[StandingJson]
    pairings: list[PairingJson]
    rating_method: str
    win_rate_method: str

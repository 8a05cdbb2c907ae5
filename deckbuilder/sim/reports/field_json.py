"""The JSON of a gauntlet (`simulate DECK --vs A --vs B --json`) and of a tournament
(`tournament --json`), as `tournament_report`'s text, page and charts read it.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from deckbuilder.sim.reports.simulate_json import CardRowJson, RunJson


class FieldJson(RunJson):
    """What gauntlets and tournaments share."""

    seeds_note: str
    switches: dict[str, str]
    modules: list[str]


class RecordJson(TypedDict):
    """A deck's games, wins, draws and losses, and its win rate."""

    games: int
    wins: int
    draws: int
    losses: int
    win_rate: dict[str, float]


class EndedJson(TypedDict):
    termination: str
    games: int
    words: NotRequired[str]


class OpponentJson(RecordJson):
    name: str
    bot: str
    share: float  # of the field's figure
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


class StandingJson(RecordJson):
    rank: int
    deck: str
    faction: str
    bot: str
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

"""The service's answers as typed, frozen values (`deckbuilder.api`). Every rate is a 95%
`Interval`; every count is the deck under test's, whichever seat it played; every result
carries the settings that produced it, so a number can always be reproduced."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from deckbuilder.models import Deck
from deckbuilder.sim.rankings.gauntlet import Record
from deckbuilder.sim.rankings.tournament import Pairing, Standing
from deckbuilder.sim.runs.stats import Interval, Summary, proportion

_Row = TypeVar("_Row")
_Value = TypeVar("_Value")

__all__ = ["CardFigures", "Ending", "GauntletResult", "Interval", "Lengths", "Matchup",
           "OptimizeResult", "Pairing", "Settings", "SimulationResult", "Standing", "Summary",
           "Swap", "TournamentResult", "card_figures", "frozen_mapping", "interval",
           "simulation_result"]


def frozen_mapping(items: Mapping[str, _Value]) -> Mapping[str, _Value]:
    """A read-only copy: a frozen result's mappings must not change either."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class Settings:
    """What the games were played with (the same settings play the same games); `games` is
    per opponent (a gauntlet) or per pairing (a tournament); `supply` is
    `legality.Supply.sentence`."""

    game: str
    ruleset: str
    switches: Mapping[str, str]
    modules: tuple[str, ...]
    bot: str
    opponent_bot: str
    seed: int
    games: int
    max_turns: int
    build: str
    compiled: bool
    supply: str = ""


@dataclass(frozen=True)
class Ending:
    """How some games ended: the engine's value, in words, how many games and who won them."""
    termination: str
    words: str
    games: int
    share: float
    winners: Mapping[str, int]  # side (or "draw") -> games


@dataclass(frozen=True)
class Lengths:
    """How long the games lasted: turns and decisions, and the histogram of turns."""
    turns: Summary
    decisions: Summary
    turn_histogram: tuple[tuple[int, int], ...]  # (turns, games), shortest first


@dataclass(frozen=True)
class CardFigures:
    """One card of a deck over the games; the win rates when played and not are a
    correlation, not the card's worth (`SimulationResult.card_note`). None: no such game."""

    id: str
    name: str
    copies: int
    drawn_per_game: float
    played_per_game: float
    games_played: int
    games_not_played: int
    win_rate_when_played: Interval | None
    win_rate_when_not_played: Interval | None


def interval(data: Mapping[str, float] | None) -> Interval | None:
    if data is None:
        return None
    return Interval(float(data["estimate"]), float(data["low"]), float(data["high"]))


def card_figures(rows: Sequence[Mapping[str, Any]]) -> tuple[CardFigures, ...]:
    return tuple(CardFigures(
        str(row["id"]), str(row["name"]), int(row["copies"]), float(row["drawn_per_game"]),
        float(row["played_per_game"]), int(row["games_played"]), int(row["games_not_played"]),
        interval(row["when_played"]), interval(row["when_not_played"])) for row in rows)


def _card_named(cards: Sequence[CardFigures], name_or_id: str, deck: str) -> CardFigures:
    wanted = name_or_id.casefold()
    for figures in cards:
        if wanted in (figures.id, figures.name.casefold()):
            return figures
    raise KeyError(f"no card '{name_or_id}' in {deck}")


def _labelled(by_label: Mapping[str, _Row], label: str, kind: str, within: str) -> _Row:
    if label not in by_label:
        raise KeyError(f"no {kind} '{label}' in this {within}")
    return by_label[label]


@dataclass(frozen=True, kw_only=True)
class Remarks:
    """What a run's plan or result warns of (a deck's own, played with --allow-illegal) and
    notes; keyword-only, so that they come after each class's own fields."""

    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimulationResult(Remarks):
    """A deck against one opponent (`deckbuilder.simulate`): a draw is no win; `endings`
    most frequent first (`ending_details` in words)."""

    deck: str
    opponent: str
    side: str
    opponent_side: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: Interval
    endings: Mapping[str, int]
    ending_details: tuple[Ending, ...]
    lengths: Lengths
    cards: tuple[CardFigures, ...]
    opponent_cards: tuple[CardFigures, ...]
    settings: Settings
    reproducible: bool
    note: str = ""  # results measure the deck and the bots together
    card_note: str = ""  # a card's win rate when played is a correlation
    #: the report `deckbuilder simulate --json` prints for the same settings
    report: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def loss_rate(self) -> Interval:
        return proportion(self.losses, self.games)

    def card(self, name_or_id: str) -> CardFigures:
        """One of the deck's cards by id or printed name (any case)."""
        return _card_named(self.cards, name_or_id, self.deck)


@dataclass(frozen=True)
class Matchup(Record):
    """The deck against one opponent of a gauntlet; `cards`: the deck's, most played first."""

    opponent: str
    source: str  # how the opponent was given (a path, a name, a faction)
    weight: float  # as given
    share: float  # of the field's figure (the weights scaled to sum to 1)
    endings: Mapping[str, int]
    cards: tuple[CardFigures, ...] = ()

    def card(self, name_or_id: str) -> CardFigures:
        return _card_named(self.cards, name_or_id, f"the games against {self.opponent}")


@dataclass(frozen=True)
class GauntletResult(Remarks):
    """A deck against each opponent of a field and the field (`deckbuilder.gauntlet`):
    `field_win_rate` is the weighted mean of the rows, its interval computed as `method` says."""

    deck: str
    side: str
    opponent_side: str
    field_win_rate: Interval
    method: str
    matchups: tuple[Matchup, ...]
    settings: Settings
    reproducible: bool
    #: the report `deckbuilder simulate DECK --vs A --vs B --json` prints for these games
    report: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def weakest(self) -> Matchup:
        """The opponent the deck does worst against."""
        return min(self.matchups, key=lambda row: (row.win_rate.estimate, row.opponent))

    def matchup(self, opponent: str) -> Matchup:
        """The row of one opponent, by its label."""
        by_label = {row.opponent: row for row in self.matchups}
        return _labelled(by_label, opponent, "opponent", "gauntlet")


@dataclass(frozen=True)
class TournamentResult(Remarks):
    """Every deck of one side against every deck of the other (`deckbuilder.tournament`):
    `standings` best Bradley-Terry rating first (Elo points, the decks' mean 0), `pairings`
    every pairing's counts, `deck_cards` each deck's card figures (`cards_of`)."""

    game: str
    sides: tuple[str, str]
    standings: tuple[Standing, ...]
    pairings: tuple[Pairing, ...]
    rating_method: str
    win_rate_method: str
    settings: Settings
    reproducible: bool
    deck_cards: Mapping[str, tuple[CardFigures, ...]] = field(default_factory=dict)
    #: the report `deckbuilder tournament --json` prints for these games
    report: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def cards_of(self, deck: str) -> tuple[CardFigures, ...]:
        """A deck's card figures over its games (by its label), most played first."""
        return _labelled(self.deck_cards, deck, "deck", "tournament")

    def ranking(self, side: str | None = None) -> list[Standing]:
        """The standings of one side (or of all), best first."""
        return [row for row in self.standings if side is None or row.side == side]

    def standing(self, deck: str) -> Standing:
        return _labelled({row.deck: row for row in self.standings}, deck, "deck", "tournament")


@dataclass(frozen=True)
class Swap:
    """`count` copies of `out` out of the deck, as many of `into` in (ids, and names)."""

    out: str
    out_name: str
    into: str
    into_name: str
    count: int

    def __str__(self) -> str:
        return f"{self.count}x {self.out_name} -> {self.into_name}"


@dataclass(frozen=True)
class OptimizeResult:
    """The best deck the optimiser found near a deck (`deckbuilder.optimize`): `difference`
    (None: no legal swap) is confirmed on fresh seeds; `is_better` only when it lies above
    zero, else `best` is a guess (`advice` says what a larger budget would tell)."""

    deck: str
    best: Deck  # the deck with `swaps` applied (the deck itself when there are none)
    swaps: tuple[Swap, ...]
    difference: Interval | None
    is_better: bool
    candidates: int
    games: int
    advice: str
    settings: Settings
    budget: int
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def _summary(data: Mapping[str, float]) -> Summary:
    return Summary(data["mean"], data["median"], data["min"], data["max"], data["p10"],
                   data["p90"])


def simulation_result(report: Mapping[str, Any], used: Settings) -> SimulationResult:
    """The typed result of a `simulate --json` report."""
    seat = int(report["deck"]["seat"])
    mine = report["sides"][seat]
    games = int(report["games"])
    wins, draws = int(mine["wins"]), int(report["draws"]["games"])
    endings = tuple(Ending(str(row["termination"]), str(row["words"]), int(row["games"]),
                           float(row["share"]), frozen_mapping(row["winners"]))
                    for row in report["endings"])
    length = report["length"]
    return SimulationResult(
        deck=str(report["deck"]["name"]), opponent=str(report["opponent"]["name"]),
        side=str(report["deck"]["faction"]), opponent_side=str(report["opponent"]["faction"]),
        games=games, wins=wins, draws=draws, losses=games - wins - draws,
        win_rate=Interval(**mine["win_rate"]),
        endings=frozen_mapping({ending.termination: ending.games for ending in endings}),
        ending_details=endings,
        lengths=Lengths(_summary(length["turns"]), _summary(length["decisions"]),
                        tuple((int(turns), int(count))
                              for turns, count in length["turn_counts"])),
        cards=card_figures(report["cards"]["deck"]),
        opponent_cards=card_figures(report["cards"]["opponent"]),
        settings=used, reproducible=bool(report["reproducible"]),
        warnings=tuple(report["warnings"]), notes=tuple(report["notes"]),
        note=str(report["note"]), card_note=str(report["cards"]["note"]),
        report=frozen_mapping(report))

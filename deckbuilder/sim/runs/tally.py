"""The running statistics of a simulation, kept as the games come in (counts, a histogram
of game lengths, per-card sums, the running curves), so a million games hold as much memory
as a thousand. Results that arrive early wait until the games before them are in, so every
figure, the running ones included, is the one the games give in game order.

    >>> from deckbuilder.sim.runs.runner import GameResult
    >>> tally = RunTally(side=0, games=2)
    >>> tally.add(GameResult(1, 9, "deck", None, "turn_cap", 200, 900))
    >>> tally.add(GameResult(0, 8, "deck", 0, "killed", 12, 300))
    >>> tally.deck.count, tally.deck.wins, tally.deck.draws
    (2, [1, 0], 1)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from deckbuilder.bots import cut_short_note
from deckbuilder.sim.runs.runner import GameResult
from deckbuilder.sim.runs.stats import Z95, Interval, Summary, proportion

#: Points on the running win-rate curve (the charts draw them; more would add nothing).
PROGRESS_POINTS = 60


def checkpoints(count: int, points: int = PROGRESS_POINTS) -> list[int]:
    """Game counts spread evenly over 1..count, the last one always `count`."""
    if count <= 0:
        return []
    return sorted({max(1, math.ceil(k * count / points)) for k in range(1, points + 1)})


def summarize_counts(histogram: Mapping[int, int]) -> Summary:
    """`stats.summarize` of the sample a histogram (value -> how many times) stands for."""
    count = sum(histogram.values())
    if not count:
        return Summary(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    values = sorted(histogram)

    def at(position: int) -> int:
        seen = 0
        for value in values:
            seen += histogram[value]
            if position < seen:
                return value
        raise IndexError(position)

    def rank(fraction: float) -> float:
        return float(at(min(count - 1, max(0, math.ceil(fraction * count) - 1))))

    middle = count // 2
    median = at(middle) if count % 2 else (at(middle - 1) + at(middle)) / 2
    total = sum(value * times for value, times in histogram.items())
    return Summary(total / count, float(median), float(values[0]), float(values[-1]),
                   rank(0.10), rank(0.90))


@dataclass(slots=True)
class SeatCards:
    """One seat's card figures summed over games."""

    drawn: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)
    games_played: Counter[str] = field(default_factory=Counter)
    wins_played: Counter[str] = field(default_factory=Counter)

    def merge(self, other: SeatCards) -> None:
        """Count `other`'s games too (a deck's pairings of a tournament, summed)."""
        for name in ("drawn", "played", "games_played", "wins_played"):
            getattr(self, name).update(getattr(other, name))

    def add(self, drawn: Mapping[str, int], played: Mapping[str, int], won: bool) -> None:
        self.drawn.update(drawn)
        self.played.update(played)
        for card, copies in played.items():
            if copies:
                self.games_played[card] += 1
                if won:
                    self.wins_played[card] += 1


def card_rows(tally: SeatCards, games: int, all_wins: int, seat: int, faction: str,
              deck: Mapping[str, int], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """One seat's card figures over `games` games its side won `all_wins` of, most played first."""
    count = games or 1
    rows: list[dict[str, Any]] = []
    for card in sorted(set(deck) | set(tally.drawn) | set(tally.played)):
        played_in = tally.games_played[card]
        wins_played = tally.wins_played[card]
        not_played = games - played_in
        wins_not_played = all_wins - wins_played
        rows.append({
            "id": card, "name": names.get(card, card), "faction": faction, "seat": seat,
            "copies": deck.get(card, 0),
            "drawn_per_game": tally.drawn[card] / count,
            "played_per_game": tally.played[card] / count,
            "games_played": played_in,
            "wins_when_played": wins_played,
            "win_rate_when_played": wins_played / played_in if played_in else None,
            "win_rate_when_not_played":
                wins_not_played / not_played if not_played else None,
            # the same rates with their Wilson 95% intervals and counts: 4 wins of 5
            # games is not 80 of 100, and the report must show it
            "when_played": proportion(wins_played, played_in).as_dict()
            if played_in else None,
            "games_not_played": not_played,
            "wins_when_not_played": wins_not_played,
            "when_not_played": proportion(wins_not_played, not_played).as_dict()
            if not_played else None,
        })
    rows.sort(key=lambda row: (-row["played_per_game"], row["id"]))
    return rows


class ContestantTally:
    """The games of one contestant (the deck, or the baseline), counted in game order."""

    def __init__(self, side: int, games: int) -> None:
        self.side = side
        self.count = 0
        self.wins = [0, 0]
        self.draws = 0
        #: termination -> winner seat (None: a draw) -> games, first ending seen first
        self.endings: dict[str, Counter[int | None]] = {}
        self.turns: Counter[int] = Counter()
        self.decisions: Counter[int] = Counter()
        self.cards = (SeatCards(), SeatCards())
        self.cut_short: Counter[str] = Counter()
        self._marks = set(checkpoints(games))
        #: (games, the side's wins) at each checkpoint: the running win rate
        self.progress: list[tuple[int, int]] = []

    def add(self, result: GameResult) -> None:
        self.count += 1
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[result.winner] += 1
        self.endings.setdefault(result.termination, Counter())[result.winner] += 1
        self.turns[result.turns] += 1
        self.decisions[result.decisions] += 1
        for seat in (0, 1):
            self.cards[seat].add(result.drawn[seat], result.played[seat], result.winner == seat)
        for name, times in result.cut_short:
            self.cut_short[name] += times
        if self.count in self._marks:
            self.progress.append((self.count, self.wins[self.side]))


class PairedTally:
    """The deck against the baseline on the same seeds, game by game."""

    def __init__(self, side: int, games: int) -> None:
        self.side = side
        self.count = 0
        self.total = 0  # sum of the per-seed differences, each -1, 0 or 1
        self.nonzero = 0  # seeds where one won and the other did not (the sum of squares)
        self.different_winner = 0
        self._marks = set(checkpoints(games))
        self._running_total = self._running_squares = 0.0
        #: (games, estimate, low, high) at each checkpoint
        self.progress: list[dict[str, float]] = []

    def add(self, deck_winner: int | None, baseline_winner: int | None) -> None:
        a = 1.0 if deck_winner == self.side else 0.0
        b = 1.0 if baseline_winner == self.side else 0.0
        self.count += 1
        self.total += int(a - b)
        self.nonzero += a != b
        self.different_winner += deck_winner != baseline_winner
        # the running curve, with the float arithmetic it has always had
        self._running_total += a - b
        self._running_squares += (a - b) ** 2
        n = self.count
        if n in self._marks:
            mean = self._running_total / n
            spread = (Z95 * math.sqrt(max(0.0, self._running_squares - n * mean * mean)
                                      / (n - 1) / n) if n > 1 else math.inf)
            self.progress.append({"games": n, "estimate": mean, "low": max(-1.0, mean - spread),
                                  "high": min(1.0, mean + spread)})

    def difference(self, z: float = Z95) -> Interval:
        """`stats.paired_difference` of the two runs' wins, its variance exact from the counts."""
        n = self.count
        if n == 0:
            return Interval(0.0, -1.0, 1.0)
        mean = self.total / n
        if n == 1:
            return Interval(mean, -1.0, 1.0)
        # sum of (d - mean)^2 = sum d^2 - (sum d)^2 / n, exactly (each d is -1, 0 or 1)
        variance = float(Fraction(n * self.nonzero - self.total * self.total, n * (n - 1)))
        spread = z * math.sqrt(variance / n)
        return Interval(mean, mean - spread, mean + spread)


class RunTally:
    """A simulation's statistics, fed one `GameResult` at a time in any order (`add`)."""

    def __init__(self, side: int, games: int, paired: bool = False) -> None:
        self.side = side
        self.games = games
        self.deck = ContestantTally(side, games)
        self.baseline = ContestantTally(side, games) if paired else None
        self.paired = PairedTally(side, games) if paired else None
        self._next = {"deck": 0, "baseline": 0}
        self._early: dict[str, dict[int, GameResult]] = {"deck": {}, "baseline": {}}
        #: index -> the winner of whichever of the pair came first
        self._unpaired: dict[int, tuple[str, int | None]] = {}

    def add(self, result: GameResult) -> None:
        label = result.label
        if label not in self._early or (label == "baseline" and self.baseline is None):
            raise ValueError(f"a result labelled {label!r} in a run without it")
        early = self._early[label]
        early[result.index] = result
        while self._next[label] in early:
            self._count(early.pop(self._next[label]))
            self._next[label] += 1

    @property
    def waiting(self) -> int:
        """Results held until the games before them come in."""
        return sum(map(len, self._early.values())) + len(self._unpaired)

    def _count(self, result: GameResult) -> None:
        label = result.label
        if label == "deck":
            self.deck.add(result)
        elif self.baseline is not None:
            self.baseline.add(result)
        if self.paired is None:
            return
        other = self._unpaired.pop(result.index, None)
        if other is None:
            self._unpaired[result.index] = (label, result.winner)
            return
        deck_winner, baseline_winner = ((result.winner, other[1]) if label == "deck"
                                        else (other[1], result.winner))
        self.paired.add(deck_winner, baseline_winner)

    def sides(self, config: Any, players: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for seat in (0, 1):
            contestant = config.deck if seat == config.side else config.opponent
            wins = self.deck.wins[seat]
            rows.append({
                "seat": seat, "faction": players[seat], "deck": contestant.name,
                "bot": contestant.bot, "is_deck_under_test": seat == config.side,
                "wins": wins, "win_rate": proportion(wins, self.deck.count).as_dict(),
            })
        return rows

    def endings(self, players: Sequence[str]) -> list[dict[str, object]]:
        total = self.deck.count or 1
        games = Counter({name: sum(by_winner.values())
                         for name, by_winner in self.deck.endings.items()})
        rows = []
        for name, count in games.most_common():  # ties: the ending seen first, first
            winners = {("draw" if seat is None else players[seat]): times
                       for seat, times in self.deck.endings[name].items()}
            rows.append({"termination": name, "games": count, "share": count / total,
                         "winners": dict(sorted(winners.items()))})
        return rows

    def cards(self, seat: int, faction: str, deck: Mapping[str, int],
              names: Mapping[str, str]) -> list[dict[str, Any]]:
        return card_rows(self.deck.cards[seat], self.deck.count, self.deck.wins[seat], seat,
                         faction, deck, names)

    def length(self) -> dict[str, object]:
        return {"turns": summarize_counts(self.deck.turns).as_dict(),
                "decisions": summarize_counts(self.deck.decisions).as_dict(),
                "turn_counts": [[turns, games] for turns, games in sorted(self.deck.turns.items())]}

    def progress(self) -> list[dict[str, float]]:
        return [{"games": n, "wins": wins, **proportion(wins, n).as_dict()}
                for n, wins in self.deck.progress]

    def cut_short(self) -> list[dict[str, object]]:
        return [{"bot": name, "times": times, "warning": cut_short_note(name, times)}
                for name, times in sorted(self.deck.cut_short.items())]

"""A gauntlet: one deck against a field of opponents, each on the same seeds
`game_seed(seed, 0..games-1)`, so each row is what `simulate DECK --vs OPPONENT` gives and
the field's figure, weighted as the player says, averages paired games."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from deckbuilder.bots import is_reproducible
from deckbuilder.games import games as game_registry
from deckbuilder.games import get_game
from deckbuilder.sim.runs.batch import Contestant, check_playable
from deckbuilder.sim.runs.runner import (
    Executor,
    GameJob,
    GameResult,
    deck_items,
    engine_catalog,
    make_executor,
    play_one,
    switch_items,
)
from deckbuilder.sim.runs.seeds import game_seed
from deckbuilder.sim.runs.stats import Z95, Interval, proportion
from deckbuilder.sim.runs.tally import SeatCards, card_rows


@dataclass(frozen=True)
class Setup:
    """How the games are played, the same for every pairing."""

    game: str
    ruleset: str
    switches: tuple[tuple[str, str], ...] = ()
    modules: tuple[str, ...] = ()
    max_turns: int = 200


def side_of(cards: Mapping[str, int], game: str | None = None) -> tuple[str, str]:
    """(game, side) a deck plays, read from its cards: the caller never names a seat."""
    entries = engine_catalog().entries
    sides: set[tuple[str, str]] = set()
    for card in cards:
        entry = entries.get(card)
        faction = getattr(getattr(entry, "record", None), "faction", None)
        if entry is None or faction is None or game not in (None, entry.game):
            continue
        entry_game = str(entry.game)
        if entry_game in game_registry() and str(faction) in get_game(entry_game).side_names:
            sides.add((entry_game, str(faction)))
    if len(sides) != 1:
        named = ", ".join(f"{side} ({g})" for g, side in sorted(sides)) or "none"
        raise ValueError(f"cannot tell which side this deck plays from its cards: {named}")
    return next(iter(sides))


@dataclass(frozen=True, kw_only=True)
class Record:
    """A deck's games against one opponent: counts, win rate (95% Wilson), mean length."""

    games: int
    wins: int
    draws: int
    losses: int
    win_rate: Interval
    mean_turns: float


@dataclass(frozen=True)
class Matchup(Record):
    """The deck against one opponent (`cards`: rows as `simulate --json` gives them)."""

    opponent: str
    bot: str
    weight: float  # the opponent's share of the field (the weights sum to 1)
    endings: tuple[tuple[str, int], ...]
    cards: tuple[dict[str, JsonValue], ...] = ()


@dataclass(frozen=True)
class GauntletResult:
    """The deck against each opponent and the field (a draw is no win)."""

    deck: str
    bot: str
    game: str
    side: str
    opponent_side: str
    seed: int
    games: int
    setup: Setup
    matchups: tuple[Matchup, ...]
    field_win_rate: Interval
    field_method: str
    reproducible: bool


def weighted_mean(outcomes: Sequence[Sequence[float]], shares: Sequence[float],
                  z: float = Z95) -> Interval:
    """The weighted mean over opponents of per-seed outcomes (`outcomes[i][j]`: opponent
    `i`, seed `j`) with a 95% normal-approximation interval. Its variance is the larger of
    the per-seed spread (which counts how paired games on one seed go together) and the
    opponents' binomial variances added as if independent, each rate Agresti and Coull's
    (wins + z^2/2) / (games + z^2), so that a row of all wins still counts as uncertain
    (Agresti & Coull 1998)."""
    count = len(outcomes[0])
    per_seed = [sum(share * row[j] for share, row in zip(shares, outcomes, strict=True))
                for j in range(count)]
    mean = sum(per_seed) / count
    if count < 2:
        return Interval(mean, 0.0, 1.0)
    spread_of_seeds = sum((value - mean) ** 2 for value in per_seed) / (count - 1) / count
    padded = count + z * z
    binomial = 0.0
    for share, row in zip(shares, outcomes, strict=True):
        rate = (sum(row) + z * z / 2) / padded
        binomial += share * share * rate * (1 - rate) / padded
    spread = z * math.sqrt(max(spread_of_seeds, binomial))
    return Interval(mean, max(0.0, mean - spread), min(1.0, mean + spread))


#: `PairingTally.winners` of a game that ended without a winner.
DRAW = 2


class PairingTally:
    """One pairing's games as counts and a winner byte per seed: a million games, 1 MB."""

    def __init__(self, games: int) -> None:
        self.winners = bytearray([DRAW]) * games
        self.turns = 0
        self.endings: Counter[str] = Counter()
        self.cards = (SeatCards(), SeatCards())

    def add(self, result: GameResult) -> None:
        self.winners[result.index] = DRAW if result.winner is None else result.winner
        self.turns += result.turns
        self.endings[result.termination] += 1
        for seat, cards in enumerate(self.cards):
            cards.add(result.drawn[seat], result.played[seat], result.winner == seat)

    @property
    def games(self) -> int:
        return len(self.winners)

    def wins(self, seat: int) -> int:
        return self.winners.count(seat)

    def outcomes(self, seat: int) -> list[float]:
        return [1.0 if winner == seat else 0.0 for winner in self.winners]


#: A pairing: the decks in seat 0 and seat 1, and the order each lies in before the shuffle.
Seating = tuple[Contestant, Contestant, tuple[tuple[str, ...] | None, tuple[str, ...] | None]]


def play_field(seatings: Mapping[str, Seating], games: int, seed: int, setup: Setup,
               executor: Executor | None,
               on_result: Callable[[GameResult], None] | None) -> dict[str, PairingTally]:
    """Play each pairing (by label) on the seeds every pairing shares, its set-up checked
    first; the results may come back in any order."""

    def jobs(count: int) -> Iterator[GameJob]:
        for label, (first, second, orders) in seatings.items():
            decks = (deck_items(first.cards), deck_items(second.cards))
            for index in range(count):
                yield GameJob(index=index, seed=game_seed(seed, index), decks=decks,
                              bots=(first.bot, second.bot), label=label,
                              ruleset=setup.ruleset, game=setup.game,
                              max_turns=setup.max_turns, switches=setup.switches,
                              modules=setup.modules, orders=orders)

    check_playable(jobs(1))
    tallies = {label: PairingTally(games) for label in seatings}
    for result in (executor or make_executor(1)).map(play_one, jobs(games)):
        tallies[result.label].add(result)
        if on_result is not None:
            on_result(result)
    return tallies


def matchup_of(tally: PairingTally, seat: int, opponent: Contestant, share: float,
               deck: Contestant, side: str, names: Mapping[str, str]) -> Matchup:
    """The figures of one pairing from the seat of the deck under test."""
    wins = tally.wins(seat)
    draws = tally.wins(DRAW)
    return Matchup(opponent.name, opponent.bot, share,
                   tuple(sorted(tally.endings.items(), key=lambda item: (-item[1], item[0]))),
                   tuple(card_rows(tally.cards[seat], tally.games, wins, seat, side,
                                   deck.cards, names)),
                   games=tally.games, wins=wins, draws=draws, losses=tally.games - wins - draws,
                   win_rate=proportion(wins, tally.games), mean_turns=tally.turns / tally.games)


def make_setup(game: str, ruleset: str | None, switches: Mapping[str, str] | None,
               modules: Sequence[str], max_turns: int) -> Setup:
    return Setup(game, ruleset or get_game(game).default_ruleset, switch_items(switches),
                 tuple(sorted(modules)), max_turns)


def run_gauntlet(
    deck: Contestant,
    field: Sequence[Contestant],
    *,
    games: int,
    seed: int,
    executor: Executor | None = None,
    weights: Sequence[float] | None = None,
    ruleset: str | None = None,
    switches: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
    max_turns: int = 200,
    on_result: Callable[[GameResult], None] | None = None,
) -> GauntletResult:
    """Play `deck` against every opponent of `field` on the same seeds, on any executor
    alike; `weights` (default: equal) say how much each counts in the field's win rate."""
    if games < 1:
        raise ValueError("games must be at least 1")
    if not field:
        raise ValueError("the field needs at least one opponent")
    weights = list(weights) if weights is not None else [1.0] * len(field)
    if len(weights) != len(field) or any(not 0 < w < math.inf for w in weights):
        raise ValueError("one positive weight per opponent")
    game, side = side_of(deck.cards)
    sides = get_game(game).side_names
    seat = sides.index(side)
    for opponent in field:
        if side_of(opponent.cards, game) != (game, sides[1 - seat]):
            raise ValueError(f"{opponent.name} is not a {sides[1 - seat]} deck of {game}")
    setup = make_setup(game, ruleset, switches, modules, max_turns)
    seatings: dict[str, Seating] = {
        f"vs-{number}": (deck, opponent, (None, None)) if seat == 0
        else (opponent, deck, (None, None)) for number, opponent in enumerate(field)}
    tallies = play_field(seatings, games, seed, setup, executor, on_result)
    total = sum(weights)
    shares = [weight / total for weight in weights]
    grouped = list(tallies.values())
    names = engine_catalog().card_names()
    matchups = tuple(matchup_of(tally, seat, opponent, share, deck, side, names)
                     for tally, opponent, share in zip(grouped, field, shares, strict=True))
    if len(field) == 1:
        field_rate = matchups[0].win_rate
        method = "Wilson score interval (one opponent)"
    else:
        field_rate = weighted_mean([tally.outcomes(seat) for tally in grouped], shares)
        method = ("weighted mean of the opponents' win rates; 95% normal-approximation "
                  "interval from the per-seed weighted results (seeds paired across "
                  "opponents), never narrower than the opponents' Agresti-Coull variances "
                  "added as if independent")
    return GauntletResult(
        deck.name, deck.bot, game, side, sides[1 - seat], seed, games, setup, matchups,
        field_rate, method,
        all(is_reproducible(c.bot) for c in (deck, *field)))

"""A tournament: every deck of one side against every deck of the other, ranked by win rate
and by a Bradley-Terry rating fitted from the results.

A deck's side is its seat in both Revolver games, so each pairing is played once per seed.
Every pairing plays the seeds `game_seed(seed, 0..games-1)`, each deck laid along its side's
base deck before the shuffle (`sim.runs.aligned`): two decks of one side draw alike on a seed
until a card they differ in comes up, so their differences are the decks', not the deal's.
Decks of one side only meet the other side's base deck, with a note."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from pydantic import JsonValue

from deckbuilder.bots import is_reproducible
from deckbuilder.catalog import Catalog
from deckbuilder.decks import FACTION_TITLES
from deckbuilder.games import get_game
from deckbuilder.sim.rankings.gauntlet import (
    DRAW,
    PairingTally,
    Seating,
    Setup,
    make_setup,
    play_field,
    side_of,
    weighted_mean,
)
from deckbuilder.sim.rankings.ratings import BradleyTerryFit, fit_bradley_terry
from deckbuilder.sim.runs.aligned import aligned_order
from deckbuilder.sim.runs.batch import Contestant
from deckbuilder.sim.runs.runner import Executor, GameResult, engine_catalog
from deckbuilder.sim.runs.stats import Interval, proportion
from deckbuilder.sim.runs.tally import SeatCards, card_rows


@dataclass(frozen=True)
class Pairing:
    """One deck of the first side (seat 0) against one of the second."""

    first: str
    second: str
    games: int
    first_wins: int
    second_wins: int
    draws: int

    @property
    def first_win_rate(self) -> Interval:
        return proportion(self.first_wins, self.games)


@dataclass(frozen=True)
class Standing:
    """A deck's place: its win rate (each opponent counting alike) and its rating."""

    rank: int
    deck: str
    side: str
    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: Interval
    rating: Interval  # Elo points, the decks' mean 0
    #: the deck's cards over its games, as `simulate --json` gives them
    cards: tuple[dict[str, JsonValue], ...] = ()


@dataclass(frozen=True)
class TournamentResult:
    """Standings (best rating first) and every pairing's counts."""

    game: str
    sides: tuple[str, str]
    seed: int
    games: int  # per pairing
    setup: Setup
    standings: tuple[Standing, ...]
    pairings: tuple[Pairing, ...]
    rating_method: str
    win_rate_method: str
    notes: tuple[str, ...]
    reproducible: bool


def _unique(decks: Sequence[Contestant]) -> list[Contestant]:
    """The decks with names told apart ("Deck", "Deck #2"): results are keyed by name."""
    seen: dict[str, int] = {}
    named = []
    for deck in decks:
        seen[deck.name] = seen.get(deck.name, 0) + 1
        named.append(deck if seen[deck.name] == 1 else
                     replace(deck, name=f"{deck.name} #{seen[deck.name]}"))
    return named


def _order(deck: Contestant, reference: Mapping[str, int]) -> tuple[str, ...] | None:
    held = {card: copies for card, copies in deck.cards.items() if copies}
    if held == {card: copies for card, copies in reference.items() if copies}:
        return None
    return aligned_order(deck.cards, reference)


def run_tournament(
    decks: Sequence[Contestant],
    *,
    games: int,
    seed: int,
    executor: Executor | None = None,
    ruleset: str | None = None,
    switches: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
    max_turns: int = 200,
    on_result: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Every deck of one side against every deck of the other, on any executor alike."""
    if games < 1:
        raise ValueError("games must be at least 1")
    if not decks:
        raise ValueError("a tournament needs decks")
    catalog = engine_catalog()
    game = side_of(decks[0].cards)[0]
    sides = get_game(game).side_names
    by_side, notes = _decks_by_side(decks, game, sides, catalog)
    references = [catalog.base_deck(game, side) for side in sides]
    setup = make_setup(game, ruleset, switches, modules, max_turns)
    firsts, seconds = by_side[sides[0]], by_side[sides[1]]
    pairs = [(i, j) for i in range(len(firsts)) for j in range(len(seconds))]
    seatings: dict[str, Seating] = {
        f"{i}-{j}": (firsts[i], seconds[j], (_order(firsts[i], references[0]),
                                            _order(seconds[j], references[1])))
        for i, j in pairs}
    tallies = play_field(seatings, games, seed, setup, executor, on_result)
    pairings = []
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    for i, j in pairs:
        tally = tallies[f"{i}-{j}"]
        first_wins, second_wins, draws = tally.wins(0), tally.wins(1), tally.wins(DRAW)
        pairings.append(Pairing(firsts[i].name, seconds[j].name, tally.games, first_wins,
                                second_wins, draws))
        scores[(firsts[i].name, seconds[j].name)] = (first_wins + draws / 2,
                                                     second_wins + draws / 2)
    everyone = [*firsts, *seconds]
    fit = fit_bradley_terry([deck.name for deck in everyone], scores)
    standings = _standings(firsts, seconds, sides, tallies, games, fit, catalog.card_names())
    return TournamentResult(
        game, sides, seed, games, setup, standings, tuple(pairings), fit.method,
        "each deck's wins over its games against the other side's decks, each opponent "
        "counting alike; 95% interval as in a gauntlet (Wilson with one opponent)",
        tuple(notes), all(is_reproducible(deck.bot) for deck in everyone))


def _decks_by_side(decks: Sequence[Contestant], game: str, sides: Sequence[str],
                   catalog: Catalog) -> tuple[dict[str, list[Contestant]], list[str]]:
    """The decks by the side they play, a side without one played by its base deck."""
    by_side: dict[str, list[Contestant]] = {side: [] for side in sides}
    for deck in _unique(decks):
        deck_game, side = side_of(deck.cards)
        if deck_game != game:
            raise ValueError(f"{deck.name} is a {deck_game} deck, {decks[0].name} a {game} "
                             "deck: a tournament plays decks of one game")
        by_side[side].append(deck)
    notes = []
    for number, side in enumerate(sides):
        if not by_side[side]:
            bot = by_side[sides[1 - number]][0].bot
            by_side[side].append(Contestant(f"{FACTION_TITLES.get(side, side)} base deck",
                                            catalog.base_deck(game, side), bot))
            notes.append(f"no {side} deck was given: the {side} base deck plays them all")
    return by_side, notes


def _standings(firsts: Sequence[Contestant], seconds: Sequence[Contestant],
               sides: Sequence[str], tallies: Mapping[str, PairingTally], games: int,
               fit: BradleyTerryFit, names: Mapping[str, str]) -> tuple[Standing, ...]:
    """Every deck's place, best rating first."""
    unranked = []
    for number, deck in enumerate([*firsts, *seconds]):
        seat = 0 if number < len(firsts) else 1
        own = number if seat == 0 else number - len(firsts)
        labels = ([f"{own}-{j}" for j in range(len(seconds))] if seat == 0
                  else [f"{i}-{own}" for i in range(len(firsts))])
        mine = [tallies[label] for label in labels]
        outcomes = [tally.outcomes(seat) for tally in mine]
        played = games * len(labels)
        wins = sum(tally.wins(seat) for tally in mine)
        draws = sum(tally.wins(DRAW) for tally in mine)
        rate = (proportion(wins, played) if len(labels) == 1
                else weighted_mean(outcomes, [1 / len(labels)] * len(labels)))
        cards = SeatCards()
        for tally in mine:
            cards.merge(tally.cards[seat])
        unranked.append(Standing(
            0, deck.name, sides[seat], deck.bot, played, wins, draws, played - wins - draws,
            rate, Interval(fit.ratings[number], fit.lows[number], fit.highs[number]),
            tuple(card_rows(cards, played, wins, seat, sides[seat], deck.cards, names))))
    unranked.sort(key=lambda row: (-row.rating.estimate, row.deck))
    return tuple(replace(row, rank=rank) for rank, row in enumerate(unranked, 1))

"""`optimize`: which legal swaps make a deck better, found by paired simulation.

Candidates (`optimize_candidates`) race on the deck's seeds (`racing`), the best singles are
combined, and the finalists are confirmed on fresh seeds, which alone give the reported
difference (the winner's curse): docs/players/optimise.md states the method. Results depend on
the seed only: games are numbered and every decision reads the results in game order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from deckbuilder.catalog import Catalog
from deckbuilder.legality import Supply, deck_supply
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize_candidates import (
    Candidate,
    combinations,
    dead_in_setup,
    distinct_outs,
    resolve_card,
    sample,
    single_swaps,
)
from deckbuilder.sim.optimiser.optimize_table import OptimizeSettings, Table
from deckbuilder.sim.optimiser.racing import CONTENDER_Z, Race, Round
from deckbuilder.sim.runs.runner import Executor, GameResult, SerialExecutor
from deckbuilder.sim.runs.stats import Interval, paired_difference, paired_games_needed

#: Share of the budget kept for the confirmation on fresh seeds.
CONFIRM_SHARE = 0.3
#: Share of the racing budget the single swaps race alone, before the combinations join.
SINGLES_SHARE = 0.7
#: The finalists confirmed on fresh seeds, at most: the race's leader and the challengers it
#: cannot tell apart from the leader (`Race.contenders`); the fewer they are, the more fresh
#: games each gets, so a leader the race has told apart is confirmed alone.
FINALISTS = 3
#: Fresh seeds for the confirmation start here (never used by the racing).
CONFIRM_OFFSET = 1_000_000
#: Share of the confirmation every finalist plays; the rest goes, round by round, to the
#: confirmation's leader and the finalists its games cannot yet tell apart from it.
CONFIRM_FIRST_SHARE = 0.5
#: Rounds the rest of the confirmation is played in.
CONFIRM_ROUNDS = 4
#: The smallest difference the advice speaks of (two points).
SMALLEST_DIFFERENCE = 0.02


@dataclass
class OptimizeResult:
    deck: dict[str, int]
    candidates: list[Candidate]  # every candidate considered, singles then combinations
    finalists: list[Candidate]  # best first, by the confirmed difference
    baseline_scores: list[float]
    baseline_confirmed: list[float]
    games: int
    settings: OptimizeSettings
    #: per card: its worth per copy going in, its cost per copy going out (the race's model)
    worth: dict[str, float] = field(default_factory=dict)
    cost: dict[str, float] = field(default_factory=dict)
    #: cards no candidate brings in, as they can do nothing in this set-up: id -> why
    left_out: dict[str, str] = field(default_factory=dict)
    #: what every candidate was judged against (`legality.Supply.sentence`)
    supply: str = ""
    #: the confirmation games, whole: "deck" and each finalist's label
    confirmation_games: dict[str, list[GameResult]] = field(default_factory=dict)
    #: the seeds of the confirmation units, in order
    confirmation_seeds: list[int] = field(default_factory=list)

    def difference(self, candidate: Candidate) -> Interval:
        """The confirmed paired difference (candidate minus deck) on fresh seeds (the deck's
        units that the candidate played too: a finalist left behind plays fewer)."""
        n = len(candidate.confirmed)
        return paired_difference(candidate.confirmed, self.baseline_confirmed[:n])

    @property
    def best(self) -> Candidate | None:
        return self.finalists[0] if self.finalists else None

    @property
    def improved(self) -> bool:
        """Is the best deck found told apart as better on the fresh seeds (its whole 95%
        interval above zero)? Only then is it proposed: a search always has a best
        candidate, and one that merely did a little better may be luck."""
        return self.best is not None and self.difference(self.best).low > 0

    def selection_difference(self, candidate: Candidate) -> Interval:
        n = len(candidate.scores)
        return paired_difference(candidate.scores, self.baseline_scores[:n])

    def told_apart(self) -> dict[str, int]:
        """What the budget bought: how many candidates the evidence told apart from the deck
        (worse in the race; better or worse on fresh seeds), and from a better candidate."""
        worse = sum(1 for c in self.candidates if c.dropped_by == "the deck")
        behind = sum(1 for c in self.candidates if c.dropped_by and c.dropped_by != "the deck")
        confirmed = [self.difference(c) for c in self.finalists]
        return {"candidates": len(self.candidates),
                "raced": sum(1 for c in self.candidates if c.scores),
                "worse_than_the_deck": worse + sum(1 for i in confirmed if i.high < 0),
                "behind_a_better_swap": behind,
                "better_than_the_deck": sum(1 for i in confirmed if i.low > 0),
                "still_open": sum(1 for c in self.candidates if c.scores and not c.dropped_by)}

    def games_to_tell(self) -> tuple[int, float] | None:
        """When nothing is told apart as better: about how many paired units would tell the
        best finalist's difference (at least two points) from zero, and that difference."""
        best = self.best
        if best is None or self.improved:
            return None
        interval = self.difference(best)
        target = max(SMALLEST_DIFFERENCE, abs(interval.estimate))
        noise = [a - b for a, b in zip(best.confirmed, self.baseline_confirmed, strict=False)]
        return paired_games_needed(noise, target), target


def optimize(deck: Deck, catalog: Catalog, settings: OptimizeSettings, *,
             sets: Sequence[str] | None = None, supply: Supply | None = None,
             only_out: Sequence[str] = (), only_in: Sequence[str] = (),
             executor: Executor | None = None,
             progress: Callable[[Round], None] | None = None) -> OptimizeResult:
    """Search the legal decks near `deck` (its cards resolved to ids) for better ones, within
    `supply` (default: one box of each product)."""
    supply = supply or deck_supply(catalog)
    cards = {resolve_card(catalog, card, deck.game): count for card, count in deck.cards.items()}
    table = Table(settings, executor or SerialExecutor(), cards)
    per_unit = table.games_per_unit
    confirm_budget = int(settings.budget * CONFIRM_SHARE)
    race_budget = settings.budget - confirm_budget
    singles = single_swaps(deck, cards, catalog, supply, sets=sets,
                           only_out=only_out, only_in=only_in)
    dead = dead_in_setup(sorted({swap.into for c in singles for swap in c.swaps}), cards,
                         settings.side, [o.cards for o in settings.opponents()], catalog,
                         deck.game, settings.modules)
    singles = [c for c in singles if not any(swap.into in dead for swap in c.swaps)]
    room = race_budget // per_unit - 1
    if len(singles) > room:  # not one unit each: race a seeded sample of them
        singles = sample(singles, max(1, room), settings.seed) if room > 0 else []
    race = Race(table, cards, progress)
    considered = list(race.enter(singles, race_budget))
    race.run(int(race_budget * SINGLES_SHARE), "single swaps")
    race.refit()
    promising = [c for c in race.ranked() if race.blended(c) > 0]
    combos = combinations(distinct_outs(promising), deck, cards, catalog, sets, supply,
                          len(singles)) if len(promising) > 1 else []
    if combos:
        considered += race.enter(combos, race_budget)
    race.run(race_budget, "single swaps and combinations" if combos else "single swaps")
    race.refit()
    finalists = race.contenders(FINALISTS)
    result = OptimizeResult(cards, considered, finalists, race.baseline, [], table.games,
                            settings, dict(race.worth), dict(race.cost), dead, supply.sentence)
    if finalists:
        _confirm(result, table, finalists, cards)
    result.games = table.games
    result.finalists.sort(key=lambda c: (-result.difference(c).estimate, c.label))
    if progress is not None and result.best is not None:
        progress(Round("confirmed on fresh seeds", len(result.finalists), table.games,
                       result.best, result.difference(result.best)))
    return result


def _confirm(result: OptimizeResult, table: Table, finalists: Sequence[Candidate],
             cards: Mapping[str, int]) -> None:
    """The finalists and the deck again, on fresh seeds, every game kept whole; after a first
    share each, the games go to the best finalist and those still close to it (`_still_close`):
    to telling the best apart from the deck, not to confirming the ones behind it."""
    per = table.games_per_unit
    units = max(1, (result.settings.budget - table.games) // per)
    labels = ["deck", *(c.label for c in finalists)]
    first = max(1, int(units * CONFIRM_FIRST_SHARE) // len(labels))
    _confirm_units(result, table, finalists, cards, finalists, first)
    rest = max(0, (result.settings.budget - table.games) // per)
    for round_number in range(CONFIRM_ROUNDS, 0, -1):
        playing = _still_close(result, finalists)
        step = rest // round_number // (len(playing) + 1)
        if step < 1:
            continue
        target = len(result.baseline_confirmed) + step
        _confirm_units(result, table, finalists, cards, playing, target)
        rest = max(0, (result.settings.budget - table.games) // per)
    result.confirmation_games = {label: table.kept[label] for label in labels}
    result.confirmation_seeds = [table.seed_of(i, CONFIRM_OFFSET)
                                 for i in range(len(result.baseline_confirmed))]


def _confirm_units(result: OptimizeResult, table: Table, finalists: Sequence[Candidate],
                   cards: Mapping[str, int], playing: Sequence[Candidate], target: int) -> None:
    """The deck and the `playing` finalists each play their fresh units up to `target`."""
    asks = [("deck", cards, range(len(result.baseline_confirmed), target)),
            *((c.label, c.cards, range(len(c.confirmed), target)) for c in playing)]
    asks = [ask for ask in asks if len(ask[2])]
    scores = table.play(asks, offset=CONFIRM_OFFSET, keep=[label for label, _, _ in asks])
    result.baseline_confirmed.extend(scores.get("deck", []))
    for candidate in finalists:
        candidate.confirmed.extend(scores.get(candidate.label, []))


def replay_gain(result: OptimizeResult, candidate: Candidate, executor: Executor, units: int,
                bots: tuple[str, str] | None = None) -> list[float]:
    """The candidate's score minus the deck's on each of the first `units` confirmation
    units, played again (with `bots`, the deck's and the opponents', in place of the
    search's; on the catalog in force, which a check may have moved)."""
    settings = result.settings if bots is None else replace(
        result.settings, bot=bots[0], opponent_bot=bots[1])
    table = Table(settings, executor, result.deck)
    scores = table.play([("deck", result.deck, range(units)),
                         ("candidate", candidate.cards, range(units))], offset=CONFIRM_OFFSET)
    return [a - b for a, b in zip(scores["candidate"], scores["deck"], strict=True)]


def _still_close(result: OptimizeResult, finalists: Sequence[Candidate]) -> list[Candidate]:
    """The confirmation's leader (the best difference with the deck so far) and the
    finalists its paired fresh games cannot tell apart from it."""
    leader = max(finalists, key=lambda c: (result.difference(c).estimate, c.label))
    close = [leader]
    for candidate in finalists:
        n = min(len(candidate.confirmed), len(leader.confirmed))
        if candidate is not leader and paired_difference(
                candidate.confirmed[:n], leader.confirmed[:n], CONTENDER_Z).high > 0:
            close.append(candidate)
    return close

"""Racing the candidate decks: spend the games where they can still change the answer.

A racing best-arm search on paired games (Hoeffding races and F-race for dropping, LUCB for
where the games go, empirical-Bayes shrinkage for the rankings); docs/players/optimise.md
("The method") states it with its sources and the reasons for each choice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from deckbuilder.sim.optimiser.optimize_candidates import Candidate, Swap
from deckbuilder.sim.optimiser.optimize_table import Table
from deckbuilder.sim.runs.stats import Interval, paired_difference

#: Units each candidate plays before any choice, at most (fewer when the budget is short).
FIRST_UNITS = 4
#: How far above its estimate a challenger's bound reaches, in standard errors.
EXPLORE = 3.0
#: Candidates re-sampled in a round besides the leader.
CHALLENGERS = 7
#: Units each re-sampled candidate plays in a round.
STEP_UNITS = 4
#: The least spread of one paired difference assumed (a few games all alike prove little).
LEAST_SPREAD = 0.3
#: Units a candidate must have played before the evidence may drop it.
LEAST_TO_DROP = 8
#: The error allowed for dropping one good candidate, over the whole race.
DROP_ERROR = 0.05
#: The least spread per card changed of the swaps' true effects (one point): the prior never
#: claims that swaps are all alike.
LEAST_EFFECT_SPREAD = 0.01
#: The spread per card changed assumed before any candidate has played (five points).
FIRST_EFFECT_SPREAD = 0.05
#: How many posterior standard deviations a challenger's estimate may lie below the leader's
#: and still be confirmed beside it (one: replaying the race offline on 300 pre-played units of
#: every swap of the restricted planted case, master seed 101, not the test's seeds, found and
#: confirmed the planted swap at 39 of 40 shuffles at budget 1,200 and 34 at 800 with one, 38
#: and 26 with two: a finalist more costs the leader more fresh games than it saves).
CONTENDER_Z = 1.0
#: Ridge weight (in units) pulling every card's effect towards zero.
RIDGE_GAMES = 8
#: The control variate's slope before a candidate's own units speak, and their weight.
PRIOR_SLOPE = -0.5
SLOPE_UNITS = 8


@dataclass
class Round:
    """Progress after one round: the candidates still in the race, the games so far, the
    current best and its paired difference."""

    stage: str
    alive: int
    games: int
    best: Candidate | None
    best_difference: Interval | None


def differences(candidate: Candidate, baseline: Sequence[float]) -> list[float]:
    n = len(candidate.scores)
    return [a - b for a, b in zip(candidate.scores, baseline[:n], strict=True)]


def spread(values: Sequence[float]) -> float:
    """The sample standard deviation, never below LEAST_SPREAD."""
    n = len(values)
    if n < 2:
        return LEAST_SPREAD
    mean = sum(values) / n
    found = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return found if found > LEAST_SPREAD else LEAST_SPREAD


def drop_z(candidates: int, round_number: int) -> float:
    """The two-sided normal quantile of round `round_number`'s tests (Bonferroni over the
    candidates and, with weights 1/(r(r+1)), over the rounds)."""
    error = DROP_ERROR / (max(1, candidates) * round_number * (round_number + 1))
    return NormalDist().inv_cdf(1 - error / 2)


def main_effects(candidates: Sequence[Candidate],
                 baseline: Sequence[float]) -> tuple[dict[str, float], dict[str, float]]:
    """Each card's worth per copy going in and cost per copy going out, fitted to every
    candidate's games at once (ridge least squares by backfitting), for the explanation."""
    data = [(c, len(c.scores), (sum(c.scores) - sum(baseline[:len(c.scores)])) / len(c.scores))
            for c in candidates if c.scores]
    worth: dict[str, float] = {}
    cost: dict[str, float] = {}
    for _ in range(8):
        for effects, key, sign in ((worth, "into", 1.0), (cost, "out", -1.0)):
            sums: dict[str, float] = {}
            weights: dict[str, float] = {}
            for candidate, games, mean in data:
                for swap in candidate.swaps:
                    card = getattr(swap, key)
                    other = predicted(candidate.swaps, worth, cost) - \
                        sign * effects.get(card, 0.0) * swap.count
                    sums[card] = sums.get(card, 0.0) + games * swap.count * sign * (
                        mean - other)
                    weights[card] = weights.get(card, 0.0) + games * swap.count ** 2
            for card, total in sums.items():
                effects[card] = total / (weights[card] + RIDGE_GAMES)
    return worth, cost


def cards_changed(candidate: Candidate) -> int:
    """The copies a candidate changes (a ten-card swap can move the result further)."""
    return sum(swap.count for swap in candidate.swaps)


def effect_spread(candidates: Sequence[Candidate], means: Mapping[str, float],
                  baseline: Sequence[float]) -> float:
    """The variance per card changed of the candidates' true effects around zero, by the
    method of moments: a candidate's squared mean difference less its squared standard
    error, per card changed, averaged (never below LEAST_EFFECT_SPREAD squared)."""
    found = []
    for candidate in candidates:
        n = len(candidate.scores)
        if n < 2:
            continue
        error = spread(differences(candidate, baseline)) ** 2 / n
        found.append((means[candidate.label] ** 2 - error) / cards_changed(candidate))
    if not found:
        return FIRST_EFFECT_SPREAD ** 2
    return max(LEAST_EFFECT_SPREAD ** 2, sum(found) / len(found))


def predicted(swaps: Sequence[Swap], worth: Mapping[str, float],
              cost: Mapping[str, float]) -> float:
    return sum((worth.get(s.into, 0.0) - cost.get(s.out, 0.0)) * s.count for s in swaps)


class Race:
    """The race over a growing pool of candidates against one baseline (the deck's units)."""

    def __init__(self, table: Table, cards: Mapping[str, int],
                 progress: Callable[[Round], None] | None = None) -> None:
        self.table = table
        self.cards = dict(cards)
        self.progress = progress
        self.baseline: list[float] = []
        self.pool: list[Candidate] = []
        self.rounds = 0
        self.worth: dict[str, float] = {}
        self.cost: dict[str, float] = {}
        #: the prior variance of a swap's true effect, per card changed (`effect_spread`)
        self.prior_variance = FIRST_EFFECT_SPREAD ** 2

    # -- what the race knows ----------------------------------------------------------------
    @property
    def alive(self) -> list[Candidate]:
        return [c for c in self.pool if not c.dropped_after]

    def refit(self) -> None:
        self.worth, self.cost = main_effects(self.pool, self.baseline)
        means = {c.label: self.adjusted(c) for c in self.pool if c.scores}
        self.prior_variance = effect_spread(self.pool, means, self.baseline)

    def adjusted(self, candidate: Candidate) -> float:
        """The mean difference corrected by a control variate (the deck's score on the
        candidate's units against all its units: where the deck won more, a change could
        mostly only lose); the slope is shrunk towards PRIOR_SLOPE while units are few."""
        n = len(candidate.scores)
        if n == 0:
            return 0.0
        own = differences(candidate, self.baseline)
        deck = self.baseline[:n]
        mean_deck = sum(deck) / n
        mean_all = sum(self.baseline) / len(self.baseline)
        spread_deck = sum((b - mean_deck) ** 2 for b in deck)
        mean_own = sum(own) / n
        slope_sum = sum((d - mean_own) * (b - mean_deck) for d, b in zip(own, deck,
                                                                           strict=True))
        slope = (slope_sum + SLOPE_UNITS * 0.25 * PRIOR_SLOPE) / (spread_deck
                                                                   + SLOPE_UNITS * 0.25)
        return mean_own - slope * (mean_deck - mean_all)

    def posterior(self, candidate: Candidate) -> tuple[float, float]:
        """The candidate's effect as the race believes it: its own (adjusted) mean difference
        shrunk towards zero by its precision against the prior's (whose variance grows with
        the cards it changes), and the posterior standard deviation."""
        prior = self.prior_variance * cards_changed(candidate)
        n = len(candidate.scores)
        if n == 0:
            return 0.0, math.sqrt(prior)
        error = spread(differences(candidate, self.baseline)) ** 2 / n
        weight = prior / (prior + error)
        return weight * self.adjusted(candidate), math.sqrt(weight * error)

    def blended(self, candidate: Candidate) -> float:
        """The candidate's posterior mean effect (what the rankings use)."""
        return self.posterior(candidate)[0]

    def optimistic(self, candidate: Candidate) -> float:
        """The posterior mean plus its standard deviation times an exploration factor that
        grows slowly (logarithmically) with the units played, as UCB's does: a candidate
        left behind by an unlucky start is looked at again later, never starved for good."""
        mean, deviation = self.posterior(candidate)
        return mean + self.explore() * deviation

    def contenders(self, most: int) -> list[Candidate]:
        """The leader and the challengers the race cannot tell apart from it (a posterior
        mean within CONTENDER_Z posterior deviations of the leader's), best first, at most
        `most`: the finalists worth confirming on fresh seeds."""
        ranked = self.ranked()
        if not ranked:
            return []
        leader = self.blended(ranked[0])
        close = [c for c in ranked[1:] if
                 self.blended(c) + CONTENDER_Z * self.posterior(c)[1] > leader]
        return [ranked[0], *close][:most]

    def explore(self) -> float:
        played = sum(len(c.scores) for c in self.pool)
        return EXPLORE * math.sqrt(math.log(math.e + played / max(1, len(self.pool))))

    def ranked(self) -> list[Candidate]:
        """The candidates still in the race, best estimate first (ties by label)."""
        return sorted(self.alive, key=lambda c: (-self.blended(c), c.label))

    def difference(self, candidate: Candidate) -> Interval:
        n = len(candidate.scores)
        return paired_difference(candidate.scores, self.baseline[:n])

    # -- playing ----------------------------------------------------------------------------
    def _cost(self, targets: Mapping[str, int]) -> int:
        units = sum(max(0, n - len(c.scores)) for c in self.pool for label, n in
                    targets.items() if c.label == label)
        units += max(0, max(targets.values(), default=0) - len(self.baseline))
        return units * self.table.games_per_unit

    def _play(self, targets: Mapping[str, int]) -> None:
        by_label = {c.label: c for c in self.pool}
        want = max(targets.values(), default=0)
        asks = []
        if len(self.baseline) < want:
            asks.append(("deck", self.cards, range(len(self.baseline), want)))
        asks += [(label, by_label[label].cards, range(len(by_label[label].scores), n))
                 for label, n in targets.items() if len(by_label[label].scores) < n]
        if not asks:
            return
        scores = self.table.play(asks)
        self.baseline.extend(scores.pop("deck", []))
        for label, found in scores.items():
            by_label[label].scores.extend(found)

    def enter(self, candidates: Sequence[Candidate], budget: int) -> list[Candidate]:
        """Add candidates to the race with a first few units each (as many as the budget
        allows, at least one); returns those that got their first units."""
        room = budget - self.table.games
        per = self.table.games_per_unit
        first = max(1, min(FIRST_UNITS, room // max(1, (len(candidates) + 1) * per)))
        entered = []
        for candidate in candidates:
            if self.table.games + self._cost({candidate.label: first}) > budget:
                break
            self.pool.append(candidate)
            entered.append(candidate)
        if entered:
            self._play({c.label: first for c in entered})
            self.refit()
            self._report("first look")
        return entered

    def run(self, budget: int, stage: str) -> None:
        """Rounds until the budget (in games) is spent or one candidate is left."""
        while len(self.alive) > 1 or (self.alive and self.table.games < budget):
            self.rounds += 1
            self.refit()
            self._drop()
            targets = self._targets(budget)
            if not targets:
                break
            self._play(targets)
            self._report(stage)

    def _targets(self, budget: int) -> dict[str, int]:
        """This round's units: the leader and the challengers with the highest optimistic
        bound each play STEP_UNITS more, within the budget."""
        ranked = self.ranked()
        if not ranked:
            return {}
        leader = ranked[0]
        challengers = sorted(ranked[1:], key=lambda c: (-self.optimistic(c), c.label))
        targets: dict[str, int] = {}
        for candidate in [leader, *challengers[:CHALLENGERS]]:
            n = len(candidate.scores)
            step = STEP_UNITS
            while step > 0 and self.table.games + self._cost(
                    {**targets, candidate.label: n + step}) > budget:
                step //= 2
            if step:
                targets[candidate.label] = n + step
        return targets

    def _drop(self) -> None:
        """Drop the candidates that the evidence tells apart as worse: than the deck, or than
        the leader (both on paired units, at the corrected level)."""
        z = drop_z(len(self.pool), self.rounds)
        alive = self.alive
        if not alive:
            return
        leader = max(alive, key=lambda c: (self._lower(c, z), c.label))
        for candidate in alive:
            n = len(candidate.scores)
            if n < LEAST_TO_DROP:
                continue
            if paired_difference(candidate.scores, self.baseline[:n], z).high < 0:
                candidate.dropped_after, candidate.dropped_by = n, "the deck"
                continue
            if candidate is leader:
                continue
            m = min(n, len(leader.scores))
            if m >= LEAST_TO_DROP and paired_difference(
                    candidate.scores[:m], leader.scores[:m], z).high < 0:
                candidate.dropped_after, candidate.dropped_by = n, leader.label

    def _lower(self, candidate: Candidate, z: float) -> float:
        n = len(candidate.scores)
        if n < 2:
            return -1.0
        return paired_difference(candidate.scores, self.baseline[:n], z).low

    def _report(self, stage: str) -> None:
        if self.progress is None:
            return
        ranked = self.ranked()
        best = ranked[0] if ranked else None
        self.progress(Round(stage, len(ranked), self.table.games, best,
                            self.difference(best) if best else None))

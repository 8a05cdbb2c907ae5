"""`optimize`: which legal swaps make a deck better, found by paired simulation.

The question a player has is "which swaps would make my deck better?". The answer here:

1. **Candidates.** Every legal single swap near the deck: one copy of a card of the deck out,
   one copy of another card in, from the installed sets (or `sets`), within what the
   collection owns; the validator (Module D) decides what is legal, and a card the engine
   cannot play is never put in.
2. **Racing** (successive halving). Every candidate plays the same seeded games as the deck
   itself (paired: the deck's games are played once and shared by all candidates), a few
   each at first; after each round the candidates clearly worse than the deck (the whole 95%
   interval of the paired difference below zero) are dropped and the better half by mean
   survives, with twice the games in the next round.
3. **Combinations.** The best few single swaps that touch different cards are combined (two
   or three at a time) and raced on the same seeds.
4. **Confirmation.** Picking the best of many estimates inflates it (the winner's curse), so
   the finalists are played again on fresh seeds, which no choice was made on, and only those
   games give the reported difference and its interval.

Results depend on the seed only: the executor and the worker count change nothing (games are
numbered, and every decision reads the results in game order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations as choose
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.games import get_game
from deckbuilder.legality import validate_deck
from deckbuilder.models import Deck
from deckbuilder.sim.aligned import seat_orders
from deckbuilder.sim.runner import (
    DeckItems,
    Executor,
    GameJob,
    GameResult,
    SerialExecutor,
    deck_items,
    run_games,
    switch_items,
)
from deckbuilder.sim.seeds import game_seed
from deckbuilder.sim.stats import Interval, paired_difference

#: Share of the budget kept for the confirmation on fresh seeds.
CONFIRM_SHARE = 0.25
#: Games per candidate in the first round (at least), and the finalists confirmed.
FIRST_ROUND_GAMES = 4
FINALISTS = 3
#: Single swaps combined, at most.
COMBINED = 3
#: Fresh seeds for the confirmation start here (never used by the racing).
CONFIRM_OFFSET = 1_000_000


@dataclass(frozen=True)
class Swap:
    """`count` copies of `out` taken out of the deck, as many of `into` put in."""

    out: str
    into: str
    count: int = 1

    def text(self, catalog: Catalog) -> str:
        copies = f"{self.count}x " if self.count > 1 else ""
        return f"{copies}{_name(catalog, self.out)} -> {copies}{_name(catalog, self.into)}"


@dataclass
class Candidate:
    swaps: tuple[Swap, ...]
    cards: dict[str, int]
    label: str
    scores: list[float] = field(default_factory=list)  # per racing game, in seed order
    confirmed: list[float] = field(default_factory=list)  # per confirmation game
    dropped_after: int = 0  # racing games played when it was dropped (0: never)


@dataclass(frozen=True)
class OptimizeSettings:
    """What the search plays with: the opponent, the bots, the rules, the budget."""

    side: int  # the deck's seat
    opponent: Mapping[str, int]
    bot: str = "greedy"
    opponent_bot: str = "greedy"
    budget: int = 4000
    seed: int = 1
    game: str = "revolver"
    ruleset: str | None = None
    switches: Mapping[str, str] | None = None
    modules: Sequence[str] = ()
    max_turns: int = 200


@dataclass
class Round:
    """Progress after one round: the candidates still in the race, the games so far, the
    current best and its paired difference."""

    stage: str
    alive: int
    games: int
    best: Candidate | None
    best_difference: Interval | None


@dataclass
class OptimizeResult:
    deck: dict[str, int]
    candidates: list[Candidate]  # every candidate considered, singles then combinations
    finalists: list[Candidate]  # best first, by the confirmed difference
    baseline_scores: list[float]
    baseline_confirmed: list[float]
    games: int
    settings: OptimizeSettings

    def difference(self, candidate: Candidate) -> Interval:
        """The confirmed paired difference (candidate minus deck) on fresh seeds."""
        return paired_difference(candidate.confirmed, self.baseline_confirmed)

    @property
    def improved(self) -> bool:
        """Did the best deck found beat the deck on the fresh seeds? Only then is it worth
        proposing: a search always has a best candidate, and when even the best did worse
        than the deck, the advice is to keep the deck."""
        return bool(self.finalists) and self.difference(self.finalists[0]).estimate > 0

    def selection_difference(self, candidate: Candidate) -> Interval:
        n = len(candidate.scores)
        return paired_difference(candidate.scores, self.baseline_scores[:n])


# -- candidates -----------------------------------------------------------------------------
def _name(catalog: Catalog, card_id: str) -> str:
    entry = catalog.find(card_id)
    return entry.record.name if entry is not None else card_id


def _deck_model(template: Deck, cards: Mapping[str, int], sets: Sequence[str] | None) -> Deck:
    return Deck(name=template.name, game=template.game, faction=template.faction,
                sets=list(sets) if sets is not None else template.sets, cards=dict(cards))


def apply_swaps(cards: Mapping[str, int], swaps: Sequence[Swap]) -> dict[str, int] | None:
    """The deck after the swaps, or None when a swap takes out a card no longer there."""
    result = dict(cards)
    for swap in swaps:
        if result.get(swap.out, 0) < swap.count:
            return None
        result[swap.out] -= swap.count
        if result[swap.out] == 0:
            del result[swap.out]
        result[swap.into] = result.get(swap.into, 0) + swap.count
    return result


def _legal(template: Deck, cards: Mapping[str, int], catalog: Catalog,
           sets: Sequence[str] | None, collection: Mapping[str, int] | None) -> bool:
    return validate_deck(_deck_model(template, cards, sets), catalog, collection).is_legal


def candidate_cards(template: Deck, catalog: Catalog, sets: Sequence[str] | None,
                    only_in: Sequence[str] = ()) -> list[str]:
    """The cards that may be put in: the faction's deck cards of the allowed sets that the
    engine plays."""
    game_rules = get_game(template.game).rules
    allowed = set(sets) if sets is not None else None
    found = []
    for entry in catalog.cards():
        record = entry.record
        if entry.game != template.game or getattr(record, "faction", None) != template.faction \
                or not getattr(record, "deckable", False):
            continue
        if allowed is not None and entry.set_id not in allowed:
            continue
        if only_in and entry.id not in only_in:
            continue
        if unimplemented_reasons(record, game_rules.steps):
            continue
        found.append(entry.id)
    return sorted(found)


def single_swaps(template: Deck, cards: Mapping[str, int], catalog: Catalog, *,
                 sets: Sequence[str] | None = None, collection: Mapping[str, int] | None = None,
                 only_out: Sequence[str] = (), only_in: Sequence[str] = ()) -> list[Candidate]:
    """Every legal deck one replacement away (Module D decides), in a stable order: one copy
    of a card for one of another, and all of a card's copies for as many of another."""
    ins = candidate_cards(template, catalog, sets, only_in)
    outs = sorted(card for card in cards if not only_out or card in only_out)
    found: list[Candidate] = []
    for out in outs:
        counts = sorted({1, cards[out]})
        for into in ins:
            if into == out:
                continue
            for count in counts:
                swap = Swap(out, into, count)
                after = apply_swaps(cards, [swap])
                if after is not None and _legal(template, after, catalog, sets, collection):
                    found.append(Candidate((swap,), after, f"c{len(found)}"))
    return found


def combinations(best: Sequence[Candidate], template: Deck, cards: Mapping[str, int],
                 catalog: Catalog, sets: Sequence[str] | None,
                 collection: Mapping[str, int] | None, start: int) -> list[Candidate]:
    """The legal decks two or three of these single swaps make together."""
    singles = [candidate.swaps[0] for candidate in best[:COMBINED]]
    found: list[Candidate] = []
    for size in (2, 3):
        for chosen in choose(singles, size):
            after = apply_swaps(cards, chosen)
            if after is not None and _legal(template, after, catalog, sets, collection):
                found.append(Candidate(tuple(chosen), after, f"c{start + len(found)}"))
    return found


# -- playing --------------------------------------------------------------------------------
def _score(result: GameResult, side: int) -> float:
    """A win is 1, a draw a half, a loss 0 (from the deck's seat)."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == side else 0.0


class _Table:
    """Plays the games the search asks for, counting them against the budget. Every deck is
    laid out along the deck under study (`aligned_order`), so a candidate's game draws what
    the deck's own game on that seed draws until a swapped card comes up: the paired
    difference then measures the swap, not the luck of two different shuffles."""

    def __init__(self, settings: OptimizeSettings, executor: Executor,
                 reference: Mapping[str, int]) -> None:
        self.settings = settings
        self.executor = executor
        self.reference = dict(reference)
        self.games = 0
        self.opponent = deck_items(settings.opponent)
        s = settings  # what every game shares, read once
        self.bots = (s.bot, s.opponent_bot) if s.side == 0 else (s.opponent_bot, s.bot)
        self.switches = switch_items(s.switches)
        self.modules = tuple(sorted(s.modules))

    def play(self, decks: Sequence[tuple[str, Mapping[str, int], range]],
             offset: int = 0) -> dict[str, list[float]]:
        """For each (label, deck, game indices): the scores, in index order."""
        s = self.settings
        jobs: list[GameJob] = []
        for label, cards, indices in decks:
            items: DeckItems = deck_items(cards)
            pair = (items, self.opponent) if s.side == 0 else (self.opponent, items)
            orders = seat_orders(cards, self.reference, s.side)
            jobs.extend(GameJob(index=index, seed=game_seed(s.seed, offset + index),
                                decks=pair, bots=self.bots, label=label, ruleset=s.ruleset,
                                game=s.game, max_turns=s.max_turns, switches=self.switches,
                                modules=self.modules, orders=orders)
                        for index in indices)
        self.games += len(jobs)
        scores: dict[str, list[float]] = {label: [] for label, _, _ in decks}
        for result in run_games(jobs, self.executor):
            scores[result.label].append(_score(result, s.side))
        return scores


def _race(candidates: list[Candidate], baseline: list[float], cards: Mapping[str, int],
          table: _Table, budget: int, stage: str,
          progress: Callable[[Round], None] | None) -> list[Candidate]:
    """Successive halving on shared seeds; returns the survivors, best first. The first round
    plays as many games each (at most FIRST_ROUND_GAMES, at least one) as the budget allows."""
    alive = list(candidates)
    room = max(0, budget - table.games)
    n = max(1, min(FIRST_ROUND_GAMES, room // (len(alive) + 1)))
    n = max(n, len(candidates[0].scores) if candidates else 0)
    while alive:
        need = sum(max(0, n - len(c.scores)) for c in alive) + max(0, n - len(baseline))
        if table.games + need > budget and any(c.scores for c in alive):
            break  # no budget for another round: the survivors stand as they are
        asks: list[tuple[str, Mapping[str, int], range]] = []
        if len(baseline) < n:
            asks.append(("deck", cards, range(len(baseline), n)))
        asks.extend((c.label, c.cards, range(len(c.scores), n)) for c in alive
                    if len(c.scores) < n)
        scores = table.play(asks)
        baseline.extend(scores.pop("deck", []))
        for candidate in alive:
            candidate.scores.extend(scores.get(candidate.label, []))
        prior = _main_effects(alive, baseline)
        ranked = sorted(alive, key=lambda c: (-_optimistic(c, baseline, prior), c.label))
        kept = []
        for candidate in ranked:
            interval = paired_difference(candidate.scores, baseline[:len(candidate.scores)])
            if interval.high < 0:
                candidate.dropped_after = len(candidate.scores)
            else:
                kept.append(candidate)
        half = max(FINALISTS, math.ceil(len(ranked) / 2))
        for candidate in kept[half:]:
            candidate.dropped_after = len(candidate.scores)
        alive = kept[:half]
        if progress is not None:
            best = alive[0] if alive else None
            progress(Round(stage, len(alive), table.games, best, paired_difference(
                best.scores, baseline[:len(best.scores)]) if best else None))
        if len(alive) <= FINALISTS:
            break
        n *= 2
    prior = _main_effects(alive, baseline)
    return sorted(alive, key=lambda c: (-_blended(c, baseline, prior), c.label))


#: How many games' weight the main-effects prediction has against a candidate's own games.
PRIOR_GAMES = 16
#: Ridge weight (in games) pulling every card's effect towards zero.
RIDGE_GAMES = 8


def _main_effects(candidates: Sequence[Candidate],
                  baseline: Sequence[float]) -> dict[tuple[Swap, ...], float]:
    """Each candidate's difference as the model "what goes in is worth a, what comes out
    costs b" predicts it, fitted to every candidate's games at once (ridge least squares by
    backfitting). A swap shares its card going out with many others and its card going in
    with many more, so the model pools their games: the race keeps the promising swaps even
    while each has played only a few games. Only the ranking uses it; the reported
    difference comes from the confirmation games alone."""
    data = [(c, len(c.scores), _mean_difference(c, baseline)) for c in candidates
            if c.scores]
    worth: dict[str, float] = {}
    cost: dict[str, float] = {}
    for _ in range(8):
        for effects, key, sign in ((worth, "into", 1.0), (cost, "out", -1.0)):
            sums: dict[str, float] = {}
            weights: dict[str, float] = {}
            for candidate, games, mean in data:
                for swap in candidate.swaps:
                    card = getattr(swap, key)
                    other = _predicted(candidate, worth, cost) - \
                        sign * effects.get(card, 0.0) * swap.count
                    # per copy: the residual over the swap's copies, weighted by them
                    sums[card] = sums.get(card, 0.0) + games * swap.count * sign * (
                        mean - other)
                    weights[card] = weights.get(card, 0.0) + games * swap.count ** 2
            for card, total in sums.items():
                effects[card] = total / (weights[card] + RIDGE_GAMES)
    return {c.swaps: _predicted(c, worth, cost) for c in candidates}


def _predicted(candidate: Candidate, worth: Mapping[str, float],
               cost: Mapping[str, float]) -> float:
    return sum((worth.get(s.into, 0.0) - cost.get(s.out, 0.0)) * s.count
               for s in candidate.swaps)


def _blended(candidate: Candidate, baseline: Sequence[float],
             prior: Mapping[tuple[Swap, ...], float]) -> float:
    """The candidate's own mean difference, pulled towards the model's prediction while it
    has played few games (PRIOR_GAMES is the prediction's weight in games)."""
    n = len(candidate.scores)
    own = _mean_difference(candidate, baseline) * n
    return (own + PRIOR_GAMES * prior.get(candidate.swaps, 0.0)) / (n + PRIOR_GAMES)


#: How far above its estimate a candidate's ranking in the race reaches, in standard
#: errors of its paired difference.
OPTIMISM = 1.0
#: The least spread of one paired difference the race assumes (a few games all alike do
#: not prove a candidate certain).
LEAST_SPREAD = 0.3


def _optimistic(candidate: Candidate, baseline: Sequence[float],
                prior: Mapping[tuple[Swap, ...], float]) -> float:
    """The ranking that decides which half of the race goes on: the blended estimate plus
    OPTIMISM standard errors. A swap of all copies of a card changes the games more than a
    swap of one copy, so after a few games its estimate is the noisier; ranked by the
    estimate alone, a strong swap with an unlucky start was cut as often as kept. Reaching
    up by its own uncertainty keeps it racing until its games have spoken."""
    n = len(candidate.scores)
    if n < 2:
        return _blended(candidate, baseline, prior) + OPTIMISM * LEAST_SPREAD
    differences = [a - b for a, b in zip(candidate.scores, baseline[:n], strict=True)]
    mean = sum(differences) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    spread = spread if spread > LEAST_SPREAD else LEAST_SPREAD
    return _blended(candidate, baseline, prior) + OPTIMISM * spread / math.sqrt(n)


def _mean_difference(candidate: Candidate, baseline: Sequence[float]) -> float:
    n = len(candidate.scores)
    return (sum(candidate.scores) - sum(baseline[:n])) / n if n else 0.0


def optimize(deck: Deck, catalog: Catalog, settings: OptimizeSettings, *,
             sets: Sequence[str] | None = None, collection: Mapping[str, int] | None = None,
             only_out: Sequence[str] = (), only_in: Sequence[str] = (),
             executor: Executor | None = None,
             progress: Callable[[Round], None] | None = None) -> OptimizeResult:
    """Search the legal decks near `deck` (its cards resolved to ids) for better ones."""
    cards = {_resolve(catalog, card, deck.game): count for card, count in deck.cards.items()}
    table = _Table(settings, executor or SerialExecutor(), cards)
    confirm_budget = int(settings.budget * CONFIRM_SHARE)
    race_budget = settings.budget - confirm_budget
    singles = single_swaps(deck, cards, catalog, sets=sets, collection=collection,
                           only_out=only_out, only_in=only_in)
    if len(singles) + 1 > race_budget:  # not one game each: race a seeded sample of them
        singles = _sample(singles, max(1, race_budget - 1), settings.seed)
    baseline: list[float] = []
    considered = list(singles)
    survivors = _race(singles, baseline, cards, table, race_budget, "single swaps", progress) \
        if singles else []
    prior = _main_effects(survivors, baseline)
    promising = [c for c in survivors if _blended(c, baseline, prior) > 0]
    combos = combinations(_distinct_outs(promising), deck, cards, catalog, sets, collection,
                          len(considered)) if len(promising) > 1 else []
    if combos and table.games + len(combos) * FIRST_ROUND_GAMES > race_budget:
        combos = []  # no budget left for even a first round of them
    if combos:
        considered.extend(combos)
        raced = _race(combos, baseline, cards, table, race_budget, "combinations", progress)
        both = [*survivors, *raced]
        prior = _main_effects(both, baseline)
        survivors = sorted(both, key=lambda c: (-_blended(c, baseline, prior), c.label))
    finalists = survivors[:FINALISTS]
    confirmed_baseline: list[float] = []
    if finalists:
        per_deck = max(1, (settings.budget - table.games) // (len(finalists) + 1))
        asks = [("deck", cards, range(per_deck)),
                *((c.label, c.cards, range(per_deck)) for c in finalists)]
        scores = table.play(asks, offset=CONFIRM_OFFSET)
        confirmed_baseline = scores["deck"]
        for candidate in finalists:
            candidate.confirmed = scores[candidate.label]
    result = OptimizeResult(cards, considered, finalists, baseline, confirmed_baseline,
                            table.games, settings)
    result.finalists.sort(key=lambda c: (-result.difference(c).estimate, c.label))
    if progress is not None and result.finalists:
        best = result.finalists[0]
        progress(Round("confirmed on fresh seeds", len(result.finalists), table.games, best,
                       result.difference(best)))
    return result


def _sample(candidates: list[Candidate], size: int, seed: int) -> list[Candidate]:
    """A reproducible sample of the candidates, in their own order (the seed decides)."""
    import random

    chosen = sorted(random.Random(seed).sample(range(len(candidates)), size))
    return [candidates[index] for index in chosen]


def _distinct_outs(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The best single swaps, one per card taken out (two swaps of one card are one idea)."""
    seen: set[str] = set()
    chosen = []
    for candidate in candidates:
        out = candidate.swaps[0].out
        if out not in seen:
            seen.add(out)
            chosen.append(candidate)
    return chosen


def _resolve(catalog: Catalog, card: str, game: str) -> str:
    entry = catalog.find(card, game)
    return entry.id if entry is not None else card


def _swaps_json(candidate: Candidate, catalog: Catalog) -> list[dict[str, Any]]:
    return [{"out": s.out, "in": s.into, "count": s.count, "text": s.text(catalog)}
            for s in candidate.swaps]


def report_json(result: OptimizeResult, catalog: Catalog) -> dict[str, Any]:
    """The result for machines: every finalist with its confirmed difference (and its
    verdict in words), and every candidate that raced with the games it played."""
    from deckbuilder.sim.report import verdict

    settings = result.settings
    return {
        "games": result.games,
        "budget": settings.budget,
        "seed": settings.seed,
        "game": settings.game,
        "bot": settings.bot,
        "opponent_bot": settings.opponent_bot,
        "confirmation_games": len(result.baseline_confirmed),
        "candidates": len(result.candidates),
        "improved": result.improved,
        "selection": ("racing on shared seeds; the finalists are re-played on fresh seeds "
                      "and only those games give the difference reported"),
        "finalists": [
            {"swaps": _swaps_json(candidate, catalog),
             "difference": result.difference(candidate).as_dict(),
             "confirmation_games": len(candidate.confirmed),
             "selection_difference": result.selection_difference(candidate).as_dict(),
             "selection_games": len(candidate.scores),
             "verdict": verdict("the deck with " + "; ".join(
                 s.text(catalog) for s in candidate.swaps), "the deck",
                 result.difference(candidate).as_dict())}
            for candidate in result.finalists],
        "race": [
            {"label": candidate.label, "swaps": _swaps_json(candidate, catalog),
             "games": len(candidate.scores), "dropped_after": candidate.dropped_after,
             "difference": result.selection_difference(candidate).as_dict()}
            for candidate in result.candidates if candidate.scores],
    }

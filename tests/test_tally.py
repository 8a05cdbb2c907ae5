"""`simulate` keeps running statistics, not every game (deckbuilder/sim/runs/tally.py): the reports
read the same numbers as from the games themselves, in any arrival order, and the memory a run
holds does not grow with its games."""

from __future__ import annotations

import gc
import itertools
import math
import random
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import pytest
import toy_game as toy

from deckbuilder.sim import Contestant, SerialExecutor, build_report, simulate
from deckbuilder.sim.runs.batch import ResultsNotKept, SimulationConfig, iter_specs
from deckbuilder.sim.runs.runner import GameResult, ProcessExecutor
from deckbuilder.sim.runs.stats import Summary, paired_difference, proportion
from deckbuilder.sim.runs.tally import PairedTally, RunTally, checkpoints, summarize_counts

T = TypeVar("T")
R = TypeVar("R")
PLAYERS = toy.PLAYER_NAMES["toy"]
SLOW_DECK = {"step-1": 8, "guard": 6, "double": 6}


def summarize(values: Sequence[float]) -> Summary:
    """The sample's summary computed from the sample itself: the oracle of `summarize_counts`."""
    if not values:
        return Summary(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    ordered = sorted(values)
    count = len(ordered)

    def rank(fraction: float) -> float:
        return float(ordered[min(count - 1, max(0, math.ceil(fraction * count) - 1))])

    middle = count // 2
    median = ordered[middle] if count % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return Summary(sum(ordered) / count, float(median), float(ordered[0]), float(ordered[-1]),
                   rank(0.10), rank(0.90))


class ShuffledExecutor:
    """Results in a random order, as a distributed executor may give them."""

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        results = [fn(item) for item in items]
        random.Random(3).shuffle(results)
        return iter(results)


def run_toy(games: int, **options: Any) -> Any:
    deck = options.pop("deck", Contestant("racer", toy.TOY_DECK, "greedy"))
    opponent = options.pop("opponent", Contestant("rival", toy.TOY_DECK, "random"))
    return simulate(deck, opponent, side=options.pop("side", 0), games=games,
                    seed=options.pop("seed", 5), new_game=toy.new_game,
                    evaluate=toy.evaluate, game="toy", ruleset="toy", **options)


# -- the reference: every section computed from the games themselves ---------------------------
# (the computation the reports made before the tally, over `keep_results=True`'s games)
def reference_sections(run: Any) -> dict[str, Any]:
    config, results = run.config, run.results
    seat, count = config.side, len(run.results)

    def cards(side: int, deck: dict[str, int]) -> list[dict[str, Any]]:
        total = count or 1
        all_wins = sum(1 for r in results if r.winner == side)
        ids = sorted(set(deck) | {c for r in results for c in (*r.drawn[side], *r.played[side])})
        rows = []
        for card in ids:
            played_in = [r for r in results if r.played[side].get(card, 0)]
            wins_played = sum(1 for r in played_in if r.winner == side)
            not_played = count - len(played_in)
            rows.append({
                "id": card, "name": card, "faction": PLAYERS[side], "seat": side,
                "copies": deck.get(card, 0),
                "drawn_per_game": sum(r.drawn[side].get(card, 0) for r in results) / total,
                "played_per_game": sum(r.played[side].get(card, 0) for r in results) / total,
                "games_played": len(played_in), "wins_when_played": wins_played,
                "win_rate_when_played": wins_played / len(played_in) if played_in else None,
                "win_rate_when_not_played":
                    (all_wins - wins_played) / not_played if not_played else None,
                "when_played": proportion(wins_played, len(played_in)).as_dict()
                if played_in else None,
                "games_not_played": not_played,
                "wins_when_not_played": all_wins - wins_played,
                "when_not_played": proportion(all_wins - wins_played, not_played).as_dict()
                if not_played else None,
            })
        rows.sort(key=lambda row: (-row["played_per_game"], row["id"]))
        return rows

    terminations: Counter[str] = Counter()
    winners: dict[str, Counter[str]] = {}
    for r in results:
        terminations[r.termination] += 1
        name = "draw" if r.winner is None else PLAYERS[r.winner]
        winners.setdefault(r.termination, Counter())[name] += 1
    wins = list(itertools.accumulate(1 if r.winner == seat else 0 for r in results))
    return {
        "sides": [sum(1 for r in results if r.winner == s) for s in (0, 1)],
        "draws": sum(1 for r in results if r.winner is None),
        "endings": [{"termination": name, "games": n, "share": n / (count or 1),
                     "winners": dict(sorted(winners[name].items()))}
                    for name, n in terminations.most_common()],
        "length": {"turns": summarize([r.turns for r in results]).as_dict(),
                   "decisions": summarize([r.decisions for r in results]).as_dict(),
                   "turn_counts": [[t, n] for t, n in
                                   sorted(Counter(r.turns for r in results).items())]},
        "progress": [{"games": n, "wins": wins[n - 1], **proportion(wins[n - 1], n).as_dict()}
                     for n in checkpoints(count)],
        "cards": (cards(seat, dict(config.deck.cards)),
                  cards(1 - seat, dict(config.opponent.cards))),
    }


def test_every_section_is_the_one_the_games_give_whatever_the_arrival_order() -> None:
    for executor in (SerialExecutor(), ShuffledExecutor(),
                     ProcessExecutor(workers=2, chunk_size=7)):
        run = run_toy(games=90, side=1, executor=executor, keep_results=True)
        report, reference = build_report(run, PLAYERS), reference_sections(run)
        assert [side["wins"] for side in report["sides"]] == reference["sides"]
        assert report["draws"]["games"] == reference["draws"]
        assert report["endings"] == reference["endings"]
        assert report["length"] == reference["length"]
        assert report["progress"] == reference["progress"]
        assert (report["cards"]["deck"], report["cards"]["opponent"]) == reference["cards"]
        assert report["games"] == 90


def test_the_baseline_figures_are_the_paired_games_figures() -> None:
    run = run_toy(games=80, deck=Contestant("short", SLOW_DECK, "greedy"),
                  baseline=Contestant("full", toy.TOY_DECK, "greedy"),
                  executor=ShuffledExecutor(), keep_results=True)
    baseline = build_report(run, PLAYERS)["baseline"]
    deck = [1.0 if r.winner == 0 else 0.0 for r in run.results]
    base = [1.0 if r.winner == 0 else 0.0 for r in run.baseline_results]
    expected = paired_difference(deck, base)
    assert baseline["difference"]["estimate"] == expected.estimate
    assert baseline["difference"]["low"] == pytest.approx(expected.low, rel=1e-12)
    assert baseline["difference"]["high"] == pytest.approx(expected.high, rel=1e-12)
    assert baseline["wins"] == int(sum(base))
    assert baseline["games_with_different_winner"] == sum(
        a.winner != b.winner for a, b in zip(run.results, run.baseline_results, strict=True))
    last = baseline["progress"][-1]
    assert last["games"] == 80 and last["estimate"] == expected.estimate
    assert baseline["difference"]["high"] < 0  # the short-stepping deck is the worse racer


@pytest.mark.parametrize("pairs", [0, 1, 2, 7, 50, 333])
def test_the_exact_variance_agrees_with_the_two_pass_one(pairs: int) -> None:
    rng = random.Random(pairs)
    tally = PairedTally(side=0, games=pairs)
    deck, base = [], []
    for _ in range(pairs):
        a, b = rng.choice([0, 1, None]), rng.choice([0, 1, None])
        tally.add(a, b)
        deck.append(1.0 if a == 0 else 0.0)
        base.append(1.0 if b == 0 else 0.0)
    mine, theirs = tally.difference(), paired_difference(deck, base)
    assert mine.estimate == theirs.estimate
    assert mine.low == pytest.approx(theirs.low, rel=1e-12, abs=1e-15)
    assert mine.high == pytest.approx(theirs.high, rel=1e-12, abs=1e-15)
    # identical decks: the interval is exactly the point zero
    same = PairedTally(side=0, games=3)
    for winner in (0, 1, None):
        same.add(winner, winner)
    assert same.difference().as_dict() == {"estimate": 0.0, "low": 0.0, "high": 0.0}


@pytest.mark.parametrize("seed", range(12))
def test_a_histogram_summarizes_as_its_sample_does(seed: int) -> None:
    rng = random.Random(seed)
    sample = [rng.randint(1, 40) for _ in range(rng.randint(1, 60))]
    assert summarize_counts(Counter(sample)) == summarize(sample)
    assert summarize_counts(Counter()) == summarize([])


def test_pairs_are_played_side_by_side() -> None:
    """The baseline's game on a seed follows the deck's at once: the tally pairs them as they
    come instead of holding every deck game until the baseline's begin."""
    config = SimulationConfig(Contestant("a", toy.TOY_DECK), Contestant("b", toy.TOY_DECK), 0,
                              4, 1, baseline=Contestant("c", SLOW_DECK), game="toy")
    jobs = [(job.label, job.index) for job in iter_specs(config, toy.new_game, toy.evaluate)]
    assert jobs == [(label, index) for index in range(4) for label in ("deck", "baseline")]


def test_a_run_without_kept_games_says_how_to_keep_them() -> None:
    run = run_toy(games=5)
    with pytest.raises(ResultsNotKept, match="keep_results=True"):
        _ = run.results
    assert run.tally.deck.count == 5 and run.tally.waiting == 0


def _reachable(root: object) -> Iterator[object]:
    seen, stack = {id(root)}, [root]
    while stack:
        item = stack.pop()
        yield item
        for child in gc.get_referents(item):
            if id(child) not in seen and not isinstance(child, type):
                seen.add(id(child))
                stack.append(child)


def test_a_finished_run_holds_no_game() -> None:
    run = run_toy(games=40, baseline=Contestant("same", toy.TOY_DECK, "greedy"))
    assert not [item for item in _reachable(run) if isinstance(item, GameResult)]
    kept = run_toy(games=40, keep_results=True)
    assert sum(isinstance(item, GameResult) for item in _reachable(kept)) == 40


def _fake_games(count: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """Revolver-like outcomes (winner, ending, turns, decisions, drawn, played) to deal from."""
    cards = [f"card-{k}" for k in range(30)]
    return [(rng.choice([0, 1, None]), rng.choice(["killed", "turn_cap", "escaped"]),
             rng.randint(5, 40), rng.randint(200, 400),
             tuple({c: rng.randint(1, 3) for c in rng.sample(cards, 20)} for _ in (0, 1)),
             tuple({c: rng.randint(1, 2) for c in rng.sample(cards, 12)} for _ in (0, 1)))
            for _ in range(count)]


def _held_by_tally(games: int) -> int:
    """Bytes a tally fed `games` paired results (some arriving late) still holds."""
    rng = random.Random(games)
    outcomes = _fake_games(64, rng)
    gc.collect()
    tracemalloc.start()
    try:
        tally = RunTally(side=0, games=games, paired=True)
        before = tracemalloc.get_traced_memory()[0]
        late: list[GameResult] = []
        for index in range(games):
            for label in ("deck", "baseline"):
                result = GameResult(index, index, label, *rng.choice(outcomes))
                if index % 50 < 3:
                    late.append(result)  # an executor giving these back a little later
                else:
                    tally.add(result)
            if index % 50 == 10:
                for result in late:
                    tally.add(result)
                late.clear()
        for result in late:
            tally.add(result)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert tally.deck.count == games and tally.paired is not None
    assert tally.paired.count == games and tally.waiting == 0
    return held


def test_a_tally_holds_flat_memory_whatever_its_games() -> None:
    """A kept game costs ~2.5 KB in Revolver (9,000 more pairs: ~45 MB); ten times the games
    must hold no more than a few tens of kilobytes more (counts past the small-int cache,
    dicts that grew for early results)."""
    small, large = _held_by_tally(1_000), _held_by_tally(10_000)
    assert large - small < 40_000, (small, large)


def test_checkpoints_end_at_the_count() -> None:
    assert checkpoints(0) == []
    assert checkpoints(5) == [1, 2, 3, 4, 5]
    marks = checkpoints(10_000)
    assert len(marks) == 60 and marks[-1] == 10_000

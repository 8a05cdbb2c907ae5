"""A bot against another (greedy unless --against) from each seat: its wins and the CPU time
of both sides' decisions.

    python benchmarks/search_cost.py --game revolver2 --seat 0 --games 400 --seed 1001
    python benchmarks/search_cost.py --game revolver --bot search:rollouts=21 --against search

Game `s` (for s from --seed on) is `new_game(base decks, s)` with `random.Random(s)` for the
bots. Prints, for each seat asked (both unless --seat) and over both, the bot's wins with a
Wilson 95% interval and how the games ended; then the CPU time (`time.process_time`) of its
`choose` calls over their number, split by kind: forced (one legal action), main (the play
phase) and small (any other decision: a cost, a target, a casualty, staying or moving on);
and the CPU time of each side's decisions a game. Run it with the compiled build's Python
(from outside the checkout) for the compiled figure; the decisions are the same in both
builds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import cache, partial

from deckbuilder.bots import is_mid_move, make_bot
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.games import get_game, new_game
from deckbuilder.sim.runs.runner import prime_catalog
from deckbuilder.sim.runs.stats import wilson_interval

KINDS = ("forced", "main", "small")


@cache
def _table(game: str) -> tuple[Catalog, list[dict[str, int]]]:
    """The catalog (kept out of the garbage collector's reach) and the game's base decks."""
    catalog = build_catalog()
    prime_catalog(catalog)
    return catalog, [catalog.base_deck(game, side) for side in get_game(game).side_names]


Result = tuple[bool, str, dict[str, float], Counter[str], float]


def play(game: str, seat: int, spec: str, against: str, seed: int) -> Result:
    """One game: (the bot won, how it ended, its CPU seconds and decisions by kind, the CPU
    seconds of the other side's decisions)."""
    catalog, decks = _table(game)
    heuristics = get_game(game).heuristics
    state = new_game(decks, seed, catalog=catalog)
    rng = random.Random(seed)
    bots = [make_bot(against, heuristics), make_bot(against, heuristics)]
    bots[seat] = make_bot(spec, heuristics)
    seconds = dict.fromkeys(KINDS, 0.0)
    counts: Counter[str] = Counter()
    other = 0.0
    while not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()
        kind = "forced" if len(actions) == 1 else "small" if is_mid_move(state) else "main"
        started = time.process_time()
        action = bots[player].choose(state, rng)
        spent = time.process_time() - started
        if player == seat:
            seconds[kind] += spent
            counts[kind] += 1
        else:
            other += spent
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner == seat, outcome.termination.value, seconds, counts, other


def wins_line(results: list[Result]) -> str:
    """The bot's wins with their interval, and how the games ended."""
    wins = sum(1 for result in results if result[0])
    low, high = wilson_interval(wins, len(results))
    endings = Counter(result[1] for result in results)
    return (f"won {wins}/{len(results)} = {100 * wins / len(results):.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]; "
            + ", ".join(f"{name} {count}" for name, count in endings.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="revolver", choices=["revolver", "revolver2"])
    parser.add_argument("--seat", type=int, choices=[0, 1], help="one seat (default: both)")
    parser.add_argument("--bot", default="search")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=30, help="games a seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args()
    seeds = range(options.seed, options.seed + options.games)
    seats = [options.seat] if options.seat is not None else [0, 1]
    tasks = [(seat, seed) for seat in seats for seed in seeds]
    one = partial(_task, options.game, options.bot, options.against)
    if options.workers > 1:
        with ProcessPoolExecutor(options.workers) as pool:
            results = list(pool.map(one, tasks, chunksize=4))
    else:
        results = [one(task) for task in tasks]
    print(f"{options.game}: {options.bot} against {options.against}, seeds "
          f"{seeds.start}-{seeds.stop - 1}")
    for index, seat in enumerate(seats):
        print(f"  seat {seat}: " + wins_line(results[index * len(seeds):(index + 1) * len(seeds)]))
    if len(seats) > 1:
        print("  both seats: " + wins_line(results))
    seconds = {kind: sum(result[2][kind] for result in results) for kind in KINDS}
    counts = {kind: sum(result[3][kind] for result in results) for kind in KINDS}
    decisions = sum(counts.values())
    print(f"  {1000 * sum(seconds.values()) / max(1, decisions):.3f} ms CPU a decision over "
          f"{decisions}: " + "; ".join(
              f"{kind} {counts[kind]} x {1000 * seconds[kind] / max(1, counts[kind]):.3f} ms"
              for kind in KINDS))
    print(f"  CPU a game: {options.bot} {1000 * sum(seconds.values()) / len(results):.2f} ms, "
          f"{options.against} {1000 * sum(result[4] for result in results) / len(results):.2f}"
          " ms")


def _task(game: str, spec: str, against: str, task: tuple[int, int]) -> Result:
    return play(game, task[0], spec, against, task[1])


if __name__ == "__main__":
    main()

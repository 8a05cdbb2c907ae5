"""Engine throughput: random vs random games on the base decks, on one core.

    python benchmarks/engine_random.py [--games 2000] [--seed 0] [--profile]

Prints games/s and decisions/s (a decision = one `apply`); the random policy's own cost
(one `legal_actions()` + one `randrange`) is included, as in any real simulation. Rates are
given per CPU second of this process (fair on a shared machine) and per wall second.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from deckbuilder.catalog import default_catalog
from deckbuilder.games import new_game


def run(games: int, seed: int) -> tuple[int, int, float, float]:
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    new_game(decks, seed=0, catalog=catalog)  # compile the catalog and the spec outside the clock
    decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for game in range(games):
        state = new_game(decks, seed=seed + game, catalog=catalog)
        rng = random.Random(seed + game)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            decisions += 1
    return games, decisions, time.process_time() - cpu_start, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(args.games, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    games, decisions, cpu, wall = run(args.games, args.seed)
    print(f"{games} games, {decisions} decisions: {cpu:.2f} s CPU, {wall:.2f} s wall")
    print(f"games/s:     {games / cpu:,.0f} (CPU)   {games / wall:,.0f} (wall)")
    print(f"decisions/s: {decisions / cpu:,.0f} (CPU)   {decisions / wall:,.0f} (wall)")
    print(f"decisions/game: {decisions / games:.1f}")


if __name__ == "__main__":
    main()

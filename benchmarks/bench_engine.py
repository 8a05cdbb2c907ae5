"""Throughput of the engine, the bots and the batch runner: prints figures, asserts nothing.

    python benchmarks/bench_engine.py            # the full set (about two minutes)
    python benchmarks/bench_engine.py --quick    # smaller samples, same figures

Figures: catalog load and new_game time; random-vs-random games/s and decisions/s on one core;
greedy-vs-greedy games/s on one core (the scoring greedy, and the play-out greedy for
comparison); the search bot's time per decision; and a batch of greedy-vs-greedy games with 2
worker processes (target: 10,000 games in under 60 s; `--quick` plays 2,000).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

from deckbuilder.bots import make_bot
from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game, new_game
from deckbuilder.sim import Contestant, play_one, simulate
from deckbuilder.sim.runs.runner import GameJob, deck_items, prime_catalog
from deckbuilder.sim.runs.seeds import game_seed


def timed(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def games_per_second(decks: tuple, bot: str, games: int) -> tuple[float, float]:
    """(games/s, decisions/s) for `games` serial games of `bot` against itself."""
    decisions = 0
    started = time.perf_counter()
    for index in range(games):
        spec = GameJob(index=index, seed=game_seed(1, index), decks=decks, bots=(bot, bot))
        decisions += play_one(spec).decisions
    elapsed = time.perf_counter() - started
    return games / elapsed, decisions / elapsed


def search_time_per_decision(catalog, decks: list[dict[str, int]], spec: str,
                             decisions: int) -> float:
    """Mean seconds per search decision, sampled along greedy games (only real choices)."""
    heuristics = get_game("revolver").heuristics
    search, greedy = make_bot(spec, heuristics), make_bot("greedy", heuristics)
    rng = random.Random(0)
    spent, counted, seed = 0.0, 0, 0
    while counted < decisions:
        state = new_game(decks, seed, catalog=catalog)
        seed += 1
        while not state.is_terminal() and counted < decisions:
            if len(state.legal_actions()) > 1:
                started = time.perf_counter()
                search.choose(state, rng)
                spent += time.perf_counter() - started
                counted += 1
            state.apply(greedy.choose(state, rng))
    return spent / counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--batch", type=int, default=None, help="games in the 2-worker batch")
    parser.add_argument("--search", default="search", help="search bot spec to time")
    options = parser.parse_args()
    scale = 0.1 if options.quick else 1.0
    batch = options.batch or (2000 if options.quick else 10_000)

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores visible")
    catalog_seconds = timed(build_catalog)
    catalog = build_catalog()
    prime_catalog(catalog)
    colty = catalog.base_deck("revolver", "colty")
    mcready = catalog.base_deck("revolver", "mcready")
    decks = [colty, mcready]
    print(f"catalog load: {catalog_seconds * 1000:.0f} ms")
    count = 200
    seconds = timed(lambda: [new_game(decks, seed, catalog=catalog) for seed in range(count)])
    print(f"new_game: {seconds / count * 1e6:.0f} us per game (base decks)")

    items = (deck_items(colty), deck_items(mcready))
    rate, decisions = games_per_second(items, "random", max(20, int(2000 * scale)))
    print(f"random vs random, one core: {rate:.0f} games/s, {decisions:,.0f} decisions/s")
    rate, decisions = games_per_second(items, "greedy", max(100, int(1000 * scale)))
    print(f"greedy vs greedy, one core: {rate:.1f} games/s, {decisions:,.0f} decisions/s")
    playout = "greedy:judge=playout"
    rate, decisions = games_per_second(items, playout, max(10, int(300 * scale)))
    print(f"{playout} vs itself, one core: {rate:.1f} games/s, {decisions:,.0f} decisions/s")
    per_decision = search_time_per_decision(catalog, decks, options.search,
                                            max(5, int(100 * scale)))
    name = make_bot(options.search, get_game("revolver").heuristics).name
    print(f"{name}: {per_decision * 1000:.1f} ms per decision "
          "(decisions with more than one legal action)")

    started = time.perf_counter()
    run = simulate(Contestant("colty base", colty), Contestant("mcready base", mcready),
                   side=0, games=batch, seed=1, workers=2, keep_results=True)
    wall = time.perf_counter() - started
    print(f"{batch:,} greedy vs greedy games, 2 workers: {wall:.1f} s wall "
          f"({batch / wall:.0f} games/s; target 10,000 in < 60 s)")
    colty_wins = sum(1 for result in run.results if result.winner == 0)
    print(f"  (colty won {colty_wins} of {batch})")


if __name__ == "__main__":
    main()

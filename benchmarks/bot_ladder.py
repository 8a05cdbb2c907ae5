"""The bot ladder on Revolver's base decks: every pair of bots, from each side.

    python benchmarks/bot_ladder.py --games 200 --workers 2
    python benchmarks/bot_ladder.py --bots random greedy search:rollouts=50 --games 100

Prints a table: Colty's bot, McReady's bot, Colty's win rate with a Wilson 95% interval, and
draws. A bot is stronger than another when it wins more from *both* sides than the other does
in the same seat against the same opponent. Results measure bots and base decks together.
"""

from __future__ import annotations

import argparse
import time

from deckbuilder.catalog import build_catalog
from deckbuilder.sim import Contestant, simulate
from deckbuilder.sim.runner import prime_catalog
from deckbuilder.sim.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy", "search"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", default="rulebook-en")
    options = parser.parse_args()

    catalog = build_catalog()
    prime_catalog(catalog)
    colty = catalog.base_deck("revolver", "colty")
    mcready = catalog.base_deck("revolver", "mcready")
    print(f"{options.games} games per cell, seed {options.seed}, ruleset {options.ruleset}")
    print(f"{'colty bot':<28} {'mcready bot':<28} {'colty wins [95% CI]':<26} "
          f"{'mcready wins':>12} {'draws':>6} {'s':>6}")
    for colty_bot in options.bots:
        for mcready_bot in options.bots:
            started = time.perf_counter()
            run = simulate(Contestant("colty base", colty, colty_bot),
                           Contestant("mcready base", mcready, mcready_bot),
                           side=0, games=options.games, seed=options.seed,
                           workers=options.workers, ruleset=options.ruleset)
            seconds = time.perf_counter() - started
            games = len(run.results)
            colty_wins = sum(1 for result in run.results if result.winner == 0)
            mcready_wins = sum(1 for result in run.results if result.winner == 1)
            draws = games - colty_wins - mcready_wins
            low, high = wilson_interval(colty_wins, games)
            cell = f"{100 * colty_wins / games:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"
            print(f"{colty_bot:<28} {mcready_bot:<28} {cell:<26} "
                  f"{100 * mcready_wins / games:11.1f}% {draws:>6} {seconds:6.1f}", flush=True)


if __name__ == "__main__":
    main()

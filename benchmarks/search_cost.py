"""A bot against greedy from one seat: its wins and the CPU time of its own decisions.

    python benchmarks/search_cost.py --game revolver2 --seat 0 --games 400 --seed 1001
    python benchmarks/search_cost.py --game revolver --seat 1 --bot search:rollouts=21

Game `s` (for s from --seed on) is `new_game(base decks, s)` with `random.Random(s)` for the
bots. Prints the bot's wins with a Wilson 95% interval, how the games ended and the CPU time
(`time.process_time`) of its `choose` calls over their number, split by kind: forced (one
legal action), main (the play phase) and small (any other decision: a cost, a target, a
casualty, staying or moving on). Run it with the compiled build's Python (from outside the
checkout) for the compiled figure; the decisions are the same in both builds.
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


def play(game: str, seat: int, spec: str, seed: int) -> tuple[bool, str, dict[str, float],
                                                                Counter[str]]:
    """One game: (the bot won, how it ended, CPU seconds and decisions by kind)."""
    catalog, decks = _table(game)
    heuristics = get_game(game).heuristics
    state = new_game(decks, seed, catalog=catalog)
    rng = random.Random(seed)
    bots = [make_bot("greedy", heuristics), make_bot("greedy", heuristics)]
    bots[seat] = make_bot(spec, heuristics)
    seconds = dict.fromkeys(KINDS, 0.0)
    counts: Counter[str] = Counter()
    while not state.is_terminal():
        player = state.current_player()
        if player != seat:
            state.apply(bots[player].choose(state, rng))
            continue
        actions = state.legal_actions()
        kind = "forced" if len(actions) == 1 else "small" if is_mid_move(state) else "main"
        started = time.process_time()
        action = bots[player].choose(state, rng)
        seconds[kind] += time.process_time() - started
        counts[kind] += 1
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner == seat, outcome.termination.value, seconds, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="revolver", choices=["revolver", "revolver2"])
    parser.add_argument("--seat", type=int, default=0, choices=[0, 1])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args()
    seeds = range(options.seed, options.seed + options.games)
    one = partial(play, options.game, options.seat, options.bot)
    if options.workers > 1:
        with ProcessPoolExecutor(options.workers) as pool:
            results = list(pool.map(one, seeds, chunksize=4))
    else:
        results = [one(seed) for seed in seeds]
    wins = sum(1 for won, _, _, _ in results if won)
    low, high = wilson_interval(wins, len(results))
    seconds = {kind: sum(result[2][kind] for result in results) for kind in KINDS}
    counts = {kind: sum(result[3][kind] for result in results) for kind in KINDS}
    decisions = sum(counts.values())
    endings = Counter(ending for _, ending, _, _ in results)
    print(f"{options.game}, seat {options.seat}: {options.bot} against greedy, seeds "
          f"{seeds.start}-{seeds.stop - 1}: won {wins}/{len(results)} = "
          f"{100 * wins / len(results):.1f}% [{100 * low:.1f}, {100 * high:.1f}]; "
          + ", ".join(f"{name} {count}" for name, count in endings.most_common()))
    print(f"  {1000 * sum(seconds.values()) / max(1, decisions):.3f} ms CPU a decision over "
          f"{decisions}: " + "; ".join(
              f"{kind} {counts[kind]} x {1000 * seconds[kind] / max(1, counts[kind]):.3f} ms"
              for kind in KINDS))


if __name__ == "__main__":
    main()

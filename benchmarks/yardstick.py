"""A same-process yardstick for engine speed figures: RLCard's UNO game loop, random vs random.

    python benchmarks/yardstick.py                 # one 2-second measurement
    python benchmarks/yardstick.py --seconds 5 --repeat 3

Why: this machine has 2 cores shared with other jobs, so a raw "decisions/s" figure moves with
the load and cannot be compared across runs. A fixed, unrelated pure-Python workload measured
in the same process, right next to the engine figure, is slowed by the same load; the ratio of
the two is far steadier than either. The yardstick is RLCard's UNO *game* object (not the env
wrapper, whose feature encoding would dominate), with uniformly random legal actions drawn from
its own seeded `random.Random` and numpy `RandomState`, so the sequence of games is reproducible
(how many of them fit in the time budget is not).

From another benchmark script in this folder (scripts run from here, so the import works):

    from yardstick import relative, uno_yardstick

    stick = uno_yardstick(seconds=2.0)
    print(f"{engine_rate:,.0f} decisions/s = {relative(engine_rate, stick):.3f} UNO decisions")

Measure the yardstick just before (or before and after) the engine figure, not once per session.
Needs the optional `rlcard` package (`pip install rlcard`; it pulls numpy and termcolor only).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

INSTALL_HINT = "install rlcard to measure the yardstick: pip install rlcard"


@dataclass(frozen=True)
class YardstickResult:
    """Complete UNO games played in one measurement and the rates they give (per second of the
    clock the measurement was taken with: CPU seconds of this process by default)."""

    games: int
    decisions: int
    elapsed: float
    games_per_second: float
    decisions_per_second: float


def uno_yardstick(seconds: float = 2.0, seed: int = 0,
                  clock: Callable[[], float] = time.process_time) -> YardstickResult:
    """Play complete random-vs-random 2-player UNO games until `seconds` of `clock` have passed.

    `clock` must be the clock the engine figure it is set beside was measured with: a rate in
    CPU seconds divided by a rate in wall seconds is off by however busy the host was. CPU time
    of this process (the default) is what every script here measures the engine with.

    A decision is one `step` of the game. The clock is checked between games, so every game
    counted is complete and at least one game is always played; the random policy's own cost
    (one `get_legal_actions` + one `randrange`) is included, as in the engine benchmarks.
    """
    game, choose = new_uno(seed)
    games = decisions = 0
    started = clock()
    deadline = started + seconds
    while True:
        decisions += play_uno_game(game, choose)
        games += 1
        now = clock()
        if now >= deadline:
            break
    elapsed = now - started
    return YardstickResult(games=games, decisions=decisions, elapsed=elapsed,
                           games_per_second=games / elapsed,
                           decisions_per_second=decisions / elapsed)


def new_uno(seed: int = 0) -> tuple[Any, random.Random]:
    """A 2-player UNO game and the random policy's generator, both seeded."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError as error:
        raise RuntimeError(INSTALL_HINT) from error
    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)  # shuffles, dealt cards, drawn wild colours
    return game, random.Random(seed)


def play_uno_game(game: Any, choose: random.Random) -> int:
    """One complete game of uniformly random legal actions: its decisions (`step`s). The loop
    both `uno_yardstick` and `count_instructions.py --yardstick` measure."""
    game.init_game()
    decisions = 0
    while not game.is_over():
        actions = game.get_legal_actions()
        game.step(actions[choose.randrange(len(actions))])
        decisions += 1
    return decisions


def relative(figure: float, yardstick: YardstickResult) -> float:
    """`figure` (decisions/s) divided by the yardstick's decisions/s: engine decisions made in the
    time of one UNO decision. Higher means a faster engine; the reciprocal is what one engine
    decision costs, counted in UNO decisions."""
    return figure / yardstick.decisions_per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="measurements in a row")
    args = parser.parse_args()
    rates: list[float] = []
    for _ in range(args.repeat):
        result = uno_yardstick(seconds=args.seconds, seed=args.seed)
        rates.append(result.decisions_per_second)
        print(f"UNO yardstick: {result.games:,} games, {result.decisions:,} decisions in "
              f"{result.elapsed:.2f} CPU s = {result.games_per_second:,.0f} games/s, "
              f"{result.decisions_per_second:,.0f} decisions/s")
    if len(rates) > 1:
        spread = (max(rates) - min(rates)) / min(rates)
        print(f"spread of decisions/s over {len(rates)} runs: {100 * spread:.1f}%")


if __name__ == "__main__":
    main()

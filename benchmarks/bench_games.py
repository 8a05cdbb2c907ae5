"""Both games' speed beside a yardstick run in the same process (RLCard's UNO game loop).

    python benchmarks/bench_games.py            # about a minute
    python benchmarks/bench_games.py --quick    # smaller samples
    python benchmarks/bench_games.py --runs 3   # every row three times, and each row's median
    python benchmarks/bench_games.py --interleave 20   # each row in 20 short turns with UNO
    python benchmarks/bench_games.py --interleave 10 --write   # ... and keep them (below)

For each game (Revolver, Revolver 2; base decks): random vs random and greedy vs greedy (the
package's bots, as `simulate --bot random|greedy` plays them), games/s and decisions/s on one
core (CPU seconds of this process), and each as a multiple of the UNO yardstick's decisions/s
measured just before and after that row (this machine is shared and noisy: the ratio moves
much less than the raw rate). It says which build plays (plain Python or compiled, see
setup.py). Prints figures, asserts nothing.

`--interleave ROUNDS` takes turns instead: half a CPU second of UNO, half a second of the row's
games (seeded games played on from where the last turn stopped), ROUNDS times a row; each round
gives a ratio of two spells a second apart, and the row its median and quartiles. A slow spell of
the shared host then moves a round, not the row: the median moves a few percent between runs
where a row of `--runs` moved twenty.

`--write` (with `--interleave`) keeps this build's medians and the commit measured in
deckbuilder/data/speed.json, where every speed the tool quotes is read from
(`deckbuilder.build.speed_claim`: `--version`, the reports, setup.py; a test holds the docs to
it). Run it in both builds, at one commit, with a clean working tree.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from deckbuilder.bots import make_bot
from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game, new_game
from deckbuilder.sim.runs.runner import prime_catalog

sys.path.insert(0, str(Path(__file__).resolve().parent))
from yardstick import uno_yardstick


def rates(game: str, bot: str, games: int, catalog: object) -> tuple[float, float]:
    """(games/s, decisions/s) over CPU time for `games` seeded games of `bot` against
    itself; every decision counted (a decision = one `apply`)."""
    stream = GameStream(game, bot, catalog)
    started = time.process_time()
    decisions = sum(stream.play_one() for _ in range(games))
    spent = time.process_time() - started
    return games / spent, decisions / spent


class GameStream:
    """One row's seeded games (seed 0, 1, ...), played in turns of a few CPU seconds."""

    def __init__(self, game: str, bot: str, catalog: object) -> None:
        heuristics = get_game(game).heuristics
        self.decks = [catalog.base_deck(game, side)  # type: ignore[attr-defined]
                      for side in get_game(game).side_names]
        self.catalog = catalog
        new_game(self.decks, 0, catalog=catalog)  # compile outside the clock
        self.bots = [make_bot(bot, heuristics), make_bot(bot, heuristics)]
        self.seed = 0

    def play_one(self) -> int:
        """The next seed's game, played out: its decisions (a decision = one `apply`)."""
        state = new_game(self.decks, self.seed, catalog=self.catalog)
        rng = random.Random(self.seed)
        self.seed += 1
        decisions = 0
        while not state.is_terminal():
            state.apply(self.bots[state.current_player()].choose(state, rng))
            decisions += 1
        return decisions

    def play_for(self, seconds: float) -> tuple[int, float]:
        """Whole games until `seconds` of CPU time have passed: (decisions, CPU seconds)."""
        decisions = 0
        started = time.process_time()
        while True:
            decisions += self.play_one()
            spent = time.process_time() - started
            if spent >= seconds:
                return decisions, spent


def interleaved(catalog: object, rounds: int, window: float = 0.5) -> dict[str, float]:
    """Every row in `rounds` turns with the yardstick (see the module docstring); each row's
    median multiple of UNO, by "game bot"."""
    medians = {}
    for game in ("revolver", "revolver2"):
        for bot in ("random", "greedy"):
            stream = GameStream(game, bot, catalog)
            gc.collect()
            gc.freeze()
            found = []
            for _ in range(max(1, rounds)):
                uno = uno_yardstick(window).decisions_per_second
                decisions, spent = stream.play_for(window)
                found.append(decisions / spent / uno)
            quartiles = statistics.quantiles(found, n=4) if len(found) > 1 else found * 3
            print(f"{game:<10} {bot:<7} {statistics.median(found):6.3f} x UNO  (quartiles "
                  f"{quartiles[0]:.3f}-{quartiles[2]:.3f}; {len(found)} rounds, "
                  f"{stream.seed} games)", flush=True)
            medians[f"{game} {bot}"] = round(statistics.median(found), 3)
    return medians


def write_speed(medians: dict[str, float]) -> None:
    """This build's medians and the commit measured, into the file the tool quotes from."""
    from deckbuilder.build import SPEED_FILE, describe, speed_claim

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    data = json.loads(SPEED_FILE.read_text(encoding="utf-8"))
    data["builds"][describe()] = {"commit": commit, "date": datetime.date.today().isoformat(),
                                  "x_uno": medians}
    SPEED_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {SPEED_FILE}: the compiled build plays the games {speed_claim(SPEED_FILE)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=1,
                        help="measure every row this many times and give each row's median")
    parser.add_argument("--interleave", type=int, default=0, metavar="ROUNDS",
                        help="take turns with the yardstick, ROUNDS turns a row (see above)")
    parser.add_argument("--write", action="store_true",
                        help="keep this build's medians in deckbuilder/data/speed.json "
                             "(with --interleave)")
    options = parser.parse_args()
    if options.write and not options.interleave:
        parser.error("--write keeps the medians of --interleave ROUNDS: give both")
    scale = 0.25 if options.quick else 1.0
    catalog = build_catalog()
    prime_catalog(catalog)  # as simulate does before it plays (the catalog kept from the GC)
    print(f"build: {build_name()}")
    if options.interleave:
        medians = interleaved(catalog, options.interleave)
        if options.write:
            write_speed(medians)
        return
    ratios: dict[tuple[str, str], list[float]] = {}
    for _ in range(max(1, options.runs)):
        for game, bot, ratio in one_run(catalog, scale):
            ratios.setdefault((game, bot), []).append(ratio)
    if options.runs > 1:
        print(f"median of {options.runs} runs:")
        for (game, bot), found in ratios.items():
            print(f"{game:<10} {bot:<7} {statistics.median(found):6.3f} x UNO  (runs: "
                  + ", ".join(f"{ratio:.3f}" for ratio in found) + ")")


def one_run(catalog: object, scale: float) -> list[tuple[str, str, float]]:
    """Every row once, each beside the yardstick runs before and after it; printed, and
    returned as (game, bot, multiple of UNO's decisions/s)."""
    # A yardstick run before each row and after the last: each row is set beside the two
    # around it, so a slow spell of the shared host moves the row and its yardstick alike.
    yardsticks = [uno_yardstick(1.0 * scale + 0.5).decisions_per_second]
    rows = []
    for game in ("revolver", "revolver2"):
        for bot, games in (("random", 800), ("greedy", 120)):
            # What the yardstick left alive (RLCard's and NumPy's objects) kept from the
            # collector too, or every collection in the row would walk it again.
            gc.collect()
            gc.freeze()
            rows.append((game, bot, *rates(game, bot, max(10, int(games * scale)), catalog)))
            yardsticks.append(uno_yardstick(1.0 * scale + 0.5).decisions_per_second)
    print("yardstick: RLCard UNO random play " + ", ".join(f"{rate:,.0f}" for rate in yardsticks)
          + " decisions/s (before each row and after the last)")
    found = []
    for index, (game, bot, games_rate, decision_rate) in enumerate(rows):
        uno = (yardsticks[index] + yardsticks[index + 1]) / 2
        print(f"{game:<10} {bot:<7} {games_rate:8.1f} games/s {decision_rate:10,.0f} "
              f"decisions/s  = {decision_rate / uno:6.3f} x UNO")
        found.append((game, bot, decision_rate / uno))
    return found


def build_name() -> str:
    """Which build plays (`deckbuilder.build`; a version without that module is plain)."""
    try:
        from deckbuilder.build import describe
    except ImportError:
        return "plain Python"
    return describe()


if __name__ == "__main__":
    main()

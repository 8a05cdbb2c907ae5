"""Instructions per game (greedy, or random), counted by Valgrind (callgrind), for both games.

    python benchmarks/count_instructions.py              # 20 games a game, a few minutes
    python benchmarks/count_instructions.py --games 5
    python benchmarks/count_instructions.py --bot random --games 200
    python benchmarks/count_instructions.py --keep /tmp/cg   # callgrind.out.<game>.<bot> kept,
                                                             # for callgrind_annotate
    python benchmarks/count_instructions.py --top 25 --game revolver2   # where a game's go
    python benchmarks/count_instructions.py --yardstick 300   # beside UNO's, a decision each

Unlike a timing, the count does not move with the load of a shared host, so it tells two
versions or builds apart where `bench_games.py`'s times overlap (the same count to about 0.1%
run to run, with PYTHONHASHSEED fixed). A count is not a time: it leaves out the time spent
waiting on memory. Each game's bot tables are built before the count starts, and the count
of a run that plays no game (start-up, catalog, compiling the spec) is subtracted. Needs
`valgrind` on the PATH; says which build it measures. Prints figures, asserts nothing.

`--yardstick GAMES` counts RLCard's UNO loop the same way (as `yardstick.py` plays it) and gives
each row's instructions a decision as a multiple of UNO's: a steady companion to
`bench_games.py`'s timed multiple, not the same figure (compiled, the engine does fewer
instructions a CPU cycle than the interpreter's loop does: it allocates more).

A kept profile is the whole run, start-up included (most of it for a few games): `--top N`
lists the N functions with the most instructions of the games alone (each function's count
in the run less its count in the run that plays none, per game), which is what to attack.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: How each child starts: the parent's site folders (a virtual environment's, an editable
#: install's .pth files), since valgrind runs the interpreter's real binary, which on its own
#: knows only the base installation.
SITE = """
import os, random, site, sys
for folder in os.environ.get("DECKBUILDER_BENCH_SITE", "").split(os.pathsep):
    if folder:
        site.addsitedir(folder)
"""

#: The child: plays `games` seeded games of one game on the base decks, `bot` against itself
#: (random: the package's random bot, as `simulate --bot random` and `bench_games.py` play it).
PLAY = SITE + """
from deckbuilder.bots import make_bot
from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game, new_game
from deckbuilder.sim.runs.runner import prime_catalog
game, games, bot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
catalog = build_catalog()
prime_catalog(catalog)
rules = get_game(game)
decks = [catalog.base_deck(game, side) for side in rules.side_names]
first = new_game(decks, 0, catalog=catalog)
bots = [make_bot(bot, rules.heuristics) for _ in (0, 1)]
if game == "revolver":  # the bot tables, built outside the count
    from deckbuilder.games.revolver.bots.card_profiles import profiles_for
    from deckbuilder.games.revolver.bots.evaluate_tables import tables_for
    tables_for(first.spec)
    profiles_for(first.spec)
decisions = 0
for seed in range(games):
    state = new_game(decks, seed, catalog=catalog)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state, rng))
    decisions += len(state.history)  # not counted in the loop: that would add to the count
print("decisions", decisions)
"""

#: The yardstick's child (`--yardstick`): `games` of RLCard's UNO loop, `yardstick.py`'s own
#: (random legal actions, seeded), after one game outside the count of games.
UNO = SITE + f"""
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from yardstick import new_uno, play_uno_game
games = int(sys.argv[2])
game, choose = new_uno(0)
game.init_game()
decisions = 0
for _ in range(games):
    decisions += play_uno_game(game, choose)
print("decisions", decisions)
"""


def collected(script: Path, game: str, games: int, bot: str,
              keep: Path | None = None) -> tuple[int, int]:
    """(instructions callgrind counted, decisions the child made) for one run of the child
    (its profile written into `keep` when given: `profile_file`)."""
    python = os.path.realpath(sys.executable)  # not a shim script: valgrind follows the binary
    # A virtual environment's python is a link to the base interpreter: run the binary itself
    # and hand the child this process's import path (its site folders, .pth files included).
    site_folders = os.pathsep.join(folder for folder in sys.path if folder)
    env = {**os.environ, "PYTHONHASHSEED": "0", "DECKBUILDER_BENCH_SITE": site_folders}
    out = "/dev/null" if keep is None else str(profile_file(keep, game, bot, games))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, str(script),
         game, str(games), bot], capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected\s*:\s*([\d,]+)", done.stderr)
    decisions = re.search(r"^decisions (\d+)$", done.stdout, re.MULTILINE)
    if found is None or decisions is None:
        raise SystemExit(f"valgrind printed no count: {done.stderr[-500:]}")
    return int(found.group(1).replace(",", "")), int(decisions.group(1))


def profile_file(folder: Path, game: str, bot: str, games: int) -> Path:
    """Where a kept profile lies: the games' run, or (no game) the start-up's."""
    return folder / f"callgrind.out.{game}.{bot}{'' if games else '.start-up'}"


def function_counts(profile: Path) -> dict[str, int]:
    """Instructions by function (exclusive) in a callgrind profile, by callgrind_annotate."""
    shown = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100",
                            str(profile)], capture_output=True, text=True, check=True).stdout
    counts: dict[str, int] = {}
    for line in shown.splitlines():
        found = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?:\S.*?)(?: \[.*\])?$", line)
        if found and not found.group(2).startswith("PROGRAM TOTALS"):
            name = re.sub(r"^.*/Python-[\d.]+/", "", found.group(2))
            counts[name] = counts.get(name, 0) + int(found.group(1).replace(",", ""))
    return counts


def print_top(folder: Path, game: str, bot: str, games: int, top: int) -> None:
    """The `top` functions by instructions of the games alone, per game."""
    played = function_counts(profile_file(folder, game, bot, games))
    idle = function_counts(profile_file(folder, game, bot, 0))
    games_only = {name: count - idle.get(name, 0) for name, count in played.items()}
    total = sum(games_only.values())
    for name, count in sorted(games_only.items(), key=lambda item: -item[1])[:top]:
        print(f"  {count / games / 1e3:9.1f} K  {100 * count / total:5.1f}%  {name[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bot", default="greedy", help="greedy (default) or random")
    parser.add_argument("--game", choices=("revolver", "revolver2"), action="append",
                        help="only this game (repeatable; default both)")
    parser.add_argument("--keep", type=Path, help="write the counted runs' profiles here")
    parser.add_argument("--top", type=int, default=0,
                        help="list the N functions the games spend most instructions in")
    parser.add_argument("--yardstick", type=int, default=0, metavar="GAMES",
                        help="count RLCard UNO's loop over GAMES games too (needs rlcard), and "
                             "give each row's instructions a decision as a multiple of its")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("count_instructions: valgrind is not installed (apt-get install valgrind)")
    from deckbuilder.build import describe

    print(f"build: {describe()}")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "play.py"
        script.write_text(PLAY, encoding="utf-8")
        keep = options.keep
        if keep is None and options.top:
            keep = Path(folder)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
        uno = 0.0
        if options.yardstick:
            uno_script = Path(folder) / "uno.py"
            uno_script.write_text(UNO, encoding="utf-8")
            played, decisions = collected(uno_script, "uno", options.yardstick, "random")
            uno = (played - collected(uno_script, "uno", 0, "random")[0]) / decisions
            print(f"yardstick: RLCard UNO {uno / 1e3:.1f} K instructions a decision "
                  f"({options.yardstick} games, {decisions} decisions)")
        for game in options.game or ("revolver", "revolver2"):
            played, decisions = collected(script, game, options.games, options.bot, keep)
            per_game = played - collected(script, game, 0, options.bot, keep)[0]
            line = (f"{game:<10} {options.bot:<6} {per_game / options.games / 1e6:8.2f} M "
                    "instructions a game")
            if uno:
                # Fewer instructions a decision than UNO's is more decisions in its count.
                line += (f", {per_game / decisions / 1e3:.1f} K a decision = "
                         f"{uno * decisions / per_game:.3f} x UNO's decisions")
            print(line)
            if options.top and keep is not None:
                print_top(keep, game, options.bot, options.games, options.top)


if __name__ == "__main__":
    main()

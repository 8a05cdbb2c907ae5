"""The memory a server's tables for two people hold over many create/play/end cycles.

    python benchmarks/friend_tables_memory.py                # 1000 cycles, a few minutes
    python benchmarks/friend_tables_memory.py --cycles 100   # a quick look

Drives the web app's table store in this process (`TableStore`, in a temporary
DECKBUILDER_HOME): each cycle makes a table as the page's form does, plays some moves (both
seats' choices drawn at random, seeded) and ends it (every fourth game played to its end,
the others resigned), then opens it again by a link and reads its record, as a player does
after the end. Reports Python's traced memory (tracemalloc: what the program allocated and still
holds) and the process's resident memory (RSS) at 0, 1/4, 1/2, 3/4 and all of the cycles,
with the tables the store keeps in memory and the files on disk. Cycle 0 is measured after a
few warm-up cycles (the catalog, the engine's caches, the store's cache of ended tables
filled), traced from the start. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any


def _rss_kb() -> int:
    """This process's resident memory (Linux /proc), in KB; 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cycle(store: Any, config: Any, number: int, moves: int) -> int:
    """One table made, played, ended and read back; the number of actions it took."""
    from deckbuilder.web.friends.setup import FormOfJson, new_table

    made = new_table(config, FormOfJson({"game": "revolver", "seat": "colty"}))
    table, tokens = store.create(made.session, made.creator, made.heading, made.deck_names,
                                 None)
    to_the_end = number % 4 == 0
    pick = random.Random(number)  # the same games on every run
    played = 0
    while table.ended is None and (to_the_end or played < moves):
        session = table.session
        mover = session.to_move()
        store.act(table, str(session.names[mover]), table.step,
                  pick.choice(session.choices()).action)
        played += 1
    if table.ended is None:
        store.resign(table, made.creator)
    del table, made
    again, _ = store.find(tokens["colty"])  # the end, as the page shows it
    from deckbuilder.web.friends.routes import record_text

    assert record_text(again) is not None
    return played


def _measure(store: Any, cycles: int, started: float, actions: int) -> dict[str, Any]:
    gc.collect()
    traced, _ = tracemalloc.get_traced_memory()
    files = len(list(store.folder.glob("*.jsonl")))
    return {"cycles": cycles, "traced_kb": traced // 1024, "rss_kb": _rss_kb(),
            "open": sum(1 for _ in store.tables()), "kept": len(store.ended_tables),
            "files": files, "actions": actions, "seconds": time.monotonic() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20,
                        help="actions before a resignation (every fourth game is played out)")
    parser.add_argument("--warm-up", type=int, default=8)
    arguments = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="friend-tables-"))
    os.environ["DECKBUILDER_HOME"] = str(home / "home")
    (home / "decks").mkdir()

    from deckbuilder.web.config import WebConfig
    from deckbuilder.web.friends.tables import TableStore

    config = WebConfig(deck_folder=home / "decks", tables_folder=home / "home" / "tables")
    tracemalloc.start()  # from here: the catalog and the warm-up's caches count at cycle 0
    store = TableStore(home / "home" / "tables", config.catalog)
    for number in range(arguments.warm_up):
        _cycle(store, config, number + 1, arguments.moves)
    started = time.monotonic()
    marks = {round(arguments.cycles * part / 4) for part in range(5)}
    rows, actions = [], 0
    for number in range(arguments.cycles + 1):
        if number in marks:
            rows.append(_measure(store, number, started, actions))
            print(_row(rows[-1], rows[0]), flush=True)
        if number < arguments.cycles:
            actions += _cycle(store, config, number, arguments.moves)
    print(f"commit {_commit()}, Python {sys.version.split()[0]}, {arguments.cycles} cycles, "
          f"{actions} actions; tracemalloc on (it slows the run down)")


def _row(row: dict[str, Any], first: dict[str, Any]) -> str:
    return (f"{row['cycles']:>5} cycles: traced {row['traced_kb']:>6} KB "
            f"({row['traced_kb'] - first['traced_kb']:+d}), RSS {row['rss_kb'] // 1024:>4} MB "
            f"({(row['rss_kb'] - first['rss_kb']) // 1024:+d}); tables in memory: "
            f"{row['open']} open, {row['kept']} ended kept; files {row['files']}; "
            f"{row['seconds']:.0f} s")


if __name__ == "__main__":
    main()

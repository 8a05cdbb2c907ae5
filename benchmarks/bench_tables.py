"""Many web tables for two people at once: what the server holds while scripted clients play.

    python benchmarks/bench_tables.py                 # 50 tables, about a minute
    python benchmarks/bench_tables.py --tables 10 --seconds 20
    python benchmarks/bench_tables.py --think 2     # people's pace: 2 s a decision

Starts `deckbuilder serve` in a process of its own (a fresh DECKBUILDER_HOME and deck folder),
creates the tables through the table API (docs/reference/table-api.md), and drives both seats
of every table from threads of this process with the project's own client
(`app.table_client`): each seat takes the first legal action when it is its turn and
otherwise polls its state. Reports the decisions per second the server answered, how long an
action took to answer (median, 95th percentile, worst), and the server's resident memory
before and at the end. This machine is shared (two cores for the server and the clients
together): the figures are of this machine on that day. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from deckbuilder.app.table_client import Refused, TableClient, TableClientError


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _rss_kb(pid: int) -> int:
    """The process's resident memory (Linux /proc), in KB; 0 where unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    import json
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.load(answer))


class Table(threading.Thread):
    """Both seats of one table, played until time is up (a new table when one ends): the seat
    to move takes a seeded random legal action, then the other seat reads its new state (what
    its page does when the server pushes the change). Every action is timed."""

    def __init__(self, base: str, game: str, seed: int, until: float, timings: list[float],
                 lock: threading.Lock, think: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.base, self.game, self.until, self.think = base, game, until, think
        self.rng = random.Random(seed)
        self.timings, self.lock = timings, lock
        self.actions = self.errors = self.tables = 0

    def _new_table(self) -> dict[str, TableClient]:
        made = _post(self.base + "/api/tables", {"game": self.game})
        self.tables += 1
        seats = {side: TableClient(link) for side, link in made["links"].items()
                 if side != "spectator"}
        for client in seats.values():
            client.join()
        return seats

    def run(self) -> None:
        seats = self._new_table()
        while time.monotonic() < self.until:
            try:
                states = {side: client.state(10**9) for side, client in seats.items()}
                mover = next((side for side, state in states.items() if state["your_turn"]),
                             None)
                if mover is None:  # the game is over: the next table
                    seats = self._new_table()
                    continue
                state = states[mover]
                choice = self.rng.choice(state["choices"])
                started = time.perf_counter()
                seats[mover].act(int(state["step"]), int(choice["action"]))
                with self.lock:
                    self.timings.append(time.perf_counter() - started)
                self.actions += 1
                if self.think:  # a person's pace: a few seconds a decision, not a bot's
                    time.sleep(self.think * self.rng.uniform(0.5, 1.5))
            except (Refused, TableClientError):
                self.errors += 1
                time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--game", default="revolver")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a seat thinks before each action (0: as fast as the "
                             "server answers: the most it holds)")
    options = parser.parse_args()
    port = _free_port()
    home = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    (home / "decks").mkdir()
    env = {**os.environ, "DECKBUILDER_HOME": str(home)}
    server = subprocess.Popen([sys.executable, "-m", "deckbuilder", "serve", "--port", str(port),
                               "--decks", str(home / "decks")], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _post(base + "/api/tables", {"game": options.game})
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        memory_before = _rss_kb(server.pid)
        timings: list[float] = []
        lock = threading.Lock()
        until = time.monotonic() + options.seconds
        seats = [Table(base, options.game, number, until, timings, lock, options.think)
                 for number in range(options.tables)]
        started = time.monotonic()
        for seat in seats:
            seat.start()
        for seat in seats:
            seat.join(timeout=options.seconds + 60)
        elapsed = time.monotonic() - started
        memory_after = _rss_kb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    actions = sum(seat.actions for seat in seats)
    errors = sum(seat.errors for seat in seats)
    played = sum(seat.tables for seat in seats)
    print(f"{options.tables} {options.game} tables at once ({played} played), both seats "
          f"driven through the API, {elapsed:.1f} s: "
          f"{actions:,} actions, {actions / elapsed:.0f} decisions/s answered "
          f"({errors} refusals or retries)")
    if timings:
        ordered = sorted(timings)
        print(f"an action answered in: median {1000 * statistics.median(ordered):.1f} ms, "
              f"95th percentile {1000 * ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms, "
              f"worst {1000 * ordered[-1]:.1f} ms")
    print(f"server memory (RSS): {memory_before / 1024:.0f} MB at the start, "
          f"{memory_after / 1024:.0f} MB with {options.tables} tables")


if __name__ == "__main__":
    main()

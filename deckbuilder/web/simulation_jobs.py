"""Simulations the server is running for open pages: one thread each, bounded, cancellable.
A job starts when its page opens the event stream and stops when no page listens (or its
lease lapses: a stream that ended without its clean-up); the library's `on_result` counts
the progress and raises `SimulationCancelled` to stop.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import JsonValue
from starlette.applications import Starlette

from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.runs.stats import wilson_interval
from deckbuilder.web.kept import held_by

if TYPE_CHECKING:
    from deckbuilder.sim.runs.runner import GameResult

log = logging.getLogger(__name__)

#: Simulations playing at one time (the machine's cores are shared by them).
MAX_RUNNING = 2
#: Jobs kept (running, waiting for their page, or finished with a report to download).
MAX_KEPT = 24
#: A job whose page never opened its stream is dropped after this many seconds.
WAITING_SECONDS = 120.0
#: A finished job's report can be downloaded for this long.
KEEP_SECONDS = 1800.0
#: A running job with no listener renewing its lease for this long stops.
LEASE_SECONDS = 10.0


class SimulationCancelled(Exception):
    """Raised from the progress callback to stop the library's run between two games."""


class BusyError(DeckbuilderError):
    """Too many simulations at once: one line, like every other refusal."""


def _rate(wins: int, games: int) -> dict[str, JsonValue]:
    low, high = wilson_interval(wins, games)
    return {"estimate": wins / games, "low": low, "high": high}


@dataclass
class SimulationJob:
    """One simulation: `work(on_result)` plays it and returns the report (plain data)."""

    id: str
    total: int
    seat: int
    work: Callable[[Callable[[GameResult], None]], dict[str, JsonValue]]
    state: str = "waiting"  # waiting, running, done, failed, cancelled
    error: str | None = None
    report: dict[str, JsonValue] | None = None
    created: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    lease: float = field(default_factory=time.monotonic)
    listeners: int = 0
    cancel_flag: threading.Event = field(default_factory=threading.Event)
    _counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def is_finished(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def progress(self) -> dict[str, JsonValue]:
        """What the page shows while the games are played."""
        deck_games, deck_wins, baseline_games, baseline_wins = self._counts
        data: dict[str, JsonValue] = {
            "state": self.state, "played": deck_games + baseline_games, "total": self.total,
            "games": deck_games, "wins": deck_wins}
        if deck_games:
            data["win_rate"] = _rate(deck_wins, deck_games)
        if baseline_games:
            data.update(baseline_games=baseline_games,
                        baseline_win_rate=_rate(baseline_wins, baseline_games))
        return data

    def count(self, result: GameResult) -> None:
        """The library's `on_result`: one game more; stop here when no page wants it."""
        if self.cancel_flag.is_set() or time.monotonic() - self.lease > LEASE_SECONDS:
            self.cancel_flag.set()
            raise SimulationCancelled
        at = 2 if result.label == "baseline" else 0  # (games, wins) of the deck, the baseline
        self._counts[at] += 1
        self._counts[at + 1] += result.winner == self.seat

    def run(self) -> None:
        try:
            report = self.work(self.count)
        except SimulationCancelled:
            self.state = "cancelled"
        except DeckbuilderError as error:
            from deckbuilder.web.pages import error_line

            self.error = error_line(error)
            self.state = "failed"
        except Exception as error:  # a bug: say so on the page and in the server's log
            log.exception("simulation %s failed", self.id)
            self.error = f"the simulation stopped with an internal error: {error!r}"
            self.state = "failed"
        else:
            self.report = report
            self.state = "done"
        finally:
            self.finished_at = time.monotonic()


class SimulationJobs:
    """The app's jobs by id (ids are unguessable: a page sees only its own simulation)."""

    def __init__(self) -> None:
        self._jobs: dict[str, SimulationJob] = {}
        self._lock = threading.Lock()

    def running(self) -> int:
        return sum(1 for job in self._jobs.values() if job.state == "running")

    def _prune(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if (job.state == "waiting" and now - job.created > WAITING_SECONDS) or (
                    job.finished_at is not None and now - job.finished_at > KEEP_SECONDS):
                del self._jobs[job_id]
        finished = sorted((job for job in self._jobs.values() if job.is_finished),
                          key=lambda job: job.finished_at or 0.0)
        while len(self._jobs) >= MAX_KEPT and finished:
            del self._jobs[finished.pop(0).id]

    def add(self, total: int, seat: int,
            work: Callable[[Callable[[GameResult], None]], dict[str, JsonValue]]
            ) -> SimulationJob:
        with self._lock:
            self._prune()
            if self.running() >= MAX_RUNNING:
                raise BusyError(f"{MAX_RUNNING} simulations are running already",
                                fix="wait for one to finish, or stop it (close its page)")
            if len(self._jobs) >= MAX_KEPT:
                raise BusyError("too many simulations are waiting to start",
                                fix="try again in a minute")
            job = SimulationJob(secrets.token_urlsafe(12), total, seat, work)
            self._jobs[job.id] = job
            return job

    def get(self, job_id: str) -> SimulationJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def attach(self, job: SimulationJob) -> None:
        """A page listens: start the job if it has not started (and there is room)."""
        with self._lock:
            job.listeners += 1
            job.lease = time.monotonic()
            if job.state != "waiting":
                return
            if self.running() >= MAX_RUNNING:
                job.state, job.error = "failed", (
                    f"{MAX_RUNNING} simulations are running already (fix: wait for one to "
                    "finish, or stop it)")
                job.finished_at = time.monotonic()
                return
            job.state = "running"
            threading.Thread(target=job.run, name=f"simulation-{job.id}", daemon=True).start()

    def detach(self, job: SimulationJob) -> None:
        """A page stopped listening: the last one gone stops the games."""
        with self._lock:
            job.listeners = max(0, job.listeners - 1)
            if job.listeners == 0 and not job.is_finished:
                job.cancel_flag.set()

    def cancel(self, job: SimulationJob) -> None:
        job.cancel_flag.set()
        with self._lock:
            if job.state == "waiting":
                job.state, job.finished_at = "cancelled", time.monotonic()


def jobs_of(app: Starlette) -> SimulationJobs:
    return held_by(app, "simulation_jobs", SimulationJobs)

"""Batch simulation: seeded games in parallel, statistics users can trust, reports.

    >>> from deckbuilder.sim import wilson_interval
    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
"""

from __future__ import annotations

from deckbuilder.sim.reports.report import build_report, print_report
from deckbuilder.sim.runs.batch import Contestant, SimulationConfig, SimulationRun, simulate
from deckbuilder.sim.runs.runner import (
    Executor,
    GameJob,
    GameResult,
    ProcessExecutor,
    SerialExecutor,
    make_executor,
    play_one,
    run_games,
)
from deckbuilder.sim.runs.seeds import bot_seed, game_seed, game_seeds
from deckbuilder.sim.runs.stats import games_needed, paired_difference, wilson_interval

__all__ = [
    "Contestant",
    "Executor",
    "GameJob",
    "GameResult",
    "ProcessExecutor",
    "SerialExecutor",
    "SimulationConfig",
    "SimulationRun",
    "bot_seed",
    "build_report",
    "game_seed",
    "game_seeds",
    "games_needed",
    "make_executor",
    "paired_difference",
    "play_one",
    "print_report",
    "run_games",
    "simulate",
    "wilson_interval",
]

"""Which executor a command plays its games on: the local pool (the default), a local Dask
cluster, or an existing one (kept apart: the Dask executor imports the runner)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from deckbuilder.sim.runs.runner import Executor, make_executor


@contextlib.contextmanager
def open_executor(workers: int, scheduler: str | None = None,
                  local_dask: bool = False, start_method: str | None = None
                  ) -> Iterator[Executor]:
    """The executor a command asked for, closed after use (Dask imported only when asked for)."""
    if scheduler is None and not local_dask:
        yield make_executor(workers, start_method)
        return
    from deckbuilder.sim.runs.dask_executor import DaskExecutor

    with DaskExecutor(scheduler, workers=workers) as executor:
        yield executor

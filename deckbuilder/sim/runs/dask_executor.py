"""Play the games on a Dask cluster: an existing one (`--scheduler ADDRESS`) or a local one
started for the run (`--dask`). Dask is an optional extra, imported only inside functions,
so deckbuilder runs without it.

A worker plays with its own catalog (its own DECKBUILDER_HOME), so every chunk carries a
fingerprint of the client's catalog and a worker whose catalog differs refuses to play: a
clear error, not silently different games.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from deckbuilder.catalog import Catalog
from deckbuilder.errors import DataFileError, DeckbuilderError, Location
from deckbuilder.reading import decode_utf8, read_bounded
from deckbuilder.sim.runs.runner import bounded_map, chunk_sizes, engine_catalog, play_chunk
from deckbuilder.version import __version__

T = TypeVar("T")
R = TypeVar("R")

INSTALL_HINT = 'pip install "revolver-deckbuilder[dask]"'


class DaskError(DeckbuilderError):
    """Dask is not installed, its scheduler cannot be used, or a worker's catalog differs."""


class SchedulerError(DaskError):
    """`--scheduler` names neither a TCP address nor a scheduler file holding one."""


#: A scheduler file (`dask scheduler --scheduler-file`) is a few hundred bytes of JSON.
MAX_SCHEDULER_FILE_BYTES = 64 * 1024
#: Longer than any host name (253) with a scheme and a port.
MAX_ADDRESS_CHARS = 300
#: Dask's plain TCP is the one transport accepted: tls:// needs certificates that no option
#: here gives (Dask fails inside with a TypeError without them), ucx:// a library that is not
#: a dependency, inproc:// and ws:// are not how a cluster of separate machines is reached.
SCHEDULER_SCHEMES = ("tcp",)
_ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")
_ADDRESS_FIX = ("give the scheduler's address as tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786) "
                "or the file `dask scheduler --scheduler-file FILE` wrote")


def scheduler_address(text: str) -> str:
    """The address for `--scheduler TEXT`: TEXT (tcp://HOST:PORT or HOST:PORT), or the
    address in the scheduler file TEXT names. Dask is given only an address checked here, so
    a bad file or scheme is one line, not a traceback from inside Dask."""
    shown = text if len(text) <= 60 else text[:60] + "..."
    if "://" not in text and len(text) < 4096 and os.path.lexists(text):  # (False for a NUL)
        return _address_in_file(Path(text))
    if "://" not in text and not _ADDRESS.fullmatch(text):
        raise SchedulerError(f"--scheduler '{shown}': no such scheduler file, and not an "
                             "address", fix=_ADDRESS_FIX)
    return _checked_address(text, f"--scheduler '{shown}'", None)


def _checked_address(address: str, what: str, where: Location | None) -> str:
    match = _ADDRESS.fullmatch(address) if len(address) <= MAX_ADDRESS_CHARS else None
    if match is None:
        raise SchedulerError(f"{what} is not a scheduler address (tcp://HOST:PORT)", where,
                             _ADDRESS_FIX)
    scheme = (match.group("scheme") or "tcp").lower()
    if scheme not in SCHEDULER_SCHEMES:
        raise SchedulerError(
            f"{what}: the {scheme}:// transport is not supported (only tcp://)", where,
            "start the scheduler on TCP (`dask scheduler --protocol tcp`) and give "
            "tcp://HOST:PORT")
    if not 0 < int(match.group("port")) < 65536:
        raise SchedulerError(f"{what}: port {match.group('port')} is not 1 to 65535", where,
                             _ADDRESS_FIX)
    return address if match.group("scheme") else f"tcp://{address}"


def _address_in_file(path: Path) -> str:
    where = Location(path)
    try:
        raw = read_bounded(path, MAX_SCHEDULER_FILE_BYTES, "Dask scheduler file (.json)")
        data = json.loads(decode_utf8(raw, path))
    except DataFileError as error:
        raise SchedulerError(f"not a Dask scheduler file: {error.message}", error.where,
                             error.fix) from None
    except json.JSONDecodeError as error:
        raise SchedulerError(f"not a Dask scheduler file: not JSON ({error.msg})",
                             Location(path, error.lineno, error.colno), _ADDRESS_FIX) from None
    except (ValueError, RecursionError):  # a number of thousands of digits, deep nesting
        raise SchedulerError("not a Dask scheduler file: not the JSON object Dask writes",
                             where, _ADDRESS_FIX) from None
    address = data.get("address") if isinstance(data, dict) else None
    if not isinstance(address, str):
        raise SchedulerError("not a Dask scheduler file: no \"address\" string in it", where,
                             _ADDRESS_FIX)
    shown = address if len(address) <= 60 else address[:60] + "..."
    return _checked_address(address, f"its address '{shown}'", where)


@dataclass(frozen=True)
class CatalogFingerprint:
    """What a game depends on in a catalog: each set's content (overlay corrections applied)
    without provenance (it names local paths and changes no game), and the package version."""

    version: str
    sets: tuple[tuple[str, str], ...]  # (set id, digest of its content), sorted by id


def catalog_fingerprint(catalog: Catalog) -> CatalogFingerprint:
    """The fingerprint of a built catalog (a few milliseconds for the packaged sets)."""
    sets = []
    for set_id, loaded in sorted(catalog.sets.items()):
        content = _without_provenance(loaded.card_set.model_dump(mode="json"))
        text = json.dumps(content, sort_keys=True, ensure_ascii=True)
        sets.append((set_id, hashlib.sha256(text.encode()).hexdigest()[:16]))
    return CatalogFingerprint(__version__, tuple(sets))


def _without_provenance(data: object) -> object:
    if isinstance(data, dict):
        return {key: _without_provenance(value) for key, value in data.items()
                if key != "provenance"}
    if isinstance(data, list):
        return [_without_provenance(item) for item in data]
    return data


def mismatch_message(client: CatalogFingerprint, worker: CatalogFingerprint,
                     where: str) -> str:
    """What differs between the two catalogs, in one line."""
    ours, theirs = dict(client.sets), dict(worker.sets)
    parts = []
    if client.version != worker.version:
        parts.append(f"deckbuilder {worker.version} there, {client.version} here")
    if only_here := sorted(set(ours) - set(theirs)):
        parts.append(f"sets only here: {', '.join(only_here)}")
    if only_there := sorted(set(theirs) - set(ours)):
        parts.append(f"sets only on the worker: {', '.join(only_there)}")
    if changed := sorted(key for key in set(ours) & set(theirs) if ours[key] != theirs[key]):
        parts.append(f"different content (an overlay or an edited set): {', '.join(changed)}")
    return (f"the Dask worker {where} plays with a different catalog than this machine "
            f"({'; '.join(parts)}): its games would differ")


@lru_cache(maxsize=1)
def _worker_fingerprint() -> CatalogFingerprint:
    return catalog_fingerprint(engine_catalog())


def check_worker_catalog(expected: CatalogFingerprint) -> None:
    """Raise `DaskError` when this process's catalog is not `expected`."""
    found = _worker_fingerprint()
    if found == expected:
        return
    try:
        from distributed import get_worker

        where = str(get_worker().address)
    except (ImportError, ValueError):
        where = f"process {os.getpid()}"
    raise DaskError(
        mismatch_message(expected, found, where),
        fix="give every worker the same card sets and overlay as this machine (its "
            "DECKBUILDER_HOME), or run from a machine that has the workers' catalog")


def _play_checked(fn: Callable[[T], R], chunk: list[T],
                  expected: CatalogFingerprint) -> list[R]:
    check_worker_catalog(expected)
    return play_chunk(fn, chunk)


class DaskExecutor:
    """An `Executor` on a Dask cluster (a local one without `scheduler`): a context manager."""

    #: How long to wait for a scheduler to answer, and then for its first worker.
    CONNECT_SECONDS = 10
    WORKER_SECONDS = 30

    def __init__(self, scheduler: str | None = None, workers: int = 0,
                 chunk_size: int | None = None, catalog: Catalog | None = None) -> None:
        self.address = None if scheduler is None else scheduler_address(scheduler)
        try:  # one line naming the install command, not an ImportError
            import distributed  # noqa: F401
        except ImportError:
            raise DaskError("--dask and --scheduler need Dask, which is not installed",
                            fix=INSTALL_HINT) from None
        self.scheduler = scheduler
        self.workers = workers if workers > 0 else (os.cpu_count() or 1)
        self.chunk_size = chunk_size
        self.catalog = catalog
        self._client: Any = None
        self._cluster: Any = None
        self._fingerprint: CatalogFingerprint | None = None

    def __enter__(self) -> DaskExecutor:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        if self._client is not None:
            return
        from distributed import Client, LocalCluster

        if self.scheduler is None:
            self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                         processes=True, dashboard_address=":0")
            self._client = Client(self._cluster)
            return
        try:
            self._client = Client(self.address, timeout=self.CONNECT_SECONDS)
            self._client.wait_for_workers(1, timeout=self.WORKER_SECONDS)
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise DaskError(f"cannot use the Dask scheduler at {self.scheduler}: {reason}",
                               fix="start it with `dask scheduler` and at least one "
                                   "`dask worker`, and give its address "
                                   "(tcp://HOST:8786) or its scheduler file") from None

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()

    def fingerprint(self) -> CatalogFingerprint:
        if self._fingerprint is None:
            catalog = self.catalog if self.catalog is not None else engine_catalog()
            self._fingerprint = catalog_fingerprint(catalog)
        return self._fingerprint

    def threads(self) -> int:
        counts = self._client.nthreads() if self._client is not None else {}
        return max(1, sum(counts.values()))

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        self.start()
        client = self._client
        expected = self.fingerprint()
        threads = self.threads()
        yield from bounded_map(
            lambda chunk: client.submit(_play_checked, fn, chunk, expected, pure=False), items,
            chunk_sizes(items, threads, self.chunk_size, ramp=True), threads, self._cancel)

    def _cancel(self, pending: Sequence[object]) -> None:
        if pending and self._client is not None:
            self._client.cancel(pending)

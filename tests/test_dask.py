"""`simulate` and `optimize` on a real Dask cluster: a scheduler and two workers started here as
separate processes (`dask scheduler`, `dask worker`), the same results as in this process and
in a pool, and a worker whose catalog differs refusing to play (one line, exit 2).

The cluster tests skip only when dask is not installed (`.ci/run` installs the dask extra);
the tests of deckbuilder without dask run everywhere.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog, default_catalog
from deckbuilder.cli import app
from deckbuilder.sim.runs.dask_executor import (
    INSTALL_HINT,
    DaskExecutor,
    catalog_fingerprint,
    mismatch_message,
)

SET_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sets"
HAS_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAS_DASK, reason="dask is not installed (the dask extra)")
runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str | Path) -> dict:
    code, out, err = invoke(*args, "--json")
    assert code == 0, out + err
    return json.loads(out)


# -- a real cluster ----------------------------------------------------------------------------
def _start(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        return subprocess.Popen([sys.executable, "-m", "dask", *command], stdout=sink,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End a process we started and its children (a worker's nanny runs the worker)."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A scheduler and two one-thread workers, each its own process; the workers read an
    empty DECKBUILDER_HOME of their own (the packaged sets only, like every test's client)."""
    if not HAS_DASK:
        pytest.skip("dask is not installed (the dask extra)")
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask-cluster")
    scheduler_file = folder / "scheduler.json"
    env = {**os.environ, paths.HOME_VARIABLE: str(folder / "worker-home"),
           paths.CACHE_VARIABLE: str(folder / "worker-cache")}
    processes = [_start(["scheduler", "--scheduler-file", str(scheduler_file), "--port", "0",
                         "--no-dashboard"], folder / "scheduler.log", env)]
    try:
        for number in (1, 2):
            processes.append(_start(["worker", "--scheduler-file", str(scheduler_file),
                                     "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                    folder / f"worker-{number}.log", env))
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, (folder / "scheduler.log").read_text()
            assert processes[0].poll() is None, (folder / "scheduler.log").read_text()
            time.sleep(0.2)
        time.sleep(0.2)  # the file is written whole, but give it a moment
        with Client(scheduler_file=str(scheduler_file), timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        address = json.loads(scheduler_file.read_text())["address"]
        yield {"address": address, "file": str(scheduler_file)}
    finally:
        for process in reversed(processes):
            _stop(process)


def _workers_that_played(address: str, *args: str | Path) -> tuple[dict, set[str]]:
    """Run a command with --json on the cluster; its report and the workers that ran tasks."""
    from distributed import Client, get_task_stream

    with Client(address, timeout=30) as client, get_task_stream(client) as stream:
        report = run_json(*args)
    return report, {task["worker"] for task in stream.data}


def _differing(expected: dict, found: dict) -> list[str]:
    """The top-level keys of two reports that differ (a readable failure)."""
    return [key for key in expected.keys() | found.keys() if expected.get(key) != found.get(key)]


@needs_dask
def test_simulate_on_the_cluster_matches_this_process_and_a_pool(
        cluster: dict[str, str]) -> None:
    common = ["simulate", "colty", "--games", "24", "--seed", "3", "--bot", "random",
              "--baseline", "colty"]
    serial = run_json(*common, "--workers", "1")
    pooled = run_json(*common, "--workers", "2")
    on_cluster, workers = _workers_that_played(cluster["address"], *common,
                                               "--scheduler", cluster["address"])
    assert serial == pooled, _differing(serial, pooled)
    assert on_cluster == serial, _differing(serial, on_cluster)
    assert serial["games"] == 24
    assert len(workers) == 2  # both workers played games, not this process


@needs_dask
def test_optimize_on_the_cluster_matches_this_process(cluster: dict[str, str],
                                                      tmp_path: Path) -> None:
    cards = dict(default_catalog().base_deck("revolver", "mcready"))
    del cards["deputy"]
    cards["texas-ranger"] = 10
    deck = tmp_path / "weakened.yaml"
    deck.write_text("name: McReady without his deputies\ngame: revolver\nfaction: mcready\n"
                    "cards:\n" + "".join(f"  {card}: {n}\n" for card, n in cards.items()),
                    encoding="utf-8")
    collection = tmp_path / "collection.yaml"
    collection.write_text("name: base and five stars\nsets:\n  revolver-base: 1\n"
                          "  tarnished-star: 5\n", encoding="utf-8")
    common = ["optimize", deck, "--collection", collection, "--out", "texas-ranger",
              "--budget", "120", "--seed", "2", "--bot", "random"]
    serial = run_json(*common, "--workers", "1")
    # the scheduler file works as the address too
    on_cluster, workers = _workers_that_played(cluster["address"], *common,
                                               "--scheduler", cluster["file"])
    assert on_cluster == serial
    assert serial["games"] > 0 and serial["finalists"] and workers


@needs_dask
def test_a_worker_with_another_catalog_refuses_to_play(cluster: dict[str, str]) -> None:
    # This client's home gets an overlay the workers' home does not have.
    code, out, err = invoke("overlay", "set", "deputy", "firepower", "3", "--source", "test")
    assert code == 0, out + err
    code, out, err = invoke("simulate", "colty", "--games", "8", "--bot", "random",
                            "--scheduler", cluster["address"])
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "different catalog" in lines[0] and "revolver-base" in lines[0]
    assert "Traceback" not in err and out == ""


@needs_dask
def test_simulate_on_a_local_dask_cluster_matches_this_process() -> None:
    common = ["simulate", "mcready", "--games", "10", "--seed", "7", "--bot", "random"]
    assert run_json(*common, "--dask", "--workers", "2") == run_json(*common, "--workers", "1")


@needs_dask
def test_an_unreachable_scheduler_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DaskExecutor, "CONNECT_SECONDS", 1)
    code, _, err = invoke("simulate", "colty", "--games", "2", "--scheduler",
                          "tcp://127.0.0.1:1")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "cannot use the Dask scheduler at tcp://127.0.0.1:1" in err


# -- the fingerprint and deckbuilder without dask ----------------------------------------------
def test_the_fingerprint_names_an_extra_set_and_ignores_where_files_lie(tmp_path: Path) -> None:
    packaged = build_catalog(user_sets=[])
    extra = build_catalog(user_sets=[SET_FIXTURES / "homebrew-base.yaml"])
    assert catalog_fingerprint(packaged) == catalog_fingerprint(build_catalog(user_sets=[]))
    assert catalog_fingerprint(packaged) != catalog_fingerprint(extra)
    message = mismatch_message(catalog_fingerprint(packaged), catalog_fingerprint(extra),
                               "tcp://w:1")
    added = sorted(set(extra.sets) - set(packaged.sets))
    assert added and f"sets only on the worker: {', '.join(added)}" in message
    assert "only here" not in message and "different content" not in message


def test_without_dask_the_dask_options_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    for command in (["simulate", "colty", "--games", "2", "--dask"],
                    ["optimize", "colty", "--budget", "20", "--scheduler", "tcp://x:1"]):
        code, out, err = invoke(*command)
        assert code == 2, out + err
        assert len(err.strip().splitlines()) == 1 and INSTALL_HINT in err, err


def test_deckbuilder_imports_and_runs_without_importing_dask() -> None:
    code = ("import sys, deckbuilder.cli, deckbuilder.sim.runs.dask_executor\n"
            "import deckbuilder.sim.runs.runner\n"
            "assert not {'dask', 'distributed'} & set(sys.modules), 'dask was imported'\n"
            "sys.modules['dask'] = sys.modules['distributed'] = None  # as if not installed\n"
            "sys.argv = ['deckbuilder', 'simulate', 'colty', '-n', '3', '--workers', '2']\n"
            "deckbuilder.cli.main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("3 games of colty base deck"), done.stdout

"""How long `pip install .` takes, compiled and plain, as a user runs it: CPU and wall.

    python benchmarks/bench_build.py                 # compiled, then plain
    python benchmarks/bench_build.py --only compiled --runs 3
    python benchmarks/bench_build.py --only compiled --runs 2 --against 7cbc295

Each run copies the committed sources (`git archive HEAD`, so no build folder or edit of the
working tree comes along), makes a fresh virtual environment and times `pip install .` in it:
CPU seconds (user + system of pip and everything it starts: the isolated build, mypyc, the C
compiler) and wall seconds. The compiled runs keep nothing in the cache of built modules
(`DECKBUILDER_BUILD_CACHE=off`: every run compiles). Downloads come from pip's own cache after
the first run. The figures move with the host's load: CPU time by a third from run to run on
the project's shared 2-core machine (docs/maintainers/performance.md, "Building it").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDS = {"compiled": {"DECKBUILDER_COMPILE": "1", "DECKBUILDER_BUILD_CACHE": "off"},
          "plain": {"DECKBUILDER_COMPILE": "0"}}


def committed_sources(folder: Path, commit: str) -> None:
    """The checkout's `commit`, unpacked into `folder`."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)


def timed_install(build: str, commit: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `pip install .` of the given build of `commit`."""
    with tempfile.TemporaryDirectory(prefix="bench-build-") as work:
        source, environment = Path(work, "source"), Path(work, "venv")
        source.mkdir()
        committed_sources(source, commit)
        venv.create(environment, with_pip=True)
        python = environment / "bin" / "python"
        env = {key: value for key, value in os.environ.items()
               if key not in {"DECKBUILDER_COMPILE", "VIRTUAL_ENV"}}
        before, started = os.times(), time.monotonic()
        done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "."], cwd=source,
                              env={**env, **BUILDS[build]}, capture_output=True, text=True)
        wall, after = time.monotonic() - started, os.times()
        if done.returncode != 0:
            raise SystemExit(f"pip install of the {build} build failed:\n{done.stderr[-2000:]}")
        cpu = (after.children_user - before.children_user
               + after.children_system - before.children_system)
        return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(BUILDS), help="one build only")
    parser.add_argument("--runs", type=int, default=1, help="runs of each build")
    parser.add_argument("--against", metavar="COMMIT",
                        help="also time this commit's install, run for run beside HEAD's "
                             "(the same load for both: a yardstick for a change)")
    options = parser.parse_args()
    commits = ["HEAD", *([options.against] if options.against else [])]
    shown = {commit: subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT,
                                    check=True, capture_output=True, text=True).stdout.strip()
             for commit in commits}
    print(f"pip install . of {', '.join(shown.values())}, a fresh environment each run; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    for build in [options.only] if options.only else list(BUILDS):
        for _ in range(max(1, options.runs)):
            for commit in commits:
                cpu, wall = timed_install(build, commit)
                print(f"{build:<8} {shown[commit]:<9} {cpu:6.1f} s CPU {wall:6.1f} s wall "
                      f"(load average {os.getloadavg()[0]:.1f})", flush=True)

if __name__ == "__main__":
    sys.exit(main())

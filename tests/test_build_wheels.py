"""Real builds, as pip runs them (isolated, PEP 517), on a machine without a C compiler
(`CC` pointing nowhere): the default build is a plain, pure-Python wheel and says why; a
required compiled build fails instead. The compiled wheel itself is built by CI (.ci/run) and
checked by tests/test_compiled.py. Slow: each build sets up its own environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What building the package needs of the checkout.
SOURCES = ("pyproject.toml", "setup.py", "compiled-modules.txt", "README.md", "LICENSE",
           "MANIFEST.in")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        shutil.copy2(ROOT / name, folder / name)
    shutil.copytree(ROOT / "deckbuilder", folder / "deckbuilder", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    return folder


def pip_environment(out: Path, **environment: str) -> dict[str, str]:
    """The environment of a build: no DECKBUILDER_COMPILE but the test's, and a cache of
    built modules of its own (none: setup.py would copy modules built before)."""
    env = {key: value for key, value in os.environ.items() if key != "DECKBUILDER_COMPILE"}
    return {**env, "DECKBUILDER_BUILD_CACHE": str(out / "build-cache"), **environment}


def pip_wheel(source: Path, out: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=600, env=pip_environment(out, **environment))


def on_a_terminal(command: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run `command` with a terminal of its own (a pseudo-terminal, its controlling one) as a
    user at a shell would, its stdout and stderr captured apart: (exit code, what reached
    the terminal, the captured output)."""
    import fcntl
    import termios

    terminal, child_side = os.openpty()

    def take_the_terminal() -> None:
        fcntl.ioctl(child_side, termios.TIOCSCTTY, 0)

    with tempfile.TemporaryFile("w+") as captured:
        process = subprocess.Popen(command, stdin=child_side, stdout=captured,
                                   stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                   preexec_fn=take_the_terminal)
        os.close(child_side)
        shown = b""
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the terminal's last user is gone
                break
            if not chunk:
                break
            shown += chunk
        code = process.wait(timeout=600)
        os.close(terminal)
        captured.seek(0)
        return code, shown.decode(errors="replace"), captured.read()


def test_without_a_compiler_pip_builds_a_plain_wheel_and_says_so(source: Path,
                                                                   tmp_path: Path) -> None:
    done = pip_wheel(source, tmp_path, CC="/nonexistent/cc")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert [wheel.name for wheel in tmp_path.glob("*.whl")] == [
        "revolver_deckbuilder-0.1.0-py3-none-any.whl"]
    assert "deckbuilder build: WARNING: no working C compiler" in output
    assert "built as plain Python" in output
    assert "Collecting mypy" not in output  # nothing fetched for a build that cannot compile


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_without_verbose_the_fall_back_still_reaches_the_users_terminal(
        source: Path, tmp_path: Path) -> None:
    """pip shows a build's output only under -v; the warning reaches the terminal anyway,
    once (pip runs setup.py for each of its questions)."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path),
               str(source)]
    code, shown, captured = on_a_terminal(command, pip_environment(tmp_path,
                                                                   CC="/nonexistent/cc"))
    assert code == 0, captured[-3000:]
    assert "deckbuilder build: WARNING" not in captured  # pip hid the build's own output
    assert shown.count("deckbuilder build: WARNING: no working C compiler") == 1, shown
    assert "plain Python" in shown


def test_a_required_compiled_build_fails_without_a_compiler(source: Path,
                                                             tmp_path: Path) -> None:
    done = pip_wheel(source, tmp_path, CC="/nonexistent/cc", DECKBUILDER_COMPILE="1")
    assert done.returncode != 0
    assert "DECKBUILDER_COMPILE=1 but no C extension can be built here" in (done.stdout
                                                                            + done.stderr)
    assert not list(tmp_path.glob("*.whl"))


def test_the_opt_out_builds_plain_without_a_warning(source: Path, tmp_path: Path) -> None:
    done = pip_wheel(source, tmp_path, DECKBUILDER_COMPILE="0")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert [wheel.name for wheel in tmp_path.glob("*.whl")] == [
        "revolver_deckbuilder-0.1.0-py3-none-any.whl"]
    assert "deckbuilder build: WARNING" not in output

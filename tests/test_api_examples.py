"""The examples of the Python API page (docs/reference/python-api.md) run as they stand and
pass `mypy --strict`: a script copied from the page works and type-checks, so the page cannot
promise what the API no longer does."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "python-api.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[str]:
    """Every ```python block of the page, in order."""
    return _BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_shows_each_function_of_the_api() -> None:
    shown = "\n".join(examples())
    assert len(examples()) >= 5
    for call in ("deckbuilder.simulate(", "deckbuilder.gauntlet(", "deckbuilder.tournament(",
                 "deckbuilder.optimize(", "except deckbuilder.DeckbuilderError"):
        assert call in shown, f"no example calls {call}"


@pytest.mark.parametrize("number", range(len(examples())))
def test_the_example_runs(number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / f"example_{number}.py"
    script.write_text(examples()[number], encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # an example may write a file (a game record)
    runpy.run_path(str(script), run_name="__main__")  # an example's asserts hold, or it fails


def _mypy_strict(folder: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` over the scripts in `folder`, the package's types read from this
    checkout (the editable install hides them from mypy) without checking the package's
    own code strictly."""
    environment = {**os.environ, "MYPYPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--cache-dir", str(cache), "--no-error-summary", *sorted(map(str, folder.glob("*.py")))],
        capture_output=True, text=True, env=environment, cwd=folder, timeout=600, check=False)


def test_the_examples_pass_mypy_strict(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    pytest.importorskip("mypy")
    for number, text in enumerate(examples()):
        (tmp_path / f"example_{number}.py").write_text(text, encoding="utf-8")
    # a planted mistake beside them: the check must see a wrong attribute of a result
    (tmp_path / "planted.py").write_text(
        "import deckbuilder\n\n"
        "result = deckbuilder.simulate('colty', games=2)\n"
        "print(result.win_rate.percent)\n", encoding="utf-8")
    pytest_cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    cache = pytest_cache.mkdir("mypy-api-examples") if pytest_cache is not None \
        else tmp_path / ".mypy_cache"
    checked = _mypy_strict(tmp_path, cache)
    problems = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert problems and all(line.startswith("planted.py:4:") for line in problems), \
        checked.stdout + checked.stderr

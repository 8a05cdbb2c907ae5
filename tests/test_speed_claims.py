"""Claims come from measurements: every speed-up the tool and its docs quote is read from
deckbuilder/data/speed.json (`build.speed_claim`), which benchmarks/bench_games.py --write keeps
with the commit measured."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from deckbuilder import build

ROOT = Path(__file__).resolve().parent.parent
#: "2.8 to 5.1 times as fast", a bracket allowed after each figure ("2.8 (random play) to ...").
QUOTED = re.compile(r"(\d+\.\d+)(?: \([^)]*\))?\s+to\s+(\d+\.\d+)(?: \([^)]*\))?\s+times\s+"
                    r"(?:as fast|slower)")


def figures() -> tuple[str, str, str]:
    """The low and high figures and the commit, as `speed_claim` says them."""
    found = re.fullmatch(r"(\S+) to (\S+) times as fast \(measured at (.+)\)",
                         build.speed_claim())
    assert found is not None, build.speed_claim()
    low, high, commit = found.groups()
    return low, high, commit


def test_the_claim_is_the_files_figures() -> None:
    data = json.loads(build.SPEED_FILE.read_text(encoding="utf-8"))["builds"]
    fast, slow = data[build.COMPILED]["x_uno"], data[build.PLAIN]["x_uno"]
    ratios = [fast[row] / slow[row] for row in fast]
    low, high, commit = figures()
    assert (low, high) == (f"{min(ratios):.1f}", f"{max(ratios):.1f}")
    assert commit == data[build.COMPILED]["commit"] == data[build.PLAIN]["commit"]
    assert build.speed_claim() in build.FASTER_BUILD_HINT


@pytest.mark.parametrize("page", [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"],
                         ids=lambda path: path.name)
def test_the_docs_quote_the_measured_figures(page: Path) -> None:
    low, high, _commit = figures()
    text = page.read_text(encoding="utf-8")
    for quoted in QUOTED.finditer(text):
        assert quoted.groups() == (low, high), (page.name, quoted.group(0))


def test_the_performance_page_names_the_commit_and_each_figure() -> None:
    page = (ROOT / "docs" / "maintainers" / "performance.md").read_text(encoding="utf-8")
    low, high, commit = figures()
    assert f"At `{commit}` the compiled build played {low} to {high} times as fast" in page
    data = json.loads(build.SPEED_FILE.read_text(encoding="utf-8"))["builds"]
    for measured in data.values():
        for figure in measured["x_uno"].values():
            assert f"{figure:.3f}" in page


def test_no_source_writes_a_figure_of_its_own() -> None:
    sources = [ROOT / "setup.py", *(ROOT / "deckbuilder").rglob("*.py")]
    for source in sources:
        assert not QUOTED.search(source.read_text(encoding="utf-8")), source


def test_setup_reads_the_claim_without_the_package_installed(tmp_path: Path) -> None:
    """setup.py runs before any install: it loads build.py by its path."""
    copy = tmp_path / "src"
    (copy / "deckbuilder" / "data").mkdir(parents=True)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copy(ROOT / "deckbuilder" / "build.py", copy / "deckbuilder" / "build.py")
    shutil.copy(build.SPEED_FILE, copy / "deckbuilder" / "data" / "speed.json")
    spec = importlib.util.spec_from_file_location("setup_under_test", copy / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert build.speed_claim() == module.SPEED and build.speed_claim() in module.PLAIN_COST


def test_the_benchmark_writes_this_builds_row_and_the_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "speed.json"
    shutil.copy(build.SPEED_FILE, kept)
    monkeypatch.setattr(build, "SPEED_FILE", kept)
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    pytest.importorskip("yardstick")
    sys.modules.pop("bench_games", None)
    import bench_games

    medians = {"revolver random": 2.0, "revolver greedy": 0.5, "revolver2 random": 2.0,
               "revolver2 greedy": 0.5}
    bench_games.write_speed(medians)
    written = json.loads(kept.read_text(encoding="utf-8"))["builds"][build.describe()]
    assert written["x_uno"] == medians and re.fullmatch(r"[0-9a-f]{7,}", written["commit"])

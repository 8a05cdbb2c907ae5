"""The examples in the package's docstrings run (the README's test command runs them, so a
docstring cannot promise what the code no longer does)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import deckbuilder

#: Modules whose import needs an optional extra; they are checked when it is installed.
OPTIONAL = {"deckbuilder.sim.runs.dask_executor": "distributed",
            "deckbuilder.sim.reports.png_charts": "matplotlib", "deckbuilder.web": "starlette"}


def _modules() -> list[str]:
    # `__main__` runs the command line when imported: it holds no examples.
    return sorted(info.name for info in pkgutil.walk_packages(deckbuilder.__path__,
                                                             "deckbuilder.")
                  if not info.name.endswith("__main__"))


@pytest.mark.parametrize("name", _modules())
def test_the_docstring_examples_run(name: str) -> None:
    needs = next((extra for prefix, extra in OPTIONAL.items() if name.startswith(prefix)), None)
    if needs is not None:
        pytest.importorskip(needs, reason=f"{name} needs the optional {needs}")
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_found() -> None:
    """The finder sees the package's examples (a doctest runner that finds none passes
    everything)."""
    found = sum(len(test.examples) for name in ("deckbuilder", "deckbuilder.games",
                                                "deckbuilder.rulesets")
                for test in doctest.DocTestFinder().find(importlib.import_module(name), name))
    assert found >= 5

"""The fast lane's table (conftest.SLOW) stays true: every entry names a test module, or a test
in one, that exists (a renamed test would otherwise fall silently into the fast lane, or an
entry outlive its test), and the `slow` marker is registered, so `-m "not slow"` means it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import SLOW

TESTS = Path(__file__).resolve().parent


def _top_level_names(module: Path) -> set[str]:
    """The functions, classes and assigned names a test module defines at its top level."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


@pytest.mark.parametrize("entry", sorted(SLOW))
def test_each_slow_entry_names_a_test_that_exists(entry: str) -> None:
    module, _, test = entry.partition("::")
    path = TESTS / f"{module}.py"
    assert path.is_file(), f"conftest.SLOW names {module}, which is not a test module"
    if test:
        assert test.startswith("test") and test in _top_level_names(path), \
            f"conftest.SLOW names {entry}, but {module} has no such test"
    assert SLOW[entry].strip(), f"{entry} needs its reason"


def test_the_slow_marker_is_registered(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))

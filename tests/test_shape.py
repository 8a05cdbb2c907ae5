"""The package keeps its shape: no function of `deckbuilder/` over 80 lines (DESIGN.md,
"Habits"). A function that grows past it is split into parts whose names say why.

A function's lines run from its `def` (its decorators left out) to its last line, docstring
and comments included, as `ast` reports them; a nested function counts within its parent and
on its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckbuilder"

#: The most lines a function may take.
MOST_LINES = 80


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every function and method in `source`."""
    return [(node.name, node.lineno, (node.end_lineno or node.lineno) - node.lineno + 1)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_lengths_are_counted_from_def_to_the_last_line() -> None:
    body = "".join(f"    x = {n}\n" for n in range(MOST_LINES))
    source = f"@decorated\ndef long():\n{body}\ndef short():\n    pass\n"
    assert function_lengths(source) == [("long", 2, MOST_LINES + 1), ("short", MOST_LINES + 4, 2)]


def test_no_function_in_the_package_is_over_80_lines() -> None:
    too_long = [f"{path.relative_to(PACKAGE.parent)}:{line} {name} ({lines} lines)"
                for path in sorted(PACKAGE.rglob("*.py"))
                for name, line, lines in function_lengths(path.read_text(encoding="utf-8"))
                if lines > MOST_LINES]
    assert not too_long, f"over {MOST_LINES} lines (split into named parts):\n" + \
        "\n".join(too_long)

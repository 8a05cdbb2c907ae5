"""No dead code in the package: every function, method, property, class and import of
`deckbuilder/` is used somewhere (by the package, its tests, benchmarks or scripts).

vulture reads the code as text, so it cannot see what a framework calls by itself; those
uses are named below, each with its reason, and the list stays short. Code that is used only
by a name built at run time would need its line here too: keep such code rare.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What frameworks call through a decorator: typer commands and callbacks, pydantic validators.
CALLED_BY_DECORATORS = ("@*.command", "@*.callback", "@model_validator", "@field_validator")

#: Names a framework or Python calls by itself, or the public API offers without a caller.
CALLED_BY_NAME = (
    "__getattr__",  # deckbuilder/__init__.py: the module's lazy attributes (PEP 562)
    "list_commands",  # cli.py: click asks the group for its commands' order
    "redirect_request",  # app/table_client.py: urllib's redirect handler hook
    "get_source",  # web/pages.py: Jinja's loader hook (GameTemplates)
    "loss_rate",  # app/results.py: SimulationResult's public figure (the Python API page)
)

#: The kinds of finding that mean dead code (unused variables and attributes are left out:
#: pydantic fields and dataclass fields read by serialisers would all be flagged).
DEAD = re.compile(r"^(deckbuilder/\S+): unused (function|method|property|class|import) ")


@pytest.mark.skipif(importlib.util.find_spec("vulture") is None,
                    reason="vulture is not installed (pip install -e '.[test]' brings it)")
def test_nothing_in_the_package_is_dead() -> None:
    found = subprocess.run(
        [sys.executable, "-m", "vulture", "deckbuilder", "tests", "benchmarks", "scripts",
         "--min-confidence", "60", "--ignore-decorators", ",".join(CALLED_BY_DECORATORS),
         "--ignore-names", ",".join(CALLED_BY_NAME)],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert found.returncode in (0, 3), found.stderr  # 3: vulture found something
    dead = [line for line in found.stdout.splitlines() if DEAD.match(line)]
    assert not dead, "dead code (delete it, or name why it lives in CALLED_BY_NAME):\n" + \
        "\n".join(dead)

"""Which deckbuilder the tests import: the installed distribution, never the checkout by accident.

`python -m pytest` run from the checkout puts the checkout's folder first on `sys.path`, ahead
of site-packages, so its `deckbuilder/` would shadow the installed package (and its
`*.egg-info`, the installed metadata). tests/conftest.py takes the checkout off `sys.path`
unless the installed package is an editable install of it; tests/test_packaging.py checks the
package imported is the installed one.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "revolver-deckbuilder"
#: Set (CI does): the package must be a non-editable install, never the checkout's folder.
INSTALLED_VARIABLE = "DECKBUILDER_TEST_INSTALLED"


def off_the_checkout(entries: list[str]) -> list[str]:
    """`sys.path` without the checkout's folder."""
    return [entry for entry in entries if Path(entry or ".").resolve() != ROOT]


def installed_distribution() -> metadata.Distribution | None:
    """The installed distribution, looked up off the checkout (None: not installed)."""
    found = metadata.distributions(name=DISTRIBUTION, path=off_the_checkout(sys.path))
    return next(iter(found), None)


def is_editable(distribution: metadata.Distribution) -> bool:
    """An editable install (`pip install -e`): the installed package is the checkout."""
    direct_url = json.loads(distribution.read_text("direct_url.json") or "{}")
    return bool(direct_url.get("dir_info", {}).get("editable"))

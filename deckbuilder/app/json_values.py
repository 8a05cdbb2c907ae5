"""Model values as the plain data JSON output carries (what `--json` prints and the web
app's endpoints return)."""

from __future__ import annotations

import json
from typing import Any


def plain_value(value: Any) -> Any:
    """A model value as JSON-ready data (models dumped, lists walked)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    return value


def as_plain_json(report: dict[str, Any]) -> dict[str, Any]:
    """A report in the types JSON output has once printed (tuples as lists)."""
    return dict(json.loads(json.dumps(report)))

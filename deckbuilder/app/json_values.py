"""Model values as the plain data JSON output carries (what `--json` prints and the web
app's endpoints return)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from pydantic import BaseModel, JsonValue


def plain_value(value: object) -> object:
    """A model value as JSON-ready data (models dumped, lists walked)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    return value


def as_plain_json(report: Mapping[str, object]) -> dict[str, JsonValue]:
    """A report in the types JSON output has once printed (tuples as lists)."""
    return dict(json.loads(json.dumps(report)))

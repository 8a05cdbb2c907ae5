"""JSON from outside read with a bound on nesting, and model values as JSON carries them.

Python's `json` parser recurses once per level: a body of 1,000 `[` raises RecursionError
(a bare 500). Nothing we read nests more than a few levels, so deeper is `TooDeep`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, JsonValue

from deckbuilder.errors import DeckbuilderError, Location

#: The deepest nesting of arrays and objects accepted (a deck request is 4 levels deep).
MAX_DEPTH = 32
#: A JSON string, skipped when counting brackets (a `[` inside a name is no nesting);
#: possessive, and its closing quote optional, so no input makes it backtrack.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_ALL_BYTES = bytes(range(256))
_NOT_BRACKETS = bytes(byte for byte in _ALL_BYTES if byte not in b"[]{}")
_INNERMOST = (b"[]", b"{}", b"[}", b"{]")


class TooDeep(ValueError):
    """JSON nested deeper than `MAX_DEPTH`."""


def deeper_than(raw: bytes, limit: int) -> bool:
    """Whether the arrays and objects of `raw` nest more than `limit` levels (strings
    skipped), found without recursion: keep only the brackets, then take away the innermost
    pairs level by level; a level past `limit` is too deep (each step runs in C, so a 1 MB
    body is checked in milliseconds). Unbalanced input is left to the parser to refuse.

    >>> deeper_than(b'{"deck": {"cards": [["a[b", 1]]}}', 4), deeper_than(b"[[[]]]", 2)
    (False, True)
    """
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    for _ in range(limit + 1):
        inner = brackets
        for pair in _INNERMOST:
            inner = inner.replace(pair, b"")
        if len(inner) == len(brackets):  # nothing (left) to take away: not that deep
            return False
        brackets = inner
    return True


def parse_json(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads(raw)`: ValueError (`TooDeep` too) or UnicodeDecodeError, never
    RecursionError."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if deeper_than(data, max_depth):
        raise TooDeep(f"it is nested more than {max_depth} levels deep")
    try:
        return json.loads(data)
    except RecursionError:  # not reached below MAX_DEPTH; kept as the last line of defence
        raise TooDeep(f"it is nested more than {max_depth} levels deep") from None


def json_object(raw: bytes, error: type[DeckbuilderError], fix: str,
                where: Location | None = None) -> dict[str, Any]:
    """A request body's JSON object (an empty body: `{}`), else `error` in one line."""
    try:
        data = parse_json(raw or b"{}")
    except TooDeep as problem:
        raise error(f"the request's JSON is refused: {problem}", where, fix) from None
    except ValueError:  # UnicodeDecodeError included
        raise error("the request is not JSON", where, fix) from None
    if not isinstance(data, dict):
        raise error("the request is not a JSON object", where, fix)
    return data


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

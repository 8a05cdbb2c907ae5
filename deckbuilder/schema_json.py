"""How a model becomes a JSON Schema, and the line that names a schema in a YAML file: the
part of `deckbuilder.schemas` every layer may use (the user's schema copies need it; the full
set of schemas, with the scenarios', is `deckbuilder.schemas`)."""

from __future__ import annotations

from pydantic import BaseModel

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The `$id` of `<name>.schema.json` is this base followed by the file name.
SCHEMA_ID_BASE = "https://revolver-deckbuilder.github.io/schemas/"


def _close_pattern_properties(node: object) -> None:
    """Make id-keyed mappings refuse other keys in editors too: pydantic's
    `patternProperties` lets `../../x` pass, so the pattern goes into `propertyNames`."""
    if isinstance(node, dict):
        patterns = node.get("patternProperties")
        if isinstance(patterns, dict) and len(patterns) == 1:
            (pattern,) = patterns
            names = node.setdefault("propertyNames", {})
            if isinstance(names, dict):
                names.setdefault("pattern", pattern)
        for child in node.values():
            _close_pattern_properties(child)
    elif isinstance(node, list):
        for child in node:
            _close_pattern_properties(child)


def schema_id(file_name: str) -> str:
    """The stable identifier of a schema file (the same wherever a copy of it lives)."""
    return SCHEMA_ID_BASE + file_name


def schema_for(model: type[BaseModel], file_name: str) -> dict[str, object]:
    schema = model.model_json_schema(mode="validation")
    _close_pattern_properties(schema)
    return {"$schema": DIALECT, "$id": schema_id(file_name), **schema}


HEADER_PREFIX = "# yaml-language-server: $schema="


def header_line(reference: str) -> str:
    """The modeline yaml-language-server (VS Code, Neovim, ...) reads: a path or a URI."""
    return HEADER_PREFIX + reference

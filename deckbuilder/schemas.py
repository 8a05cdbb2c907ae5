"""JSON Schemas (draft 2020-12) generated from the models; the committed files must match."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from deckbuilder.models import CardSet, Collection, Deck, Overlay
from deckbuilder.paths import PACKAGED_SCHEMAS

DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: schema file name -> model. Other modules (scenarios) add theirs through `register_schema`.
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "card-set.schema.json": CardSet,
    "deck.schema.json": Deck,
    "collection.schema.json": Collection,
    "overlay.schema.json": Overlay,
}


def register_schema(file_name: str, model: type[BaseModel]) -> None:
    SCHEMA_MODELS[file_name] = model


def _load_extra_models() -> None:
    from deckbuilder.scenarios.model import Scenario

    register_schema("scenario.schema.json", Scenario)


def _close_pattern_properties(node: object) -> None:
    """Make id-keyed mappings refuse other keys in editors too, as pydantic does at load time.

    Pydantic renders `dict[CardId, X]` as `patternProperties`, which only constrains keys that
    match; a key like `../../x` would pass. Copy the pattern into `propertyNames`.
    """
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


def schema_for(model: type[BaseModel], file_name: str) -> dict[str, object]:
    schema = model.model_json_schema(mode="validation")
    _close_pattern_properties(schema)
    return {"$schema": DIALECT, "$id": file_name, **schema}


def render_all() -> dict[str, str]:
    """File name -> JSON text, exactly as committed."""
    _load_extra_models()
    return {
        name: json.dumps(schema_for(model, name), indent=2, sort_keys=False) + "\n"
        for name, model in sorted(SCHEMA_MODELS.items())
    }


def write_all(folder: Path = PACKAGED_SCHEMAS) -> list[Path]:
    from deckbuilder.writing import atomic_write_text

    written = []
    for name, text in render_all().items():
        atomic_write_text(folder / name, text)
        written.append(folder / name)
    return written


def stale_files(folder: Path = PACKAGED_SCHEMAS) -> list[str]:
    """Schema files that differ from what the models generate now."""
    stale = []
    for name, text in render_all().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return stale


def schema_header(file_name: str, relative_to_schemas: str = "../schemas") -> str:
    """The first line of a YAML data file: names its schema for editor completion."""
    return f"# yaml-language-server: $schema={relative_to_schemas}/{file_name}"

"""JSON Schemas (draft 2020-12) generated from the models; the committed files must match.

Each schema's `$id` is a stable URL (`schema_json.SCHEMA_ID_BASE`): an identifier (editors and
validators tell the schemas apart by it), not a promise that the address can be fetched. Data
files name their schema by a path that resolves where they live (`schema_json.header_line`);
the user's data folder holds its own copies (`deckbuilder.user_schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from deckbuilder.models import CardSet, Collection, Deck, Overlay
from deckbuilder.paths import PACKAGED_SCHEMAS
from deckbuilder.schema_json import schema_for

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
    from deckbuilder.data_packs.model import DataPack
    from deckbuilder.scenarios.model import Scenario

    register_schema("scenario.schema.json", Scenario)
    register_schema("data-pack.schema.json", DataPack)


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



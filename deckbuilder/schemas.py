"""JSON Schemas (draft 2020-12) generated from the models; the committed files must match.
Each `$id` is a stable identifier, not a promise that the address can be fetched.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from deckbuilder.models import CardSet, Collection, Deck, Overlay
from deckbuilder.paths import PACKAGED_SCHEMAS
from deckbuilder.schema_json import schema_for

#: schema file name -> model (`render_all` adds the scenarios' and the data packs').
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "card-set.schema.json": CardSet,
    "deck.schema.json": Deck,
    "collection.schema.json": Collection,
    "overlay.schema.json": Overlay,
}


def render_all() -> dict[str, str]:
    """File name -> JSON text, exactly as committed."""
    from deckbuilder.data_packs.model import DataPack
    from deckbuilder.scenarios.model import Scenario

    SCHEMA_MODELS.update({"scenario.schema.json": Scenario, "data-pack.schema.json": DataPack})
    return {
        name: json.dumps(schema_for(model, name), indent=2, sort_keys=False) + "\n"
        for name, model in sorted(SCHEMA_MODELS.items())
    }


def write_all(folder: Path = PACKAGED_SCHEMAS) -> list[Path]:
    from deckbuilder.writing import atomic_write_text

    texts = render_all()
    for name, text in texts.items():
        atomic_write_text(folder / name, text)
    return [folder / name for name in texts]


def stale_files(folder: Path = PACKAGED_SCHEMAS) -> list[str]:
    """Schema files that differ from what the models generate now."""
    return [name for name, text in render_all().items() if not (folder / name).exists()
            or (folder / name).read_text(encoding="utf-8") != text]



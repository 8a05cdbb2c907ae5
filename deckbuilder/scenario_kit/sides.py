"""Scenario models with one field per side, built from a game's side names (its declaration),
not written out by hand per game: `per_side("Sides", ("colty", "mcready"), list[CardInPlay],
default_factory=list)` is the model with a `colty` and a `mcready` field of that type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import Field, create_model

from deckbuilder.models.common import Strict


def per_side(name: str, sides: Sequence[str], annotation: object, *, default: object = None,
             default_factory: Callable[[], object] | None = None, doc: str | None = None,
             **constraints: Any) -> type[Strict]:
    """A `Strict` model named `name` (its title in the schema) with one optional field per
    side, each of type `annotation` with the default (or factory) and field constraints."""
    fields: dict[str, Any] = {}
    for side in sides:
        if default_factory is not None:
            info = Field(default_factory=default_factory, **constraints)
        else:
            info = Field(default, **constraints)
        fields[side] = (annotation, info)
    model: type[Strict] = create_model(name, __base__=Strict, __doc__=doc, **fields)
    return model


def literal_of(*values: str) -> Any:
    """`Literal[values...]` built from data (the sides a file may name)."""
    from typing import Literal

    return Literal.__getitem__(tuple(values))

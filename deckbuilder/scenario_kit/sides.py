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
    given: dict[str, Any] = {"default": default} if default_factory is None else {
        "default_factory": default_factory}
    model: type[Strict] = create_model(name, __base__=Strict, __doc__=doc, **side_fields(
        sides, annotation, **given, **constraints))
    return model


def side_fields(sides: Sequence[str], annotation: object, **field: Any) -> dict[str, Any]:
    """One model field a side, each `annotation` with `Field(**field)`."""
    return {side: (annotation, Field(**field)) for side in sides}


def literal_of(*values: str) -> Any:
    """`Literal[values...]` built from data (the sides a file may name)."""
    from typing import Literal

    return Literal.__getitem__(tuple(values))

"""Standoff's own card data (layer 1, like its declaration: it imports only deckbuilder's
models): one effect step and one card field of its own, added to the vocabulary and the card
model by `deckbuilder.models` because the declaration's `card_model` names this module."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from deckbuilder.models.common import Strict


class Reload(Strict):
    """Standoff's own step: the player draws `count` cards (a gun reloaded)."""

    do: Literal["reload"]
    count: int = Field(1, ge=1, le=6)


#: Standoff's own steps, added to the vocabulary.
STEPS: tuple[type[Strict], ...] = (Reload,)
#: Standoff's own card field: the bullets a gun holds (shown; six at most).
CARD_FIELDS: dict[str, Any] = {
    "bullets": (int, Field(0, ge=0, le=6, description="Standoff: the bullets a gun holds"))}

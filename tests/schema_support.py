"""What the editor-schema tests read out of a user deck schema."""

from __future__ import annotations

from typing import Any

from deckbuilder.user_schemas import cards_definition


def offered_cards(schema: dict[str, Any], game: str | None = None) -> dict[str, object]:
    """The card keys a user deck schema offers a deck of `game` (None: of any game)."""
    definitions: dict[str, Any] = schema.get("$defs", {})
    wanted = [cards_definition(game)] if game is not None else [
        name for name in definitions if name.endswith(cards_definition(""))]
    return {key: described for name in wanted
            for key, described in definitions.get(name, {}).get("properties", {}).items()}

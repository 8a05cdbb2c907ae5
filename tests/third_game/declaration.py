"""Standoff's static facts (layer 1: imports only deckbuilder's models).

The entry point `standoff = third_game.declaration:DECLARATION` in the group
`deckbuilder.games` (here `plugin_site/standoff_toy_game-0.1.dist-info/entry_points.txt`, in a
real plug-in its `pyproject.toml`) is the one registry line."""

from __future__ import annotations

from typing import Final

from deckbuilder.declaration import DecisionKind, GameDeclaration, SideDeclaration

#: Standoff's own decision: the sheriff may call for a truce (end the game) or fight on.
K_TRUCE: Final = 60

DECLARATION = GameDeclaration(
    id="standoff",
    title="Standoff (a toy game)",
    sides=(
        SideDeclaration("sheriff", "The Sheriff", ("Sheriff", "the law")),
        SideDeclaration("outlaws", "The Outlaws", ("Outlaws", "outlaw", "bandidos")),
    ),
    character_word="deputy",
    character_plural="deputies",
    default_ruleset="standoff-rules",
    spellings=("toy", "the standoff"),
    decision_kinds=(DecisionKind(K_TRUCE, "truce", "call a truce or fight on"),),
    entry="third_game.entry:GAME",
    card_model="third_game.card_model",
)

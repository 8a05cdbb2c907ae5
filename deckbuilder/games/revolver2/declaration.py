"""Revolver 2's static facts, declared once (layer 1: this module imports only models)."""

from __future__ import annotations

from typing import Final

from deckbuilder.declaration import DecisionKind, GameDeclaration, SideDeclaration

# Revolver 2's own decisions (the codes are fixed: records replay by them).
K_STAY: Final = 21  # an optional turn space: stay here or move on (BF_BASE + battlefield)
K_KEGS: Final = 22  # discard a card from hand for its powder kegs / ammunition
K_POKER: Final = 23  # choose a poker card, face down (the game's own pieces)

DECISION_KINDS: Final = (
    DecisionKind(K_STAY, "stay", "stay or move on"),
    DecisionKind(K_KEGS, "kegs", "discard a card for its symbols"),
    DecisionKind(K_POKER, "poker", "choose a poker card", secret=True,
                 secret_words="chooses a poker card face down"),
)

#: Spellings as the Revolver 2 rulebook writes them ("Padre Esteban" and the Malpaso
#: guardians, "guardianes"; "General Mapache").
DECLARATION = GameDeclaration(
    id="revolver2",
    title="Revolver 2: Last Stand at Malpaso",
    sides=(
        SideDeclaration("esteban", "Padre Esteban",
                        ("Padre Esteban", "Esteban", "guardians", "guardianes", "Malpaso",
                         "Malpaso guardians", "guardianes de Malpaso")),
        SideDeclaration("mapache", "General Mapache",
                        ("General Mapache", "Mapache", "Mapache's gang")),
    ),
    character_word="guardian",
    default_ruleset="rulebook-es",
    decision_kinds=DECISION_KINDS,
    spellings=("Revolver 2", "Revolver II", "r2", "Last Stand at Malpaso", "Malpaso"),
    entry="deckbuilder.games.revolver2.entry:GAME",
    card_model="deckbuilder.games.revolver2.card_model",
    card_counts=(("powder_kegs", "kegs"), ("ammunition", "ammunition")),
    ending_words=(
        ("guardians_wiped_out", "the guardians are wiped out"),
        ("esteban_survived_mine", "Padre Esteban survived the showdown at the mine"),
        ("guardian_survived_mine", "a guardian survived the showdown at the mine"),
        ("army_arrived", "the Mexican Army arrived"),
    ),
)

"""Revolver's static facts, declared once (layer 1: this module imports only models)."""

from __future__ import annotations

from typing import Final

from deckbuilder.declaration import DecisionKind, GameDeclaration, SideDeclaration

# Revolver's own decisions (the codes are fixed: records replay by them).
K_SAVE: Final = 14  # Derail the Train: save a bandit (one discard each) or stop
K_DUEL_CARD: Final = 24  # the saloon duel: the gang puts a card from hand face down
K_DUEL_RESPONSE: Final = 25  # the saloon duel: McReady calls the bluff, retreats or shows a card
K_DOLLARS: Final = 26  # McReady's choice (Tarnished Star B): one or two silver dollars
K_HIDE_CARD: Final = 27  # put a card from hand face down under a card (Strongbox): CARD range
K_HIDE_TOKEN: Final = 28  # hide a token in one hand (Reverend Henry Kane): MODE_BASE + 0 / 1
K_GUESS_HAND: Final = 29  # guess the hand holding the token: MODE_BASE + 0 / 1
K_FRONTIER_DRAW: Final = 30  # draw one card from the Frontier deck or both from your own

DECISION_KINDS: Final = (
    DecisionKind(K_SAVE, "save", "derail: save a bandit"),
    DecisionKind(K_DUEL_CARD, "duel-card", "duel: put a card face down", secret=True,
                 secret_words="puts a card face down on the duel card"),
    DecisionKind(K_DUEL_RESPONSE, "duel-response",
                 "duel: call the bluff, retreat or show a Lock card"),
    DecisionKind(K_DOLLARS, "dollars", "choose one or two silver dollars"),
    DecisionKind(K_HIDE_CARD, "hide-card", "choose a card to hide under it", secret=True,
                 secret_words="hides a card face down"),
    DecisionKind(K_HIDE_TOKEN, "hide-token", "hide the token in a hand", secret=True,
                 secret_words="hides the token in one hand"),
    DecisionKind(K_GUESS_HAND, "guess-hand", "guess the hand holding the token"),
    DecisionKind(K_FRONTIER_DRAW, "frontier-draw", "draw from the Frontier deck or your own"),
)

#: Spellings as the documents write them: the base rulebook ("the Colty gang", "Colonel
#: McReady"), the Tarnished Star sheet ("Colti").
DECLARATION = GameDeclaration(
    id="revolver",
    title="Revolver",
    sides=(
        SideDeclaration("colty", "Colty gang",
                        ("Colty gang", "Colti", "Colti gang", "Colty Gang", "gang")),
        SideDeclaration("mcready", "Colonel McReady",
                        ("McReady", "Mc Ready", "Colonel McReady", "Colonel",
                         "Colonel Ned McReady")),
    ),
    character_word="bandit",
    default_ruleset="rulebook-en",
    spellings=("Revolver 1", "Revolver I", "r1", "base"),
    other_factions=(SideDeclaration("frontier", "Frontier", ("Frontier", "Frontier deck")),),
    name_folds=(("colti", "colty"), ("amigos", "amigo")),
    card_counts=(("silver_dollars", "silver"),),
    decision_kinds=DECISION_KINDS,
    entry="deckbuilder.games.revolver.entry:GAME",
    card_model="deckbuilder.games.revolver.card_model",
    ending_words=(
        ("border_emptied", "the last Mexican Border token is gone"),
        ("train_reached", "the gang reached the 3:15 Express"),
        ("gang_wiped_out", "the gang is wiped out"),
        ("jack_killed", "Jack Colty is killed"),
        ("cortez_killed", "Cortez is killed before the train"),
        ("derail_failed", "Derail the Train failed"),
    ),
)

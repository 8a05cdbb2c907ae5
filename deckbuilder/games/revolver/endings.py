"""How a game of Revolver ends: its terminations, and what a death and a card's "you have
lost" mean under the chosen rule switches (the empty border is `GameRules.countdown_empty`)."""

from __future__ import annotations

from enum import StrEnum

from deckbuilder.engine.state import ATTACKER, State
from deckbuilder.games.revolver.facts import RevolverFacts


class Termination(StrEnum):
    """Revolver's endings (the values are what records and reports carry: keep them)."""

    BORDER_EMPTIED = "border_emptied"
    TRAIN_REACHED = "train_reached"
    GANG_WIPED_OUT = "gang_wiped_out"
    JACK_KILLED = "jack_killed"
    CORTEZ_KILLED = "cortez_killed"
    DERAIL_FAILED = "derail_failed"
    CARD_EFFECT = "card_effect"  # a card's "you have lost" other than Jack's
    TURN_CAP = "turn_cap"


def character_died(state: State, index: int) -> None:
    """A bandit died: the whole gang gone wins for McReady; so, under their readings, does
    Cortez's death before the train, or Jack's under a set's older mcready-victory=jack-killed.
    (Jack's own card says "on death: you have lost": the switch jack-death keeps or drops it,
    and `card_loss` names that ending.)"""
    if not any(state.alive):
        state.end_game(ATTACKER, Termination.GANG_WIPED_OUT)
        return
    facts: RevolverFacts = state.spec.facts
    extra = facts.mcready_extra
    if state.spec.characters[index].leader and extra == "jack-killed":
        state.end_game(ATTACKER, Termination.JACK_KILLED)
    elif index == facts.cortez and extra == "cortez-before-train" and \
            state.marker_bf < facts.cortez_deadline_bf:
        state.end_game(ATTACKER, Termination.CORTEZ_KILLED)


def card_loss(state: State, loser: int, source: int) -> None:
    """A card's "you have lost": Jack's and Cortez's own deaths are named as such."""
    spec = state.spec
    termination = Termination.CARD_EFFECT
    if source >= spec.n_cards:
        character = spec.characters[source - spec.character_base]
        if character.leader:
            termination = Termination.JACK_KILLED
        elif source - spec.character_base == spec.facts.cortez:
            termination = Termination.CORTEZ_KILLED
    state.end_game(1 - loser, termination)

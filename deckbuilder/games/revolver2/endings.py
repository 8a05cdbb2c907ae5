"""How a game of Revolver 2 ends: its terminations, and what a guardian's death and the
mine's showdown mean under the chosen rule switches (the rules base class ends the others)."""

from __future__ import annotations

from enum import StrEnum

from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver2.facts import Revolver2Facts


class Termination(StrEnum):
    """Revolver 2's endings (the values are what records and reports carry: keep them)."""

    GUARDIANS_WIPED_OUT = "guardians_wiped_out"
    ESTEBAN_SURVIVED_MINE = "esteban_survived_mine"
    GUARDIAN_SURVIVED_MINE = "guardian_survived_mine"  # the any-guardian-alive reading
    ARMY_ARRIVED = "army_arrived"
    CARD_EFFECT = "card_effect"
    TURN_CAP = "turn_cap"


def guardians_gone(state: State) -> bool:
    """No guardian in play (and, under `pile-counts`, none left in the pile either)."""
    if any(state.alive):
        return False
    facts: Revolver2Facts = state.spec.facts
    return not (facts.pile_counts and state.pile)


def character_died(state: State, index: int) -> None:
    if guardians_gone(state):
        state.end_game(ATTACKER, Termination.GUARDIANS_WIPED_OUT)


def check_mine(state: State) -> None:
    """At the end of Mapache's turn on the mine's showdown space: Padre Esteban (or, under
    the other reading, any guardian) has survived it."""
    facts: Revolver2Facts = state.spec.facts
    if state.marker_bf != facts.mine_bf or state.marker_space != facts.showdown_space:
        return
    if facts.any_guardian_survives:
        if any(state.alive):
            state.end_game(DEFENDER, Termination.GUARDIAN_SURVIVED_MINE)
    elif state.spec.leader >= 0 and state.alive[state.spec.leader]:
        state.end_game(DEFENDER, Termination.ESTEBAN_SURVIVED_MINE)

"""Derail the Train: the gang's table piece beside the 3:15 Express, usable once.

Everything at the current battlefield is discarded (impervious cards too; the Jackson Clan is
removed from the game instead under the rule switch jackson-clan-derailed); bandits die unless
saved by one discard each; saving none loses the game.
"""

from __future__ import annotations

from deckbuilder.engine.actions import CHARACTER_BASE, K_PAY, PASS
from deckbuilder.engine.board import character_dies, destroy_card, pay_next, push_steps
from deckbuilder.engine.effects import no_params
from deckbuilder.engine.possible import Impossible
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.declaration import K_SAVE
from deckbuilder.games.revolver.endings import Termination
from deckbuilder.games.revolver.facts import RevolverFacts

DERAIL = "derail"


def derail_available(state: State, player: int) -> str | None:
    facts: RevolverFacts = state.spec.facts  # typed: read natively, compiled
    if player == DEFENDER and state.marker_bf == facts.derail_bf and \
            DERAIL not in state.pieces_used:
        return DERAIL
    return None


#: where the rulebook says the gang may activate it
DERAIL_RULE = ("rulebook-en, Derail the train: onboard the 3:15 Express from Rattlesnake Station "
               "(and only once in a game) the Colty gang player can activate this card")


def derail_impossibilities(state: State) -> list[Impossible]:
    """A position with Derail the Train used while the marker is not on the train: the card
    is activated only there, and the marker never leaves the train again."""
    facts: RevolverFacts = state.spec.facts
    if DERAIL in state.pieces_used and facts.derail_bf >= 0 and \
            state.marker_bf != facts.derail_bf:
        train = state.spec.bfs[facts.derail_bf].name
        return [Impossible(f"Derail the Train is used, but the marker is not on {train}",
                           DERAIL_RULE, ("derail_used",))]
    return []


def use_derail(state: State, player: int) -> None:
    push_steps(state, state.spec.facts.derail_steps, (player, -1, state.marker_bf))


def describe_derail(state: State) -> str:
    return "activate Derail the Train"


def run_derail(state: State, task: tuple) -> None:
    player = task[2][0]
    bf = state.marker_bf
    state.pieces_used = state.pieces_used | {DERAIL}
    if state.verbose:
        state.note("Derail the Train!")
    removes = state.spec.facts.derail_removes
    def_of = state.spec.def_of
    for owner in (0, 1):
        for uid in list(state.rows[2 * bf + owner]):
            if state.placed[uid] is not None:  # not gone already with the card it lay under
                destroy_card(state, uid, def_of[uid] in removes)
    _save_next(state, player, ())


def _t_save_next(state: State, task: tuple) -> None:
    _save_next(state, task[1], task[2])


def _save_next(state: State, player: int, saved: tuple) -> None:
    pool = [i for i, alive in enumerate(state.alive) if alive and i not in saved]
    if not state.hands[player] or not pool:
        _derail_finish(state, saved)
        return
    state.decide(player, [PASS] + [CHARACTER_BASE + i for i in pool], _resume_save,
                 (player, saved), K_SAVE)


def _resume_save(state: State, action: int, data: tuple) -> None:
    player, saved = data
    if action == PASS:
        _derail_finish(state, saved)
        return
    saved = (*saved, action - CHARACTER_BASE)
    state.tasks.append((_t_save_next, player, saved))
    pay_next(state, player, 1, K_PAY)


def _derail_finish(state: State, saved: tuple) -> None:
    if not saved:
        state.end_game(ATTACKER, Termination.DERAIL_FAILED)
        return
    if state.verbose:
        names = ", ".join(state.spec.characters[i].name for i in saved)
        state.note(f"saved from the wreck: {names}")
    for index, alive in enumerate(state.alive):
        if alive and index not in saved and not state.over:
            character_dies(state, index)



#: Revolver's own effect steps.
STEPS = {"derail": (no_params, run_derail)}

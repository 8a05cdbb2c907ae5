"""Revolver's steps for the Frontier and Tarnished Star cards: a card hidden under a card (the
Strongbox) and taking it back, a card changing sides (its twin instance takes its place), the
hidden-token guess (Reverend Henry Kane), and plays forbidden here (Indian Burial ground).
They join the game through `RevolverRules.steps`; the table keeps the mechanics the roles
need (`engine.expansion_steps`). Runners follow `engine/effects.py`'s calling convention.
"""

from __future__ import annotations

import random
from typing import Any, Final

from deckbuilder.engine.actions import CHARACTER_BASE, MODE_BASE
from deckbuilder.engine.addons import attached_to
from deckbuilder.engine.board import act_on_source, find_row, lift, push_steps, take_from_hand
from deckbuilder.engine.chance import below
from deckbuilder.engine.effects import compile_steps, no_params
from deckbuilder.engine.expansion_steps import hidden_under, lay_face_down_under, run_static
from deckbuilder.engine.state import PLAYER_ZONES, State
from deckbuilder.games.revolver.declaration import K_GUESS_HAND, K_HIDE_CARD, K_HIDE_TOKEN

#: The decisions these steps open (Revolver's declaration; `describe` reads their actions).
KINDS: Final = frozenset({K_HIDE_CARD, K_HIDE_TOKEN, K_GUESS_HAND})
HANDS: Final = (0, 1)  # the two hands of the hidden-token guess (MODE_BASE + hand)
HAND_NAMES: Final = ("left", "right")


# -- a card hidden under a card (Strongbox) -------------------------------------------------
def run_hide_under(state: State, task: tuple) -> None:
    """The acting player puts one card from his hand face down under the source card."""
    player, source, _bf = task[2]
    if source < 0 or state.placed[source] is None:
        return
    hand = state.hands[player]
    if not hand:
        if state.verbose:
            state.note(f"no card in hand to put under {state.spec.card_def[source].name}")
        return
    def_of = state.spec.def_of
    choices = sorted({def_of[uid] for uid in hand})
    if len(choices) == 1:
        state.resolved_alone(player, K_HIDE_CARD, state.spec.card_action[choices[0]])
        lay_face_down_under(state, source, take_from_hand(state, player, choices[0]))
        return
    card_action = state.spec.card_action
    state.decide(player, [card_action[d] for d in choices], _resume_hide, (source, player),
                 K_HIDE_CARD)


def _resume_hide(state: State, action: int, data: tuple) -> None:
    source, player = data
    lay_face_down_under(state, source, take_from_hand(state, player, state.spec.action_def[action]))


def run_take_under(state: State, task: tuple) -> None:
    """The cards hidden under the source card go to their owner's hand."""
    source = task[2][1]
    if source < 0 or state.placed[source] is None:
        return
    for uid in hidden_under(state, source):
        state.remove_from_row(find_row(state, uid), uid)
        state.own_placed()[uid] = None
        state.own_eagle()[uid] = 0
        state.hands[state.spec.owner[uid]].append(uid)
        if state.verbose:
            state.note(f"the card under {state.spec.card_def[source].name} is taken into hand")


# -- changing sides (Reverend Henry Kane) ---------------------------------------------------
def _zone_holding(state: State, uid: int) -> tuple[list[int], int] | None:
    """The list holding out-of-play card `uid` and its index there."""
    owner = state.spec.owner[uid]
    for field, _name, _seen in PLAYER_ZONES:
        zone = getattr(state, field)[owner]
        if uid in zone:
            return zone, zone.index(uid)
    if uid in state.limbo:
        return state.limbo, state.limbo.index(uid)
    return None


def change_sides(state: State, uid: int) -> bool:
    """Card `uid` in play moves to the opposite column: its twin (`spec.twin`) takes its
    place with its mode and tokens, and `uid` takes the twin's place out of play; cards under
    it go to their owner's discard pile. False (nothing happens) without a twin out of play."""
    spec = state.spec
    twin = spec.twin[uid] if uid < len(spec.twin) else -1
    if twin < 0 or state.placed[uid] is None or state.placed[twin] is not None:
        if state.verbose:
            state.note(f"{spec.card_def[uid].name} cannot change sides (no other instance)")
        return False
    held = _zone_holding(state, twin)
    if held is None:
        return False
    zone, position = held
    if zone is state.limbo:
        zone[position] = uid
    else:
        field = next(f for f, _n, _s in PLAYER_ZONES if getattr(state, f)[spec.owner[twin]] is zone)
        zone.pop(position)
        getattr(state, field)[spec.owner[uid]].insert(position, uid)
    index = find_row(state, uid)
    for under in attached_to(state, uid, index) if spec.attaching else ():
        lift(state, under)
        state.discards[spec.owner[under]].append(under)
    state.remove_from_row(index, uid)
    state.add_to_row(index ^ 1, twin)
    state.own_placed()[twin] = state.placed[uid]
    state.own_power()[twin] = state.power[uid]
    state.own_grit()[twin] = state.grit[uid]
    state.own_eagle()[twin] = state.eagle[uid]
    state.own_placed()[uid] = None
    state.own_power()[uid] = state.own_grit()[uid] = state.own_eagle()[uid] = 0
    if state.verbose:
        state.note(f"{spec.card_def[uid].name} moves to the opposite column "
                   f"({spec.game_rules.side_names[spec.owner[twin]]}'s now)")
    return True


def run_change_sides(state: State, task: tuple) -> None:
    act_on_source(state, task, change_sides)


# -- the hidden-token guess (Reverend Henry Kane) -------------------------------------------
def run_guess_hand(state: State, task: tuple) -> None:
    """The source card's owner hides a token in one hand; then his opponent guesses."""
    ctx = task[2]
    source = ctx[1]
    if source < 0 or state.placed[source] is None:
        return
    owner = state.spec.owner[source]
    state.decide(owner, [MODE_BASE + hand for hand in HANDS], _resume_hidden,
                 (task[1], ctx), K_HIDE_TOKEN)


def _resume_hidden(state: State, action: int, data: tuple) -> None:
    steps, ctx = data
    guesser = 1 - state.spec.owner[ctx[1]]
    # pending_data holds the hidden hand; observe() never shows it, and `resample_guess`
    # re-deals it for the guesser
    state.decide(guesser, [MODE_BASE + hand for hand in HANDS], _resume_guess,
                 (steps, ctx, action - MODE_BASE), K_GUESS_HAND)


def _resume_guess(state: State, action: int, data: tuple) -> None:
    steps, ctx, hidden = data
    right = action - MODE_BASE == hidden
    if state.verbose:
        state.note(f"the guess is {'right' if right else 'wrong'}")
    if right:
        push_steps(state, steps, ctx)


def resample_guess(state: State, player: int, rng: random.Random) -> None:
    """On a re-dealt copy: `player`, about to guess, does not know which hand holds the token."""
    if state.pending_kind == K_GUESS_HAND and state.pending_player == player:
        steps, ctx, _hidden = state.pending_data  # the hand the opponent hid it in
        state.pending_data = (steps, ctx, below(rng, 2))


def describe(state: State, action: int) -> str | None:
    """The text of `action` in the decisions these steps open; None: the table's reading."""
    kind = state.pending_kind
    if kind == K_HIDE_CARD:
        spec = state.spec
        layout = spec.layout
        if layout.card_base <= action < layout.game_base:
            return f"hide {spec.defs[spec.action_def[action]].name}"
        return None
    if MODE_BASE <= action < CHARACTER_BASE and kind in (K_HIDE_TOKEN, K_GUESS_HAND):
        hand = HAND_NAMES[(action - MODE_BASE) % 2]
        return (f"hide the token in the {hand} hand" if kind == K_HIDE_TOKEN
                else f"guess the {hand} hand")
    return None


# -- plays forbidden here (Indian Burial ground) --------------------------------------------
def compile_forbid_here(step: Any, resolver: Any) -> frozenset[int]:
    """The card definitions the opponent may not play here (static: the table reads them into
    `CardDef.forbids` and checks them in `engine.expansion_steps.forbidden_here`)."""
    named = {resolver.card(card_id) for card_id in step.cards}
    if step.name_contains:
        word = step.name_contains.casefold()
        named |= {resolver.cards[card_id] for card_id, name in resolver.names.items()
                  if word in name.casefold() and card_id in resolver.cards}
    return frozenset(named - {-1})


#: The steps, by the name card data gives them (`models.effects`).
STEPS: Final = {
    "hide-under": (no_params, run_hide_under),
    "take-under": (no_params, run_take_under),
    "change-sides": (no_params, run_change_sides),
    "guess-hand": (lambda step, resolver: compile_steps(step.steps, resolver), run_guess_hand),
    "forbid-here": (compile_forbid_here, run_static),
}
#: Their roles the table must know (`GameRules.hiding_steps`, `under_steps`, `forbidding_steps`).
HIDING_STEPS: Final = frozenset({"hide-under"})
UNDER_STEPS: Final = frozenset({"take-under"})
FORBIDDING_STEPS: Final = frozenset({"forbid-here"})

"""Effect steps and hooks the expansion cards need: conditions (`only-if`), cards put under
other cards (`attach`), static cost reductions, a card destroying or discarding itself, the
triggers "while in play, the opponent plays ..." and "a card arrives here", and the table's
side of two of Revolver's steps (`games/revolver/frontier_steps.py`): cards face down under a
card, and plays a card forbids where it lies. Runners follow `effects.py`'s convention.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.actions import ACCEPT, IN_PLAY_BASE, K_ATTACH, K_OPTIONAL, PASS
from deckbuilder.engine.addons import attached_to, is_hidden
from deckbuilder.engine.board import (
    act_on_source,
    destroy_card,
    find_row,
    lift,
    lift_onto,
    push_steps,
    targets,
)
from deckbuilder.engine.card_records import CardDef, ModeDef
from deckbuilder.engine.card_steps import Resolver, TargetFilter
from deckbuilder.engine.codes import SLOT_UNDER
from deckbuilder.engine.state import State
from deckbuilder.engine.wording import text_applies

#: Kinds of `ModeDef.needs` entries: what must be true for a mode to be playable.
NEED_CONDITION, NEED_HOST = 0, 1


# -- conditions ---------------------------------------------------------------------------------
def compile_condition(condition: Any, resolver: Resolver) -> tuple:
    """A `Condition` -> (dead bandit indexes, marker battlefields or None, battlefield the
    marker must be before or None, card definitions one of which is in play or None).
    Ids this game does not have compile to -1 / drop out, so they never hold."""
    dead = tuple(resolver.character(card_id) for card_id in condition.dead)
    at = (frozenset(resolver.bf(card_id) for card_id in condition.marker_at) - {-1}
          if condition.marker_at else None)
    before = resolver.bf(condition.marker_before) if condition.marker_before else None
    in_play = (frozenset(resolver.card(card_id) for card_id in condition.in_play) - {-1}
               if condition.in_play else None)
    return (dead, at, before, in_play)


def condition_holds(state: State, condition: tuple, player: int) -> bool:
    """Does a compiled condition hold now? (`player`: the acting player, for future use.)"""
    dead, at, before, in_play = condition
    alive = state.alive
    for index in dead:
        if index < 0 or alive[index]:
            return False
    if at is not None and state.marker_bf not in at:
        return False
    if before is not None and not (before >= 0 and state.marker_bf < before):
        return False
    if in_play is not None:
        def_of = state.spec.def_of
        placed = state.placed
        if not any(placed[uid] is not None and def_of[uid] in in_play
                   for uid in range(state.spec.n_cards)):
            return False
    return True


def run_only_if(state: State, task: tuple) -> None:
    """The rest of the list (compiled into this step's params) runs only if it holds."""
    condition, rest, _blocks = task[1]
    ctx = task[2]
    if condition_holds(state, condition, ctx[0]):
        push_steps(state, rest, ctx)
    elif state.verbose:
        state.note("a condition does not hold: the rest of the effect does not happen")


def gate_of(steps: tuple) -> tuple | None:
    """The condition that restricts when `steps` may be used: a leading `only-if` with
    `blocks_play` (None: no restriction)."""
    if steps and steps[0][0] is run_only_if and steps[0][1][2]:
        return steps[0][1][0]
    return None


def gate_open(state: State, steps: tuple, player: int) -> bool:
    gate = gate_of(steps)
    return gate is None or condition_holds(state, gate, player)


# -- attach ---------------------------------------------------------------------------------------
def attach_hosts(state: State, target: TargetFilter, ctx: tuple) -> list[int]:
    """The acting player's cards in play that the attaching card may go under."""
    owner = state.spec.owner
    return [uid for uid in targets(state, target, ctx)
            if owner[uid] == ctx[0] and uid != ctx[1]]


def run_attach(state: State, task: tuple) -> None:
    target, mode = task[1]
    ctx = task[2]
    hosts = attach_hosts(state, target, ctx)
    if not hosts or mode is None:
        return  # a one-shot left in limbo is discarded by the play that started it
    if len(hosts) == 1:
        state.resolved_alone(ctx[0], K_ATTACH, IN_PLAY_BASE + hosts[0])
        attach_card(state, ctx[1], hosts[0], mode)
        return
    state.decide(ctx[0], sorted(IN_PLAY_BASE + uid for uid in hosts), _resume_attach,
                 (ctx[1], mode), K_ATTACH)


def _resume_attach(state: State, action: int, data: tuple) -> None:
    attach_card(state, data[0], action - IN_PLAY_BASE, data[1])


def attach_card(state: State, uid: int, host: int, mode: ModeDef) -> None:
    """Put card `uid` (in limbo, or in play) under `host`, played in `mode`."""
    if uid in state.limbo:
        state.limbo.remove(uid)
    elif state.placed[uid] is not None:
        lift(state, uid)
    state.add_to_row(find_row(state, host), uid)
    state.own_placed()[uid] = mode.attached(host)
    state.own_eagle()[uid] = state.eagle[host]  # an eagle token empties the cards under it too
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} is put under "
                   f"{state.spec.card_def[host].name}{state.where_text(host)}")


def bind_attach(steps: tuple, mode: Any) -> tuple:
    """Give each `attach` step of a mode's effect the mode it puts under a card."""
    bound = []
    for runner, params in steps:
        if runner is run_attach:
            params = (params[0], mode)
        elif runner is run_only_if:
            params = (params[0], bind_attach(params[1], mode), params[2])
        bound.append((runner, params))
    return tuple(bound)


def mode_needs(steps: tuple) -> tuple:
    """What must hold for a mode with this play effect to be playable: its leading blocking
    condition, and a host for every `attach` step (at the top or after that condition)."""
    needs: list[tuple] = []
    gate = gate_of(steps)
    if gate is not None:
        needs.append((NEED_CONDITION, gate))
    if steps and steps[0][0] is run_only_if:
        steps = steps[0][1][1]
    needs.extend((NEED_HOST, params[0]) for runner, params in steps if runner is run_attach)
    return tuple(needs)


def needs_met(state: State, needs: tuple, player: int) -> bool:
    for kind, params in needs:
        if kind == NEED_CONDITION:
            if not condition_holds(state, params, player):
                return False
        elif not attach_hosts(state, params, (player, -1, state.marker_bf)):
            return False
    return True


# -- a card's effect on itself --------------------------------------------------------------
def run_destroy_self(state: State, task: tuple) -> None:
    act_on_source(state, task, destroy_card)


def run_discard_self(state: State, task: tuple) -> None:
    act_on_source(state, task, _discard_from_play)


def _discard_from_play(state: State, uid: int) -> None:
    lift_onto(state, uid, state.discards, "is discarded from play")


def run_static(state: State, task: tuple) -> None:
    """Static while the card stays in play (compiled into the card: `CardDef.discount`,
    `CardDef.immune`); running it does nothing."""


def compile_cost_reduction(step: Any, resolver: Resolver) -> tuple:
    return (step.amount, resolver.named(step.name_contains))


def compile_unaffected_by(step: Any, resolver: Resolver) -> TargetFilter:
    return TargetFilter(step.target, resolver)


def card_cost(state: State, player: int, card: CardDef, bf: int) -> int:
    """The discards `player` pays to play `card` at `bf` now (waivers and reductions)."""
    cost = 0 if bf in card.cost_waived else card.cost
    if card.discounted and cost:
        row = state.rows[2 * state.marker_bf + player]
        card_def = state.spec.card_def
        for uid in state.spec.discounters[player]:
            if uid in row and state.placed[uid].slot != SLOT_UNDER and \
                    text_applies(state, uid, state.marker_bf):
                amount, names = card_def[uid].discount
                if card.idx in names:
                    cost -= amount
    return max(0, cost)


# -- "while in play, the opponent plays ..." ------------------------------------------------
def t_in_play_watchers(state: State, task: tuple) -> None:
    """The opponent of `player` may have cards in play that react to the card `uid` being
    played at `bf` (opponent-plays-while-in-play); a cancelled card wakes none."""
    player, uid, bf = task[1], task[2], task[3]
    if state.cancelled:
        return
    spec = state.spec
    watcher_side = 1 - player
    definition = spec.def_of[uid]
    placed = state.placed
    due = []
    for watcher in spec.play_watchers[watcher_side]:
        if placed[watcher] is None or placed[watcher].slot == SLOT_UNDER:
            continue
        here = find_row(state, watcher) >> 1
        if not text_applies(state, watcher, here):
            continue
        for cards, only_here, optional, steps in spec.card_def[watcher].play_watch:
            if (cards is None or definition in cards) and (not only_here or here == bf) \
                    and gate_open(state, steps, watcher_side):
                due.append((watcher, optional, steps, (watcher_side, watcher, here)))
    state.tasks.extend([(_t_watcher, entry) for entry in due[::-1]])


def _t_watcher(state: State, task: tuple) -> None:
    watcher, optional, steps, ctx = task[1]
    if state.cancelled or state.placed[watcher] is None:
        return
    if optional:
        state.decide(ctx[0], [PASS, ACCEPT], _resume_watcher, (steps, ctx), K_OPTIONAL)
    else:
        push_steps(state, steps, ctx)


def _resume_watcher(state: State, action: int, data: tuple) -> None:
    if action == ACCEPT:
        push_steps(state, data[0], data[1])



# -- cards lying face down under a card (a game's step puts them there: the Strongbox) ---------
def lay_face_down_under(state: State, host: int, uid: int) -> None:
    """Card `uid` (out of every zone: just taken from a hand) lies face down under `host`."""
    state.add_to_row(find_row(state, host), uid)
    state.own_placed()[uid] = state.spec.card_def[uid].modes[0].attached(host, hidden=True)
    state.own_eagle()[uid] = state.eagle[host]
    if state.verbose:
        state.note(f"a card is put face down under {state.spec.card_def[host].name}")


def hidden_under(state: State, host: int) -> list[int]:
    """The cards lying face down under `host` (in play)."""
    index = find_row(state, host)
    return [uid for uid in attached_to(state, host, index) if is_hidden(state, uid)] \
        if index >= 0 else []


def can_reach_hidden(state: State, uid: int) -> bool:
    """May the owner use an ability of `uid` that acts on the cards hidden under it (its first
    step is one of the game's `GameRules.under_steps`)? Only while one lies there and the
    host's text applies (FAQ Q1: not with an eagle token on it)."""
    return bool(hidden_under(state, uid)) and text_applies(state, uid)


# -- plays forbidden here (a game's static step: Indian Burial ground) --------------------------
def forbidden_here(state: State, player: int) -> frozenset[int]:
    """The card definitions `player` may not play now: those the opponent's cards at the
    current battlefield forbid there (`CardDef.forbids`, their text applying)."""
    blockers = state.spec.play_blockers[1 - player]
    if not blockers:
        return frozenset()
    bf = state.marker_bf
    row = state.rows[2 * bf + 1 - player]
    card_def = state.spec.card_def
    found: frozenset[int] = frozenset()
    for uid in blockers:
        if uid in row and state.mode_of(uid).slot != SLOT_UNDER and text_applies(state, uid, bf):
            found = found | card_def[uid].forbids
    return found

"""The implemented effect steps: one registry, step name -> (compiler, runner).

Each step of a card's data (`deckbuilder.models.effects`) is compiled once (`compile_steps`)
into a `(runner, params)` pair with plain params; a runner is called as
`runner(state, (runner, params, ctx))` with ctx = (acting player, source card uid or -1,
battlefield the card was played at), and one that needs a choice continues in its `_resume`.
`IMPLEMENTED_STEPS` is every step of the vocabulary except `manual` (`engine.support`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from deckbuilder.engine.actions import (
    ACCEPT,
    K_DISCARD,
    K_NAME,
    K_OPTIONAL,
    K_PAY,
    PASS,
)
from deckbuilder.engine.board import (
    draw,
    push_steps,
    remove_anywhere,
    t_pay,
)
from deckbuilder.engine.card_steps import (
    Resolver,
    Step,
    TargetFilter,
    compile_add_token,
    compile_bounce,
    compile_destroy,
    compile_kill,
    compile_move_card,
    compile_retrieve,
    kill_candidates,
    removable,
    run_add_token,
    run_bounce,
    run_casualty,
    run_destroy,
    run_kill,
    run_move_card,
    run_retrieve,
    run_sacrifice,
    run_search_deck,
    run_shuffle_hands,
    side_players,
)
from deckbuilder.engine.chance import below
from deckbuilder.engine.codes import (
    SIDE_CODES,
)
from deckbuilder.engine.expansion_steps import (
    compile_condition,
    compile_cost_reduction,
    compile_unaffected_by,
    condition_holds,
    run_attach,
    run_destroy_self,
    run_discard_self,
    run_only_if,
    run_static,
)
from deckbuilder.engine.marker import activate_face_spaces, move_marker
from deckbuilder.engine.state import State


# -- marker, draw, discard ---------------------------------------------------------------------
def run_move_marker(state: State, task: tuple) -> None:
    spaces, stay = task[1]
    move_marker(state, spaces, stay)


def run_draw(state: State, task: tuple) -> None:
    count, side = task[1]
    for player in side_players(side, task[2][0]):
        draw(state, player, count)


def run_remove_discard_pile(state: State, task: tuple) -> None:
    for player in side_players(task[1], task[2][0]):
        pile = state.discards[player]
        if state.verbose and pile:
            state.note(f"{state.spec.game_rules.side_names[player]}'s discard pile ({len(pile)} "
                       "cards) is removed from the game")
        state.removed[player].extend(pile)
        pile.clear()


def run_discard(state: State, task: tuple) -> None:
    side, count, random_pick, named = task[1]
    ctx = task[2]
    for victim in reversed(side_players(side, ctx[0])):
        if named:
            for _ in range(count):
                state.tasks.append((_t_name_card, ctx[0], victim))
        elif random_pick:
            hand = state.hands[victim]
            for _ in range(min(count, len(hand))):
                uid = hand.pop(below(state.rng, len(hand)))
                state.discards[victim].append(uid)
                if state.verbose:
                    state.note(f"{state.spec.card_def[uid].name} is discarded at random")
        else:
            state.tasks.append((t_pay, victim, count, K_DISCARD))


def _t_name_card(state: State, task: tuple) -> None:
    """Name a card: any the victim could hold by what the chooser can know (`name_defs`,
    never the victim's deck list, which it would show); a wrong guess discards nothing."""
    chooser, victim = task[1], task[2]
    card_action = state.spec.card_action
    options = [card_action[d] for d in state.spec.name_defs[victim]]
    if options:
        state.decide(chooser, options, _resume_name, victim, K_NAME)


def _resume_name(state: State, action: int, victim: int) -> None:
    definition = state.spec.action_def[action]
    def_of = state.spec.def_of
    for uid in state.hands[victim]:
        if def_of[uid] == definition:
            state.hands[victim].remove(uid)
            state.discards[victim].append(uid)
            if state.verbose:
                state.note(f"the named {state.spec.defs[definition].name} is discarded")
            return


# -- small steps -------------------------------------------------------------------------------
def run_row_limit(state: State, task: tuple) -> None:
    """Static while the card stays in play (compiled into its mode's `row_limit`)."""


def run_border_tokens(state: State, task: tuple) -> None:
    """Tokens leave the countdown card (the Mexican Border, the Arrival of the Mexican Army);
    what its last token means is the game's."""
    state.countdown = max(0, state.countdown - task[1])
    if state.verbose:
        state.note(f"{task[1]} {state.spec.countdown_name} token(s) removed "
                   f"({state.countdown} left)")
    if state.countdown == 0 and state.spec.countdown_tokens:
        state.spec.game_rules.countdown_empty(state)


def run_cancel_attack(state: State, task: tuple) -> None:
    state.attack_cancelled = True
    if state.verbose:
        state.note("the attack fails")


def run_cancel_card(state: State, task: tuple) -> None:
    state.cancelled = True


def run_forbid(state: State, task: tuple) -> None:
    state.forbidden = (state.forbidden[0] | task[1], state.forbidden[1] | task[1])


def run_extra_turns(state: State, task: tuple) -> None:
    face, count, unless_bf = task[1]
    if unless_bf >= 0 and state.marker_bf >= unless_bf:
        return
    activate_face_spaces(state, face, count)


def run_lose_game(state: State, task: tuple) -> None:
    """A card says "you have lost": how the game records that ending is the game's."""
    loser, source, _bf = task[2]
    state.spec.game_rules.card_loss(state, loser, source)


def run_remove_self(state: State, task: tuple) -> None:
    source = task[2][1]
    if 0 <= source < state.spec.n_cards:
        remove_anywhere(state, source)


# -- optional cost -----------------------------------------------------------------------------
def run_optional_cost(state: State, task: tuple) -> None:
    discard, steps = task[1]
    ctx = task[2]
    if len(state.hands[ctx[0]]) < discard or not _could_act(state, steps[0], ctx):
        return
    state.decide(ctx[0], [PASS, ACCEPT], _resume_optional, (task[1], ctx), K_OPTIONAL)


def _resume_optional(state: State, action: int, data: tuple) -> None:
    (discard, steps), ctx = data
    if action == ACCEPT:
        push_steps(state, steps, ctx)
        state.tasks.append((t_pay, ctx[0], discard, K_PAY))


def _could_act(state: State, step: Step, ctx: tuple) -> bool:
    """Whether a targeting step would find anything (so a useless cost is not offered); a
    condition must hold and then the step after it could act."""
    runner, params = step
    if runner is run_kill:
        return bool(kill_candidates(state, params, ctx, 0))
    if runner is run_destroy or runner is run_bounce:
        return bool(removable(state, params[0], ctx, runner is run_bounce))
    if runner is run_only_if:
        return condition_holds(state, params[0], ctx[0]) and (
            not params[1] or _could_act(state, params[1][0], ctx))
    return True


# -- the registry ------------------------------------------------------------------------------
def _plain(*fields: str) -> Callable[[Any, Resolver], Any]:
    def compile_fields(step: Any, resolver: Resolver) -> Any:
        values = tuple(getattr(step, name) for name in fields)
        return values[0] if len(values) == 1 else values
    return compile_fields


def no_params(step: Any, resolver: Resolver) -> None:
    """The compiler of a step that takes no parameters (games' own steps use it too)."""
    return None


def _compile_only_if(step: Any, resolver: Resolver) -> tuple:
    """Only the condition: `compile_steps` adds the steps after it (they belong to it)."""
    return (compile_condition(step.condition, resolver), (), step.blocks_play)


def _compile_attach(step: Any, resolver: Resolver) -> tuple:
    """The target; the mode the card is played in is bound later (`bind_attach`)."""
    return (TargetFilter(step.target, resolver), None)


REGISTRY: dict[str, tuple[Callable[[Any, Resolver], Any], Callable[[State, tuple], None]]] = {
    "kill": (compile_kill, run_kill),
    "destroy": (compile_destroy, run_destroy),
    "casualty": (_plain("count"), run_casualty),
    "sacrifice": (_plain("count"), run_sacrifice),
    "move-marker": (_plain("spaces", "stay_on_battlefield"), run_move_marker),
    "draw": (lambda step, resolver: (step.count, SIDE_CODES[step.side]), run_draw),
    "discard": (lambda step, resolver: (SIDE_CODES[step.side], step.count, step.random,
                                        step.named), run_discard),
    "bounce": (compile_bounce, run_bounce),
    "retrieve": (compile_retrieve, run_retrieve),
    "move-card": (compile_move_card, run_move_card),
    "add-token": (compile_add_token, run_add_token),
    "row-limit": (_plain("limit"), run_row_limit),
    "border-tokens": (_plain("count"), run_border_tokens),
    "cancel-attack": (no_params, run_cancel_attack),
    "cancel-card": (no_params, run_cancel_card),
    "search-deck": (no_params, run_search_deck),
    "shuffle-hands": (no_params, run_shuffle_hands),
    "remove-discard-pile": (lambda step, resolver: SIDE_CODES[step.side],
                            run_remove_discard_pile),
    "forbid": (lambda step, resolver: frozenset(resolver.card(card) for card in step.cards),
               run_forbid),
    "extra-turns": (lambda step, resolver: (step.face, step.count,
                                            resolver.bf(step.unless_reached)), run_extra_turns),
    "lose-game": (no_params, run_lose_game),
    "remove-self": (no_params, run_remove_self),
    "optional-cost": (lambda step, resolver: (step.discard, compile_steps(step.steps, resolver)),
                      run_optional_cost),
    "only-if": (_compile_only_if, run_only_if),
    "attach": (_compile_attach, run_attach),
    "cost-reduction": (compile_cost_reduction, run_static),
    "unaffected-by": (compile_unaffected_by, run_static),
    "destroy-self": (no_params, run_destroy_self),
    "discard-self": (no_params, run_discard_self),
}

#: The steps this engine performs (read by `deckbuilder.engine.support.unimplemented_reasons`).
IMPLEMENTED_STEPS: frozenset[str] = frozenset(REGISTRY)


def _run_unimplemented(state: State, task: tuple) -> None:
    raise RuntimeError(f"step '{task[1]}' is not implemented; new_game refuses such cards")


def compile_steps(steps: Sequence[Any], resolver: Resolver) -> tuple[Step, ...]:
    """Step models -> `(runner, params)` pairs. `manual` compiles to a runner that fails
    loudly (never reached: `new_game` refuses such cards); an `only-if` step takes the steps
    after it into its own params, to run only if its condition holds."""
    compiled: list[Step] = []
    for index, step in enumerate(steps):
        entry = REGISTRY.get(step.do) or resolver.steps.get(step.do)
        if entry is None:
            compiled.append((_run_unimplemented, step.do))
            continue
        compiler, runner = entry
        params = compiler(step, resolver)
        if runner is run_only_if:
            rest = compile_steps(steps[index + 1:], resolver)
            compiled.append((runner, (params[0], rest, params[2])))
            break
        compiled.append((runner, params))
    return tuple(compiled)

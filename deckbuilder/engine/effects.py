"""The implemented effect steps: one registry, step name -> (compiler, runner).

Card data composes steps from the vocabulary in `deckbuilder.models.effects`. Each step is
compiled once (`compile_steps`) into a `(runner, params)` pair with plain params (ints,
frozensets, a `TargetFilter`); a runner is called as `runner(state, (runner, params, ctx))`
with ctx = (acting player, source card uid or -1, battlefield the card was played at). A
runner that needs a choice opens a decision and continues in its `_resume` function.

`IMPLEMENTED_STEPS` is what `deckbuilder.support` reads to report unplayable cards: every
step of the vocabulary except `manual`, which by definition no engine can perform.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckbuilder.engine.actions import (
    ACCEPT,
    BANDIT_BASE,
    BF_BASE,
    K_BOUNCE,
    K_DESTROY,
    K_DISCARD,
    K_KILL,
    K_MOVE_CARD,
    K_MOVE_TO,
    K_NAME,
    K_OPTIONAL,
    K_PAY,
    K_RETRIEVE,
    K_SACRIFICE_CARD,
    K_SAVE,
    K_SEARCH,
    K_TOKEN,
    PASS,
    PIECE_BASE,
)
from deckbuilder.engine.board import (
    activate_face_spaces,
    bandit_dies,
    can_place,
    card_firepower,
    casualty_next,
    destroy_card,
    draw,
    find_row,
    is_protected,
    kill_card,
    lift,
    move_marker,
    pay_next,
    place,
    push_steps,
    relocate,
    remove_anywhere,
    t_pay,
    targets,
)
from deckbuilder.engine.codes import (
    ALL,
    CATEGORY_BITS,
    PLAY_CODES,
    SIDE_CODES,
    SIDE_OPPONENT,
    SIDE_SELF,
    SLOT_OWN,
    WHERE_ADJACENT,
    WHERE_ANY,
    WHERE_CODES,
    WHERE_CURRENT,
    WHERE_UPCOMING,
)
from deckbuilder.engine.state import ATTACKER, DEFENDER, State, Termination
from deckbuilder.models.effects import Manual

Step = tuple[Callable[[State, tuple], None], Any]


class Resolver:
    """Card and battlefield ids -> indexes (-1 for an id the game does not have)."""

    def __init__(self, cards: Mapping[str, int], battlefields: Mapping[str, int]) -> None:
        self.cards = dict(cards)
        self.battlefields = dict(battlefields)

    def card(self, card_id: str) -> int:
        return self.cards.get(card_id, -1)

    def bf(self, bf_id: str | None) -> int:
        return self.battlefields.get(bf_id, -1) if bf_id else -1


class TargetFilter:
    """A compiled `Target`: which cards in play a step may act on."""

    __slots__ = ("cards", "categories", "exclude", "plays", "side", "this_card", "where")

    def __init__(self, target: Any, resolver: Resolver) -> None:
        self.side = SIDE_CODES[target.side]
        self.where = WHERE_CODES[target.where]
        self.categories = sum(CATEGORY_BITS[c] for c in set(target.categories))
        self.plays = frozenset(PLAY_CODES[p] for p in target.plays) if target.plays else None
        self.cards = frozenset(resolver.card(c) for c in target.cards) if target.cards else None
        self.exclude = frozenset(resolver.card(c) for c in target.exclude)
        # `side: self` with no filter at all means "this card" (AddToken's docstring).
        self.this_card = (self.side == SIDE_SELF and not target.categories and not target.plays
                          and not target.cards)


def _count(value: Any) -> int:
    return ALL if value == "all" else int(value)


def _players(side: int, player: int) -> tuple[int, ...]:
    return (player,) if side == SIDE_SELF else (1 - player,) if side == SIDE_OPPONENT else (0, 1)


def _pieces(uids: list[int]) -> list[int]:
    return sorted(PIECE_BASE + uid for uid in uids)


# -- kill -------------------------------------------------------------------------------------
def _kill_candidates(state: State, params: tuple, ctx: tuple, spent: int) -> list[int]:
    target, _count_, _up_to, max_total, _ignore, _remove = params
    found = []
    for uid in targets(state, target, ctx):
        if is_protected(state, uid, ctx[0]):
            continue
        if max_total >= 0 and card_firepower(state, uid) > max_total - spent:
            continue
        found.append(uid)
    return found


def run_kill(state: State, task: tuple) -> None:
    params = task[1]
    _kill_next(state, params, task[2], params[1], 0)


def _t_kill_more(state: State, task: tuple) -> None:
    _kill_next(state, task[1], task[2], task[3], task[4])


def _kill_next(state: State, params: tuple, ctx: tuple, remaining: int, spent: int) -> None:
    if remaining <= 0 or state.over:
        return
    found = _kill_candidates(state, params, ctx, spent)
    if not found:
        return
    _target, count, up_to, _max, ignore_grit, remove = params
    if count == ALL and not up_to:
        for uid in found:
            kill_card(state, uid, ignore_grit, remove)
        return
    if len(found) == 1 and not up_to:
        uid = found[0]
        state.tasks.append((_t_kill_more, params, ctx, remaining - 1,
                            spent + card_firepower(state, uid)))
        kill_card(state, uid, ignore_grit, remove)
        return
    options = _pieces(found)
    if up_to:
        options.insert(0, PASS)
    state.decide(ctx[0], options, _resume_kill, (params, ctx, remaining, spent), K_KILL)


def _resume_kill(state: State, action: int, data: tuple) -> None:
    params, ctx, remaining, spent = data
    if action == PASS:
        return
    uid = action - PIECE_BASE
    state.tasks.append((_t_kill_more, params, ctx, remaining - 1,
                        spent + card_firepower(state, uid)))
    kill_card(state, uid, params[4], params[5])


def compile_kill(step: Any, resolver: Resolver) -> tuple:
    max_total = step.max_total_firepower if step.max_total_firepower is not None else -1
    return (TargetFilter(step.target, resolver), _count(step.count), step.up_to, max_total,
            step.ignore_true_grit, step.remove_from_game)


# -- destroy / bounce --------------------------------------------------------------------------
def _removable(state: State, target: TargetFilter, ctx: tuple, need_movable: bool) -> list[int]:
    card_def = state.spec.card_def
    return [uid for uid in targets(state, target, ctx)
            if not is_protected(state, uid, ctx[0])
            and (not need_movable or card_def[uid].movable)]


def run_destroy(state: State, task: tuple) -> None:
    params = task[1]
    _destroy_next(state, params, task[2], params[1])


def _t_destroy_more(state: State, task: tuple) -> None:
    _destroy_next(state, task[1], task[2], task[3])


def _destroy_next(state: State, params: tuple, ctx: tuple, remaining: int) -> None:
    if remaining <= 0 or state.over:
        return
    target, count, up_to = params
    found = _removable(state, target, ctx, False)
    if not found:
        return
    if (count == ALL or len(found) == 1) and not up_to:
        chosen = found if count == ALL else found[:1]
        if count != ALL:
            state.tasks.append((_t_destroy_more, params, ctx, remaining - 1))
        for uid in chosen:
            destroy_card(state, uid)
        return
    options = _pieces(found)
    if up_to:
        options.insert(0, PASS)
    state.decide(ctx[0], options, _resume_destroy, (params, ctx, remaining), K_DESTROY)


def _resume_destroy(state: State, action: int, data: tuple) -> None:
    params, ctx, remaining = data
    if action == PASS:
        return
    state.tasks.append((_t_destroy_more, params, ctx, remaining - 1))
    destroy_card(state, action - PIECE_BASE)


def compile_destroy(step: Any, resolver: Resolver) -> tuple:
    return (TargetFilter(step.target, resolver), _count(step.count), step.up_to)


def run_bounce(state: State, task: tuple) -> None:
    params = task[1]
    _bounce_next(state, params, task[2], params[1])


def _t_bounce_more(state: State, task: tuple) -> None:
    _bounce_next(state, task[1], task[2], task[3])


def _bounce_next(state: State, params: tuple, ctx: tuple, remaining: int) -> None:
    if remaining <= 0 or state.over:
        return
    found = _removable(state, params[0], ctx, True)
    if not found:
        return
    if len(found) == 1:
        state.tasks.append((_t_bounce_more, params, ctx, remaining - 1))
        _bounce(state, found[0])
        return
    state.decide(ctx[0], _pieces(found), _resume_bounce, (params, ctx, remaining), K_BOUNCE)


def _resume_bounce(state: State, action: int, data: tuple) -> None:
    params, ctx, remaining = data
    state.tasks.append((_t_bounce_more, params, ctx, remaining - 1))
    _bounce(state, action - PIECE_BASE)


def _bounce(state: State, uid: int) -> None:
    lift(state, uid)
    state.hands[state.spec.owner[uid]].append(uid)
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} returns to its owner's hand")


def compile_bounce(step: Any, resolver: Resolver) -> tuple:
    return (TargetFilter(step.target, resolver), step.count)


# -- casualties, sacrifice ---------------------------------------------------------------------
def run_casualty(state: State, task: tuple) -> None:
    casualty_next(state, task[1], False)


def run_sacrifice(state: State, task: tuple) -> None:
    ctx = task[2]
    if ctx[0] == DEFENDER:
        casualty_next(state, task[1], True)
    else:
        _sacrifice_cards(state, ctx, task[1])


def _t_sacrifice_more(state: State, task: tuple) -> None:
    _sacrifice_cards(state, task[1], task[2])


def _sacrifice_cards(state: State, ctx: tuple, count: int) -> None:
    """A player without bandits loses his own characters in play (his choice)."""
    if count <= 0 or state.over:
        return
    card_def = state.spec.card_def
    own = [uid for index, row in enumerate(state.rows) if index & 1 == ctx[0] for uid in row
           if card_def[uid].cat_bit & CATEGORY_BITS["character"]]
    if not own:
        return
    if len(own) == 1:
        state.tasks.append((_t_sacrifice_more, ctx, count - 1))
        kill_card(state, own[0], True, False)
        return
    state.decide(ctx[0], _pieces(own), _resume_sacrifice, (ctx, count), K_SACRIFICE_CARD)


def _resume_sacrifice(state: State, action: int, data: tuple) -> None:
    ctx, count = data
    state.tasks.append((_t_sacrifice_more, ctx, count - 1))
    kill_card(state, action - PIECE_BASE, True, False)


# -- marker, draw, discard ---------------------------------------------------------------------
def run_move_marker(state: State, task: tuple) -> None:
    spaces, stay = task[1]
    move_marker(state, spaces, stay)


def run_draw(state: State, task: tuple) -> None:
    count, side = task[1]
    for player in _players(side, task[2][0]):
        draw(state, player, count)


def run_discard(state: State, task: tuple) -> None:
    side, count, random_pick, named = task[1]
    ctx = task[2]
    for victim in reversed(_players(side, ctx[0])):
        if named:
            for _ in range(count):
                state.tasks.append((_t_name_card, ctx[0], victim))
        elif random_pick:
            hand = state.hands[victim]
            for _ in range(min(count, len(hand))):
                uid = hand.pop(state.rng.randrange(len(hand)))
                state.discards[victim].append(uid)
                if state.verbose:
                    state.note(f"{state.spec.card_def[uid].name} is discarded at random")
        else:
            state.tasks.append((t_pay, victim, count, K_DISCARD))


def _t_name_card(state: State, task: tuple) -> None:
    chooser, victim = task[1], task[2]
    base = state.spec.layout.card_base
    options = [base + d for d in state.spec.deck_defs[victim]]
    if options:
        state.decide(chooser, options, _resume_name, victim, K_NAME)


def _resume_name(state: State, action: int, victim: int) -> None:
    definition = action - state.spec.layout.card_base
    def_of = state.spec.def_of
    for uid in state.hands[victim]:
        if def_of[uid] == definition:
            state.hands[victim].remove(uid)
            state.discards[victim].append(uid)
            if state.verbose:
                state.note(f"the named {state.spec.defs[definition].name} is discarded")
            return


# -- retrieve, search, shuffle ----------------------------------------------------------------
def run_retrieve(state: State, task: tuple) -> None:
    categories, to, count = task[1]
    _retrieve_next(state, task[2], categories, to, count)


def _t_retrieve_more(state: State, task: tuple) -> None:
    _retrieve_next(state, task[1], task[2], task[3], task[4])


def _retrieve_next(state: State, ctx: tuple, categories: int, to: str, count: int) -> None:
    if count <= 0 or state.over:
        return
    player = ctx[0]
    spec = state.spec
    card_def = spec.card_def
    choices = set()
    for uid in state.discards[player]:
        card = card_def[uid]
        if categories and not card.cat_bit & categories:
            continue
        if to == "play" and not _can_enter_play(state, player, card):
            continue
        choices.add(card.idx)
    if not choices:
        return
    data = (ctx, categories, to, count)
    if len(choices) == 1:
        _retrieve(state, data, choices.pop())
        return
    base = spec.layout.card_base
    state.decide(player, sorted(base + d for d in choices), _resume_retrieve, data, K_RETRIEVE)


def _can_enter_play(state: State, player: int, card: Any) -> bool:
    mode = card.modes[0]
    return mode.slot == SLOT_OWN and can_place(state, player, mode, state.marker_bf)


def _resume_retrieve(state: State, action: int, data: tuple) -> None:
    _retrieve(state, data, action - state.spec.layout.card_base)


def _retrieve(state: State, data: tuple, definition: int) -> None:
    ctx, categories, to, count = data
    player = ctx[0]
    pile = state.discards[player]
    def_of = state.spec.def_of
    uid = next(u for u in reversed(pile) if def_of[u] == definition)
    pile.remove(uid)
    card = state.spec.card_def[uid]
    if to == "play":
        place(state, uid, player, state.marker_bf, card.modes[0])
    elif to == "deck-top":
        state.decks[player].append(uid)
    elif to == "discard":
        pile.append(uid)
    else:
        state.hands[player].append(uid)
    if state.verbose:
        state.note(f"{card.name} comes back from the discard pile to {to}")
    if count > 1:
        state.tasks.append((_t_retrieve_more, ctx, categories, to, count - 1))


def compile_retrieve(step: Any, resolver: Resolver) -> tuple:
    return (sum(CATEGORY_BITS[c] for c in set(step.categories)), step.to, step.count)


def run_search_deck(state: State, task: tuple) -> None:
    player = task[2][0]
    deck = state.decks[player]
    if not deck:
        return
    def_of = state.spec.def_of
    choices = sorted({def_of[uid] for uid in deck})
    if len(choices) == 1:
        _search(state, player, choices[0])
        return
    base = state.spec.layout.card_base
    state.decide(player, [base + d for d in choices], _resume_search, player, K_SEARCH)


def _resume_search(state: State, action: int, player: int) -> None:
    _search(state, player, action - state.spec.layout.card_base)


def _search(state: State, player: int, definition: int) -> None:
    deck = state.decks[player]
    def_of = state.spec.def_of
    uid = next(u for u in deck if def_of[u] == definition)
    deck.remove(uid)
    state.rng.shuffle(deck)
    deck.append(uid)


def run_shuffle_hands(state: State, task: tuple) -> None:
    for player in (0, 1):
        hand = state.hands[player]
        size = len(hand)
        state.decks[player].extend(hand)
        hand.clear()
        state.rng.shuffle(state.decks[player])
        draw(state, player, size)


# -- move a card -------------------------------------------------------------------------------
def _destinations(state: State, uid: int, to: int, ctx: tuple) -> list[int]:
    n_bf = state.spec.n_bf
    here = find_row(state, uid) >> 1
    marker = state.marker_bf
    if to == WHERE_CURRENT:
        candidates: Any = (marker,)
    elif to == WHERE_ANY:
        candidates = range(n_bf)
    elif to == WHERE_ADJACENT:
        candidates = (here - 1, here + 1)
    elif to == WHERE_UPCOMING:
        candidates = range(marker + 1, n_bf)
    else:
        candidates = (ctx[2],)
    owner = state.spec.owner[uid]
    mode = state.placed[uid]
    return [bf for bf in candidates
            if 0 <= bf < n_bf and bf != here and can_place(state, owner, mode, bf)]


def run_move_card(state: State, task: tuple) -> None:
    target, to = task[1]
    ctx = task[2]
    found = [uid for uid in _removable(state, target, ctx, True)
             if _destinations(state, uid, to, ctx)]
    if not found:
        return
    if len(found) == 1:
        _choose_destination(state, found[0], to, ctx)
        return
    state.decide(ctx[0], _pieces(found), _resume_move_card, (to, ctx), K_MOVE_CARD)


def _resume_move_card(state: State, action: int, data: tuple) -> None:
    to, ctx = data
    _choose_destination(state, action - PIECE_BASE, to, ctx)


def _choose_destination(state: State, uid: int, to: int, ctx: tuple) -> None:
    places = _destinations(state, uid, to, ctx)
    if len(places) == 1:
        _move_card(state, uid, places[0])
        return
    state.decide(ctx[0], [BF_BASE + bf for bf in places], _resume_move_to, uid, K_MOVE_TO)


def _resume_move_to(state: State, action: int, uid: int) -> None:
    _move_card(state, uid, action - BF_BASE)


def _move_card(state: State, uid: int, bf: int) -> None:
    relocate(state, uid, bf)
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} moves to {state.spec.bf_name(bf)}")


def compile_move_card(step: Any, resolver: Resolver) -> tuple:
    return (TargetFilter(step.target, resolver), WHERE_CODES[step.to])


# -- tokens ------------------------------------------------------------------------------------
def run_add_token(state: State, task: tuple) -> None:
    kind, count, target, per_card, only_upcoming = task[1]
    ctx = task[2]
    player, source, bf = ctx
    if only_upcoming and not state.marker_bf < bf < state.spec.n_bf:
        return
    if per_card is not None:
        def_of = state.spec.def_of
        count *= sum(1 for uid in state.discards[player] if def_of[uid] in per_card)
    if count <= 0:
        return
    if kind == "silver-dollar":
        state.silver[player] += count
        return
    if target is None or target.this_card:
        if _is_live(state, source):
            _add_token(state, source, kind, count)
        return
    found = targets(state, target, ctx)
    if len(found) == 1:
        _add_token(state, found[0], kind, count)
    elif found:
        state.decide(player, _pieces(found), _resume_token, (kind, count), K_TOKEN)


def _is_live(state: State, uid: int) -> bool:
    spec = state.spec
    if uid < 0:
        return False
    if uid >= spec.n_cards:
        return state.alive[uid - spec.bandit_base]
    return state.placed[uid] is not None


def _resume_token(state: State, action: int, data: tuple) -> None:
    _add_token(state, action - PIECE_BASE, data[0], data[1])


def _add_token(state: State, uid: int, kind: str, count: int) -> None:
    if kind == "power":
        state.power[uid] += count
    elif kind == "eagle":
        state.eagle[uid] = 1
    else:  # true grit; the child hostage token "works in every respect as" true grit
        state.grit[uid] += count
    if state.verbose:
        state.note(f"{state.spec.uid_name(uid)} gets {count} {kind} token(s)")


def compile_add_token(step: Any, resolver: Resolver) -> tuple:
    target = TargetFilter(step.target, resolver) if step.target is not None else None
    per_card = (frozenset(resolver.card(c) for c in step.per_card_in_discard)
                if step.per_card_in_discard else None)
    return (step.token, step.count, target, per_card, step.only_if_upcoming)


# -- small steps -------------------------------------------------------------------------------
def run_row_limit(state: State, task: tuple) -> None:
    """Static while the card stays in play (compiled into its mode's `row_limit`)."""


def run_border_tokens(state: State, task: tuple) -> None:
    state.border = max(0, state.border - task[1])
    if state.verbose:
        state.note(f"{task[1]} border token(s) removed ({state.border} left)")
    if state.border == 0 and state.spec.border_tokens:
        state.end_game(DEFENDER, Termination.BORDER_EMPTIED)


def run_cancel_attack(state: State, task: tuple) -> None:
    state.attack_cancelled = True
    if state.verbose:
        state.note("the attack fails")


def run_cancel_card(state: State, task: tuple) -> None:
    state.cancelled = True


def run_forbid(state: State, task: tuple) -> None:
    state.forbidden = [state.forbidden[0] | task[1], state.forbidden[1] | task[1]]


def run_extra_turns(state: State, task: tuple) -> None:
    face, count, unless_bf = task[1]
    if unless_bf >= 0 and state.marker_bf >= unless_bf:
        return
    activate_face_spaces(state, face, count)


def run_lose_game(state: State, task: tuple) -> None:
    loser, source, _bf = task[2]
    spec = state.spec
    termination = Termination.CARD_EFFECT
    if source >= spec.n_cards:
        character = spec.bandits[source - spec.bandit_base]
        if character.leader:
            termination = Termination.JACK_KILLED
        elif character.is_cortez:
            termination = Termination.CORTEZ_KILLED
    state.end_game(1 - loser, termination)


def run_remove_self(state: State, task: tuple) -> None:
    source = task[2][1]
    if 0 <= source < state.spec.n_cards:
        remove_anywhere(state, source)


# -- derail the train --------------------------------------------------------------------------
def run_derail(state: State, task: tuple) -> None:
    """Everything at the current battlefield is discarded (impervious cards too); bandits
    die unless saved by one discard each; saving none loses the game."""
    player = task[2][0]
    bf = state.marker_bf
    state.derail_used = True
    if state.verbose:
        state.note("Derail the Train!")
    for owner in (0, 1):
        for uid in list(state.rows[2 * bf + owner]):
            destroy_card(state, uid)
    _save_next(state, player, ())


def _t_save_next(state: State, task: tuple) -> None:
    _save_next(state, task[1], task[2])


def _save_next(state: State, player: int, saved: tuple) -> None:
    pool = [i for i, alive in enumerate(state.alive) if alive and i not in saved]
    if not state.hands[player] or not pool:
        _derail_finish(state, saved)
        return
    state.decide(player, [PASS] + [BANDIT_BASE + i for i in pool], _resume_save,
                 (player, saved), K_SAVE)


def _resume_save(state: State, action: int, data: tuple) -> None:
    player, saved = data
    if action == PASS:
        _derail_finish(state, saved)
        return
    saved = (*saved, action - BANDIT_BASE)
    state.tasks.append((_t_save_next, player, saved))
    pay_next(state, player, 1, K_PAY)


def _derail_finish(state: State, saved: tuple) -> None:
    if not saved:
        state.end_game(ATTACKER, Termination.DERAIL_FAILED)
        return
    if state.verbose:
        names = ", ".join(state.spec.bandits[i].name for i in saved)
        state.note(f"saved from the wreck: {names}")
    for index, alive in enumerate(state.alive):
        if alive and index not in saved and not state.over:
            bandit_dies(state, index)


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
    """Whether a targeting step would find anything (so a useless cost is not offered)."""
    runner, params = step
    if runner is run_kill:
        return bool(_kill_candidates(state, params, ctx, 0))
    if runner is run_destroy or runner is run_bounce:
        return bool(_removable(state, params[0], ctx, runner is run_bounce))
    return True


# -- the registry ------------------------------------------------------------------------------
def _plain(*fields: str) -> Callable[[Any, Resolver], Any]:
    def compile_fields(step: Any, resolver: Resolver) -> Any:
        values = tuple(getattr(step, name) for name in fields)
        return values[0] if len(values) == 1 else values
    return compile_fields


def _compile_discard(step: Any, resolver: Resolver) -> tuple:
    return (SIDE_CODES[step.side], step.count, step.random, step.named)


def _compile_draw(step: Any, resolver: Resolver) -> tuple:
    return (step.count, SIDE_CODES[step.side])


def _compile_forbid(step: Any, resolver: Resolver) -> frozenset[int]:
    return frozenset(resolver.card(card_id) for card_id in step.cards)


def _compile_extra_turns(step: Any, resolver: Resolver) -> tuple:
    return (step.face, step.count, resolver.bf(step.unless_reached))


def _compile_optional_cost(step: Any, resolver: Resolver) -> tuple:
    return (step.discard, compile_steps(step.steps, resolver))


def _nothing(step: Any, resolver: Resolver) -> None:
    return None


REGISTRY: dict[str, tuple[Callable[[Any, Resolver], Any], Callable[[State, tuple], None]]] = {
    "kill": (compile_kill, run_kill),
    "destroy": (compile_destroy, run_destroy),
    "casualty": (_plain("count"), run_casualty),
    "sacrifice": (_plain("count"), run_sacrifice),
    "move-marker": (_plain("spaces", "stay_on_battlefield"), run_move_marker),
    "draw": (_compile_draw, run_draw),
    "discard": (_compile_discard, run_discard),
    "bounce": (compile_bounce, run_bounce),
    "retrieve": (compile_retrieve, run_retrieve),
    "move-card": (compile_move_card, run_move_card),
    "add-token": (compile_add_token, run_add_token),
    "row-limit": (_plain("limit"), run_row_limit),
    "border-tokens": (_plain("count"), run_border_tokens),
    "cancel-attack": (_nothing, run_cancel_attack),
    "cancel-card": (_nothing, run_cancel_card),
    "search-deck": (_nothing, run_search_deck),
    "shuffle-hands": (_nothing, run_shuffle_hands),
    "forbid": (_compile_forbid, run_forbid),
    "extra-turns": (_compile_extra_turns, run_extra_turns),
    "lose-game": (_nothing, run_lose_game),
    "derail": (_nothing, run_derail),
    "remove-self": (_nothing, run_remove_self),
    "optional-cost": (_compile_optional_cost, run_optional_cost),
}

#: The steps this engine performs (read by `deckbuilder.support.unimplemented_reasons`).
IMPLEMENTED_STEPS: frozenset[str] = frozenset(REGISTRY)


def _run_unimplemented(state: State, task: tuple) -> None:
    raise RuntimeError(f"step '{task[1]}' is not implemented; new_game refuses such cards")


def compile_steps(steps: Sequence[Any], resolver: Resolver) -> tuple[Step, ...]:
    """Step models -> `(runner, params)` pairs.

    A step the engine cannot run (`manual`) compiles to a runner that fails loudly; it is never
    reached, since `new_game` refuses decks holding such cards (`nested_reasons`).
    """
    compiled = []
    for step in steps:
        entry = REGISTRY.get(step.do)
        if entry is None:
            compiled.append((_run_unimplemented, step.do))
            continue
        compiler, runner = entry
        compiled.append((runner, compiler(step, resolver)))
    return tuple(compiled)


def _walk(steps: Sequence[Any]) -> list[Any]:
    found = []
    for step in steps:
        found.append(step)
        found.extend(_walk(getattr(step, "steps", None) or []))
    return found


def nested_reasons(record: Any) -> list[str]:
    """Why a record cannot be played, looking inside nested steps (optional-cost) too."""
    steps: list[Any] = []
    for attribute in ("effect", "on_death"):
        steps.extend(getattr(record, attribute, None) or [])
    for group in ("triggers", "abilities"):
        for item in getattr(record, group, None) or []:
            steps.extend(item.steps)
    for mode in getattr(record, "modes", None) or []:
        steps.extend(mode.effect)
    reasons = []
    for step in _walk(steps):
        if isinstance(step, Manual):
            reasons.append(f"effect not expressible in the vocabulary: {step.text}")
        elif step.do not in IMPLEMENTED_STEPS:
            reasons.append(f"engine does not implement step '{step.do}'")
    return reasons


__all__ = ["IMPLEMENTED_STEPS", "REGISTRY", "Resolver", "TargetFilter", "compile_steps",
           "nested_reasons"]

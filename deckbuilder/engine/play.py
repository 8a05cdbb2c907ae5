"""Playing cards: legality (one home: `play_problem`), then mode -> battlefield -> pay ->
the opponent's reaction window -> resolve. Also abilities and discarding your own card.

`play_problem` says why a card cannot be played (None when it can); `verify_play` raises it
as an IllegalActionError and `can_play` wraps it. The play-phase options use the same
functions (`play_options`), with an inlined fast path for the common simple card.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from deckbuilder.engine.actions import (
    BF_BASE,
    K_DISCARD,
    K_MAIN,
    K_MODE,
    K_PAY,
    K_PLACE,
    K_REACT,
    K_SEARCH,
    MAX_ABILITIES,
    MODE_BASE,
    PASS,
    USE_PIECE,
    IllegalActionError,
    action_to_string,
    kind_name,
)
from deckbuilder.engine.board import (
    PAY,
    arrived,
    can_place,
    column_count,
    find_row,
    lift,
    place,
    push_steps,
    row_blocking_count,
    take_from_hand,
)
from deckbuilder.engine.card_records import CardDef, ModeDef
from deckbuilder.engine.codes import (
    FAST_FREE,
    FAST_GENERAL,
    FAST_NEVER,
    FIREPOWER,
    PLACE_ANY,
    PLACE_NAMED,
    PLACE_OPEN_RANGE,
    PLACE_OPPONENT_ANY,
    SLOT_BESIDE,
    SLOT_NONE,
    SLOT_OPPONENT,
    SLOT_OWN,
)
from deckbuilder.engine.expansion_steps import (
    NEED_CONDITION,
    can_reach_hidden,
    card_cost,
    condition_holds,
    forbidden_here,
    gate_open,
    needs_met,
    t_in_play_watchers,
)
from deckbuilder.engine.marker import marker_target
from deckbuilder.engine.state import State
from deckbuilder.engine.wording import text_applies


# -- legality ---------------------------------------------------------------------------------
def placements(state: State, card: CardDef, mode: ModeDef) -> Sequence[int]:
    """Battlefields a card may be put at in this mode (before limits are checked)."""
    slot = mode.slot
    if slot in (SLOT_NONE, SLOT_BESIDE):
        return (state.marker_bf,)
    placement = card.placement
    if placement == PLACE_OPEN_RANGE:
        return (state.spec.n_bf,)
    if placement in (PLACE_ANY, PLACE_OPPONENT_ANY):
        return range(state.spec.n_bf)
    if placement == PLACE_NAMED:  # only while the battlefield it names is in the row
        named = card.named_bf
        return (named,) if named >= 0 else ()
    return (state.marker_bf,)


def play_options(state: State, player: int, card: CardDef, hand_size: int,
                 room: dict[int, bool] | None = None, first: bool = False) -> list[tuple]:
    """Every (mode, battlefield, cost) the card can be played with; hand_size counts it.
    `room` caches column answers across the cards of one options computation; `first` stops
    at the first way found (the play phase's options ask only whether there is one)."""
    if card.min_cost > hand_size - 1 or state.marker_bf in card.not_at:
        return []
    if card.silver > state.silver[player]:  # its silver-dollar cost (general cards only)
        return []
    found = []
    n_bf = state.spec.n_bf
    for mode in card.modes:
        requirement = mode.marker_req
        if requirement is not None and requirement[1] and \
                marker_target(state, requirement[0], True) is None:
            continue
        if mode.needs and not needs_met(state, mode.needs, player):
            continue
        slot = mode.slot
        columned = mode.counts and slot in (SLOT_OWN, SLOT_OPPONENT)
        for bf in placements(state, card, mode):
            if bf in card.not_at:
                continue
            if mode.discarded:  # a discard for its effect is no play: no cost
                cost = 0
            elif card.discounted:
                cost = card_cost(state, player, card, bf)
            else:
                cost = 0 if bf in card.cost_waived else card.cost
            if cost > hand_size - 1:
                continue
            if columned and bf < n_bf:
                fits: bool | None
                if card.immune is not None:  # its own answer: some row limits spare it
                    fits = can_place(state, player, mode, bf, card)
                else:
                    key = 2 * bf + slot
                    fits = room.get(key) if room is not None else None
                    if fits is None:
                        fits = can_place(state, player, mode, bf)
                        if room is not None:
                            room[key] = fits
                if not fits:
                    continue
            found.append((mode.index, bf, cost))
            if first:
                return found
    return found


def play_problem(state: State, player: int, definition: int) -> str | None:
    """Why `player` cannot play card `definition` now (None: he can)."""
    refusal = play_refusal(state, player, definition)
    return None if refusal is None else refusal[1]


def play_refusal(state: State, player: int, definition: int
                 ) -> tuple[tuple[str, ...], str] | None:
    """Why `player` cannot play card `definition` now: the rules it meets (codes, each a key
    of `GameRules.rule_words`) and the engine's words; None: he can."""
    spec = state.spec
    if state.over:
        return ("over",), "the game is over"
    if state.pending_kind != K_MAIN or state.pending_player != player:
        return ("phase",), f"it is not {_name(state, player)}'s play phase"
    if not 0 <= definition < len(spec.defs):
        return ("no-card",), f"no card #{definition}"
    card = spec.defs[definition]
    hand = state.hands[player]
    if not any(spec.def_of[uid] == definition for uid in hand):
        return ("no-card",), f"{_name(state, player)} holds no {card.name}"
    if not card.main_playable:
        return ("reaction",), f"{card.name} is played only in reaction to the opponent"
    if definition in state.forbidden[player]:
        return ("forbidden",), f"{card.name} may no longer be played (a card forbids it)"
    bf_name = spec.bf_name(state.marker_bf)
    if state.marker_bf in card.not_at:
        return ("not-at",), f"{card.name} cannot be used at {bf_name}"
    if definition in forbidden_here(state, player):
        return ("forbidden-here",), f"{card.name} may not be played at {bf_name} (a card of " \
            "the opponent's there forbids it)"
    if card.silver > state.silver[player]:
        return ("silver",), (f"{card.name} costs {card.silver} silver dollar(s) and "
                             f"{_name(state, player)} has {state.silver[player]}")
    if play_options(state, player, card, len(hand)):
        return None
    reasons = dict(_mode_reasons(state, player, card, len(hand)))
    return tuple(dict.fromkeys(reasons.values())), \
        f"{card.name} cannot be played: " + "; ".join(reasons)


def _mode_reasons(state: State, player: int, card: CardDef, hand_size: int
                  ) -> Iterator[tuple[str, str]]:
    """Why each of the card's modes has no way to be played: (the engine's words, code)."""
    spec = state.spec
    bf_name = spec.bf_name(state.marker_bf)
    for mode in card.modes:
        requirement = mode.marker_req
        if requirement is not None and requirement[1] and \
                marker_target(state, requirement[0], True) is None:
            edge = "rightmost" if requirement[0] > 0 else "leftmost"
            yield f"the turn marker is on the {edge} space it can reach at {bf_name}", "marker"
            continue
        where = list(placements(state, card, mode))
        if not where:
            yield (f"it may be placed only in {card.named_place}, which is not on the board"
                   if card.placement == PLACE_NAMED
                   else "it has no battlefield it may be placed at"), "placement"
            continue
        if mode.needs and not needs_met(state, mode.needs, player):
            yield _unmet(state, mode, player)
            continue
        cheapest = 0 if mode.discarded else min(card_cost(state, player, card, bf)
                                                for bf in where)
        if cheapest > hand_size - 1:
            yield (f"it costs {cheapest} discard(s) and only {hand_size - 1} other card(s) "
                   "are in hand"), "cost"
            continue
        if mode.slot == SLOT_OPPONENT and all(row_blocking_count(state, bf) >= 2 for bf in where):
            yield "there are already 2 row-blocking cards there", "row-blocking"
            continue
        side = player if mode.slot == SLOT_OWN else 1 - player
        if any(column_count(state, bf, side) >= spec.column_limit[side] for bf in where):
            limit = "three-card" if spec.column_limit[side] == 3 else "card"
            yield f"the column is full (the {limit} limit)", "card-limit"
        else:
            yield "the column is full (a row limit: a card there limits it)", "row-limit"


def _unmet(state: State, mode: ModeDef, player: int) -> tuple[str, str]:
    for kind, params in mode.needs:
        if kind == NEED_CONDITION and not condition_holds(state, params, player):
            return "its condition does not hold now (only-if)", "condition"
    return "there is no card in play to put it under", "under"


def verify_play(state: State, player: int, definition: int) -> None:
    problem = play_problem(state, player, definition)
    if problem is not None:
        raise IllegalActionError(problem)


def can_play(state: State, player: int, definition: int) -> bool:
    return play_problem(state, player, definition) is None


def main_options(state: State, player: int) -> list[int]:
    """The play-phase actions: PASS, play a card, use an ability, discard own, use the game's
    table piece here; sorted, as the action table numbers them (PASS, the piece, discards
    of own cards by card, abilities by card, plays by definition), so built in that order."""
    spec = state.spec
    layout = spec.layout
    hand = state.hands[player]
    hand_size = len(hand)
    bf = state.marker_bf
    options = [PASS]
    if spec.game_rules.piece_available(state, player) is not None:
        options.append(USE_PIECE)
    placed = state.placed
    own_base = layout.own_base
    discards = len(options)
    for uid in state.rows[2 * bf + player]:
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        if mode.slot == SLOT_OWN and mode.play == FIREPOWER and (
                spec.card_def[uid].movable or not text_applies(state, uid, bf)):
            options.append(own_base + uid)
    if len(options) - discards > 1:  # a row lists its cards as they came into play
        options[discards:] = sorted(options[discards:])
    for uid in spec.ability_uids[player]:
        if placed[uid] is not None and text_applies(state, uid):
            for index, ability in enumerate(spec.card_def[uid].abilities):
                if ability.discard_cost <= hand_size and not (
                        ability.once_per_turn and (uid, index) in state.used_abilities) and (
                        ability.gate is None or condition_holds(state, ability.gate, player)) \
                        and (not ability.needs_under or can_reach_hidden(state, uid)):
                    options.append(layout.ability_base + uid * MAX_ABILITIES + index)
    if hand:
        _add_plays(state, player, hand, options)
    return options


def _add_plays(state: State, player: int, hand: list[int], options: list[int]) -> None:
    """Append the play actions of the cards in `hand` that can be played now, by definition
    (a definition's play actions are numbered in its order)."""
    spec = state.spec
    defs = spec.defs
    def_of = spec.def_of
    hand_size = len(hand)
    bf = state.marker_bf
    forbidden = state.forbidden[player]
    if spec.play_blockers[1 - player]:
        forbidden = forbidden | forbidden_here(state, player)
    play_action = spec.play_action
    room: dict[int, bool] = {}
    # A simple card's column here, own and opponent's (its `fast`): -1 not asked yet, 0, 1.
    columns = [-1, -1]
    in_hand = [def_of[uid] for uid in hand]
    in_hand.sort()
    last = -1
    for definition in in_hand:
        if definition == last:  # another copy: the same answer
            continue
        last = definition
        card = defs[definition]
        fast = card.fast
        if fast == FAST_NEVER or (forbidden and definition in forbidden):
            continue
        if fast == FAST_GENERAL:
            if play_options(state, player, card, hand_size, room, first=True):
                options.append(play_action[definition])
            continue
        if card.cost >= hand_size:
            continue
        if fast != FAST_FREE:  # FAST_OWN_COLUMN / FAST_OPPONENT_COLUMN: the slot
            if columns[fast] < 0:
                columns[fast] = can_place(state, player, card.modes[0], bf)
            if not columns[fast]:
                continue
        options.append(play_action[definition])


# -- playing a card ---------------------------------------------------------------------------
def start_play(state: State, player: int, definition: int) -> None:
    card = state.spec.defs[definition]
    hand_size = len(state.hands[player])
    uid = take_from_hand(state, player, definition)
    state.limbo.append(uid)
    if state.verbose:
        state.note(f"{_name(state, player)} plays {card.name}")
    if card.silver:  # its silver-dollar cost is spent as it is played
        state.silver[player] -= card.silver
        if state.verbose:
            state.note(f"{_name(state, player)} spends {card.silver} silver dollar(s)")
    if card.simple:  # one mode, the current battlefield: nothing to choose
        begin_play(state, player, uid, 0, state.marker_bf, card.cost)
        return
    combos = play_options(state, player, card, hand_size)
    modes = sorted({combo[0] for combo in combos})
    if len(modes) > 1:
        state.decide(player, [MODE_BASE + m for m in modes], _resume_mode, (uid, combos, player),
                     K_MODE)
    else:
        _choose_place(state, player, uid, combos, modes[0])


def _resume_mode(state: State, action: int, data: tuple) -> None:
    uid, combos, player = data
    _choose_place(state, player, uid, combos, action - MODE_BASE)


def _choose_place(state: State, player: int, uid: int, combos: list[tuple], mode: int) -> None:
    choices = sorted((bf, cost) for m, bf, cost in combos if m == mode)
    if len(choices) > 1:
        state.decide(player, [BF_BASE + bf for bf, _ in choices], _resume_place,
                     (uid, choices, player, mode), K_PLACE)
    else:
        begin_play(state, player, uid, mode, choices[0][0], choices[0][1])


def _resume_place(state: State, action: int, data: tuple) -> None:
    uid, choices, player, mode = data
    bf = action - BF_BASE
    cost = next(cost for where, cost in choices if where == bf)
    begin_play(state, player, uid, mode, bf, cost)


def begin_play(state: State, player: int, uid: int, mode: int, bf: int, cost: int) -> None:
    """Queue: pay the cost, give the opponent his reaction window, then resolve. A discard
    for its effect is no play: no reaction to a play answers it (and its cost is 0)."""
    state.cancelled = False
    tasks = state.tasks
    tasks.append((RESOLVE, player, uid, mode, bf))
    if state.spec.card_def[uid].modes[mode].discarded:
        if state.verbose:
            state.note(f"{_name(state, player)} discards {state.spec.card_def[uid].name} from "
                       "his hand for its effect (no play: no cost)")
        return
    watched = state.spec.play_watch_defs[1 - player]
    if watched is not None and (not watched or state.spec.def_of[uid] in watched):
        tasks.append((t_in_play_watchers, player, uid, bf))  # after reactions, before resolving
    reactions = state.spec.play_reactions[1 - player]
    if reactions is not None and (not reactions or state.spec.def_of[uid] in reactions):
        tasks.append((_t_react_to_play, player, uid))
    if cost:
        tasks.append((PAY, player, cost, K_PAY))


def _t_resolve(state: State, task: tuple) -> None:
    _, player, uid, mode_index, bf = task
    card: CardDef = state.spec.card_def[uid]  # typed: `uid` from a tuple would make it Any
    state.record_play(player, card.idx)
    if state.cancelled:
        state.cancelled = False
        state.limbo.remove(uid)
        state.discards[player].append(uid)
        if state.verbose:
            state.note(f"{card.name} is cancelled")
        return
    mode: ModeDef = card.modes[mode_index]
    if mode.slot == SLOT_NONE:
        state.tasks.append((FINISH_ONE_SHOT, uid))
    else:
        state.limbo.remove(uid)
        place(state, uid, player, bf, mode)
        if state.verbose:
            state.note(f"{card.name} enters play at {state.spec.bf_name(bf)}")
        arrived(state, uid, bf)
    if mode.effect:
        if bf == state.silent_bf and state.spec.silences_plays and not card.speaks_silenced:
            if state.verbose:  # rule switch prison-silence: every-text
                state.note(f"the text of {card.name} is ignored at {state.spec.bf_name(bf)}")
            return
        push_steps(state, mode.effect, (player, uid, bf))


def t_play_drawn(state: State, task: tuple) -> None:
    """Play card `uid`, just drawn by `player`, at once and for free (its first mode, at the
    current battlefield): The Legend of Boggy Creek's "Play this card immediately"."""
    player, uid = task[1], task[2]
    hand = state.hands[player]
    if uid not in hand or state.over:
        return
    hand.remove(uid)
    state.limbo.append(uid)
    if state.verbose:
        state.note(f"{_name(state, player)} plays {state.spec.card_def[uid].name} at once")
    begin_play(state, player, uid, 0, state.marker_bf, 0)


def t_finish_one_shot(state: State, task: tuple) -> None:
    uid = task[1]
    if uid in state.limbo:
        state.limbo.remove(uid)
        state.discards[state.spec.owner[uid]].append(uid)


RESOLVE: Final = _t_resolve  # statics compiled (engine.turn's RESUME_MAIN)
FINISH_ONE_SHOT: Final = t_finish_one_shot


# -- reactions --------------------------------------------------------------------------------
def reaction_options(state: State, player: int, played: int | None) -> list[int]:
    """Reaction cards `player` could play now: to the opponent playing card `played`, or
    (played None) to a casualty in the opponent's attack."""
    spec = state.spec
    hand = state.hands[player]
    hand_size = len(hand)
    defs = spec.defs
    def_of = spec.def_of
    forbidden = state.forbidden[player]
    play_action = spec.play_action
    found = set()
    for uid in hand:
        card = defs[def_of[uid]]
        if card.react_cost > hand_size - 1 or card.idx in forbidden:
            continue
        if played is None:
            if card.react_attack is not None and (
                    card.react_gates[0] is None or gate_open(state, card.react_attack, player)):
                found.add(play_action[card.idx])
        elif card.react_plays is not None and (card.react_cards is None
                                               or played in card.react_cards) and (
                card.react_gates[1] is None or gate_open(state, card.react_plays, player)):
            found.add(play_action[card.idx])
    return sorted(found)


def _t_react_to_play(state: State, task: tuple) -> None:
    player, uid = task[1], task[2]
    opponent = 1 - player
    if not state.hands[opponent]:
        return
    options = reaction_options(state, opponent, state.spec.def_of[uid])
    if options:
        state.decide(opponent, [PASS, *options], resume_reaction,
                     (opponent, False, state.spec.def_of[uid]), K_REACT)


def resume_reaction(state: State, action: int, data: tuple) -> None:
    """Play the chosen reaction card: pay, run its reaction steps, discard it."""
    if action == PASS:
        return
    player, to_attack, _played = data
    spec = state.spec
    definition = spec.action_def[action]
    card = spec.defs[definition]
    uid = take_from_hand(state, player, definition)
    state.limbo.append(uid)
    state.record_play(player, definition)
    if state.verbose:
        state.note(f"{_name(state, player)} reacts with {card.name}")
    state.tasks.append((t_finish_one_shot, uid))
    steps = card.react_attack if to_attack else card.react_plays
    assert steps is not None  # offered as a reaction only when it has one
    push_steps(state, steps, (player, uid, state.marker_bf))
    if card.react_cost:
        state.tasks.append((PAY, player, card.react_cost, K_PAY))


# -- abilities and discarding your own card ---------------------------------------------------
def use_ability(state: State, player: int, uid: int, index: int) -> None:
    ability = state.spec.card_def[uid].abilities[index]
    if ability.once_per_turn:
        state.used_abilities = state.used_abilities | {(uid, index)}
    if state.verbose:
        state.note(f"{_name(state, player)} uses {state.spec.card_def[uid].name}: {ability.name}")
    push_steps(state, ability.steps, (player, uid, find_row(state, uid) >> 1))
    if ability.discard_cost:
        state.tasks.append((PAY, player, ability.discard_cost, K_PAY))


def discard_own(state: State, player: int, uid: int) -> None:
    lift(state, uid)
    state.discards[player].append(uid)
    if state.verbose:
        state.note(f"{_name(state, player)} discards his {state.spec.card_def[uid].name} "
                   "from play")


# -- hidden information -------------------------------------------------------------------------
def refresh_hidden_decision(state: State) -> None:
    """After the decider's hand or deck was re-dealt (`resample_hidden`), recompute the
    options that depend on them, so every listed action stays playable."""
    player = state.pending_player
    kind = state.pending_kind
    spec = state.spec
    if kind == K_MAIN:
        state.pending_resume = None
        state.run()
    elif kind in (K_PAY, K_DISCARD):
        pay_action = spec.pay_action
        state.legal = sorted({pay_action[spec.def_of[uid]] for uid in state.hands[player]})
    elif kind == K_REACT:
        _, to_attack, played = state.pending_data
        state.legal = [PASS, *reaction_options(state, player, None if to_attack else played)]
    elif kind == K_SEARCH:
        card_action = spec.card_action
        state.legal = sorted({card_action[spec.def_of[uid]] for uid in state.decks[player]})


# -- explaining -------------------------------------------------------------------------------
def explain_illegal(state: State, action: int) -> str:
    if state.over:
        return "the game is over: no action is legal"
    layout = state.spec.layout
    if state.pending_kind == K_MAIN and layout.play_base <= action < layout.pay_base:
        problem = play_problem(state, state.pending_player, state.spec.action_def[action])
        if problem:
            return problem
    try:
        text = action_to_string(state, action)
    except (IndexError, KeyError, AttributeError, TypeError):
        text = f"action {action}"
    legal = ", ".join(action_to_string(state, a) for a in state.legal[:12])
    more = " ..." if len(state.legal) > 12 else ""
    return (f"'{text}' is not legal now ({_name(state, state.pending_player)} must "
            f"{kind_name(state.pending_kind, state.spec)}; legal: {legal}{more})")


def _name(state: State, player: int) -> str:
    return state.spec.game_rules.side_names[player]

"""Effect steps that choose cards: kill, destroy, bounce, sacrifice, retrieve, search,
move a card, tokens; and how a step's target filter is compiled.

Runners are called as `runner(state, (runner, params, ctx))`; see `effects.py` for the
registry and the calling convention.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from deckbuilder.engine.actions import (
    BF_BASE,
    IN_PLAY_BASE,
    K_BOUNCE,
    K_DESTROY,
    K_KILL,
    K_MOVE_CARD,
    K_MOVE_TO,
    K_RETRIEVE,
    K_SACRIFICE_CARD,
    K_SEARCH,
    K_TOKEN,
    PASS,
)
from deckbuilder.engine.addons import WHERE_PREVIOUS, attached_to
from deckbuilder.engine.board import (
    arrived,
    can_place,
    card_firepower,
    casualty_next,
    destroy_card,
    draw,
    find_row,
    is_protected,
    kill_card,
    lift_onto,
    place,
    relocate,
    targets,
)
from deckbuilder.engine.card_records import TARGET_FIELDS, CardDef, TargetFields, copy_fields
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.codes import (
    ALL,
    CATEGORY_BITS,
    PLAY_CODES,
    SIDE_CODES,
    SIDE_OPPONENT,
    SIDE_SELF,
    SLOT_OWN,
    SLOT_UNDER,
    WHERE_ADJACENT,
    WHERE_ANY,
    WHERE_CODES,
    WHERE_CURRENT,
    WHERE_UPCOMING,
)
from deckbuilder.engine.game_rules import GameRules, StepEntry
from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.engine.wording import is_movable
from deckbuilder.models.effects import Target

Step = tuple[Callable[[State, tuple], None], Any]


#: `where` codes, with the one the expansions add (board.WHERE_PREVIOUS).
_WHERE_CODES: Final = {**WHERE_CODES, "previous": WHERE_PREVIOUS}


class Resolver:
    """Card, battlefield and bandit ids -> indexes (-1 for an id the game does not have);
    card names, for effects that name cards by a word in their names."""

    def __init__(self, cards: Mapping[str, int], battlefields: Mapping[str, int],
                 characters: Mapping[str, int] | None = None,
                 names: Mapping[str, str] | None = None,
                 rules: GameRules | None = None) -> None:
        self.cards = dict(cards)
        #: the game's own steps, beside the table's vocabulary, and what the table must know
        #: of them and of the game's placements (see `GameRules`)
        self.steps: dict[str, StepEntry] = {}
        self.placements: Mapping[str, tuple[str, str]] = {}
        self.silent_battlefield = ""
        self.hiding_runners: frozenset[Callable] = frozenset()
        self.under_runners: frozenset[Callable] = frozenset()
        self.forbidding_steps: frozenset[str] = frozenset()
        if rules is not None:
            self.steps = dict(rules.steps)
            self.placements = rules.placement_battlefields
            self.silent_battlefield = rules.silent_battlefield
            self.hiding_runners = frozenset(self.steps[name][1] for name in rules.hiding_steps)
            self.under_runners = frozenset(self.steps[name][1] for name in rules.under_steps)
            self.forbidding_steps = rules.forbidding_steps
        self.battlefields = dict(battlefields)
        self.characters = dict(characters or {})
        self.names = dict(names or {})

    def card(self, card_id: str) -> int:
        return self.cards.get(card_id, -1)

    def bf(self, bf_id: str | None) -> int:
        return self.battlefields.get(bf_id, -1) if bf_id else -1

    def character(self, character_id: str) -> int:
        """The bandit (defending character) index, -1 if he is not in the game."""
        return self.characters.get(character_id, -1)

    def named(self, word: str) -> frozenset[int]:
        """The cards whose names contain `word` (as printed: case matters)."""
        return frozenset(self.cards[card_id] for card_id, name in self.names.items()
                         if word in name and card_id in self.cards)


class TargetFilter(TargetFields):
    """A compiled `Target`: which cards in play a step may act on."""

    __slots__ = ()

    def __init__(self, target: Any, resolver: Resolver) -> None:
        self.side = SIDE_CODES[target.side]
        self.where = _WHERE_CODES[target.where]
        self.icons = frozenset(target.icons) if target.icons else None
        self.host = target.host
        self.categories = sum(CATEGORY_BITS[c] for c in set(target.categories))
        self.plays = frozenset(PLAY_CODES[p] for p in target.plays) if target.plays else None
        self.cards = frozenset(resolver.card(c) for c in target.cards) if target.cards else None
        self.exclude = frozenset(resolver.card(c) for c in target.exclude)
        # `side: self` with no filter at all means "this card" (AddToken's docstring).
        self.this_card = (self.side == SIDE_SELF and not target.categories and not target.plays
                          and not target.cards)

    def __copy__(self) -> TargetFilter:
        return copy_fields(self, TargetFilter(Target(), Resolver({}, {})), TARGET_FIELDS)


def _count(value: Any) -> int:
    return ALL if value == "all" else int(value)


def side_players(side: int, player: int) -> tuple[int, ...]:
    return (player,) if side == SIDE_SELF else (1 - player,) if side == SIDE_OPPONENT else (0, 1)


def _pieces(uids: list[int]) -> list[int]:
    return sorted(IN_PLAY_BASE + uid for uid in uids)


# -- kill -------------------------------------------------------------------------------------
def kill_candidates(state: State, params: tuple, ctx: tuple, spent: int) -> list[int]:
    target, max_total = params[0], params[3]
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
    found = kill_candidates(state, params, ctx, spent)
    if not found:
        return
    _target, count, up_to, _max, ignore_grit, remove, at_least = params
    if count == ALL and not up_to:
        for uid in found:
            kill_card(state, uid, ignore_grit, remove)
        return
    may_stop = up_to and count - remaining >= at_least  # the kills owed are made
    if len(found) == 1 and not may_stop:
        uid = found[0]
        state.resolved_alone(ctx[0], K_KILL, IN_PLAY_BASE + uid)
        state.tasks.append((_t_kill_more, params, ctx, remaining - 1,
                            spent + card_firepower(state, uid)))
        kill_card(state, uid, ignore_grit, remove)
        return
    options = _pieces(found)
    if may_stop:
        options.insert(0, PASS)
    state.decide(ctx[0], options, _resume_kill, (params, ctx, remaining, spent), K_KILL)


def _resume_kill(state: State, action: int, data: tuple) -> None:
    params, ctx, remaining, spent = data
    if action == PASS:
        return
    uid = action - IN_PLAY_BASE
    state.tasks.append((_t_kill_more, params, ctx, remaining - 1,
                        spent + card_firepower(state, uid)))
    kill_card(state, uid, params[4], params[5])


def compile_kill(step: Any, resolver: Resolver) -> tuple:
    max_total = step.max_total_firepower if step.max_total_firepower is not None else -1
    return (TargetFilter(step.target, resolver), _count(step.count), step.up_to, max_total,
            step.ignore_true_grit, step.remove_from_game, step.at_least)


# -- destroy / bounce --------------------------------------------------------------------------
def removable(state: State, target: TargetFilter, ctx: tuple, need_movable: bool) -> list[int]:
    card_def = state.spec.card_def
    return [uid for uid in targets(state, target, ctx)
            if not is_protected(state, uid, ctx[0])
            and (not need_movable or is_movable(state, uid, card_def[uid].movable))]


def run_destroy(state: State, task: tuple) -> None:
    params = task[1]
    _destroy_next(state, params, task[2], params[1])


def _t_destroy_more(state: State, task: tuple) -> None:
    _destroy_next(state, task[1], task[2], task[3])


def _destroy_next(state: State, params: tuple, ctx: tuple, remaining: int) -> None:
    if remaining <= 0 or state.over:
        return
    target, count, up_to, remove = params
    found = removable(state, target, ctx, False)
    if not found:
        return
    if (count == ALL or len(found) == 1) and not up_to:
        chosen = found if count == ALL else found[:1]
        if count != ALL:
            state.resolved_alone(ctx[0], K_DESTROY, IN_PLAY_BASE + found[0])
            state.tasks.append((_t_destroy_more, params, ctx, remaining - 1))
        for uid in chosen:
            destroy_card(state, uid, remove)
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
    destroy_card(state, action - IN_PLAY_BASE, params[3])


def compile_destroy(step: Any, resolver: Resolver) -> tuple:
    return (TargetFilter(step.target, resolver), _count(step.count), step.up_to,
            step.remove_from_game)


def run_bounce(state: State, task: tuple) -> None:
    params = task[1]
    _bounce_next(state, params, task[2], params[1])


def _t_bounce_more(state: State, task: tuple) -> None:
    _bounce_next(state, task[1], task[2], task[3])


def _bounce_next(state: State, params: tuple, ctx: tuple, remaining: int) -> None:
    if remaining <= 0 or state.over:
        return
    found = removable(state, params[0], ctx, True)
    if not found:
        return
    if len(found) == 1:
        state.resolved_alone(ctx[0], K_BOUNCE, IN_PLAY_BASE + found[0])
        state.tasks.append((_t_bounce_more, params, ctx, remaining - 1))
        _bounce(state, found[0])
        return
    state.decide(ctx[0], _pieces(found), _resume_bounce, (params, ctx, remaining), K_BOUNCE)


def _resume_bounce(state: State, action: int, data: tuple) -> None:
    params, ctx, remaining = data
    state.tasks.append((_t_bounce_more, params, ctx, remaining - 1))
    _bounce(state, action - IN_PLAY_BASE)


def _bounce(state: State, uid: int) -> None:
    lift_onto(state, uid, state.hands, "returns to its owner's hand")


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
           if card_def[uid].cat_bit & CATEGORY_BITS["character"]
           and state.mode_of(uid).slot != SLOT_UNDER]
    if not own:
        return
    if len(own) == 1:
        state.resolved_alone(ctx[0], K_SACRIFICE_CARD, IN_PLAY_BASE + own[0])
        state.tasks.append((_t_sacrifice_more, ctx, count - 1))
        kill_card(state, own[0], True, False)
        return
    state.decide(ctx[0], _pieces(own), _resume_sacrifice, (ctx, count), K_SACRIFICE_CARD)


def _resume_sacrifice(state: State, action: int, data: tuple) -> None:
    ctx, count = data
    state.tasks.append((_t_sacrifice_more, ctx, count - 1))
    kill_card(state, action - IN_PLAY_BASE, True, False)


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
        only = choices.pop()
        state.resolved_alone(player, K_RETRIEVE, spec.card_action[only])
        _retrieve(state, data, only)
        return
    card_action = spec.card_action
    state.decide(player, sorted(card_action[d] for d in choices), _resume_retrieve, data,
                 K_RETRIEVE)


def _can_enter_play(state: State, player: int, card: CardDef) -> bool:
    mode = card.modes[0]
    return mode.slot == SLOT_OWN and can_place(state, player, mode, state.marker_bf)


def _resume_retrieve(state: State, action: int, data: tuple) -> None:
    _retrieve(state, data, state.spec.action_def[action])


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
        arrived(state, uid, state.marker_bf)
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
        state.resolved_alone(player, K_SEARCH, state.spec.card_action[choices[0]])
        _search(state, player, choices[0])
        return
    card_action = state.spec.card_action
    state.decide(player, [card_action[d] for d in choices], _resume_search, player, K_SEARCH)


def _resume_search(state: State, action: int, player: int) -> None:
    _search(state, player, state.spec.action_def[action])


def _search(state: State, player: int, definition: int) -> None:
    deck = state.decks[player]
    def_of = state.spec.def_of
    uid = next(u for u in deck if def_of[u] == definition)
    deck.remove(uid)
    shuffle(state.rng, deck)
    deck.append(uid)


def run_shuffle_hands(state: State, task: tuple) -> None:
    for player in (0, 1):
        hand = state.hands[player]
        size = len(hand)
        state.decks[player].extend(hand)
        hand.clear()
        shuffle(state.rng, state.decks[player])
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
    elif to == WHERE_PREVIOUS:
        candidates = (here - 1,)
    else:
        candidates = (ctx[2],)
    owner = state.spec.owner[uid]
    mode = state.mode_of(uid)
    return [bf for bf in candidates
            if 0 <= bf < n_bf and bf != here and can_place(state, owner, mode, bf)]


def run_move_card(state: State, task: tuple) -> None:
    target, to = task[1]
    ctx = task[2]
    found = [uid for uid in removable(state, target, ctx, True)
             if _destinations(state, uid, to, ctx)]
    if not found:
        return
    if len(found) == 1:
        state.resolved_alone(ctx[0], K_MOVE_CARD, IN_PLAY_BASE + found[0])
        _choose_destination(state, found[0], to, ctx)
        return
    state.decide(ctx[0], _pieces(found), _resume_move_card, (to, ctx), K_MOVE_CARD)


def _resume_move_card(state: State, action: int, data: tuple) -> None:
    to, ctx = data
    _choose_destination(state, action - IN_PLAY_BASE, to, ctx)


def _choose_destination(state: State, uid: int, to: int, ctx: tuple) -> None:
    places = _destinations(state, uid, to, ctx)
    if len(places) == 1:
        state.resolved_alone(ctx[0], K_MOVE_TO, BF_BASE + places[0])
        _move_card(state, uid, places[0])
        return
    state.decide(ctx[0], [BF_BASE + bf for bf in places], _resume_move_to, uid, K_MOVE_TO)


def _resume_move_to(state: State, action: int, uid: int) -> None:
    _move_card(state, uid, action - BF_BASE)


def _move_card(state: State, uid: int, bf: int) -> None:
    relocate(state, uid, bf)
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} moves to {state.spec.bf_name(bf)}")
    arrived(state, uid, bf)


def compile_move_card(step: Any, resolver: Resolver) -> tuple:
    return (TargetFilter(step.target, resolver), _WHERE_CODES[step.to])


# -- tokens ------------------------------------------------------------------------------------
def run_add_token(state: State, task: tuple) -> None:
    kind, count, target, per_card, only_upcoming, each = task[1]
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
    if kind == "eagle":  # not on the cards the sheet excludes, nor twice on one card
        card_def = state.spec.card_def
        found = [uid for uid in found if not card_def[uid].eagle_proof and not state.eagle[uid]]
    if len(found) == 1 or (each and found):
        if len(found) == 1 and not each:
            state.resolved_alone(player, K_TOKEN, IN_PLAY_BASE + found[0])
        for uid in found:
            _add_token(state, uid, kind, count)
    elif found:
        state.decide(player, _pieces(found), _resume_token, (kind, count), K_TOKEN)


def _is_live(state: State, uid: int) -> bool:
    spec = state.spec
    if uid < 0:
        return False
    if uid >= spec.n_cards:
        return state.alive[uid - spec.character_base]
    return state.placed[uid] is not None


def _resume_token(state: State, action: int, data: tuple) -> None:
    _add_token(state, action - IN_PLAY_BASE, data[0], data[1])


def _add_token(state: State, uid: int, kind: str, count: int) -> None:
    if kind == "power":
        state.own_power()[uid] += count
    elif kind == "eagle":
        state.own_eagle()[uid] = 1
        if state.spec.attaching and uid < state.spec.n_cards:  # cards under it are empty too
            for under in attached_to(state, uid, find_row(state, uid)):
                state.own_eagle()[under] = 1
    else:  # true grit; the child hostage token "works in every respect as" true grit
        state.own_grit()[uid] += count
    if state.verbose:
        state.note(f"{state.spec.uid_name(uid)} gets {count} {kind} token(s)")


def compile_add_token(step: Any, resolver: Resolver) -> tuple:
    target = TargetFilter(step.target, resolver) if step.target is not None else None
    per_card = (frozenset(resolver.card(c) for c in step.per_card_in_discard)
                if step.per_card_in_discard else None)
    return (step.token, step.count, target, per_card, step.only_if_upcoming, step.each)



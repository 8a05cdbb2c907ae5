"""A fast bot that scores each option from the position's numbers instead of playing it out.

Playing every option out on a copy and calling `evaluate` costs about 45 ms a game. Here the
position is read once per decision (`Reading`: the numbers `evaluate.py`'s race model reads,
as the deciding player may see them), each option becomes a `Change` of those numbers worked
out from the cards' profiles (`card_profiles.py`), and `value` runs the changed numbers
through the race model's own pieces (`attack_standing`, `race_after`), so all options of a
decision are valued on one scale. Options no profile describes are played out on a re-dealt
copy; sub-decisions follow the rules of `scoring_rules.py`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Final

from deckbuilder.bots import TurnBudget, best_action, pick_best
from deckbuilder.engine import actions as act
from deckbuilder.engine import card_steps
from deckbuilder.engine.board import (
    can_place,
    card_firepower,
    column_count,
    column_has_room,
    lift,
    targets,
)
from deckbuilder.engine.card_records import ModeDef
from deckbuilder.engine.codes import SLOT_NONE, SLOT_OPPONENT, SLOT_OWN
from deckbuilder.engine.expansion_steps import card_cost
from deckbuilder.engine.marker import marker_target
from deckbuilder.engine.play import play_options
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.bots.card_profiles import BOUNCE
from deckbuilder.games.revolver.bots.evaluate import (
    PLAY_KILLS,
    evaluate_spent,
)
from deckbuilder.games.revolver.bots.scoring_position import DECIDED_GAME, Change, Reading, value
from deckbuilder.games.revolver.bots.scoring_rules import (
    hand_after_paying,
    removal_targets,
    rule_choice,
    token_target,
)

__all__ = ["Change", "Reading", "ScoringBot", "play_change", "value"]

_TIE: Final = 1e-9
#: The most actions an option is played out for (`ScoringBot._played_out`): a move finishes
#: in far fewer; the rest is judged where it stands.
PLAYED_OUT_STEPS: Final = 30
#: `_combo_value` of an option its card's profile does not describe (no value is this big).
_UNDESCRIBED: Final = 1e300
#: More than any cost: (mode, here, cost) combos are told apart as one int.
_COST_KEYS: Final = 1 << 16


# -- what an option changes ---------------------------------------------------------------------
def _take_out(r: Reading, change: Change, uid: int, bounce: bool) -> None:
    """Record a card leaving play: firepower, column room, cards in play, a card back."""
    state = r.state
    owner = state.spec.owner[uid]
    mode = state.placed[uid]
    if mode is None:
        return
    here = uid in state.rows[2 * r.bf + owner]
    if here:
        fire = card_firepower(state, uid) if mode.slot == SLOT_OWN else 0
        # An emptied card (an eagle token on it) still takes its place (`column_count`).
        counts = mode.counts or bool(state.eagle[uid])
        if owner == ATTACKER:
            change.lawmen -= fire
            if mode.slot == SLOT_OPPONENT and counts:
                change.room += 1
            elif counts and not r.m_room and not change.m_room:
                change.m_room = _room_without(state, r.bf, uid)
        else:
            change.gang -= fire
            change.bonus += PLAY_KILLS
            if mode.slot == SLOT_OWN and counts:
                change.room += 1
            if mode.row_limit >= 0:
                change.m_room = True
    if owner == ATTACKER:
        change.bonus -= PLAY_KILLS
    if bounce:
        if owner != r.player:
            change.opp_cards += 1
        else:  # back into the player's own hand, to be played again
            change.hand = [*change.hand, uid]


def _room_without(state: State, bf: int, uid: int) -> bool:
    """Would McReady's column at `bf` have room once his card `uid` left it? (A row limit
    may close a column that has no card limit: FAQ Q3, an emptied card holding the only
    row.) Rare, so it is read from a copy rather than worked out."""
    world = state.clone()
    lift(world, uid)
    return column_has_room(world, bf, ATTACKER)


def play_change(r: Reading, definition: int, mode_index: int, bf: int, cost: int,
                hand: list[int]) -> Change | None:
    """The change playing card `definition` in this mode at `bf` makes (`hand`: without the
    card, before paying); None where its profile does not describe it."""
    profile = r.profiles.modes[definition][mode_index]
    if not profile.known:
        return None
    state = r.state
    spec = state.spec
    player = r.player
    change = Change(hand_after_paying(r.profiles, hand, cost))
    here = bf == r.bf
    slot = profile.slot
    if slot != SLOT_NONE:
        if player == ATTACKER:
            change.bonus += PLAY_KILLS
        elif here:
            change.bonus -= PLAY_KILLS
    if here and slot == SLOT_OWN:
        if player == ATTACKER:
            change.lawmen += profile.firepower
        else:
            change.gang += profile.firepower
            change.room -= profile.counts
    elif here and slot == SLOT_OPPONENT and profile.counts:
        if player == ATTACKER:
            change.room -= 1
        elif profile.row_limit >= 0:
            change.m_room = r.m_room and column_count(state, bf, ATTACKER) < profile.row_limit
    change.casualties = profile.casualties + profile.sacrifices
    if profile.marker:
        target = marker_target(state, profile.marker, True)
        if target is not None:
            if target[0] != r.bf:
                return None
            change.space = target[1]
    for params, count, how in profile.removals:
        for uid in removal_targets(state, player, r.bf, params, count, how):
            _take_out(r, change, uid, how == BOUNCE)
    change.draws = profile.draws
    for categories, to, count in profile.retrieves:
        _retrieve(r, change, categories, to, count)
    for token_step in profile.tokens:
        _power_tokens(r, change, token_step, bf, profile.slot)
    for moved_what, moved_to in profile.moves:
        if moved_to != 0:  # WHERE_CURRENT
            return None
        # Only a card that may be placed here moves (`card_steps._destinations`).
        found = [uid for uid in card_steps.removable(state, moved_what, (player, -1, r.bf), True)
                 if spec.owner[uid] == player and uid not in state.rows[2 * r.bf + player]
                 and _fits(r, change, state.mode_of(uid))]
        if found:
            moved = max(found, key=lambda uid: card_firepower(state, uid))
            _arrive_here(r, change, card_firepower(state, moved), state.mode_of(moved), True)
    return change


def _power_tokens(r: Reading, change: Change, step: tuple, bf: int, slot: int) -> None:
    """Power tokens (`card_steps.run_add_token`): firepower for the cards here that get
    them; the played card itself when it stays in play here; one card by the token rule,
    or every card the target matches (`each`)."""
    _kind, count, target, per_card, only_upcoming, each = step
    state = r.state
    spec = state.spec
    if only_upcoming and not r.bf < bf < spec.n_bf:
        return
    if per_card is not None:
        count *= sum(1 for uid in state.discards[r.player] if spec.def_of[uid] in per_card)
    if count <= 0:
        return
    if target is None or target.this_card:
        if slot == SLOT_OWN and bf == r.bf:
            _add_firepower(change, r.player, count)
        return
    found = targets(state, target, (r.player, -1, r.bf))
    if len(found) > 1 and not each:
        found = [token_target(state, found, r.player)]
    for uid in found:
        owner = spec.owner[uid]
        mode = state.placed[uid]
        if (mode is not None and mode.slot == SLOT_OWN and not state.eagle[uid]
                and uid in state.rows[2 * r.bf + owner]):
            _add_firepower(change, owner, count)


def _add_firepower(change: Change, side: int, amount: int) -> None:
    if side == ATTACKER:
        change.lawmen += amount
    else:
        change.gang += amount


def _fits(r: Reading, change: Change, mode: ModeDef) -> bool:
    """May a card in this mode, owned by the deciding player, go to the marker's battlefield
    once the option's earlier steps are done (`board.can_place`; a closed column lets no
    counting card in)?"""
    if not mode.counts:
        return True
    if mode.slot != SLOT_OWN:
        return can_place(r.state, r.player, mode, r.bf)
    if r.player == ATTACKER:
        return r.m_room if change.m_room is None else change.m_room
    return r.room + change.room > 0


def _arrive_here(r: Reading, change: Change, fire: int, mode: ModeDef, from_play: bool) -> None:
    """A card of the deciding player's arrives at the marker's battlefield (moved there from
    another one, or from the discard pile): its firepower, its place in the column, and the
    cards-in-play term of `read_race` (a lawman counts wherever he is, so only a new one
    adds; a gang card counts at the marker's battlefield)."""
    _add_firepower(change, r.player, fire)
    if r.player == DEFENDER:
        change.bonus -= PLAY_KILLS
    elif not from_play:
        change.bonus += PLAY_KILLS
    _fill(r, change, mode)


def _fill(r: Reading, change: Change, mode: ModeDef) -> None:
    """A card of the deciding player's entering his column here uses a place in it (the
    gang's three; McReady's column has no card limit, only row limits, which `m_room`
    reads as open or closed)."""
    if r.player == DEFENDER and mode.slot == SLOT_OWN and mode.counts:
        change.room -= 1


def _retrieve(r: Reading, change: Change, categories: int, to: str, count: int) -> None:
    state = r.state
    card_def = state.spec.card_def
    pile = [uid for uid in state.discards[r.player]
            if not categories or card_def[uid].cat_bit & categories]
    if to == "hand":
        pile.sort(key=r.profiles.uid_worth.__getitem__, reverse=True)
        change.hand = change.hand + pile[:count]
        return
    # Only a card that may enter play here comes back (`card_steps._can_enter_play`), the
    # strongest first, each taking its place before the next is chosen.
    modes = sorted((card_def[uid].modes[0] for uid in pile
                    if card_def[uid].modes[0].slot == SLOT_OWN),
                   key=lambda mode: mode.firepower, reverse=True)
    for mode in modes:
        if count <= 0:
            break
        if not _fits(r, change, mode):
            continue
        count -= 1
        _arrive_here(r, change, mode.firepower, mode, False)


def _without(hand: list[int], def_of: list[int], definition: int) -> list[int]:
    """The hand without its first card of `definition` (the hand itself if it has none)."""
    for index, uid in enumerate(hand):
        if def_of[uid] == definition:
            rest = hand[:]  # the hand's own objects: none made anew
            rest.pop(index)
            return rest
    return hand


def card_value(r: Reading, definition: int, combos: list[tuple[int, int, int]],
               hand: list[int], mode: int = -1) -> float | None:
    """The best value of playing the card over its (mode, battlefield, cost) combos (only
    those in `mode`, unless -1). The reading sees only the marker's battlefield, so every
    other battlefield at the same cost makes the same change: each is valued once."""
    found = False
    best = 0.0
    tried: list[int] = []  # (mode, here, cost) as one int
    for mode_index, bf, cost in combos:
        if mode >= 0 and mode_index != mode:
            continue
        key = (mode_index * 2 + (bf == r.bf)) * _COST_KEYS + cost
        seen = False
        for done in tried:
            if done == key:
                seen = True
                break
        if seen:
            continue
        tried.append(key)
        score = _combo_value(r, definition, mode_index, bf, cost, hand)
        if score == _UNDESCRIBED:
            return None
        if not found or score > best:
            best = score
            found = True
    return best if found else None


def _combo_value(r: Reading, definition: int, mode_index: int, bf: int, cost: int,
                 hand: list[int]) -> float:
    """The value of playing the card this way (`_UNDESCRIBED` where its profile does not
    describe it)."""
    change = play_change(r, definition, mode_index, bf, cost, hand)
    if change is None:
        return _UNDESCRIBED
    if (r.profiles.modes[definition][mode_index].slot == SLOT_NONE
            and _does_nothing(change, len(hand) - cost)):
        # A one-shot with nothing to act on (no row-blocking card to destroy, say) only
        # spends the card; valued as a move that keeps the phase open it would look
        # better than ending it, so it ranks below every option that does something.
        return -math.inf
    return value(r, change, False)


def _does_nothing(change: Change, hand_size: int) -> bool:
    """No number the race reads changes, and the hand only loses the card and its cost
    (`hand_size` cards left)."""
    if len(change.hand) != hand_size:
        return False
    return not (change.lawmen or change.gang or change.bonus or change.turn_bonus
                or change.casualties or change.room or change.draws or change.opp_cards
                or change.space >= 0 or change.m_room is not None)


def _discard_value(r: Reading, uid: int, keeping: float) -> float:
    """Discarding one's own card `uid` from play: worth only the place it opens, so valued as
    the discard followed by the best card of the hand played into that place, against
    keeping the card with the phase still open (`keeping`). Valued alone, with the phase
    left open, any discard looked better than passing (it keeps the hope of cards still to
    play, which passing gives up) and was taken for nothing. A discard that opens no place
    (McReady has no card limit; only a row limit closes his column), or whose follow-up
    does not beat keeping the card and its firepower, ranks below every option that does
    something, like a one-shot with nothing to act on (`card_value`)."""
    change = Change(r.hand)
    _take_out(r, change, uid, False)
    player = r.player
    opened = (change.room > 0 and r.room == 0) if player == DEFENDER else (
        not r.m_room and bool(change.m_room))
    if not opened:
        return -math.inf
    state = r.state
    spec = state.spec
    def_of = spec.def_of
    forbidden = state.forbidden[player]
    best = -math.inf
    for definition in {def_of[card] for card in r.hand}:
        card = spec.defs[definition]
        mode = card.modes[0]
        if mode.slot != SLOT_OWN or not mode.counts or definition in forbidden:
            continue
        cost = card_cost(state, player, card, r.bf)
        if cost >= len(r.hand):
            continue
        follow = play_change(r, definition, 0, r.bf, cost, _without(r.hand, def_of, definition))
        if follow is not None:
            score = value(r, _then(change, follow), False)
            best = score if score > best else best
    return best if best > keeping + _TIE else -math.inf


def _then(first: Change, second: Change) -> Change:
    """Two changes one after the other (`second` worked out on the unchanged reading)."""
    both = Change(second.hand)
    both.lawmen = first.lawmen + second.lawmen
    both.gang = first.gang + second.gang
    both.bonus = first.bonus + second.bonus
    both.turn_bonus = first.turn_bonus + second.turn_bonus
    both.casualties = first.casualties + second.casualties
    both.room = first.room + second.room
    both.draws = first.draws + second.draws
    both.opp_cards = first.opp_cards + second.opp_cards
    both.space = second.space if second.space >= 0 else first.space
    both.m_room = second.m_room if second.m_room is not None else first.m_room
    return both


# -- the bot ------------------------------------------------------------------------------------
@dataclass
class ScoringBot:
    """Scores each option from the position's numbers and the cards' profiles (see the
    module docstring); plays out only what the profiles do not describe."""

    name: str = "scoring"
    #: Decisions no rule or profile answers, played out in full (for measuring).
    fallbacks: int = 0
    #: Ends the play phase of a turn that has gone on too long (a card loop in the data);
    #: counts the play-outs that reached `PLAYED_OUT_STEPS` unfinished as `looks_cut`.
    budget: TurnBudget = field(default_factory=TurnBudget)

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal  # read only: no copy
        if len(actions) == 1:
            return actions[0]
        kind = state.pending_kind
        player = state.current_player()
        if kind == act.K_MAIN:
            if self.budget.is_spent(state, player):
                return act.PASS
            return pick_best(actions, self.action_values(state, actions, player, rng), rng)
        if kind in (act.K_MODE, act.K_PLACE):
            chosen = self._how_to_play(state, actions, player)
            if chosen is not None:
                return chosen
        action = rule_choice(state, actions)
        if action is not None:
            return action
        self.fallbacks += 1
        world = state.resample_hidden(player, rng)  # best_action judges throw-away copies
        return best_action(world, actions, player, evaluate_spent, rng, spend_world=True)

    def action_values(self, state: State, actions: list[int], player: int,
                      rng: random.Random) -> list[float]:
        """The value of each option of a main decision, as the greedy ranks them."""
        r = Reading(state, player)
        spec = state.spec
        layout = spec.layout
        def_of = spec.def_of
        hand = r.hand
        values: list[float] = []
        discards: dict[tuple[int, int, int], float] = {}
        keeping: float | None = None  # the phase left open with every card kept
        room: dict[int, bool] = {}  # play_options' column answers, shared by the cards
        for action in actions:
            score: float | None = None
            if action == act.PASS:
                score = value(r, Change(hand), True)
            elif layout.play_base <= action < layout.pay_base:
                definition = spec.action_def[action]
                card = spec.defs[definition]
                if card.simple:
                    cost = card_cost(state, player, card, r.bf) if card.discounted else (
                        0 if r.bf in card.cost_waived else card.cost)
                    one = _combo_value(r, definition, 0, r.bf, cost,
                                       _without(hand, def_of, definition))
                    score = None if one == _UNDESCRIBED else one
                else:
                    combos = play_options(state, player, card, len(hand), room)
                    score = card_value(r, definition, combos,
                                       _without(hand, def_of, definition))
            elif layout.own_base <= action < layout.ability_base:
                # Copies of a card in the same way with the same tokens leave alike.
                uid = action - layout.own_base
                key = (id(state.placed[uid]), state.power[uid], state.eagle[uid])
                score = discards.get(key)
                if score is None:
                    if keeping is None:
                        keeping = value(r, Change(hand), False)
                    score = discards[key] = _discard_value(r, uid, keeping)
            values.append(self._played_out(state, action, player, rng) if score is None
                          else score)
        return values

    def _how_to_play(self, state: State, actions: list[int], player: int) -> int | None:
        """Choose a mode or a battlefield by the value of playing the card that way."""
        data = state.pending_data
        uid = data[0]
        definition = state.spec.def_of[uid]
        r = Reading(state, player)
        best, best_value = None, -math.inf
        for action in actions:
            if state.pending_kind == act.K_MODE:
                score = card_value(r, definition, data[1], r.hand, action - act.MODE_BASE)
            else:
                bf = action - act.BF_BASE
                cost = next(cost for where, cost in data[1] if where == bf)
                change = play_change(r, definition, data[3], bf, cost, r.hand)
                score = None if change is None else value(r, change, False)
            if score is None:
                return None
            if score > best_value + _TIE:
                best, best_value = action, score
        return best

    def _played_out(self, state: State, action: int, player: int, rng: random.Random) -> float:
        """Play the option out on a re-dealt copy (sub-decisions by rule) and read it."""
        self.fallbacks += 1
        world = state.resample_hidden(player, rng)
        world.apply(action)
        for _ in range(PLAYED_OUT_STEPS):
            if world.over or world.pending_kind == act.K_MAIN:
                break
            legal = world.legal
            choice = rule_choice(world, legal) if len(legal) > 1 else legal[0]
            world.apply(legal[0] if choice is None else choice)
        else:
            if not world.over and world.pending_kind != act.K_MAIN:
                self.budget.looks_cut += 1
        if world.over:
            if world.winner is None:
                return 0.0
            return DECIDED_GAME if world.winner == player else -DECIDED_GAME
        if world.pending_player == player and world.active == player:
            after = Reading(world, player)
            return value(after, Change(after.hand), False)
        return evaluate_spent(world, player)  # the re-dealt copy is thrown away

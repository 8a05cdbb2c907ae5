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

import deckbuilder.games.revolver.bots.evaluate_tables as et
from deckbuilder.bots import TurnBudget, best_action
from deckbuilder.engine import actions as act
from deckbuilder.engine import card_steps
from deckbuilder.engine.board import (
    can_place,
    card_firepower,
    column_count,
    column_has_room,
    firepower,
    lift,
    targets,
)
from deckbuilder.engine.card_records import ModeDef
from deckbuilder.engine.codes import SLOT_NONE, SLOT_OPPONENT, SLOT_OWN
from deckbuilder.engine.expansion_steps import card_cost
from deckbuilder.engine.marker import marker_target
from deckbuilder.engine.play import play_options
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.bots.card_profiles import BOUNCE, profiles_for
from deckbuilder.games.revolver.bots.evaluate import (
    PLAY_KILLS,
    SPEND_FIREPOWER,
    STANDING_SCALE,
    evaluate_spent,
    gang_turn_standing,
    race_after,
    read_race,
    track_after,
)
from deckbuilder.games.revolver.bots.evaluate_tables import Tables, tables_for
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
#: The value of a game won (minus: lost). Beyond the live range (+-1 and the tie-break), so
#: a win always outranks a live position and a live position a loss.
DECIDED_GAME: Final = 2.0
_tanh: Final = math.tanh
#: `_combo_value` of an option its card's profile does not describe (no value is this big).
_UNDESCRIBED: Final = 1e300
#: More than any cost: (mode, here, cost) combos are told apart as one int.
_COST_KEYS: Final = 1 << 16


# -- the position, read once per decision ---------------------------------------------------------
class Reading:
    """The race model's numbers for the position as `player` sees it."""

    __slots__ = ("bf", "bonus", "border", "fresh", "gang", "gang_size", "hand", "hand_kills",
                 "hand_turns", "killed", "last", "lawmen", "lives", "m_hand_size", "m_room",
                 "player", "profiles", "react_chance", "room", "space", "state", "tables",
                 "track", "track_here", "train_bf", "train_space", "turn_bonus")

    def __init__(self, state: State, player: int) -> None:
        spec = state.spec
        tables = tables_for(spec)
        self.state = state
        self.player = player
        self.tables = tables
        self.profiles = profiles_for(spec)
        bf = self.bf = state.marker_bf
        self.space = state.marker_space
        self.lives, bonus, turn_bonus = read_race(state, tables, player)
        # Without the hand's own worth: each option adds the worth of the hand it leaves.
        hand = self.hand = list(state.hands[player])
        self.hand_kills = et.summed(tables.uid_kills, hand)
        self.hand_turns = et.summed(tables.uid_turns, hand)
        self.bonus = bonus - self.hand_kills
        self.turn_bonus = turn_bonus - self.hand_turns
        # `track_after` at the marker's space (an option moving the marker reads its own).
        self.track, self.track_here = track_after(tables, state.face_on, bf, self.space)
        self.lawmen = float(firepower(state, bf, ATTACKER))
        self.gang = float(firepower(state, bf, DEFENDER) + tables.defence[bf])
        free = spec.column_limit[DEFENDER] - column_count(state, bf, DEFENDER)
        self.room = 0 if free <= 0 else (3 if free > 3 else free)
        self.m_room = column_has_room(state, bf, ATTACKER)
        self.border = state.countdown
        self.killed = state.killed_this_turn
        self.train_bf = tables.train_bf
        self.train_space = tables.train_space
        self.last: bool = bf == self.train_bf and self.space >= self.train_space
        self.fresh = tables.fresh_rate
        self.m_hand_size = len(state.hands[ATTACKER])
        self.gang_size = len(state.hands[DEFENDER])  # its size, not its cards
        self.react_chance = _reaction_chance(state, tables) if player == ATTACKER else 0.0


def _reaction_chance(state: State, tables: Tables) -> float:
    """The chance the gang's hand holds a card that cancels an attack (and its cost), the
    hand dealt at random from the gang's cards McReady has not seen in play or in a pile."""
    size = len(state.hands[DEFENDER])
    if size <= tables.reaction_cost:
        return 0.0
    reacts = tables.uid_reacts
    # The gang's cards seen (its piles, its cards in play and in limbo), counted in place.
    seen = len(state.discards[DEFENDER]) + len(state.removed[DEFENDER])
    seen_reacting = (et.counted(reacts, state.discards[DEFENDER])
                     + et.counted(reacts, state.removed[DEFENDER]))
    rows = state.rows
    for index in range(DEFENDER, len(rows), 2):
        row = rows[index]
        seen += len(row)
        for uid in row:
            if reacts[uid]:
                seen_reacting += 1
    owner = state.spec.owner
    for uid in state.limbo:
        if owner[uid] == DEFENDER:
            seen += 1
            if reacts[uid]:
                seen_reacting += 1
    total = len(state.spec.decks[DEFENDER]) - seen
    reacting = tables.deck_reacting - seen_reacting
    none = 1.0
    for i in range(min(size, total)):
        none *= max(0.0, (total - reacting - i) / (total - i))
    return 1.0 - none


class Change:
    """How an option changes the reading (all deltas; `hand`: the player's hand after)."""

    __slots__ = ("bonus", "casualties", "draws", "gang", "hand", "lawmen", "m_room", "opp_cards",
                 "room", "space", "turn_bonus")

    def __init__(self, hand: list[int]) -> None:
        self.hand = hand
        self.lawmen = self.gang = self.bonus = self.turn_bonus = 0.0
        self.casualties = self.room = self.draws = self.opp_cards = 0
        self.space = -1
        self.m_room: bool | None = None


def _turns(r: Reading, space: int, turn_bonus: float) -> tuple[float, int]:
    """`evaluate`'s attacks after the marker's space (`track_after`), the space on the
    marker's battlefield; the marker's own space read once for the decision (`Reading`),
    another one (an option that moves the marker) read afresh."""
    if space == r.space:
        track, here = r.track, r.track_here
    else:
        track, here = track_after(r.tables, r.state.face_on, r.bf, space)
    turns = track + turn_bonus
    return (0.0 if turns < 0.0 else turns), here


def value(reading: Reading, change: Change, passing: bool) -> float:
    """The position after the option, for the deciding player: about [-1, 1] while the game
    is open (the race's standing plus its small firepower tie-break), +-`DECIDED_GAME` once
    it is won or lost, so a real win always outranks a live position."""
    r = reading
    tables = r.tables
    player = r.player
    hand = change.hand
    # The hand's worth (`et.summed` of both tables, in the hand's order): the reading's
    # own for the hand kept whole, else in one loop.
    if hand is r.hand:
        hand_kills, hand_turns = r.hand_kills, r.hand_turns
    else:
        uid_kills, uid_turns = tables.uid_kills, tables.uid_turns
        hand_kills = hand_turns = 0.0
        for card in hand:
            hand_kills += uid_kills[card]
            hand_turns += uid_turns[card]
    bonus = r.bonus + change.bonus + hand_kills
    turn_bonus = r.turn_bonus + change.turn_bonus + hand_turns
    if change.draws:
        bonus += change.draws * tables.drawn_kills[player]
        turn_bonus += change.draws * tables.drawn_turns[player]
    if change.opp_cards:  # cards sent back to the opponent's hand, which he counts by size
        bonus += change.opp_cards * tables.drawn_kills[1 - player]
        turn_bonus += change.opp_cards * tables.drawn_turns[1 - player]
    lives = r.lives - change.casualties
    if lives <= 0:
        return DECIDED_GAME if player == ATTACKER else -DECIDED_GAME
    space = r.space if change.space < 0 else change.space
    turns, here = _turns(r, space, turn_bonus)
    lawmen = r.lawmen + change.lawmen
    gang = r.gang + change.gang
    room = r.room + change.room
    room = 0 if room < 0 else (3 if room > 3 else room)
    m_room = r.m_room if change.m_room is None else change.m_room
    last = r.last if change.space < 0 else (r.bf == r.train_bf and space >= r.train_space)
    if player == DEFENDER:
        return -_gang_phase(r, tables, hand, bonus, turns, here, lives, lawmen, gang, room,
                            m_room, last, passing, r.m_hand_size + change.opp_cards)
    return _mcready_phase(r, tables, hand, change.draws, bonus, turns, here, lives, lawmen,
                          gang, room, m_room, last, passing, change.casualties > 0)


def _gang_phase(r: Reading, tables: Tables, hand: list[int], bonus: float, turns: float,
                here: int, lives: float, lawmen: float, gang: float, room: int, m_room: bool,
                last: bool, passing: bool, size: int) -> float:
    """McReady's value in the gang's play phase, as `evaluate` reads it
    (`gang_turn_standing`); having ended the phase, the gang's hand no longer answers the
    coming attack. `size`: McReady's hand size after the option (cards sent back to it
    included)."""
    hand_power = tables.expected_power[min(size, et.MAX_EXPECTED_HAND)] if m_room else 0.0
    now, here_gang = tables.gang_here(hand, room, here, True, gang)
    if not passing:
        gang += now
    border = r.border
    reaction = len(hand) > tables.reaction_cost and et.any_of(tables.uid_reacts, hand)
    return gang_turn_standing(turns, here_gang, r.fresh, bonus, lives, border,
                              border if r.killed else border - 1, lawmen, gang, hand_power,
                              size, reaction, last)


def _mcready_phase(r: Reading, tables: Tables, hand: list[int], draws: int, bonus: float,
                   turns: float, here: int, lives: float, lawmen: float, gang: float, room: int,
                   m_room: bool, last: bool, passing: bool, killed: bool) -> float:
    """McReady's value in his play phase: his attack as the board stands, then the race
    (`evaluate`'s value after an attack); not yet ending it, plus the part of the kill his
    hand can still bring."""
    hand_power = tables.hand_firepower(hand, r.bf) + draws * et.DRAW_FIREPOWER if m_room else 0.0
    # Unseen, the gang's hand counts by its size only.
    here_gang = tables.unseen_here(r.gang_size, room, here, gang) if here else []
    border = r.border
    killed = killed or r.killed
    failed_border = border if killed else border - 1
    fresh = r.fresh
    cancel = r.react_chance
    lost = -1.0 + 1e-6  # the train is next and a kill would not end the race
    if lawmen > gang and last:
        return lost if lives > 1 else (1.0 - cancel) + cancel * lost
    # The race if this attack fails; `lives` > 0 here (`value` returns a won race earlier).
    race_if_not = race_after(turns, here_gang, fresh, bonus, lives, failed_border, lawmen,
                             hand_power, 0.0)
    standing_if_not = _tanh(race_if_not / STANDING_SCALE)
    if lawmen > gang:  # the attack kills unless the gang cancels it
        if lives <= 1:
            if_kill = 1.0
        else:
            if_kill = _tanh(race_after(turns, here_gang, fresh, bonus, lives - 1, border, lawmen,
                                       hand_power, 0.0) / STANDING_SCALE)
        kill = 1.0 - cancel
        return kill * if_kill + (1.0 - kill) * standing_if_not
    result = lost if last else standing_if_not
    if passing:
        return result
    # Not yet ending the phase: part of the kill his hand can still bring
    # (`attack_standing`'s two outcomes, the failed one being the race above).
    missing = gang + 1 - lawmen
    race_if_kill = race_after(turns, here_gang, fresh, bonus, lives - 1, border,
                              lawmen + missing, hand_power - missing,
                              missing / SPEND_FIREPOWER)
    best = race_if_not if race_if_not > race_if_kill else race_if_kill
    gain = _tanh(best / STANDING_SCALE) - standing_if_not
    reach = et.phi((lawmen + hand_power - gang - 0.5) / et.ATTACK_SPREAD)
    return result + (1.0 - cancel) * reach * (gain if gain > 0.0 else 0.0)


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
    rest: list[int] = []
    found = False
    for uid in hand:
        if not found and def_of[uid] == definition:
            found = True
        else:
            rest.append(uid)
    return rest if found else hand


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
    #: Ends the play phase of a turn that has gone on too long (a card loop in the data).
    budget: TurnBudget = field(default_factory=TurnBudget)
    #: Play-outs of an option that reached `PLAYED_OUT_STEPS` with the move unfinished.
    playouts_cut: int = 0

    @property
    def cut_short(self) -> int:
        return self.budget.cut_short + self.playouts_cut

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        kind = state.pending_kind
        player = state.current_player()
        if kind == act.K_MAIN:
            if self.budget.is_spent(state, player):
                return act.PASS
            return self._main(state, actions, player, rng)
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

    def _main(self, state: State, actions: list[int], player: int,
              rng: random.Random) -> int:
        r = Reading(state, player)
        spec = state.spec
        layout = spec.layout
        def_of = spec.def_of
        hand = r.hand
        best: list[int] = []
        best_value = -math.inf
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
            if score is None:
                score = self._played_out(state, action, player, rng)
            if score > best_value + _TIE:
                best_value, best = score, [action]
            elif score >= best_value - _TIE:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

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
                self.playouts_cut += 1
        if world.over:
            if world.winner is None:
                return 0.0
            return DECIDED_GAME if world.winner == player else -DECIDED_GAME
        if world.pending_player == player and world.active == player:
            after = Reading(world, player)
            return value(after, Change(after.hand), False)
        return evaluate_spent(world, player)  # the re-dealt copy is thrown away

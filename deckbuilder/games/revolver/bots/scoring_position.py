"""The scoring bot's reading of a position and its race model's value (`scoring.py` scores
each option as a `Change` of these numbers).

`Reading` reads once per decision the numbers `evaluate.py`'s race model reads, as the deciding
player may see them; `value` runs a position's numbers, changed by an option, through the race
model's own pieces (`attack_standing`, `race_after`), so all options of a decision are valued
on one scale.
"""

from __future__ import annotations

import math
from typing import Final

import deckbuilder.games.revolver.bots.evaluate_tables as et
from deckbuilder.engine.board import column_count, column_has_room, firepower
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver.bots.card_profiles import profiles_for
from deckbuilder.games.revolver.bots.evaluate import (
    SPEND_FIREPOWER,
    STANDING_SCALE,
    gang_turn_standing,
    race_after,
    read_race,
    track_after,
)
from deckbuilder.games.revolver.bots.evaluate_tables import Tables, tables_for

_tanh: Final = math.tanh
#: The value of a game won (minus: lost). Beyond the live range (+-1 and the tie-break), so
#: a win always outranks a live position and a live position a loss.
DECIDED_GAME: Final = 2.0


# -- the position, read once per decision ---------------------------------------------------------
class Reading:
    """The race model's numbers for the position as `player` sees it."""

    __slots__ = ("bf", "bonus", "border", "fresh", "gang", "gang_size", "hand", "hand_kills",
                 "hand_turns", "here_gang", "killed", "last", "lawmen", "lives", "m_hand_size",
                 "m_room", "player", "profiles", "react_chance", "room", "space", "state",
                 "tables", "track", "track_here", "train_bf", "train_space", "turn_bonus")

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
        # McReady's `unseen_here` for the options that leave its numbers as they are
        self.here_gang = tables.unseen_here(self.gang_size, self.room, self.track_here,
                                            self.gang) if player == ATTACKER else []


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
    if lives <= 0.0:
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
    if here == r.track_here and room == r.room and gang == r.gang:
        here_gang = r.here_gang
    else:
        here_gang = tables.unseen_here(r.gang_size, room, here, gang) if here else []
    border = r.border
    killed = killed or r.killed
    failed_border = border if killed else border - 1
    fresh = r.fresh
    cancel = r.react_chance
    lost = -1.0 + 1e-6  # the train is next and a kill would not end the race
    if lawmen > gang and last:
        return lost if lives > 1.0 else (1.0 - cancel) + cancel * lost
    # The race if this attack fails; `lives` > 0 here (`value` returns a won race earlier).
    race_if_not = race_after(turns, here_gang, fresh, bonus, lives, failed_border, lawmen,
                             hand_power, 0.0)
    standing_if_not = _tanh(race_if_not / STANDING_SCALE)
    if lawmen > gang:  # the attack kills unless the gang cancels it
        if lives <= 1.0:
            if_kill = 1.0
        else:
            if_kill = _tanh(race_after(turns, here_gang, fresh, bonus, lives - 1.0, border, lawmen,
                                       hand_power, 0.0) / STANDING_SCALE)
        kill = 1.0 - cancel
        return kill * if_kill + (1.0 - kill) * standing_if_not
    result = lost if last else standing_if_not
    if passing:
        return result
    # Not yet ending the phase: part of the kill his hand can still bring
    # (`attack_standing`'s two outcomes, the failed one being the race above).
    missing = gang + 1.0 - lawmen
    race_if_kill = race_after(turns, here_gang, fresh, bonus, lives - 1.0, border,
                              lawmen + missing, hand_power - missing,
                              missing / SPEND_FIREPOWER)
    # tanh of max(race_if_kill, race_if_not), less the standing if not
    gain = (_tanh(race_if_kill / STANDING_SCALE) - standing_if_not
            if race_if_kill >= race_if_not else 0.0)
    reach = et.phi((lawmen + hand_power - gang - 0.5) / et.ATTACK_SPREAD)
    return result + (1.0 - cancel) * reach * (gain if gain > 0.0 else 0.0)

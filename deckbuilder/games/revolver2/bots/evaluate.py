"""Revolver 2's heuristic: the race between Mapache's kills and the guardians' clocks.

Mapache must kill every guardian in play before the Mexican Army arrives (a token a turn
without a kill) or Padre Esteban survives the showdown on space 4 of the mine. The value, from
the guardians' side, weighs: the guardians alive (with their true grit) and the pile still to
recruit on the first battlefields; the army tokens gone; how far the marker is from the
showdown; the firepower at the marker's battlefield against Mapache's (defence and tokens on
the card included), where an attack that would kill counts as a guardian lost; Padre
Esteban's life where the showdown needs him; the cards in hand and the powder kegs against
the ammunition. It reads only what the judging player may see (hands by their size, his own
kegs or ammunition).
"""

from __future__ import annotations

import math
from typing import Final

from deckbuilder.engine.board import firepower
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver2.facts import Revolver2Facts

#: Weights of the guardians' value (calibrated on the ladder: benchmarks/calibrate.py).
GUARDIAN: Final = 0.30
GRIT: Final = 0.6  # a true grit token is most of a life
PILE: Final = 0.06
ARMY: Final = 0.22
MARKER: Final = 1.4
ESTEBAN: Final = 0.6
ATTACK_EDGE: Final = 0.04
#: `math.tanh` held here: the compiled build reads a module's function by name at each call.
_tanh: Final = math.tanh
STANDING: Final = 0.01  # firepower in play at the marker also serves the turns still to come here
HAND: Final = 0.04
SYMBOL: Final = 0.05
SCALE: Final = 0.5
KILL_SLOPE: Final = 1.5
CARD_FIREPOWER: Final = 0.8  # what a card Mapache may still play adds, on average


class _Track:
    """Per spec, read once: where each battlefield's spaces start on the marker's track,
    the showdown's place on it, and each card instance's kegs and ammunition."""

    __slots__ = ("ammunition", "goal", "kegs", "offsets")

    def __init__(self, spec: SpecFields) -> None:
        offsets = []
        total = 0
        for battlefield in spec.bfs:
            offsets.append(total)
            total += len(battlefield.kinds)
        self.offsets = tuple(offsets)
        self.goal: int = offsets[spec.facts.mine_bf] + spec.facts.showdown_space
        self.kegs: tuple[int, ...] = tuple(card.kegs for card in spec.card_def)
        self.ammunition: tuple[int, ...] = tuple(card.ammunition for card in spec.card_def)


_TRACKS: Final[SpecMemo[_Track]] = SpecMemo(_Track)


def track_of(spec: SpecFields) -> _Track:
    """The spec's `_Track`, read once per game."""
    return _TRACKS.of(spec)


def _kill_chance(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-KILL_SLOPE * (margin - 0.5)))


class Reading:
    """The numbers the value is made of, read once from a position (for `player`)."""

    __slots__ = (
        "already",
        "army_gone",
        "attack",
        "attacking",
        "defence",
        "goal",
        "guardians",
        "hands",
        "held",
        "here",
        "leader",
        "loss",
        "open",
        "pile",
        "player",
    )

    def __init__(self, state: State, player: int) -> None:
        spec = state.spec
        facts: Revolver2Facts = spec.facts
        base = spec.character_base
        grit = state.grit
        guardians = 0.0
        weakest_grit = 0
        weakest_rating = 99
        for index, alive in enumerate(state.alive):
            if alive:
                tokens = grit[base + index]
                guardians += 1.0 + GRIT * tokens
                rating = spec.characters[index].survival
                if rating < weakest_rating:
                    weakest_rating, weakest_grit = rating, tokens
        self.player = player
        self.guardians = guardians
        self.loss = GRIT if weakest_grit else 1.0
        self.pile = len(state.pile) if state.marker_bf < 3 else 0
        self.army_gone = float(spec.countdown_tokens - state.countdown)
        track = track_of(spec)
        self.goal = track.goal
        self.here = track.offsets[state.marker_bf] + state.marker_space
        bf = state.marker_bf
        self.attack = firepower(state, bf, ATTACKER)
        self.defence: int = firepower(state, bf, DEFENDER) + spec.bfs[bf].defence
        self.attacking = state.active == ATTACKER
        self.open = state.phase <= 1 and not state.attack_cancelled
        self.already = state.killed_this_turn
        self.hands = (len(state.hands[DEFENDER]), len(state.hands[ATTACKER]))
        symbols = track.kegs if player == DEFENDER else track.ammunition
        held = 0
        for uid in state.hands[player]:
            held += symbols[uid]
        self.held = held
        self.leader = 0.0
        if not facts.any_guardian_survives and spec.leader >= 0:
            self.leader = ESTEBAN if state.alive[spec.leader] else -ESTEBAN * 2


def value_of(r: Reading, attack: int, defence: int, guardian_hand: int, mapache_hand: int,
             held: float) -> float:
    """The value for `r.player` with these numbers changed (a card about to be played)."""
    guardians = r.guardians
    army_gone = r.army_gone
    here = r.here
    # The coming attack: this turn's if Mapache is playing, else next turn's.
    if r.attacking:
        if not r.open:
            chance = 0.0
        elif r.player == ATTACKER:  # his own play phase: he compares his options himself
            chance = 1.0 if attack > defence else 0.0
        else:  # the guardians judging Mapache's open play phase: he may still play cards
            chance = _kill_chance(attack + CARD_FIREPOWER * min(mapache_hand, 4) - defence)
        already = r.already
        here += 1  # the guardians advance the marker next
    else:
        potential = attack + CARD_FIREPOWER * min(mapache_hand + 2, 4)
        chance = _kill_chance(potential - defence)
        already = False
    guardians -= chance * r.loss
    if not already:
        army_gone += 1.0 - chance
    goal = r.goal
    progress = min(1.0, here / goal) if goal else 1.0
    edge = max(-8, min(8, defence - attack))
    value = (GUARDIAN * guardians + PILE * r.pile + ARMY * army_gone + MARKER * progress
             + ATTACK_EDGE * edge - STANDING * attack + r.leader
             + HAND * (guardian_hand - mapache_hand))
    held = min(4, held)
    value += SYMBOL * held if r.player == DEFENDER else -SYMBOL * held
    # centre: a fresh game is about even (seven guardians, nothing gone, the marker at 0)
    value -= GUARDIAN * 7.5 + PILE * 4 + MARKER * 0.5
    guardians_view = _tanh(SCALE * value)
    return guardians_view if r.player == DEFENDER else -guardians_view


def evaluate(state: State, player: int) -> float:
    """In [-1, 1] from `player`'s point of view; a decided game is +-1.

    The value looks ahead to the end of the coming attack, so that ending Mapache's play
    phase (after which the attack is resolved and the marker moves on) is judged on the same
    footing as a move that keeps the phase open.
    """
    if state.over:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0
    r = Reading(state, player)
    return value_of(r, r.attack, r.defence, r.hands[0], r.hands[1], r.held)

"""A rule-aware heuristic: how good a position is for one player, in [-1, 1].

The game is a race. The gang wins when the Mexican Border runs out of tokens (one goes each
McReady turn without a kill) or when Jack rides the train (the turn marker reaches the end of
the track); McReady must kill the gang (Jack dies last, ending it) before either happens. So
the value weighs, from the gang's side: border tokens gone, the share of the track behind the
marker, the gang's remaining lives (bandits and their tokens), the lawmen's firepower edge at
the current battlefield (a kill is coming), and the cards in hand.
"""

from __future__ import annotations

import math

from deckbuilder.engine.board import firepower
from deckbuilder.engine.codes import SPACE_EXTRA
from deckbuilder.engine.state import ATTACKER, DEFENDER, State

BORDER_WEIGHT = 2.0
TRACK_WEIGHT = 1.5
LIVES_WEIGHT = 2.0
THREAT_WEIGHT = 0.5
HAND_WEIGHT = 0.15
_TRACKS: dict[int, tuple[list[list[int]], int, int]] = {}


def _track(state: State) -> tuple[list[list[int]], int, int]:
    """Per battlefield and space, how many turn spaces lie before it; the track length; the
    gang's lives at set-up."""
    spec = state.spec
    cached = _TRACKS.get(id(spec))
    if cached is None:
        before: list[list[int]] = []
        passed = 0
        for bf in spec.bfs:
            row = []
            for kind in bf.kinds:
                row.append(passed)
                if kind != SPACE_EXTRA:
                    passed += 1
            before.append(row)
        lives = sum(1 + c.true_grit + c.power for c in spec.bandits) or 1
        cached = (before, max(passed, 1), lives)
        _TRACKS[id(spec)] = cached
    return cached


def gang_value(state: State) -> float:
    """The position's value for the gang (the first player), before squashing."""
    spec = state.spec
    before, length, start_lives = _track(state)
    border = 1.0 - state.border / spec.border_tokens if spec.border_tokens else 0.0
    progress = before[state.marker_bf][state.marker_space] / length
    base = spec.bandit_base
    lives = 0
    for index, alive in enumerate(state.alive):
        if alive:
            lives += 1 + state.grit[base + index] + state.power[base + index]
    bf = state.marker_bf
    threat = (firepower(state, bf, ATTACKER) - firepower(state, bf, DEFENDER)
              - spec.bfs[bf].defence)
    hands = len(state.hands[DEFENDER]) - len(state.hands[ATTACKER])
    return (BORDER_WEIGHT * border + TRACK_WEIGHT * progress
            + LIVES_WEIGHT * (lives / start_lives - 1.0)
            - THREAT_WEIGHT * math.tanh(threat / 2.0) + HAND_WEIGHT * math.tanh(hands / 4.0))


def evaluate(state: State, player: int) -> float:
    """+1 won, -1 lost, 0 drawn (turn cap); otherwise the heuristic squashed into (-1, 1)."""
    if state.over:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0
    value = math.tanh(gang_value(state))
    return value if player == DEFENDER else -value

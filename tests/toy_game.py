"""A tiny two-player card race that implements the engine protocol (ENGINE_PROTOCOL.md).

It exists so bots and the simulation runner can be tested without the real engine, and so the
tests can tell a bot that plays well from one that does not. It has what makes Revolver hard
for bots: hidden hands, shuffled decks (chance), several decisions per turn, and a card whose
value a one-ply heuristic cannot see.

Rules: each player has a deck (card id -> copies) and starts with 3 cards. A turn: draw two
cards, play up to two, then pass; cards beyond 3 in hand are then lost at random (so a
player who passes early wastes cards). A deck that runs out reshuffles its discard pile.
`step-N` moves your runner N spaces (twice as far after a `double` this turn; a `step-3`
costs one more card from hand, chosen as a separate decision); `shot` knocks
the opponent back 2 spaces unless they have a `guard` up (the guard is spent instead);
`guard` raises a guard (one at a time). The first runner to reach space 12 wins; a game that
reaches the turn cap is a draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

TERMINAL = -4
TARGET = 12
PLAYS_PER_TURN = 2
DRAWS_PER_TURN = 2
HAND_LIMIT = 3
OPENING_HAND = 3
KINDS = ("step-1", "step-2", "step-3", "double", "shot", "guard")
STEP_1, STEP_2, STEP_3, DOUBLE, SHOT, GUARD = range(6)
PASS = len(KINDS)
PAY_BASE = 10  # + kind: discard a card of that kind from hand to pay for a step-3
TOY_DECK: dict[str, int] = {
    "step-1": 4, "step-2": 4, "step-3": 3, "double": 3, "shot": 3, "guard": 3,
}
PLAYER_NAMES = {"toy": ("red", "blue")}


class Termination(StrEnum):
    RACE_WON = "race_won"
    TURN_CAP = "turn_cap"


@dataclass(frozen=True)
class Outcome:
    winner: int | None
    termination: Termination


class IllegalActionError(Exception):
    pass


class UnplayableDeckError(Exception):
    pass


class PlayerStats:
    __slots__ = ("drawn", "played")

    def __init__(self) -> None:
        self.drawn: Counter[str] = Counter()
        self.played: Counter[str] = Counter()

    def copy(self) -> PlayerStats:
        other = PlayerStats()
        other.drawn = self.drawn.copy()
        other.played = self.played.copy()
        return other


class ToyState:
    __slots__ = (
        "_outcome", "current", "decks", "discards", "doubled", "guards", "hands", "history",
        "log", "max_turns", "paying", "plays_left", "positions", "rng", "seed", "stats", "turn",
        "verbose",
    )

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self.current

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        hand = self.hands[self.current]
        if self.paying:
            return [PAY_BASE + kind for kind in range(len(KINDS)) if hand[kind]]
        actions: list[int] = []
        if self.plays_left > 0:
            for kind in range(len(KINDS)):
                if hand[kind] and not (kind == GUARD and self.guards[self.current]):
                    if kind == STEP_3 and sum(hand) < 2:
                        continue  # nothing left to pay with
                    actions.append(kind)
        actions.append(PASS)
        return actions

    def is_mid_move(self) -> bool:
        """A step-3 waits for its cost: the optional protocol extension bots look for."""
        return self.paying and self._outcome is None

    def action_to_string(self, action: int) -> str:
        if action >= PAY_BASE:
            return f"pay: discard {KINDS[action - PAY_BASE]}"
        return "pass" if action == PASS else f"play {KINDS[action]}"

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action} is not legal now")
        self.history.append(action)
        me = self.current
        if action == PASS:
            self._end_turn()
            return
        if action >= PAY_BASE:
            self.hands[me][action - PAY_BASE] -= 1
            self.discards[me].append(action - PAY_BASE)
            self.paying = False
            action = STEP_3  # the paid-for step-3 now moves
        else:
            self.hands[me][action] -= 1
            self.discards[me].append(action)
            self.stats[me].played[KINDS[action]] += 1
            self.plays_left -= 1
            if action == STEP_3:
                self.paying = True
                return
        if action <= STEP_3:
            distance = (action + 1) * (2 if self.doubled else 1)
            self.doubled = False
            self.positions[me] += distance
            if self.positions[me] >= TARGET:
                self._outcome = Outcome(me, Termination.RACE_WON)
        elif action == DOUBLE:
            self.doubled = True
        elif action == SHOT:
            other = 1 - me
            if self.guards[other]:
                self.guards[other] = False
            else:
                self.positions[other] = max(0, self.positions[other] - 2)
        else:
            self.guards[me] = True
        if self.verbose:
            self.log.append(f"{me} plays {KINDS[action]}")

    def _end_turn(self) -> None:
        hand = self.hands[self.current]
        while sum(hand) > HAND_LIMIT:  # the excess is lost at random
            cards = [kind for kind, count in enumerate(hand) for _ in range(count)]
            kind = cards[self.rng.randrange(len(cards))]
            hand[kind] -= 1
            self.discards[self.current].append(kind)
        self.turn += 1
        if self.turn >= self.max_turns:
            self._outcome = Outcome(None, Termination.TURN_CAP)
            return
        self.current = 1 - self.current
        self.plays_left = PLAYS_PER_TURN
        self.doubled = False
        for _ in range(DRAWS_PER_TURN):
            self._draw(self.current)

    def _draw(self, player: int) -> None:
        deck = self.decks[player]
        if not deck:
            deck.extend(self.discards[player])
            self.discards[player].clear()
            self.rng.shuffle(deck)
        if deck:
            kind = deck.pop()
            self.hands[player][kind] += 1
            self.stats[player].drawn[KINDS[kind]] += 1

    def clone(self) -> ToyState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return self.fork(rng)

    def fork(self, rng: random.Random) -> ToyState:
        """A copy whose chance draws from `rng` (the optional fast copy bots use)."""
        other = ToyState.__new__(ToyState)
        other._outcome = self._outcome
        other.current = self.current
        other.decks = [list(deck) for deck in self.decks]
        other.discards = [list(pile) for pile in self.discards]
        other.doubled = self.doubled
        other.guards = list(self.guards)
        other.hands = [list(hand) for hand in self.hands]
        other.history = list(self.history)
        other.log = list(self.log)
        other.max_turns = self.max_turns
        other.paying = self.paying
        other.plays_left = self.plays_left
        other.positions = list(self.positions)
        other.rng = rng
        other.seed = self.seed
        other.stats = [stats.copy() for stats in self.stats]
        other.turn = self.turn
        other.verbose = self.verbose
        return other

    def resample_hidden(self, player: int, rng: random.Random) -> ToyState:
        """Re-deal what `player` cannot see: the opponent's hand and both decks' order."""
        world = self.clone()
        opponent = 1 - player
        hand = world.hands[opponent]
        pool = list(world.decks[opponent])
        for kind, count in enumerate(hand):
            pool.extend([kind] * count)
        # Sorted first, so the re-deal depends only on what `player` knows, not on the truth.
        pool.sort()
        rng.shuffle(pool)
        size = sum(hand)
        world.hands[opponent] = [0] * len(KINDS)
        for kind in pool[:size]:
            world.hands[opponent][kind] += 1
        world.decks[opponent] = pool[size:]
        world.decks[player].sort()
        rng.shuffle(world.decks[player])
        world.rng = random.Random(rng.getrandbits(64))
        return world


def new_game(
    decks: Sequence[Mapping[str, int]],
    seed: int,
    ruleset: str = "toy",
    catalog: object | None = None,
    game: str = "toy",
    max_turns: int = 200,
) -> ToyState:
    """Deal a new toy game; raises UnplayableDeckError for card ids the toy game lacks."""
    unknown = sorted({card for deck in decks for card in deck if card not in KINDS})
    if unknown:
        raise UnplayableDeckError(f"the toy game cannot play: {', '.join(unknown)}")
    state = ToyState.__new__(ToyState)
    state.rng = random.Random(seed)
    state.seed = seed
    state._outcome = None
    state.current = 0
    state.decks = []
    for deck in decks:
        cards = [KINDS.index(card) for card, copies in sorted(deck.items()) for _ in range(copies)]
        state.rng.shuffle(cards)
        state.decks.append(cards)
    state.discards = [[], []]
    state.doubled = False
    state.guards = [False, False]
    state.hands = [[0] * len(KINDS), [0] * len(KINDS)]
    state.history = []
    state.log = []
    state.max_turns = max_turns
    state.paying = False
    state.plays_left = PLAYS_PER_TURN
    state.positions = [0, 0]
    state.stats = [PlayerStats(), PlayerStats()]
    state.turn = 0
    state.verbose = False
    for player in (0, 1):
        for _ in range(OPENING_HAND):
            state._draw(player)
    for _ in range(DRAWS_PER_TURN):
        state._draw(0)
    return state


def observe(state: ToyState, player: int) -> dict[str, object]:
    return {
        "hand": list(state.hands[player]),
        "paying": state.paying,
        "opponent_hand_size": sum(state.hands[1 - player]),
        "positions": list(state.positions),
        "guards": list(state.guards),
        "deck_sizes": [len(deck) for deck in state.decks],
        "discards": [list(pile) for pile in state.discards],
    }


def evaluate(state: ToyState, player: int) -> float:
    """Deliberately myopic: race position and guards; blind to a pending `double`."""
    outcome = state._outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == player else -1.0
    lead = state.positions[player] - state.positions[1 - player]
    guard = int(state.guards[player]) - int(state.guards[1 - player])
    return max(-0.95, min(0.95, 0.8 * lead / TARGET + 0.05 * guard))

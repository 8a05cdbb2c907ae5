"""The game protocol every game implements and every bot, simulation and command relies on.

OpenSpiel's shape: `new_game(decks, seed, ruleset) -> state`; the state says whose decision
is open (`current_player`), lists it as sorted small ints (`legal_actions`), takes one
(`apply`), reads one (`action_to_string`), copies itself (`clone`), re-deals what one player
cannot see (`resample_hidden`) and, once over, gives an `Outcome` whose `termination` is a
member of that game's own enum of endings. Nothing here knows a card or a rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from deckbuilder.errors import DeckbuilderError

#: `current_player()` once the game is over.
TERMINAL = -4


@dataclass(frozen=True)
class Outcome:
    """Who won (None: nobody) and how the game ended (the game's own enum; `.value` is what
    records and reports carry)."""

    winner: int | None
    termination: StrEnum


class IllegalActionError(DeckbuilderError):
    """An action that is not legal in this state; the message says why."""


class InvariantError(AssertionError):
    """The state broke one of its own invariants (an engine bug, never a user error)."""


class UnplayableDeckError(DeckbuilderError):
    """A deck holds cards the engine cannot play (unknown, or with unimplemented effects)."""


class GameState(Protocol):
    """What bots and the simulation layer may call on a game in progress."""

    history: list[int]
    seed: int
    turn: int

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def action_to_string(self, action: int) -> str: ...
    def clone(self) -> GameState: ...
    def resample_hidden(self, player: int, rng: random.Random) -> GameState: ...


class Bot(Protocol):
    """A player: picks one of `state.legal_actions()` for `state.current_player()`."""

    name: str

    def choose(self, state: Any, rng: random.Random) -> int: ...


#: `evaluate(state, player) -> float` in [-1, 1] from `player`'s point of view. Bots judge
#: only copies they throw away afterwards, so an evaluator may play the state on.
Evaluator = Callable[[Any, int], float]
#: `quick(state, actions) -> action or None`: a decision inside a look-ahead taken without
#: judging each option (None: judge them).
QuickChoice = Callable[[Any, list[int]], "int | None"]


@dataclass(frozen=True)
class Heuristics:
    """What a game hands its bots: how to judge a position, the small decisions it takes
    without judging, a faster greedy bot of its own where it has one (None: the generic
    greedy, which plays each action out and judges it with `evaluate`), and how its search
    bot judges where a rollout stops, where that needs to see further than `evaluate`
    (None: `evaluate`; the greedy never uses it)."""

    evaluate: Evaluator
    quick: QuickChoice | None = None
    greedy: Callable[[], Bot] | None = None
    search_judge: Evaluator | None = None

"""Cheap answers to the small decisions inside a greedy look-ahead.

The play-out greedy (`greedy:judge=playout`, and the search bot's `playout` rollouts)
judges each candidate move once it is complete ("settled"): a card is judged after its cost
is paid, not half-way through. Settling a move by trying every way to pay (every card that
could be discarded) costs a copy of the game and a heuristic call per
option, and paying is nearly half of all the look-ahead work in a game. Which card to pay
with matters far less than which card to play, so inside the look-ahead a payment takes the
card in hand the player will miss least, judged from the card alone; the real payment (a
decision the player actually faces) is still judged in full by the bot.
"""

from __future__ import annotations

from typing import Final

from deckbuilder.engine import card_steps, effects
from deckbuilder.engine.actions import K_DISCARD, K_PAY
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import State
from deckbuilder.games.revolver.bots.evaluate_tables import card_effects, firepower_modes

#: Worth of a card kept in hand, in firepower: a casualty it makes the gang take, a turn
#: space it moves the marker, being a reaction, having any other effect.
CASUALTY_WORTH: Final = 4.0
MARKER_WORTH: Final = 2.5
REACTION_WORTH: Final = 2.0
EFFECT_WORTH: Final = 1.5
#: Each discard a card costs makes it that much harder to play.
COST_WORTH: Final = 0.5


def card_worth(card: CardDef) -> float:
    """How much its owner misses this card when it leaves the hand."""
    firepower = max((mode.firepower for mode in firepower_modes(card)), default=0)
    casualties, marker = card_effects(card)
    worth = firepower + CASUALTY_WORTH * casualties + MARKER_WORTH * abs(marker)
    if any(runner is not card_steps.run_casualty and runner is not effects.run_move_marker
           for mode in card.modes for runner, _ in mode.effect):
        worth += EFFECT_WORTH
    if card.react_attack is not None or card.react_plays is not None:
        worth += REACTION_WORTH
    return worth - COST_WORTH * card.cost


def _card_worths(spec: SpecFields) -> list[float]:
    return [card_worth(card) for card in spec.defs]


_WORTHS: Final[SpecMemo[list[float]]] = SpecMemo(_card_worths)


def card_worths(spec: SpecFields) -> list[float]:
    """`card_worth` of every card definition of the game, read once per spec."""
    return _WORTHS.of(spec)


def quick_choice(state: State, actions: list[int]) -> int | None:
    """The action to take without look-ahead, or None where the decision needs judging.

    Paying a cost or discarding: the card of least worth (the lowest card id on ties, so a
    game stays reproducible)."""
    kind = state.pending_kind
    if kind != K_PAY and kind != K_DISCARD:
        return None
    spec = state.spec
    action_def = spec.action_def
    worths = card_worths(spec)
    best = actions[0]
    best_worth = worths[action_def[best]]
    for action in actions:
        worth = worths[action_def[action]]
        if worth < best_worth:
            best, best_worth = action, worth
    return best

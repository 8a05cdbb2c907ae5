"""Revolver 2's small decisions taken without judging each option (inside a bot's look-ahead):
which card pays a cost or powder kegs, which of equally rated guardians is lost, and which
poker card to show (a judge cannot weigh a simultaneous choice: a rule does)."""

from __future__ import annotations

from typing import Final

from deckbuilder.engine.actions import (
    CHARACTER_BASE,
    K_CASUALTY,
    K_DISCARD,
    K_PAY,
    K_SACRIFICE,
    PASS,
)
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import State
from deckbuilder.games.revolver2.declaration import K_KEGS, K_POKER

#: A cheat card's strength in a round (it wins unless the other card calls cheats).
CHEAT_STRENGTH: Final = 12


def poker_choice(state: State, actions: list[int]) -> int:
    """A poker card: the strongest when a round decides the tournament (either side one win
    away), else the one whose set-up effect is worth most (effects apply won or lost)."""
    tournament = state.game_data
    poker = state.spec.facts.poker
    base = state.spec.layout.game_base
    deciding = max(tournament.wins) >= 1

    def strength(action: int) -> tuple[float, int]:
        card = poker[action - base]
        rank = CHEAT_STRENGTH if card.cheat else card.value
        effect = 2.0 * card.extra_cards + 1.5 * sum(count for _, _, count in card.tokens)
        return ((rank if deciding else effect + rank / 20), -action)

    return max(actions, key=strength)


def card_worth(card: CardDef) -> float:
    """What a card in hand is worth to keep: its firepower, less its cost, its symbols."""
    return card.firepower - 0.5 * card.cost + 0.6 * (card.kegs + card.ammunition) + (
        1.5 if card.modes and card.modes[0].effect else 0.0)


def _action_worths(spec: SpecFields) -> tuple[float, ...]:
    defs = spec.defs
    return tuple(card_worth(defs[definition]) if definition >= 0 else 0.0
                 for definition in spec.action_def)


_ACTION_WORTHS: Final[SpecMemo[tuple[float, ...]]] = SpecMemo(_action_worths)


def action_worths(spec: SpecFields) -> tuple[float, ...]:
    """Per action, `card_worth` of the card it plays or pays with (0.0: no card), worked out
    once per game: a cost paid in a look-ahead compared these a card at a time before."""
    return _ACTION_WORTHS.of(spec)


def quick_choice(state: State, actions: list[int]) -> int | None:
    """Pay (or discard for kegs) with the card of least worth, the lowest card on ties; among
    the guardians who may be hit, one with true grit first (he keeps his place and, as nobody
    died, the Mexican Army still comes a token nearer); among those who may be lost outright
    (a sacrifice, where no token saves: the Gatling Gun's hits by default), the one with the
    least true grit, Padre Esteban last (the tokens stay on the living). None: judge the
    options."""
    kind = state.pending_kind
    spec = state.spec
    if kind in (K_PAY, K_DISCARD) or (kind == K_KEGS and PASS not in actions):
        worth = action_worths(spec)
        cheapest = actions[0]
        least = worth[cheapest]
        for action in actions:  # min by (worth, action), without a key tuple per action
            if worth[action] < least or (worth[action] == least and action < cheapest):
                cheapest, least = action, worth[action]
        return cheapest
    if kind == K_POKER:
        return poker_choice(state, actions)
    if kind in (K_CASUALTY, K_SACRIFICE):
        grit = state.grit
        base = spec.character_base - CHARACTER_BASE  # + an action: the guardian's instance
        if kind == K_CASUALTY:
            return min(actions, key=lambda a: (-grit[base + a], a))
        leader = CHARACTER_BASE + spec.leader
        return min(actions, key=lambda a: (a == leader, grit[base + a], a))
    return None

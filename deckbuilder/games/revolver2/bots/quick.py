"""Revolver 2's small decisions taken without judging each option (inside a bot's look-ahead):
which card pays a cost or powder kegs, and which of equally rated guardians is lost."""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.actions import (
    BANDIT_BASE,
    K_CASUALTY,
    K_DISCARD,
    K_KEGS,
    K_PAY,
    K_SACRIFICE,
    PASS,
)


def card_worth(card: Any) -> float:
    """What a card in hand is worth to keep: its firepower, less its cost, its symbols."""
    return card.firepower - 0.5 * card.cost + 0.6 * (card.kegs + card.ammunition) + (
        1.5 if card.modes and card.modes[0].effect else 0.0)


def quick_choice(state: Any, actions: list[int]) -> int | None:
    """Pay (or discard for kegs) with the card of least worth, the lowest card on ties; among
    the guardians who may be hit, one with true grit first (he keeps his place and, as nobody
    died, the Mexican Army still comes a token nearer). None: judge the options."""
    kind = state.pending_kind
    spec = state.spec
    if kind in (K_PAY, K_DISCARD) or (kind == K_KEGS and PASS not in actions):
        action_def = spec.action_def
        defs = spec.defs
        return min(actions, key=lambda a: (card_worth(defs[action_def[a]]), a))
    if kind in (K_CASUALTY, K_SACRIFICE):
        grit = state.grit
        base = spec.bandit_base
        return min(actions, key=lambda a: (-grit[base + a - BANDIT_BASE], a))
    return None

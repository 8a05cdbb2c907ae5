"""Revolver 2's greedy: scores each play-phase option from the position's numbers instead of
playing it out, where the card is plain enough to say what it changes.

A plain firepower card (one way to play it, at the marker's battlefield, no text) changes only
its side's firepower there, the hand (the card and the cards that pay its cost: the least
worth ones, as the look-ahead pays) and the symbols held; a plain one-shot that draws cards
changes the hand by what it draws (their symbols counted at the deck's average); discarding
one's own plain card from play takes its firepower away; ending the play phase changes
nothing (the heuristic already looks ahead to the attack). Those are valued with the
heuristic's own formula (`evaluate.value_of`) on the changed numbers. Every other option,
and every decision that is not the play phase's, is played out on a re-dealt copy and judged
like the play-out greedy does, so no effect is ignored. It sees only what its player may see:
the heuristic reads the opponent's hand by its size.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Final

from deckbuilder.bots import best_action, copy_world, settle_move
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.board import card_firepower
from deckbuilder.engine.codes import FIREPOWER, SIDE_SELF, SLOT_NONE, SLOT_OWN
from deckbuilder.engine.definitions import CardDef
from deckbuilder.engine.effects import run_draw
from deckbuilder.engine.expansion_steps import card_cost
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.games.revolver2.bots.evaluate import Reading, evaluate, value_of
from deckbuilder.games.revolver2.bots.quick import card_worth, quick_choice

_TIE: Final = 1e-9


def is_plain(state: State, card: CardDef, player: int) -> bool:
    """Played as it is printed, at the marker, with no effect of its own and nothing in this
    game watching or answering a play: its firepower is all it changes."""
    mode = card.modes[0]
    spec = state.spec
    return (card.simple and mode.play == FIREPOWER and mode.slot == SLOT_OWN and not mode.effect
            and not card.enter_grit and not card.watch and not card.arrivals
            and spec.play_reactions[1 - player] is None and not any(spec.play_watchers)
            and spec.arrival_defs is None)


def drawn_by(state: State, card: CardDef, player: int) -> int:
    """How many cards a plain one-shot draws for its player (0: not such a card)."""
    mode = card.modes[0]
    spec = state.spec
    if not (card.simple and mode.slot == SLOT_NONE and len(mode.effect) == 1
            and not card.watch and spec.play_reactions[1 - player] is None
            and not any(spec.play_watchers)):
        return 0
    runner, params = mode.effect[0]
    if runner is not run_draw or params[1] != SIDE_SELF:
        return 0
    return int(params[0])


def _deck_symbols(state: State, player: int) -> float:
    """The symbols a card drawn from `player`'s own deck carries on average (its contents are
    known to him; their order is not read)."""
    deck = state.decks[player]
    if not deck:
        return 0.0
    card_def = state.spec.card_def
    if player == DEFENDER:
        return sum(card_def[uid].kegs for uid in deck) / len(deck)
    return sum(card_def[uid].ammunition for uid in deck) / len(deck)


def _payment(state: State, player: int, played: int, cost: int) -> tuple[int, int]:
    """(kegs, ammunition) on the `cost` cards of least worth the hand pays with (one copy of
    the played card set aside), in the order the look-ahead's quick choice takes them."""
    spec = state.spec
    def_of = spec.def_of
    left = list(state.hands[player])
    left.remove(next(uid for uid in left if def_of[uid] == played))
    left.sort(key=_pay_order(spec).__getitem__)
    paid = left[:cost]
    card_def = spec.card_def
    return sum(card_def[uid].kegs for uid in paid), sum(card_def[uid].ammunition for uid in paid)


@functools.lru_cache(maxsize=64)
def _pay_order(spec: SpecFields) -> tuple[tuple[float, int], ...]:
    """Per card instance, the key the look-ahead's quick choice pays a cost by (the least
    worth card first, then the lowest action), worked out once per game."""
    return tuple((card_worth(spec.card_def[uid]), spec.pay_action[spec.def_of[uid]])
                 for uid in range(spec.n_cards))


@dataclass
class ScoringGreedy:
    """The greedy bot of Revolver 2 (see the module docstring)."""

    name: str = "greedy"

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        player = state.current_player()
        if state.pending_kind != K_MAIN:
            quick = quick_choice(state, actions)
            if quick is not None:
                return quick
            world = state.resample_hidden(player, rng)
            return best_action(world, actions, player, evaluate, rng, spend_world=True,
                               settle=True, quick=quick_choice)
        return self._main(state, actions, player, rng)

    def _main(self, state: State, actions: list[int], player: int, rng: random.Random) -> int:
        spec = state.spec
        r = Reading(state, player)
        hands = list(r.hands)
        base_value = value_of(r, r.attack, r.defence, hands[0], hands[1], r.held)
        action_def = spec.action_def
        layout = spec.layout
        bf = state.marker_bf
        world = None
        best: list[int] = []
        best_value = -2.0
        for action in actions:
            value = None
            if action == PASS:
                value = base_value
            elif layout.play_base <= action < layout.pay_base:
                definition = action_def[action]
                card = spec.defs[definition]
                if is_plain(state, card, player):
                    cost = card_cost(state, player, card, bf)
                    kegs, ammunition = _payment(state, player, definition, cost)
                    lost = (card.kegs + kegs) if player == DEFENDER else (
                        card.ammunition + ammunition)
                    hand = hands[:]
                    hand[player] -= 1 + cost
                    power = card.modes[0].firepower + card.enter_power
                    attack, defence = r.attack, r.defence
                    if player == DEFENDER:
                        defence += power
                    else:
                        attack += power
                    value = value_of(r, attack, defence, hand[0], hand[1], r.held - lost)
                elif (count := drawn_by(state, card, player)) > 0:
                    cost = card_cost(state, player, card, bf)
                    kegs, ammunition = _payment(state, player, definition, cost)
                    lost = (card.kegs + kegs) if player == DEFENDER else (
                        card.ammunition + ammunition)
                    hand = hands[:]
                    hand[player] += count - 1 - cost
                    gained = count * _deck_symbols(state, player)
                    value = value_of(r, r.attack, r.defence, hand[0], hand[1],
                                     r.held - lost + gained)
            elif layout.own_base <= action < layout.ability_base:
                uid = action - layout.own_base
                card = spec.card_def[uid]
                if not card.watch and not card.on_destroyed and not spec.attaching:
                    power = card_firepower(state, uid)
                    attack, defence = r.attack, r.defence
                    if player == DEFENDER:
                        defence -= power
                    else:
                        attack -= power
                    value = value_of(r, attack, defence, hands[0], hands[1], r.held)
            if value is None:  # played out on a re-dealt copy, as the play-out greedy does
                if world is None:
                    world = state.resample_hidden(player, rng)
                after = copy_world(world, rng)
                after.apply(action)
                settle_move(after, evaluate, rng, quick=quick_choice)
                value = evaluate(after, player)
            if value > best_value + _TIE:
                best_value, best = value, [action]
            elif value >= best_value - _TIE:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

"""Revolver 2's greedy: scores each play-phase option from the position's numbers instead of
playing it out, where what the card changes can be said (`play_changes`).

Such a play changes the firepower at the marker's battlefield (a plain firepower card, power
tokens on one's own card there, a card of the other side killed or destroyed there), the hand
(the card and the cards that pay its cost: the least worth ones, as the look-ahead pays; the
cards drawn) and the symbols held (a drawn card's at its deck's average); discarding one's own
plain card from play takes its firepower away; ending the play phase changes nothing (the
heuristic already looks ahead to the attack). Those are valued with the heuristic's own
formula (`evaluate.value_of`) on the changed numbers; where the play asks a choice (which card
gets the token, which is killed) the best, as the look-ahead takes it. Every other option, and
every decision that is not the play phase's, is played out on a re-dealt copy and judged like
the play-out greedy does, so no effect is ignored. It sees only what its player may see: the
heuristic reads the opponent's hand by its size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final, cast

from deckbuilder.bots import (
    StepBudget,
    TurnBudget,
    best_action,
    copy_world,
    pick_best,
    settle_move,
    sort_ranks,
)
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.board import card_firepower
from deckbuilder.engine.expansion_steps import card_cost
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver2.bots.evaluate import Reading, evaluate, track_of, value_of
from deckbuilder.games.revolver2.bots.play_changes import changes
from deckbuilder.games.revolver2.bots.quick import card_worth, quick_choice


def _deck_symbols(state: State, player: int) -> float:
    """The symbols a card drawn from `player`'s own deck carries on average (its contents are
    known to him; their order is not read)."""
    deck = state.decks[player]
    if not deck:
        return 0.0
    return _symbols_on(state, player, deck) / len(deck)


def _symbols_on(state: State, player: int, cards: list[int]) -> int:
    """The symbols `player` counts on these cards: powder kegs for the guardians, ammunition
    for Mapache."""
    track = track_of(state.spec)
    symbols = track.kegs if player == DEFENDER else track.ammunition
    total = 0
    for uid in cards:
        total += symbols[uid]
    return total


def _payment(state: State, player: int, played: int, cost: int) -> tuple[int, int]:
    """(kegs, ammunition) on the `cost` cards of least worth the hand pays with (one copy of
    the played card set aside), in the order the look-ahead's quick choice takes them."""
    if cost <= 0:  # nothing paid (most plays): no copy of the hand, no sort
        return 0, 0
    spec = state.spec
    def_of = spec.def_of
    left = list(state.hands[player])
    for index, uid in enumerate(left):
        if def_of[uid] == played:
            del left[index]
            break
    ranks = _pay_ranks(spec)
    if cost == 1 and left:  # the first card of least rank, as the stable sort puts first
        cheapest = left[0]
        for uid in left:
            if ranks[uid] < ranks[cheapest]:
                cheapest = uid
        paid = [cheapest]
    else:
        left.sort(key=ranks.__getitem__)
        paid = left[:cost]
    return _symbols_on(state, DEFENDER, paid), _symbols_on(state, ATTACKER, paid)


def _worked_out_pay_ranks(spec: SpecFields) -> tuple[int, ...]:
    return tuple(sort_ranks([(card_worth(spec.card_def[uid]), spec.pay_action[spec.def_of[uid]])
                             for uid in range(spec.n_cards)]))


_PAY_RANKS: Final[SpecMemo[tuple[int, ...]]] = SpecMemo(_worked_out_pay_ranks)


def _pay_ranks(spec: SpecFields) -> tuple[int, ...]:
    """Per card instance, its place in the order the look-ahead's quick choice pays a cost
    in (the least worth card first, then the lowest action; equal keys, equal places), worked
    out once per game: a sort by these numbers is the sort by those keys."""
    return _PAY_RANKS.of(spec)


@dataclass
class ScoringGreedy:
    """The greedy bot of Revolver 2 (see the module docstring)."""

    name: str = "greedy"
    #: Ends the play phase of a turn that has gone on too long (a card loop in the data);
    #: counts the decisions whose look-ahead spent its `StepBudget` as `looks_cut`.
    budget: TurnBudget = field(default_factory=TurnBudget)

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal  # read only: no copy
        if len(actions) == 1:
            return actions[0]
        player = state.current_player()
        if state.pending_kind == K_MAIN and self.budget.is_spent(state, player):
            return PASS
        if state.pending_kind != K_MAIN:
            quick = quick_choice(state, actions)
            if quick is not None:
                return quick
            world = state.resample_hidden(player, rng)
            steps = StepBudget()
            action = best_action(world, actions, player, evaluate, rng, spend_world=True,
                                 settle=True, quick=quick_choice, budget=steps,
                                 evaluate_keeps=True)
            if steps.cut:
                self.budget.looks_cut += 1
            return action
        return pick_best(actions, self.action_values(state, actions, player, rng), rng)

    def action_values(self, state: State, actions: list[int], player: int,
                      rng: random.Random) -> list[float]:
        """The value of each option of a main decision, as the greedy ranks them."""
        r = Reading(state, player)
        base_value = value_of(r, r.attack, r.defence, r.hands[0], r.hands[1], r.held)
        values = [base_value if action == PASS else _from_numbers(state, r, action)
                  for action in actions]
        # The rest played out on one re-dealt copy, as the play-out greedy does: a copy of it
        # for each but the last, which plays on the re-dealt copy itself.
        unknown = [index for index, value in enumerate(values) if value is None]
        if unknown:
            world = state.resample_hidden(player, rng)
            steps = StepBudget()
            for index in unknown:
                after = world if index == unknown[-1] else copy_world(world, rng)
                after.apply(actions[index])
                settle_move(after, evaluate, rng, quick=quick_choice, budget=steps,
                            evaluate_keeps=True)  # the value only reads the position
                values[index] = evaluate(after, player)
            if steps.cut:
                self.budget.looks_cut += 1
        return cast(list[float], values)  # every option is valued by now: no copy


def _from_numbers(state: State, r: Reading, action: int) -> float | None:
    """The value of playing a card whose change to the numbers is known (`play_changes`),
    or of discarding one's own plain card from play, worked out from the position's numbers
    (None: another kind of option). Where the play asks a choice, the best end is taken, as
    the look-ahead would."""
    spec = state.spec
    layout = spec.layout
    player = r.player
    if layout.play_base <= action < layout.pay_base:
        definition = spec.action_def[action]
        card = spec.defs[definition]
        found = changes(state, card, player)
        if found is None:
            return None
        ends, drawn = found
        cost = card_cost(state, player, card, state.marker_bf)
        kegs, ammunition = _payment(state, player, definition, cost)
        lost = (card.kegs + kegs) if player == DEFENDER else (card.ammunition + ammunition)
        guardian_hand, mapache_hand = r.hands
        if player == DEFENDER:
            guardian_hand += drawn - 1 - cost
        else:
            mapache_hand += drawn - 1 - cost
        held = float(r.held - lost)
        if drawn:
            held += drawn * _deck_symbols(state, player)
        best = -2.0
        for gained, taken in ends:
            attack, defence = r.attack, r.defence
            if player == DEFENDER:
                defence += gained
                attack -= taken
            else:
                attack += gained
                defence -= taken
            value = value_of(r, attack, defence, guardian_hand, mapache_hand, held)
            if value > best:  # max(best, value)
                best = value
        return best
    if layout.own_base <= action < layout.ability_base:
        uid = action - layout.own_base
        card = spec.card_def[uid]
        if not card.watch and not card.on_destroyed and not spec.attaching:
            power = card_firepower(state, uid)
            attack, defence = r.attack, r.defence
            if player == DEFENDER:
                defence -= power
            else:
                attack -= power
            return value_of(r, attack, defence, r.hands[0], r.hands[1], r.held)
    return None

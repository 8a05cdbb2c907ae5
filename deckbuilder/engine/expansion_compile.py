"""Compiling what the expansion cards add to a card definition and a game's spec (called by
`compiled.py`): static steps, triggers, reaction costs and, per game, who attaches, watches,
reduces costs or ignores row limits, so the hot loop checks one attribute when a game has none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from deckbuilder.engine.card_steps import TargetFilter
from deckbuilder.engine.codes import ONE_SHOT
from deckbuilder.engine.effects import Resolver, compile_steps
from deckbuilder.engine.expansion_steps import NEED_HOST, compile_cost_reduction
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.wording import eagle_proof
from deckbuilder.models.cards import Card
from deckbuilder.models.effects import When


def _triggers(card: Card, when: str) -> list[Any]:
    return [trigger for trigger in card.triggers if trigger.when == when]


def _cards(resolver: Resolver, card_ids: Sequence[str]) -> frozenset[int] | None:
    """Card ids -> definitions; None for an empty list (any card)."""
    return frozenset(resolver.card(card_id) for card_id in card_ids) if card_ids else None


def compile_expansion_hooks(d: Any, card: Any, resolver: Resolver) -> None:
    """Set the expansion hooks of `d`; static steps are read from the card's own `effect`."""
    d.discount = None
    d.played_when_drawn = card.played_when_drawn
    d.eagle_proof = eagle_proof(card.category, card.faction)
    hiding = resolver.hiding_runners  # the game's steps that hide a card under this one
    d.hides = bool(hiding) and any(runner in hiding for mode in d.modes
                                   for runner, _ in mode.effect)
    immune = []
    forbids: frozenset[int] = frozenset()
    for step in card.effect:
        if step.do == "cost-reduction":
            d.discount = compile_cost_reduction(step, resolver)
        elif step.do == "unaffected-by":
            immune.append(TargetFilter(step.target, resolver))
        elif step.do in resolver.forbidding_steps:  # the game's compiler names the cards
            forbids = forbids | resolver.steps[step.do][0](step, resolver)
    d.forbids = forbids
    d.immune = tuple(immune) if immune else None
    d.play_watch = tuple(
        (_cards(resolver, t.cards), t.here, t.optional, compile_steps(t.steps, resolver))
        for t in _triggers(card, When.OPPONENT_PLAYS_WHILE_IN_PLAY))
    d.arrivals = tuple(
        (_cards(resolver, t.cards), compile_steps(t.steps, resolver))
        for t in _triggers(card, When.CARD_ARRIVES_HERE))
    # A one-shot pays its cost when it reacts; any other card reacts by being discarded from
    # the hand, which is its whole price (Texas Ranger: "discard it from your hand to ...").
    d.react_cost = d.cost if d.play == ONE_SHOT else 0


def mark_discounts(defs: Sequence[Any], refresh: Callable[[Any], None]) -> None:
    """Cards another card may make cheaper (cost-reduction) leave the fast path."""
    for card in defs:
        if card.discount is not None:
            for index in card.discount[1]:
                if not defs[index].discounted:
                    defs[index].discounted = True
                    refresh(defs[index])


def _watched(defs: Sequence[object], uids: Sequence[int], entries: str) -> frozenset | None:
    """Which card definitions the watchers `uids` watch (their `entries` attribute): None
    with no watcher, an empty set if one watches every card."""
    if not uids:
        return None
    named: set[int] = set()
    for uid in uids:
        for entry in getattr(defs[uid], entries):
            if entry[0] is None:
                return frozenset()
            named |= entry[0]
    return frozenset(named)


def expansion_spec(spec: SpecFields) -> None:
    """Who in this game attaches, watches plays or arrivals, reduces costs, ignores limits."""
    card_def = spec.card_def
    every = range(spec.n_cards)
    spec.attaching = any(card_def[uid].hides or any(
        kind == NEED_HOST for mode in card_def[uid].modes for kind, _ in mode.needs)
        for uid in every)
    spec.play_blockers = tuple(tuple(u for u in range(spec.n_cards)
                                     if spec.owner[u] == p and card_def[u].forbids)
                               for p in (0, 1))
    spec.draw_plays = any(card_def[uid].played_when_drawn for uid in every)
    spec.owned_defs = tuple(tuple(sorted({spec.def_of[u] for u in every if spec.owner[u] == p}))
                            for p in (0, 1))
    spec.twin = _twins(spec)
    spec.immune = any(card_def[uid].immune is not None for uid in every)
    owned = tuple(tuple(u for u in every if spec.owner[u] == p) for p in (0, 1))
    spec.discounters = tuple(tuple(u for u in owned[p] if card_def[u].discount is not None)
                             for p in (0, 1))
    spec.play_watchers = tuple(tuple(u for u in owned[p] if card_def[u].play_watch)
                               for p in (0, 1))
    spec.play_watch_defs = tuple(_watched(card_def, spec.play_watchers[p], "play_watch")
                                 for p in (0, 1))
    spec.arrival_watchers = tuple(u for u in every if card_def[u].arrivals)
    spec.arrival_defs = _watched(card_def, spec.arrival_watchers, "arrivals")


def _twins(spec: SpecFields) -> tuple[int, ...]:
    """uid -> the other player's instance of the same card among the extra (module) cards,
    when the extra cards give each player exactly one instance of it; -1 otherwise."""
    twin = [-1] * spec.n_cards
    by_card: dict[int, list[int]] = {}
    for uid in spec.extra_uids:
        by_card.setdefault(spec.def_of[uid], []).append(uid)
    for uids in by_card.values():
        if len(uids) == 2 and spec.owner[uids[0]] != spec.owner[uids[1]]:
            twin[uids[0]], twin[uids[1]] = uids[1], uids[0]
    return tuple(twin)

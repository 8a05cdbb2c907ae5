"""The ambushes of Expansion 1.1, Ambush on Gunshot Trail, as a module plug-in (`ambushes`).

What is known (research grade B, card-facts.md 1.8): one Ambush card is dealt to each
battlefield; an ambush can add McReady firepower, kill a Colty man, or be a false alarm.
Everything else is a READING, marked unconfirmed in ambush-on-gunshot-trail.yaml, with the
switch `ambush-reveal` (docs/players/rules.md). The face-down and unused ambushes lie in
`state.limbo` (all McReady's instances); a revealed firepower ambush stays in McReady's
column as his card, a one-shot resolves and leaves the game.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, NamedTuple

from deckbuilder.catalog import Catalog
from deckbuilder.engine.board import place, push_steps
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.codes import SLOT_NONE
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.engine.state import ATTACKER, State
from deckbuilder.games.revolver.plugin import ModulePlugin, module_data, set_module_data

#: The module played here and the records it deals (one per kind, `copies` each).
AMBUSHES = "ambushes"
#: The rule switch on when an ambush is revealed, and its readings.
MARKER_ENTERS, MCREADY_TURN = "marker-enters", "mcready-turn"
REVEAL_SWITCH = PlayableSwitch("ambush-reveal", MARKER_ENTERS, (MCREADY_TURN,))


class AmbushDeal(NamedTuple):
    """The face-down ambush of each battlefield (an instance id; -1: none, or revealed)."""

    face_down: tuple[int, ...]


class AmbushFacts:
    __slots__ = ("on_mcready_turn", "uids")

    uids: tuple[int, ...]  # every ambush instance, in data order
    on_mcready_turn: bool  # switch ambush-reveal: mcready-turn


def ambush_cards(catalog: Catalog) -> list[str]:
    """The ambush cards, one id per copy: the `ambushes` module's cards."""
    for set_id in sorted(catalog.sets):
        card_set = catalog.sets[set_id].card_set
        for module in card_set.modules:
            if card_set.game == "revolver" and module.id == AMBUSHES:
                copies = {card.id: card.copies for card in card_set.cards}
                return [card for card in module.cards for _ in range(copies.get(card, 1))]
    return []


def bind_ambushes(spec: GameSpec, compiled: CompiledCatalog) -> AmbushFacts:
    facts = AmbushFacts()
    module = next((m for s in (compiled.base_set, *compiled.rule_sets) for m in s.modules
                   if m.id == AMBUSHES), None)
    wanted = set(module.cards) if module is not None else set()
    facts.uids = tuple(uid for uid in spec.extra_uids if spec.card_def[uid].id in wanted
                       and spec.owner[uid] == ATTACKER)
    facts.on_mcready_turn = REVEAL_SWITCH.chosen(spec.rules) == MCREADY_TURN
    return facts


def _facts(state: State) -> AmbushFacts:
    return state.spec.facts.plugin_facts[AMBUSHES]


def _deal(state: State) -> Any:
    return module_data(state, AMBUSHES)


# -- set-up -------------------------------------------------------------------------------------
def set_up(state: State, staged: bool = False) -> None:
    """Shuffle the ambushes and deal one face down to each battlefield. A staged position deals
    them in data order from the last battlefield back, none at or before the marker (revealed
    already), so a scenario knows what lies where."""
    facts = _facts(state)
    for uid in facts.uids:
        if uid not in state.limbo:
            state.limbo.append(uid)
    order = list(facts.uids)
    n_bf = state.spec.n_bf
    if staged:
        order = [order[n_bf - 1 - bf] if bf > state.marker_bf and n_bf - 1 - bf < len(order)
                 else -1 for bf in range(n_bf)]
    else:
        shuffle(state.rng, order)
    face_down = tuple(order[bf] if bf < len(order) else -1 for bf in range(n_bf))
    set_module_data(state, AMBUSHES, AmbushDeal(face_down))
    if state.verbose:
        state.note(f"an Ambush card lies face down at each of {min(n_bf, len(order))} "
                   "battlefields")


def reveal(state: State, bf: int) -> None:
    """Turn over the ambush of `bf`: a firepower card joins McReady's column there; a
    one-shot resolves and is removed from the game."""
    deal = _deal(state)
    if not isinstance(deal, AmbushDeal) or not 0 <= bf < len(deal.face_down):
        return
    uid = deal.face_down[bf]
    if uid < 0:
        return
    face_down = list(deal.face_down)
    face_down[bf] = -1
    set_module_data(state, AMBUSHES, AmbushDeal(tuple(face_down)))
    spec = state.spec
    card = spec.card_def[uid]
    mode = card.modes[0]
    state.limbo.remove(uid)
    if state.verbose:
        state.note(f"Ambush at {spec.bf_name(bf)}: {card.name}")
    if mode.slot == SLOT_NONE:
        state.removed[ATTACKER].append(uid)
    else:
        place(state, uid, ATTACKER, bf, mode)
    if mode.effect:
        push_steps(state, mode.effect, (ATTACKER, uid, bf))


def marker_moved(state: State) -> None:
    if not _facts(state).on_mcready_turn:
        reveal(state, state.marker_bf)


def start_turn(state: State, player: int) -> None:
    if player == ATTACKER and _facts(state).on_mcready_turn:
        reveal(state, state.marker_bf)


# -- hidden information -------------------------------------------------------------------------
def resample(state: State, player: int, rng: random.Random) -> None:
    """Nobody has seen a face-down ambush: deal them anew from every ambush not yet seen."""
    deal = _deal(state)
    if not isinstance(deal, AmbushDeal):
        return
    unseen = [uid for uid in _facts(state).uids if uid in state.limbo]
    shuffle(rng, unseen)
    dealt = iter(unseen)
    set_module_data(state, AMBUSHES, AmbushDeal(
        tuple(next(dealt) if uid >= 0 else -1 for uid in deal.face_down)))


def view(state: State, player: int | None) -> dict[str, object]:
    deal = _deal(state)
    if not isinstance(deal, AmbushDeal):
        return {}
    bfs = state.spec.bfs
    return {"ambushes_face_down": tuple(bfs[bf].id for bf, uid in enumerate(deal.face_down)
                                        if uid >= 0)}


# -- the plug-in --------------------------------------------------------------------------------
#: The ambushes in a game's turn: dealt at set-up, revealed at their battlefield.
PLUGIN = ModulePlugin(
    ids=(AMBUSHES,), known_variants=known_variants(REVEAL_SWITCH),
    extra_cards=lambda modules, catalog: [(ATTACKER, card) for card in ambush_cards(catalog)],
    bind=bind_ambushes, set_up=set_up, marker_moved=marker_moved, start_turn=start_turn,
    resample=resample, view=view, restage=partial(set_up, staged=True))

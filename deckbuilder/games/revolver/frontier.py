"""The Frontier deck (Expansion 1.3, Vengeance on the Frontier) and the Tarnished Star's
Module C (its nine Frontier cards shuffled into it), as one module plug-in.

1.3's rules are in none of our documents: all here is a READING, marked unconfirmed in
vengeance-on-the-frontier.yaml (module `frontier-deck`, whose provenance gives the reasons),
with the rule switches `frontier-draw` and `frontier-empty` where two readings are equally
plausible (docs/players/rules.md lists them). A drawn Frontier card is the drawer's, played
like his own; discarded or destroyed, it goes to the Frontier discard pile (swept there at
each moment the game calls the plug-in, even from a deck it was shuffled into).

Representation: a table card has one owner, so each Frontier card has one instance per player
(`extra_cards`); the drawer gets his, the other lies in `state.limbo` (as do both while the
card is in the Frontier deck or its discard pile, the module's `FrontierPile`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from deckbuilder.catalog import Catalog
from deckbuilder.engine import chance
from deckbuilder.engine.board import draw
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.rule_switches import PlayableSwitch, known_variants
from deckbuilder.engine.state import State
from deckbuilder.games.revolver.declaration import K_FRONTIER_DRAW
from deckbuilder.games.revolver.plugin import (
    ModulePlugin,
    module_data,
    piece_action,
    piece_index,
    set_module_data,
)
from deckbuilder.protocol import UnplayableDeckError

#: The modules played here: the 1.3 Frontier deck and the Tarnished Star's Module C.
FRONTIER_DECK = "frontier-deck"
MODULE_C = "frontier-deck-cards"
FRONTIER = "frontier"
#: The rule switches and their readings (vengeance-on-the-frontier.yaml `rule_switches`).
ONE_OF_TWO, NEW_BATTLEFIELD = "one-of-two-draws", "extra-on-new-battlefield"
DRAW_SWITCH = PlayableSwitch("frontier-draw", ONE_OF_TWO, (NEW_BATTLEFIELD,))
RESHUFFLE, NO_MORE = "reshuffle-discards", "no-more-cards"
EMPTY_SWITCH = PlayableSwitch("frontier-empty", RESHUFFLE, (NO_MORE,))

TAKE, OWN = range(2)
GAME_ACTION_TEXTS = ("draw one card from the Frontier deck", "draw both cards from your own deck")


class FrontierPile(NamedTuple):
    """The Frontier deck (drawn from its end) and its discard pile, as card indices."""

    deck: tuple[int, ...]
    discard: tuple[int, ...]
    #: extra-on-new-battlefield: the battlefield at which each player last drew one
    drawn_at: tuple[int, int]


class FrontierFacts:
    """The Frontier cards of this game (`spec.facts.plugin_facts[FRONTIER_DECK]`)."""

    __slots__ = ("cards", "index", "new_battlefield", "reshuffle", "uids")

    cards: tuple[str, ...]  # card ids, one per copy, in data order
    uids: tuple[tuple[int, ...], tuple[int, ...]]  # uids[player][i]: his instance of card i
    index: dict[int, int]  # instance -> card index
    new_battlefield: bool  # switch frontier-draw: extra-on-new-battlefield
    reshuffle: bool  # switch frontier-empty: reshuffle-discards


# -- what is in the deck (data) -----------------------------------------------------------------
def _chosen(modules: Sequence[str]) -> set[str]:
    chosen = {m for m in modules if m in (FRONTIER_DECK, MODULE_C)}
    if MODULE_C in chosen:  # "shuffle these cards into the Frontier deck you already have"
        chosen.add(FRONTIER_DECK)
    return chosen


def frontier_cards(catalog: Catalog, modules: Sequence[str]) -> list[str]:
    """The Frontier deck's cards, one id per copy, in data order: every frontier card of an
    installed Revolver set but those a Frontier module not in use lists."""
    chosen = _chosen(modules)
    if not chosen:
        return []
    sets = [catalog.sets[set_id].card_set for set_id in sorted(catalog.sets)
            if catalog.sets[set_id].card_set.game == "revolver"]
    frontier_modules = {module.id: module for card_set in sets for module in card_set.modules
                        if module.id in (FRONTIER_DECK, MODULE_C)}
    left_out = {card for module_id, module in frontier_modules.items()
                if module_id not in chosen for card in module.cards}
    return [card.id for card_set in sets for card in card_set.cards
            if card.faction == FRONTIER and card.id not in left_out for _ in range(card.copies)]


# -- binding ------------------------------------------------------------------------------------
def bind_frontier(spec: GameSpec, compiled: CompiledCatalog) -> FrontierFacts:
    facts = FrontierFacts()
    card_def = spec.card_def
    pairs: list[list[int]] = [[], []]
    for uid in spec.extra_uids:
        if card_def[uid].faction == FRONTIER:
            pairs[spec.owner[uid]].append(uid)
    if len(pairs[0]) != len(pairs[1]):
        raise UnplayableDeckError("the Frontier deck needs one instance of each card per player")
    facts.uids = (tuple(pairs[0]), tuple(pairs[1]))
    facts.cards = tuple(card_def[uid].id for uid in pairs[0])
    facts.index = {uid: i for player in (0, 1) for i, uid in enumerate(pairs[player])}
    rules = spec.rules
    facts.new_battlefield = DRAW_SWITCH.chosen(rules) == NEW_BATTLEFIELD
    facts.reshuffle = EMPTY_SWITCH.chosen(rules) == RESHUFFLE
    # The table's twins (a card changing sides takes its twin's place), pair by pair (the
    # table pairs a card's two instances only when each player has one copy).
    twin = list(getattr(spec, "twin", None) or [-1] * spec.n_cards)
    for first, second in zip(*pairs, strict=True):
        twin[first], twin[second] = second, first
    spec.twin = tuple(twin)
    return facts


def _facts(state: State) -> FrontierFacts:
    return state.spec.facts.plugin_facts[FRONTIER_DECK]


def _pile(state: State) -> FrontierPile:
    return module_data(state, FRONTIER_DECK)


def _set_pile(state: State, pile: FrontierPile) -> None:
    set_module_data(state, FRONTIER_DECK, pile)


# -- set-up -------------------------------------------------------------------------------------
def set_up(state: State, shuffle: bool = True) -> None:
    """Every Frontier instance out of play (limbo); the Frontier deck shuffled (a staged
    position: in data order, the first card on top, so a scenario knows what comes)."""
    facts = _facts(state)
    for player in (0, 1):
        for uid in facts.uids[player]:
            if uid not in state.limbo:
                state.limbo.append(uid)
    order = list(range(len(facts.cards)))
    if shuffle:
        chance.shuffle(state.rng, order)
    else:
        order.reverse()  # drawn from the end: card 0 on top
    _set_pile(state, FrontierPile(tuple(order), (), (state.marker_bf, state.marker_bf)))
    if state.verbose:
        state.note(f"the Frontier deck: {len(order)} cards")


# -- the Frontier discard pile ------------------------------------------------------------------
def sweep(state: State) -> None:
    """Frontier cards in a player's discard pile (or shuffled into his deck from it) go to
    the Frontier discard pile; both instances then lie in limbo."""
    facts = _facts(state)
    index = facts.index
    gone: list[int] = []
    for player in (0, 1):
        for zone in (state.discards[player], state.decks[player]):
            found = [uid for uid in zone if uid in index]
            for uid in found:
                zone.remove(uid)
                state.limbo.append(uid)
                gone.append(index[uid])
    if gone:
        pile = _pile(state)
        _set_pile(state, pile._replace(discard=pile.discard + tuple(gone)))
        if state.verbose:
            names = ", ".join(state.spec.card_def[facts.uids[0][i]].name for i in gone)
            state.note(f"to the Frontier discard pile: {names}")


def _can_draw(state: State) -> bool:
    pile = _pile(state)
    return bool(pile.deck) or (_facts(state).reshuffle and bool(pile.discard))


def _take_top(state: State) -> int:
    """The top card of the Frontier deck (refilled from its discard pile when empty, under
    reshuffle-discards); -1 when none comes."""
    pile = _pile(state)
    deck = list(pile.deck)
    if not deck:
        if not _facts(state).reshuffle or not pile.discard:
            return -1
        deck = list(pile.discard)
        chance.shuffle(state.rng, deck)
        pile = pile._replace(discard=())
        if state.verbose:
            state.note(f"the Frontier discard pile becomes a new Frontier deck ({len(deck)})")
    top = deck.pop()
    _set_pile(state, pile._replace(deck=tuple(deck)))
    return top


def _instance(state: State, player: int, card: int) -> int:
    """`player`'s instance of Frontier card `card`, taken out of limbo."""
    uid = _facts(state).uids[player][card]
    state.limbo.remove(uid)
    return uid


# -- the draw phase -----------------------------------------------------------------------------
def start_turn(state: State, player: int) -> None:
    sweep(state)
    facts = _facts(state)
    if facts.new_battlefield:
        pile = _pile(state)
        if pile.drawn_at[player] != state.marker_bf:
            drawn_at = list(pile.drawn_at)
            drawn_at[player] = state.marker_bf
            _set_pile(state, pile._replace(drawn_at=(drawn_at[0], drawn_at[1])))
            card = _take_top(state)
            if card >= 0:
                if state.verbose:
                    state.note(f"{_who(state, player)} draws a card from the Frontier deck "
                               "(a new battlefield)")
                state.decks[player].append(_instance(state, player, card))
                draw(state, player, 1)  # the table's draw: "play this card immediately" too
        return
    if _can_draw(state):
        state.tasks.append((_t_offer, player))


def _who(state: State, player: int) -> str:
    return state.spec.game_rules.side_names[player]


def _t_offer(state: State, task: tuple) -> None:
    player = task[1]
    if not _can_draw(state):
        return
    state.decide(player, [piece_action(state, PLUGIN, TAKE), piece_action(state, PLUGIN, OWN)],
                 _resume_offer, player, K_FRONTIER_DRAW)


def _resume_offer(state: State, action: int, player: int) -> None:
    if piece_index(state, PLUGIN, action) != TAKE:
        return
    card = _take_top(state)
    if card < 0:
        return
    uid = _instance(state, player, card)
    # On top of his own deck: the draw phase's first card is it, the second his own.
    state.decks[player].append(uid)
    if state.verbose:
        state.note(f"{_who(state, player)} takes one card from the Frontier deck")


# -- hidden information -------------------------------------------------------------------------
def resample(state: State, player: int, rng: random.Random) -> None:
    """Re-deal what `player` cannot see: the Frontier deck's order, and which Frontier cards
    the opponent holds (dealt anew with the Frontier deck)."""
    pile = _pile(state)
    if not isinstance(pile, FrontierPile):
        return
    facts = _facts(state)
    index = facts.index
    opponent = 1 - player
    hand, deck = state.hands[opponent], state.decks[opponent]
    for position, uid in enumerate(deck):  # the table's re-deal put them there
        if uid in index:
            plain = [i for i, held in enumerate(hand) if held not in index]
            if not plain:
                break
            swap = plain[chance.below(rng, len(plain))]
            deck[position], hand[swap] = hand[swap], uid
    held = [position for position, uid in enumerate(hand) if uid in index]
    pool = [index[hand[position]] for position in held] + list(pile.deck)
    for position in held:
        state.limbo.append(hand[position])
    chance.shuffle(rng, pool)
    for position, card in zip(held, pool, strict=False):
        hand[position] = _instance(state, opponent, card)
    _set_pile(state, pile._replace(deck=tuple(pool[len(held):])))


def view(state: State, player: int | None) -> dict[str, object]:
    pile = _pile(state)
    if not isinstance(pile, FrontierPile):
        return {}
    cards = _facts(state).cards
    return {"frontier_deck": len(pile.deck),
            "frontier_discard": tuple(cards[i] for i in pile.discard)}


# -- the plug-in --------------------------------------------------------------------------------
#: The Frontier deck in a game's turn: set-up, the draw phase, the discard pile (the turn's
#: discards join it at its end, as when the marker moves), and what nobody may see.
PLUGIN = ModulePlugin(
    ids=(FRONTIER_DECK, MODULE_C), known_variants=known_variants(DRAW_SWITCH, EMPTY_SWITCH),
    game_action_texts=GAME_ACTION_TEXTS, bind=bind_frontier,
    extra_cards=lambda modules, catalog: [
        (player, card) for card in frontier_cards(catalog, modules) for player in (0, 1)],
    set_up=set_up, marker_moved=sweep, start_turn=start_turn, resample=resample, view=view,
    end_turn=lambda state, player: sweep(state), restage=partial(set_up, shuffle=False))

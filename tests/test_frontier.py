"""The Frontier deck (Expansion 1.3) and the Tarnished Star's Module C, played through the
protocol: what is in the deck, the draw-phase choice, the Frontier card as the drawer's own,
the Frontier discard pile, the empty deck, both readings of each rule switch, what a player
may see, and bots playing whole games (frontier.py's module docstring gives the readings)."""

from __future__ import annotations

import random

import pytest

from deckbuilder.bots import make_bot
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import State
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver import frontier
from deckbuilder.games.revolver.declaration import K_FRONTIER_DRAW
from deckbuilder.games.revolver.plugin import module_data, set_module_data

GANG, LAWMEN = 0, 1
TAKE, OWN = frontier.GAME_ACTION_TEXTS
OLD_CARDS = {"maddened-bison", "old-three-fingers", "robbers-roost", "banditos"}


def _decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def _game(seed: int = 1, modules: tuple[str, ...] = (frontier.FRONTIER_DECK,),
          switches: dict[str, str] | None = None) -> State:
    return new_game(_decks(), seed=seed, modules=modules, switches=switches, verbose=True)


def _pile(state: State) -> frontier.FrontierPile:
    return module_data(state, frontier.FRONTIER_DECK)


def _facts(state: State) -> frontier.FrontierFacts:
    return state.spec.facts.plugin_facts[frontier.FRONTIER_DECK]


def _on_top(state: State, card_id: str) -> None:
    """Put Frontier card `card_id` on top of the Frontier deck (a staged position)."""
    pile = _pile(state)
    card = _facts(state).cards.index(card_id)
    deck = [i for i in pile.deck if i != card] + [card]
    set_module_data(state, frontier.FRONTIER_DECK, pile._replace(deck=tuple(deck)))


def _say(state: State, text: str) -> None:
    matches = [a for a in state.legal_actions() if state.action_to_string(a) == text]
    assert matches, f"{text!r} not among {[state.action_to_string(a) for a in state.legal]}"
    state.apply(matches[0])


def _frontier_in_hand(state: State, player: int) -> list[str]:
    index = _facts(state).index
    return [state.spec.card_def[uid].id for uid in state.hands[player] if uid in index]


# -- what is in the deck --------------------------------------------------------------------------
def test_the_1_3_deck_holds_the_1_3_cards_and_module_c_adds_the_tarnished_stars_nine() -> None:
    catalog = default_catalog()
    alone = frontier.frontier_cards(catalog, [frontier.FRONTIER_DECK])
    assert set(alone) == OLD_CARDS
    with_c = frontier.frontier_cards(catalog, [frontier.MODULE_C])
    assert set(with_c) > OLD_CARDS  # Module C is shuffled into the deck "you already have"
    assert len(with_c) == len(alone) + 9
    assert "the-legend-of-boggy-creek" in with_c
    extra = frontier.PLUGIN.extra_cards([frontier.FRONTIER_DECK], catalog)
    assert sorted(extra) == sorted([(p, card) for card in alone for p in (GANG, LAWMEN)])


def test_every_frontier_card_has_one_instance_per_player_out_of_play_at_set_up() -> None:
    state = _game()
    facts = _facts(state)
    assert len(facts.uids[GANG]) == len(facts.uids[LAWMEN]) == len(OLD_CARDS)
    for gang_uid, law_uid in zip(*facts.uids, strict=True):
        assert state.spec.owner[gang_uid] == GANG and state.spec.owner[law_uid] == LAWMEN
        assert state.spec.twin[gang_uid] == law_uid and state.spec.twin[law_uid] == gang_uid
        assert gang_uid in state.limbo and law_uid in state.limbo
    assert sorted(_pile(state).deck) == list(range(len(OLD_CARDS)))
    state.check_invariants()


# -- the draw phase -------------------------------------------------------------------------------
def test_the_draw_phase_offers_one_card_from_the_frontier_deck() -> None:
    state = _game()
    assert state.pending_kind == K_FRONTIER_DRAW and state.current_player() == GANG
    assert sorted(state.action_to_string(a) for a in state.legal) == sorted([TAKE, OWN])
    _on_top(state, "banditos")
    hand, deck = len(state.hands[GANG]), len(state.decks[GANG])
    _say(state, TAKE)
    assert state.pending_kind == K_MAIN
    assert _frontier_in_hand(state, GANG) == ["banditos"]
    assert len(state.hands[GANG]) == hand + 2  # still two cards: one Frontier, one his own
    assert len(state.decks[GANG]) == deck - 1
    assert len(_pile(state).deck) == len(OLD_CARDS) - 1
    state.check_invariants()


def test_declining_draws_both_from_his_own_deck() -> None:
    state = _game()
    top = _pile(state).deck
    deck = len(state.decks[GANG])
    _say(state, OWN)
    assert _frontier_in_hand(state, GANG) == []
    assert len(state.decks[GANG]) == deck - 2
    assert _pile(state).deck == top


def test_a_frontier_card_is_played_as_the_drawers_own_card_in_his_column() -> None:
    state = _game()
    _on_top(state, "old-three-fingers")
    _say(state, TAKE)
    bison = next(uid for uid in state.hands[GANG] if uid in _facts(state).index)
    _say(state, "play Old Three Fingers")
    while state.pending_kind != K_MAIN:  # its cost: one discard
        state.apply(state.legal[0])
    assert bison in state.rows[2 * state.marker_bf + GANG]
    assert state.spec.owner[bison] == GANG
    state.check_invariants()


def test_a_discarded_frontier_card_goes_to_the_frontier_discard_pile() -> None:
    state = _game()
    _on_top(state, "old-three-fingers")
    _say(state, TAKE)
    uid = next(uid for uid in state.hands[GANG] if uid in _facts(state).index)
    state.hands[GANG].remove(uid)
    state.discards[GANG].append(uid)  # as a cost paid with it would
    _say(state, "end play phase")
    assert uid not in state.discards[GANG] and uid in state.limbo
    card = _facts(state).cards.index("old-three-fingers")
    assert _pile(state).discard == (card,)
    shown = dict(observe(state, LAWMEN).game_view)
    assert shown["frontier_discard"] == ("old-three-fingers",)
    state.check_invariants()


def _empty_deck_with_discards(state: State) -> None:
    pile = _pile(state)
    set_module_data(state, frontier.FRONTIER_DECK,
                    pile._replace(deck=(), discard=tuple(sorted(pile.deck))))


@pytest.mark.parametrize(("reading", "offered"), [(frontier.RESHUFFLE, True),
                                                  (frontier.NO_MORE, False)])
def test_switch_frontier_empty_decides_whether_the_discards_come_back(reading: str,
                                                                       offered: bool) -> None:
    state = _game(switches={frontier.EMPTY_SWITCH.id: reading})
    _say(state, OWN)
    _empty_deck_with_discards(state)
    _say(state, "end play phase")  # McReady's turn: his draw phase comes
    assert (state.pending_kind == K_FRONTIER_DRAW) is offered
    if offered:
        _say(state, TAKE)
        assert len(_frontier_in_hand(state, LAWMEN)) == 1
        assert len(_pile(state).deck) == len(OLD_CARDS) - 1 and _pile(state).discard == ()
    else:
        assert _frontier_in_hand(state, LAWMEN) == []
    state.check_invariants()


def test_switch_frontier_draw_extra_card_at_each_new_battlefield() -> None:
    state = _game(switches={frontier.DRAW_SWITCH.id: frontier.NEW_BATTLEFIELD})
    assert state.pending_kind == K_MAIN  # no choice: nothing at the first battlefield
    assert _frontier_in_hand(state, GANG) == []
    first = state.marker_bf
    while state.marker_bf == first and not state.over:  # play on until the next battlefield
        state.apply(PASS)
    assert state.active == GANG and state.marker_bf == first + 1
    assert len(_frontier_in_hand(state, GANG)) == 1  # one Frontier card on top of his two
    state.apply(PASS)
    assert len(_frontier_in_hand(state, LAWMEN)) == 1
    state.apply(PASS)
    assert len(_frontier_in_hand(state, GANG)) == 1  # once per battlefield
    state.check_invariants()


def test_the_default_reading_gives_no_extra_card_at_a_new_battlefield() -> None:
    state = _game()
    first = state.marker_bf
    while not state.over and not (state.active == GANG and state.marker_bf == first + 1
                                  and state.pending_kind == K_FRONTIER_DRAW):
        state.apply(state.legal[-1] if state.pending_kind == K_FRONTIER_DRAW else PASS)
    hand = len(state.hands[GANG])
    _say(state, OWN)
    assert len(state.hands[GANG]) == hand + 2 and _frontier_in_hand(state, GANG) == []


def test_the_legend_of_boggy_creek_is_played_the_moment_it_is_drawn() -> None:
    state = _game(modules=(frontier.MODULE_C,))
    _on_top(state, "the-legend-of-boggy-creek")
    _say(state, TAKE)
    while state.pending_kind != K_MAIN:
        state.apply(state.legal[0])
    assert "the-legend-of-boggy-creek" not in _frontier_in_hand(state, GANG)
    assert any("Legend of Boggy Creek" in line and "play" in line for line in state.log)
    state.check_invariants()


# -- what a player may see ------------------------------------------------------------------------
def test_nobody_sees_the_frontier_deck_order_and_bots_re_deal_it() -> None:
    state = _game()
    other = state.clone()
    pile = _pile(other)
    set_module_data(other, frontier.FRONTIER_DECK, pile._replace(deck=pile.deck[::-1]))
    for player in (GANG, LAWMEN):
        assert observe(state, player) == observe(other, player)
    assert dict(observe(state, GANG).game_view)["frontier_deck"] == len(OLD_CARDS)
    orders = {_pile(state.resample_hidden(GANG, random.Random(seed))).deck for seed in range(30)}
    assert len(orders) > 1


def test_a_bot_re_deals_the_frontier_cards_the_opponent_holds() -> None:
    state = _game()
    _on_top(state, "banditos")
    _say(state, TAKE)  # the gang holds Banditos; McReady does not know which card it is
    held = set()
    for seed in range(40):
        world = state.resample_hidden(LAWMEN, random.Random(seed))
        world.check_invariants()
        cards = _frontier_in_hand(world, GANG)
        assert len(cards) == 1  # he knows the gang holds one Frontier card
        held.add(cards[0])
        mine = state.resample_hidden(GANG, random.Random(seed))
        assert _frontier_in_hand(mine, GANG) == ["banditos"]  # the gang knows his own
    assert len(held) > 1


@pytest.mark.parametrize("modules", [(frontier.FRONTIER_DECK,), (frontier.MODULE_C,)])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_play_whole_games_with_the_frontier_deck(modules: tuple[str, ...],
                                                      bot: str) -> None:
    heuristics = get_game("revolver").heuristics
    players = [make_bot(bot, heuristics), make_bot(bot, heuristics)]
    for seed in range(3 if bot == "greedy" else 12):
        state = _game(seed=seed, modules=modules)
        rng = random.Random(seed)
        taken = 0
        while not state.is_terminal():
            if state.pending_kind == K_FRONTIER_DRAW:
                taken += 1
            state.apply(players[state.current_player()].choose(state, rng))
        state.check_invariants()
        assert state.outcome() is not None and taken > 0

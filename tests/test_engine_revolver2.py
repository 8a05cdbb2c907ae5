"""Revolver 2 on the table, rule by rule (malpaso-es): set-up, the poker tournament, the turn
with recruitment and optional spaces, powder kegs and ammunition, the Mexican Army, victory."""

from __future__ import annotations

import random

import pytest
from table_staging import clear_hand, refresh, stage, stage_marker

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import BF_BASE, K_MAIN, PASS, USE_PIECE
from deckbuilder.engine.board import firepower
from deckbuilder.engine.observe import observe
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver2.declaration import K_KEGS, K_POKER, K_STAY
from deckbuilder.games.revolver2.endings import Termination
from deckbuilder.games.revolver2.poker import Tournament, round_winner
from deckbuilder.protocol import IllegalActionError

ESTEBAN, MAPACHE = 0, 1


def decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver2", "esteban"), catalog.base_deck("revolver2", "mapache")]


def fresh(seed: int = 1, **options: object):
    return new_game(decks(), seed, **options)  # type: ignore[arg-type]


def past_poker(seed: int = 1, **options: object):
    """The game after its tournament (each side shows its first card each round)."""
    state = fresh(seed, **options)
    while state.pending_kind == K_POKER:
        state.apply(state.legal_actions()[0])
    return state


def by_text(state, prefix: str) -> int:
    found = [a for a in state.legal_actions() if state.action_to_string(a).startswith(prefix)]
    assert found, (prefix, [state.action_to_string(a) for a in state.legal_actions()])
    return found[0]


def bf_index(state, battlefield_id: str) -> int:
    return next(bf.idx for bf in state.spec.bfs if bf.id == battlefield_id)


# -- set-up -------------------------------------------------------------------------------------
def test_setup_seven_guardians_in_front_twelve_in_the_pile_twelve_army_tokens() -> None:
    state = fresh()
    assert sum(state.alive) == 7 and len(state.pile) == 12
    assert state.countdown == 12
    starting = {c.id for c in state.spec.characters if state.alive[c.idx]}
    assert "padre-esteban" in starting
    assert state.pending_kind == K_POKER and state.current_player() == ESTEBAN


def test_the_tournament_winner_brings_in_his_battlefields() -> None:
    seen = {}
    for seed in range(30):
        state = past_poker(seed)
        tournament = state.game_data
        assert isinstance(tournament, Tournament) and tournament.winner in (0, 1)
        names = [bf.id for bf in state.spec.bfs]
        assert names[3:] == ["los-quantos-bridge", "malpaso", "abandoned-silver-mine"]
        seen[tournament.winner] = names[:3]
    assert seen[ESTEBAN] == ["malpaso-church", "malpaso-saloon", "malpaso-livery-stable"]
    assert seen[MAPACHE] == ["malpaso-cathouse", "malpaso-jailhouse", "malpaso-drinking-den"]


def test_poker_rounds_cheats_and_you_cheat_dawg() -> None:
    state = fresh()
    poker = {card.id: card.slot for card in state.spec.facts.poker}
    cheat = poker["all-rivers-poker-esteban-cheat-1"]
    dawg = poker["all-rivers-poker-you-cheat-dawg"]
    high = poker["all-rivers-poker-mapache-5"]
    low = poker["all-rivers-poker-esteban-1"]
    assert round_winner(state, cheat, high) == ESTEBAN  # a cheat beats any value
    assert round_winner(state, cheat, dawg) == MAPACHE  # unless the other card calls cheats
    assert round_winner(state, low, high) == MAPACHE  # else the higher value wins
    eight = [c.slot for c in state.spec.facts.poker if c.value == 8]
    assert len(eight) == 2
    assert round_winner(state, eight[0], eight[1]) is None  # poker-tie: replay
    ties = fresh(switches={"poker-tie": "guardians"})
    assert round_winner(ties, eight[0], eight[1]) == ESTEBAN


def test_the_guardians_face_down_card_is_hidden_from_mapache() -> None:
    state = fresh(3)
    state.apply(state.legal_actions()[0])
    assert state.current_player() == MAPACHE and state.pending_kind == K_POKER
    hidden = state.game_data.face_down
    view = dict(observe(state, MAPACHE).game_view)
    assert view["poker_face_down"] == "chosen"
    assert dict(observe(state, ESTEBAN).game_view)["poker_face_down"] == \
        state.spec.facts.poker[hidden].id
    rng = random.Random(0)
    redealt = {state.resample_hidden(MAPACHE, rng).game_data.face_down for _ in range(60)}
    assert len(redealt) > 1  # a bot playing Mapache cannot read it
    assert state.game_data.face_down == hidden  # the real game is untouched
    own = state.game_data.hands[MAPACHE]
    assert all(state.resample_hidden(MAPACHE, rng).game_data.hands[MAPACHE] == own
               for _ in range(10))


def test_played_poker_cards_apply_their_effects_to_their_side_won_or_lost() -> None:
    for seed in range(40):
        state = past_poker(seed)
        tournament = state.game_data
        facts = state.spec.facts
        extra = [sum(facts.poker[c].extra_cards for c in tournament.played[p]) for p in (0, 1)]
        # five cards each plus the extras, plus Esteban's first draw of two (turn 1)
        assert len(state.hands[MAPACHE]) == 5 + extra[MAPACHE]
        assert len(state.hands[ESTEBAN]) == 5 + extra[ESTEBAN] + 2
        malpaso = bf_index(state, "malpaso")
        tokens = [sum(count for c in tournament.played[p] for bf, side, count
                      in facts.poker[c].tokens if bf == malpaso) for p in (0, 1)]
        assert state.bf_power[2 * malpaso:2 * malpaso + 2] == tuple(tokens)
        if any(tokens):
            return
    pytest.fail("no seed played a token card")


# -- the turn -----------------------------------------------------------------------------------
def test_the_guardians_start_on_the_first_space_and_recruit_from_the_pile() -> None:
    state = past_poker(2)
    assert state.turn == 1 and state.active == ESTEBAN and state.pending_kind == K_MAIN
    assert (state.marker_bf, state.marker_space) == (0, 0)
    recruited = state.spec.bfs[0].recruits[0]
    assert sum(state.alive) == 7 + recruited and len(state.pile) == 12 - recruited


def test_an_optional_space_is_a_decision_stay_or_move_on() -> None:
    state = past_poker(4)
    bf = 1  # the Saloon / the Jailhouse: spaces 3 and 4 optional
    stage_marker(state, bf, "2")
    state.apply(PASS)  # Esteban ends his play phase
    state.apply(PASS)  # Mapache too: attack, then Esteban's turn begins
    while state.pending_kind != K_STAY:
        state.apply(state.legal_actions()[0])
    assert state.legal_actions() == [BF_BASE + bf, BF_BASE + bf + 1]
    stay = state.clone()
    stay.apply(BF_BASE + bf)
    assert (stay.marker_bf, stay.spec.bfs[bf].labels[stay.marker_space]) == (bf, "3")
    state.apply(BF_BASE + bf + 1)
    assert (state.marker_bf, state.marker_space) == (bf + 1, 0)
    assert state.action_to_string(PASS) == "end play phase"


# -- powder kegs and ammunition -----------------------------------------------------------------
def _at(state, battlefield_id: str, player: int):
    stage_marker(state, bf_index(state, battlefield_id), "1")
    state.active = state.pending_player = player
    refresh(state)
    return bf_index(state, battlefield_id)


def test_blowing_the_bridge_discards_every_mapache_card_there_once_per_game() -> None:
    state = past_poker(5)
    bridge = _at(state, "los-quantos-bridge", ESTEBAN)
    clear_hand(state, ESTEBAN)
    assert USE_PIECE not in state.legal_actions()  # no kegs, no bridge
    raiders = [stage(state, MAPACHE, "rurales", "play", bridge) for _ in range(3)]
    mine = stage(state, ESTEBAN, "armed-villager", "play", bridge)
    stage(state, ESTEBAN, "malpaso-telegram", "hand")
    stage(state, ESTEBAN, "chinese-celestials", "hand")
    refresh(state)
    assert state.action_to_string(USE_PIECE).startswith("blow up Los Quantos Bridge")
    state.apply(USE_PIECE)
    assert state.pending_kind == K_KEGS
    while state.pending_kind == K_KEGS:
        state.apply(state.legal_actions()[0])
    assert all(state.placed[uid] is None for uid in raiders)
    assert state.placed[mine] is not None and state.hands[ESTEBAN] == []
    assert firepower(state, bridge, MAPACHE) == 0
    stage(state, ESTEBAN, "malpaso-keg-of-black-powder", "hand")
    refresh(state)
    assert USE_PIECE not in state.legal_actions()  # the bridge blows once


def test_mapaches_redeal_of_a_keg_payment_under_way_keeps_it_payable() -> None:
    """Mapache's look-ahead re-deals the guardians' hand while they are paying kegs for the
    bridge: their options are the re-dealt hand's keg cards, and the hand holds the kegs they
    are known to have (once, the options stayed those of the real hand: an illegal world)."""
    state = past_poker(5)
    bridge = _at(state, "los-quantos-bridge", ESTEBAN)
    clear_hand(state, ESTEBAN)
    stage(state, MAPACHE, "rurales", "play", bridge)
    for card in ("malpaso-telegram", "chinese-celestials", "armed-villager", "armed-villager"):
        stage(state, ESTEBAN, card, "hand")
    refresh(state)
    state.apply(USE_PIECE)
    assert state.pending_kind == K_KEGS and state.current_player() == ESTEBAN
    needed = state.pending_data[1]
    spec = state.spec
    pool = sorted(state.hands[ESTEBAN] + state.decks[ESTEBAN])
    for seed in range(40):
        world = state.resample_hidden(MAPACHE, random.Random(seed))
        hand = world.hands[ESTEBAN]
        assert len(hand) == len(state.hands[ESTEBAN])
        assert sorted(hand + world.decks[ESTEBAN]) == pool
        assert sum(spec.card_def[uid].kegs for uid in hand) >= needed
        assert world.legal_actions() == sorted(
            {spec.pay_action[spec.def_of[uid]] for uid in hand if spec.card_def[uid].kegs})
        while world.pending_kind == K_KEGS:  # the payment goes through in the world
            world.apply(world.legal_actions()[0])
        world.check_invariants()


def test_the_mine_collapses_every_turn_and_the_gatling_gun_kills_per_symbol() -> None:
    state = past_poker(6)
    mine = _at(state, "abandoned-silver-mine", ESTEBAN)
    clear_hand(state, ESTEBAN)
    stage(state, MAPACHE, "rurales", "play", mine)
    stage(state, ESTEBAN, "william-weston", "hand")  # two kegs on one card
    refresh(state)
    state.apply(USE_PIECE)
    state.apply(state.legal_actions()[0])
    assert firepower(state, mine, MAPACHE) == 0
    assert USE_PIECE not in state.legal_actions()  # once this turn
    # Mapache at the mine: two firepower cards, so up to two ammunition cards
    state = past_poker(6)
    mine = _at(state, "abandoned-silver-mine", MAPACHE)
    clear_hand(state, MAPACHE)
    stage(state, MAPACHE, "rurales", "play", mine)
    stage(state, MAPACHE, "rurales", "play", mine)
    stage(state, MAPACHE, "mapache-cartridge-belt", "hand")  # two ammunition symbols
    stage(state, MAPACHE, "mapache-raider", "hand")  # one
    refresh(state)
    alive = sum(state.alive)
    army = state.countdown
    state.apply(USE_PIECE)
    while state.current_player() == MAPACHE and state.pending_kind == K_KEGS:
        options = [a for a in state.legal_actions() if a != PASS]
        state.apply(options[0])
        while state.pending_kind != K_KEGS and state.pending_kind != K_MAIN:
            state.apply(state.legal_actions()[0])  # the guardians choose who goes
        if state.pending_kind == K_MAIN:
            break
    assert sum(state.alive) == alive - 3  # three symbols, three guardians
    assert state.killed_this_turn
    state.apply(PASS)  # the attack, then the end of Mapache's turn
    assert state.countdown == army  # the Gatling kills keep the army token


def test_a_mapache_turn_without_a_kill_costs_an_army_token() -> None:
    state = past_poker(7)
    state.apply(PASS)
    assert state.active == MAPACHE
    clear_hand(state, MAPACHE)
    refresh(state)
    army = state.countdown
    state.apply(PASS)
    assert state.countdown == army - 1


def test_the_last_army_token_wins_for_the_guardians() -> None:
    state = past_poker(8)
    state.countdown = 1
    state.apply(PASS)
    clear_hand(state, MAPACHE)
    refresh(state)
    state.apply(PASS)
    assert state.outcome().termination == Termination.ARMY_ARRIVED
    assert state.outcome().winner == ESTEBAN


def test_every_guardian_dead_wins_for_mapache() -> None:
    state = past_poker(9)
    for index, alive in enumerate(state.alive):
        if alive and index != 0:
            state.alive[index] = False
            state.grit[state.spec.character_base + index] = 0
    survivor = next(i for i, alive in enumerate(state.alive) if alive)
    state.grit[state.spec.character_base + survivor] = 0
    state.apply(PASS)
    clear_hand(state, MAPACHE)
    for _ in range(6):
        stage(state, MAPACHE, "los-tiburon", "play", state.marker_bf)
    refresh(state)
    state.apply(PASS)
    assert state.outcome().termination == Termination.GUARDIANS_WIPED_OUT
    assert state.outcome().winner == MAPACHE


def test_esteban_surviving_the_showdown_at_the_mine_wins() -> None:
    for switch, ending in (("esteban-survives-mine", Termination.ESTEBAN_SURVIVED_MINE),
                           ("any-guardian-alive", Termination.GUARDIAN_SURVIVED_MINE)):
        state = past_poker(10, switches={"malpaso-victory": switch})
        stage_marker(state, bf_index(state, "abandoned-silver-mine"), "4")
        state.apply(PASS)
        clear_hand(state, MAPACHE)
        refresh(state)
        state.apply(PASS)
        assert state.outcome().termination == ending and state.outcome().winner == ESTEBAN


def test_william_weston_costs_two_at_the_saloon_and_nothing_at_the_mine() -> None:
    state = past_poker(11)
    for battlefield, cost in (("abandoned-silver-mine", 0), (state.spec.bfs[1].id, 2)):
        trial = state.clone()
        _at(trial, battlefield, ESTEBAN)
        clear_hand(trial, ESTEBAN)
        stage(trial, ESTEBAN, "william-weston", "hand")
        for _ in range(2):
            stage(trial, ESTEBAN, "armed-villager", "hand")
        refresh(trial)
        trial.apply(by_text(trial, "play William Weston"))
        while trial.pending_kind != K_MAIN:
            trial.apply(trial.legal_actions()[0])
        assert len(trial.hands[ESTEBAN]) == 2 - cost, battlefield


def test_apply_refuses_what_is_not_legal_whatever_its_type() -> None:
    state = fresh()
    before = state.snapshot()
    for action in ("1", None, 1.0, True, -1, 10**9, state.spec.layout.size):
        with pytest.raises(IllegalActionError):
            state.apply(action)  # type: ignore[arg-type]
        assert state.snapshot() == before


def test_the_registry_knows_revolver2() -> None:
    game = get_game("revolver2")
    assert game.side_names == ("esteban", "mapache")
    assert game.default_ruleset == "rulebook-es"

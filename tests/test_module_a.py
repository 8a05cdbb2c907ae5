"""The Tarnished Star's Module A (the duel outside the Black Dog saloon) and Module B
(McReady's choice), played through the protocol (tarnished-star-en: Module A, The Saloon Duel,
the three outcomes; Module B).

The packaged cards bear no Lock icon (no document says which do), so these tests add a small
homebrew set of Lock-icon cards to the packaged catalog. The scenario runner cannot hold the
module's cards yet (its position is rebuilt from the decks alone), so the duel's scenarios are
staged here with `tests/table_staging.py`.
"""

from __future__ import annotations

import random

import pytest
from table_staging import (
    clear_hand,
    do,
    refresh,
    stage,
    stage_character,
    stage_marker,
)

from deckbuilder.bots import make_bot
from deckbuilder.catalog import Catalog, build_catalog, default_catalog
from deckbuilder.engine.actions import K_MAIN, USE_PIECE
from deckbuilder.engine.board import column_has_room, hit_character, kill_card
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import State
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver import duel, modules
from deckbuilder.games.revolver.declaration import K_DOLLARS, K_DUEL_CARD, K_DUEL_RESPONSE
from deckbuilder.games.revolver.plugin import module_data
from deckbuilder.protocol import UnplayableDeckError


def duel_of(state: State) -> duel.SaloonDuel:
    """The saloon duel as it stands in this game (the module's own data)."""
    return module_data(state, duel.SALOON_DUEL)

GANG, LAWMEN = 0, 1
A, B = "saloon-duel", "mcreadys-choice"
START = "start the duel outside the Black Dog saloon"
CALL, RETREAT = "call the bluff", "retreat from the duel"
LOCK_SET = """\
id: duel-lock-cards
name: Lock-icon cards for the duel tests
version: "1.0"
game: revolver
kind: homebrew
cards:
  - {id: gang-lock-ace, name: Gang Lock Ace, faction: colty, category: firepower,
     play: firepower, copies: 1, firepower: 3, icons: [lock]}
  - {id: gang-lock-deuce, name: Gang Lock Deuce, faction: colty, category: firepower,
     play: firepower, copies: 1, firepower: 1, icons: [lock]}
  - {id: law-lock-star, name: Law Lock Star, faction: mcready, category: firepower,
     play: firepower, copies: 1, firepower: 4, icons: [lock]}
  - {id: law-lock-badge, name: Law Lock Badge, faction: mcready, category: firepower,
     play: firepower, copies: 1, firepower: 3, icons: [lock]}
  - {id: law-lock-pin, name: Law Lock Pin, faction: mcready, category: firepower,
     play: firepower, copies: 1, firepower: 1, icons: [lock]}
"""
GANG_LOCKS = ("gang-lock-ace", "gang-lock-deuce")
LAW_LOCKS = ("law-lock-star", "law-lock-badge", "law-lock-pin")


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    folder = tmp_path_factory.mktemp("lock-cards")
    path = folder / "duel-lock-cards.yaml"
    path.write_text(LOCK_SET, encoding="utf-8")
    return build_catalog(user_sets=[path], overlay=folder / "no-overlay.yaml")


def _decks(catalog: Catalog) -> list[dict[str, int]]:
    gang = {**catalog.base_deck("revolver", "colty"), **dict.fromkeys(GANG_LOCKS, 1)}
    law = {**catalog.base_deck("revolver", "mcready"), **dict.fromkeys(LAW_LOCKS, 1)}
    return [gang, law]


def _game(catalog: Catalog, modules: tuple[str, ...] = (A,), seed: int = 1,
          switches: dict[str, str] | None = None) -> State:
    return new_game(_decks(catalog), seed, catalog=catalog, modules=modules,
                    switches=switches, verbose=True)


def _name(state: State, card_id: str) -> str:
    return next(card.name for card in state.spec.defs if card.id == card_id)


def _choose(state: State, card_id: str) -> str:
    return f"choose {_name(state, card_id)}"


def _bf(state: State, bf_id: str) -> int:
    return next(bf.idx for bf in state.spec.bfs if bf.id == bf_id)


def _cortez(state: State) -> int:
    return next(c.idx for c in state.spec.characters if c.id == "cortez")


def _texts(state: State) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def _ids(state: State, uids: list[int]) -> list[str]:
    return sorted(state.spec.card_def[uid].id for uid in uids)


def _guard(state: State) -> int:
    (uid,) = state.spec.extra_uids
    return uid


def at_creek(state: State, gang_hand: tuple[str, ...] = ("38-special",),
             law_hand: tuple[str, ...] = ("deputy",),
             gang_draws: tuple[str, ...] = ("45-long-colt", "hail-of-bullets"),
             law_draws: tuple[str, ...] = ("cowboy", "bounty-hunter")) -> State:
    """The gang's play phase at Rattlesnake Creek with these hands; the next two cards of
    each deck (the duel's draws: two different cards, as staging takes a copy from the top)
    are known."""
    assert state.pending_kind == K_MAIN and state.active == GANG
    clear_hand(state, GANG)
    clear_hand(state, LAWMEN)
    stage_marker(state, "rattlesnake-creek", "1")
    for player, draws, hand in ((GANG, gang_draws, gang_hand), (LAWMEN, law_draws, law_hand)):
        for card_id in draws:
            stage(state, player, card_id, "deck-top")
        for card_id in hand:
            stage(state, player, card_id, "hand")
    refresh(state)
    return state


# -- set-up --------------------------------------------------------------------------------------
def test_module_a_sets_up_the_guard_the_duel_card_and_the_hostage(catalog: Catalog) -> None:
    state = _game(catalog)
    guard = _guard(state)
    express = _bf(state, "3-15-express")
    assert state.spec.card_def[guard].id == "armed-train-guard"
    assert guard in state.rows[2 * express + LAWMEN]  # McReady's column at the 3:15 Express
    assert guard not in state.spec.decks[LAWMEN]
    seen = dict(observe(state, LAWMEN).game_view)
    assert seen["saloon_duel"] == "waiting"
    assert seen["child_hostage_token"] == "rattlesnake-creek"
    assert state.spec.facts.duel.bf == _bf(state, "rattlesnake-creek")
    state.check_invariants()


def test_without_modules_nothing_changes(catalog: Catalog) -> None:
    plain = new_game(_decks(catalog), 1, catalog=catalog)
    assert plain.spec.extra_uids == () and plain.game_data is None
    assert plain.spec.facts.duel is None
    assert "saloon_duel" not in dict(observe(plain, LAWMEN).game_view)
    duel_game = _game(catalog)
    # The same shuffles and hands: the module adds its pieces and nothing else.
    assert duel_game.hands == plain.hands and duel_game.decks == plain.decks


def test_the_guard_is_not_affected_by_the_sandstorm(catalog: Catalog) -> None:
    state = _game(catalog)
    express = _bf(state, "3-15-express")
    stage(state, GANG, "sandstorm", "play", "3-15-express")  # McReady: two cards there at most
    stage(state, LAWMEN, "deputy", "play", "3-15-express")
    assert column_has_room(state, express, LAWMEN)  # the guard does not count toward it
    stage(state, LAWMEN, "cowboy", "play", "3-15-express")
    assert not column_has_room(state, express, LAWMEN)


# -- the choice to start the duel ----------------------------------------------------------------
def test_the_duel_is_offered_to_the_gang_at_rattlesnake_creek_only(catalog: Catalog) -> None:
    state = _game(catalog)
    assert USE_PIECE not in state.legal_actions()  # the Bank
    at_creek(state)
    assert START in _texts(state)
    do(state, "end play phase")  # McReady's turn at Rattlesnake Creek: not his to start
    assert state.active == LAWMEN and state.pending_kind == K_MAIN
    assert USE_PIECE not in state.legal_actions()


def test_the_duel_is_not_offered_once_cortez_is_dead(catalog: Catalog) -> None:
    state = _game(catalog)
    stage_character(state, "cortez", alive=False)
    at_creek(state)
    assert USE_PIECE not in state.legal_actions()


def test_the_duel_is_offered_only_once(catalog: Catalog) -> None:
    state = at_creek(_game(catalog))
    do(state, START, _choose(state, "38-special"), CALL)
    assert state.pending_kind == K_MAIN and state.active == GANG
    assert USE_PIECE not in state.legal_actions()
    assert START not in _texts(state)


def test_the_gangs_turn_pauses_and_continues(catalog: Catalog) -> None:
    state = at_creek(_game(catalog))
    turn, phase = state.turn, state.phase
    do(state, START)
    assert state.pending_kind == K_DUEL_CARD and state.current_player() == GANG
    # Step 1: both drew two cards.
    assert _ids(state, state.hands[GANG]) == ["38-special", "45-long-colt", "hail-of-bullets"]
    assert _ids(state, state.hands[LAWMEN]) == ["bounty-hunter", "cowboy", "deputy"]
    do(state, _choose(state, "45-long-colt"))
    assert state.pending_kind == K_DUEL_RESPONSE and state.current_player() == LAWMEN
    do(state, CALL)
    assert (state.turn, state.phase, state.active) == (turn, phase, GANG)
    assert state.pending_kind == K_MAIN and state.current_player() == GANG


# -- the three outcomes ----------------------------------------------------------------------------
def test_colty_wins_a_called_bluff_with_a_lock_card(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), gang_hand=("gang-lock-deuce",), law_hand=("deputy",))
    guard = _guard(state)
    cortez = state.spec.character_base + _cortez(state)
    do(state, START, _choose(state, "gang-lock-deuce"), CALL)
    duel_state = duel_of(state)
    assert (duel_state.stage, duel_state.outcome) == ("over", duel.COLTY_WINS)
    assert "gang-lock-deuce" in _ids(state, state.discards[GANG])  # the duel card discarded
    assert guard in state.removed[LAWMEN] and state.placed[guard] is None
    assert state.grit[cortez] == 1  # the hostage token, as a true grit token
    # McReady drew two (three in hand) and discarded one at random.
    assert len(state.hands[LAWMEN]) == 2 and len(state.discards[LAWMEN]) == 1
    assert any("at random" in line for line in state.log)
    assert dict(observe(state, LAWMEN).game_view)["child_hostage_token"] == "cortez"
    state.check_invariants()


def test_mcready_wins_a_called_bluff_without_a_lock_card(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), gang_hand=("38-special",), law_hand=("deputy",))
    guard = _guard(state)
    cortez = state.spec.character_base + _cortez(state)
    do(state, START, _choose(state, "38-special"), CALL)
    assert duel_of(state).outcome == duel.MCREADY_WINS
    assert "38-special" in _ids(state, state.discards[GANG])
    assert state.placed[guard] is not None  # the guard stays in the game
    assert state.grit[cortez] == 0 and duel_of(state).hostage == "removed"
    assert len(state.hands[LAWMEN]) == 3 and not state.discards[LAWMEN]
    state.check_invariants()


def test_mcready_retreats_as_a_colty_win_without_the_random_discard(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), gang_hand=("38-special",), law_hand=("deputy",))
    guard = _guard(state)
    cortez = state.spec.character_base + _cortez(state)
    do(state, START, _choose(state, "38-special"), RETREAT)
    assert duel_of(state).outcome == duel.RETREAT
    assert "38-special" in _ids(state, state.discards[GANG])
    assert guard in state.removed[LAWMEN]
    assert state.grit[cortez] == 1
    assert len(state.hands[LAWMEN]) == 3 and not state.discards[LAWMEN]
    state.check_invariants()


def test_the_hostage_token_on_cortez_saves_him_once(catalog: Catalog) -> None:
    state = at_creek(_game(catalog))
    do(state, START, _choose(state, "38-special"), RETREAT)
    cortez = _cortez(state)
    hit_character(state, cortez, False)
    assert state.alive[cortez]
    assert dict(observe(state, GANG).game_view)["child_hostage_token"] == "removed"
    hit_character(state, cortez, False)
    assert not state.alive[cortez]


# -- McReady shows a Lock card: the two readings of steps 5-7 ------------------------------------
@pytest.mark.parametrize(("gang_card", "law_card", "by_response", "printed"), [
    ("38-special", "law-lock-pin", duel.MCREADY_WINS, duel.MCREADY_WINS),  # no Lock: McReady
    ("gang-lock-deuce", "law-lock-star", duel.MCREADY_WINS, duel.COLTY_WINS),  # 4 beats 1
    ("gang-lock-ace", "law-lock-badge", duel.COLTY_WINS, duel.COLTY_WINS),  # 3 = 3: the gang
    ("gang-lock-ace", "law-lock-pin", duel.COLTY_WINS, duel.COLTY_WINS),  # 3 beats 1
])
def test_a_face_up_lock_card_under_both_readings(catalog: Catalog, gang_card: str, law_card: str,
                                                 by_response: str, printed: str) -> None:
    for reading, expected in (("by-response", by_response), ("printed-sequence", printed)):
        state = at_creek(_game(catalog, switches={duel.RESOLUTION.id: reading}),
                         gang_hand=(gang_card,), law_hand=(law_card,))
        do(state, START, _choose(state, gang_card))
        assert _choose(state, law_card) in _texts(state)
        do(state, _choose(state, law_card))
        assert duel_of(state).outcome == expected, reading
        # The cards used in the duel are discarded, whoever wins.
        assert gang_card in _ids(state, state.discards[GANG])
        assert law_card in _ids(state, state.discards[LAWMEN])
        state.check_invariants()


def test_the_readings_differ_only_after_a_face_up_card(catalog: Catalog) -> None:
    for reading in ("by-response", "printed-sequence"):
        state = at_creek(_game(catalog, switches={duel.RESOLUTION.id: reading}),
                         gang_hand=("gang-lock-deuce",), law_hand=("law-lock-star",))
        do(state, START, _choose(state, "gang-lock-deuce"), CALL)
        assert duel_of(state).outcome == duel.COLTY_WINS, reading


def test_only_lock_cards_may_be_shown(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), law_hand=("deputy", "law-lock-pin"))
    do(state, START, _choose(state, "38-special"))
    assert sorted(_texts(state)) == sorted([CALL, RETREAT, _choose(state, "law-lock-pin")])


# -- when the gang never starts it -----------------------------------------------------------------
def test_leaving_rattlesnake_creek_removes_the_hostage_token(catalog: Catalog) -> None:
    state = at_creek(_game(catalog))
    guard = _guard(state)
    labels = state.spec.bfs[state.marker_bf].labels
    stage_marker(state, "rattlesnake-creek", [x for x in labels if x.isdigit()][-1])  # the last
    refresh(state)
    do(state, "end play phase")  # McReady's turn, still at Rattlesnake Creek
    assert duel_of(state).stage == "waiting"
    do(state, "end play phase")  # the gang's turn: the marker moves on to the 3:15 Express
    while state.pending_kind != K_MAIN:  # a casualty of McReady's attack, if any
        state.apply(state.legal_actions()[0])
    assert state.marker_bf == _bf(state, "3-15-express")
    assert duel_of(state).stage == "not-started"
    assert dict(observe(state, GANG).game_view)["child_hostage_token"] == "removed"
    assert state.placed[guard] is not None
    assert USE_PIECE not in state.legal_actions() or \
        state.action_to_string(USE_PIECE) != START


# -- the face-down card is hidden from McReady -----------------------------------------------------
def test_mcready_sees_only_that_a_card_lies_face_down(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), gang_hand=("gang-lock-ace", "38-special"))
    do(state, START, _choose(state, "gang-lock-ace"))
    law_view = dict(observe(state, LAWMEN).game_view)
    gang_view = dict(observe(state, GANG).game_view)
    assert law_view["duel_face_down"] == "a card"
    assert gang_view["duel_face_down"] == "gang-lock-ace"
    assert "gang-lock-ace" not in repr(observe(state, LAWMEN))
    assert not any("Gang Lock Ace" in line for line in state.log)  # not named before the reveal


def test_a_world_redealt_for_mcready_does_not_show_the_face_down_card(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), gang_hand=("gang-lock-ace", "38-special"))
    do(state, START, _choose(state, "gang-lock-ace"))
    before = state.snapshot()
    seen = observe(state, LAWMEN)
    redealt = set()
    for seed in range(60):
        world = state.resample_hidden(LAWMEN, random.Random(seed))
        world.check_invariants()
        assert observe(world, LAWMEN) == seen
        redealt.add(world.spec.card_def[duel_of(world).face_down].id)
        assert world.legal_actions() == state.legal_actions()
    assert state.snapshot() == before  # the real state is unchanged
    assert state.spec.card_def[duel_of(state).face_down].id == "gang-lock-ace"
    assert len(redealt) >= 4
    # The gang knows its own card: his re-dealt worlds keep it.
    for seed in range(10):
        world = state.resample_hidden(GANG, random.Random(seed))
        assert duel_of(world).face_down == duel_of(state).face_down


def test_redealing_keeps_the_open_duel_decisions_legal(catalog: Catalog) -> None:
    state = at_creek(_game(catalog), law_hand=("law-lock-star", "law-lock-pin"))
    do(state, START)
    for seed in range(20):  # the gang chooses; McReady re-deals: the gang's hand changes
        world = state.resample_hidden(LAWMEN, random.Random(seed))
        hand = {world.spec.card_action[world.spec.def_of[u]] for u in world.hands[GANG]}
        assert set(world.legal_actions()) == hand
        world.apply(world.legal_actions()[-1])
    do(state, _choose(state, "38-special"))
    for seed in range(20):  # McReady answers; the gang re-deals McReady's hand
        world = state.resample_hidden(GANG, random.Random(seed))
        world.check_invariants()
        for action in world.legal_actions():
            copy = world.clone()
            copy.apply(action)
            copy.check_invariants()


# -- Module B --------------------------------------------------------------------------------------
def test_mcready_chooses_his_dollars_before_the_game(catalog: Catalog) -> None:
    state = _game(catalog, (A, B))
    assert state.current_player() == LAWMEN and state.pending_kind == K_DOLLARS
    assert not state.hands[GANG] and not state.hands[LAWMEN]  # before the opening hands
    assert sorted(_texts(state)) == ["start with one silver dollar",
                                     "start with two silver dollars"]
    guard = _guard(state)
    do(state, "start with two silver dollars")
    assert state.silver[LAWMEN] == 2 and state.grit[guard] == 1
    assert any("Garrotte" in line and "skipped" in line for line in state.log)
    assert len(state.hands[GANG]) == 7 and state.active == GANG  # his first turn: 5 + 2
    assert kill_card(state, guard, False, False) is False  # the token saves the guard once
    assert state.placed[guard] is not None and state.grit[guard] == 0


def test_one_dollar_needs_no_more_preparation(catalog: Catalog) -> None:
    state = _game(catalog, (A, B))
    do(state, "start with one silver dollar")
    assert state.silver[LAWMEN] == 1 and state.grit[_guard(state)] == 0
    assert not any("Garrotte" in line for line in state.log)


# -- choosing modules ------------------------------------------------------------------------------
def test_modules_are_checked_by_name() -> None:
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    with pytest.raises(UnplayableDeckError, match=r"mcreadys-choice.*saloon-duel") as error:
        new_game(decks, 1, modules=[B])
    assert "--module saloon-duel" in str(error.value.fix)
    with pytest.raises(UnplayableDeckError, match="no-such-module"):
        new_game(decks, 1, modules=["no-such-module"])
    assert modules.check_modules(catalog, [A, B, A]) == (A, B)  # each once, in order
    assert {A, B} <= get_game("revolver").rules.modules


def test_the_packaged_catalog_plays_both_modules() -> None:
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    state = new_game(decks, 2, modules=[A, B])
    assert state.pending_kind == K_DOLLARS and state.current_player() == LAWMEN
    do(state, "start with two silver dollars")
    assert state.pending_kind == K_MAIN and state.current_player() == GANG


# -- random and bot games keep the protocol --------------------------------------------------------
@pytest.mark.parametrize("modules", [(A,), (A, B)])
def test_random_games_keep_the_protocol(catalog: Catalog, modules: tuple[str, ...]) -> None:
    duels = set()
    for seed in range(40):
        state = _game(catalog, modules, seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            state.check_invariants()
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            if state.pending_kind in (K_DUEL_CARD, K_DUEL_RESPONSE, K_DOLLARS) or steps % 23 == 0:
                for action in legal:  # every legal action works
                    copy = state.clone()
                    assert isinstance(copy.action_to_string(action), str)
                    copy.apply(action)
                    copy.check_invariants()
                viewer = rng.randrange(2)
                world = state.resample_hidden(viewer, random.Random(seed))
                world.check_invariants()
                assert observe(world, viewer) == observe(state, viewer)
                while not world.is_terminal() and world.turn < state.turn + 2:
                    options = world.legal_actions()
                    world.apply(options[rng.randrange(len(options))])
                    world.check_invariants()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        assert state.outcome() is not None
        duels.add(duel_of(state).outcome)
    assert {duel.MCREADY_WINS, duel.RETREAT} <= duels  # a Lock card face down is rare


@pytest.mark.parametrize("bot", ["greedy", "greedy:judge=playout"])
def test_bots_play_module_games_to_the_end(catalog: Catalog, bot: str) -> None:
    heuristics = get_game("revolver").heuristics
    for seed, chosen in ((3, (A,)), (4, (A, B))):
        state = _game(catalog, chosen, seed)
        players = [make_bot(bot, heuristics), make_bot("random", heuristics)]
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(players[state.current_player()].choose(state, rng))
        assert state.outcome() is not None


def test_a_greedy_mcready_calls_a_bluff_he_cannot_see(catalog: Catalog) -> None:
    """McReady judges the duel's answers on worlds where the face-down card is re-dealt: with
    only one Lock card among the gang's many, calling the bluff wins in most of them."""
    state = at_creek(_game(catalog), gang_hand=("gang-lock-ace",),
                     law_hand=("deputy",))
    do(state, START, _choose(state, "gang-lock-ace"))
    bot = make_bot("greedy:judge=playout", get_game("revolver").heuristics)
    calls = sum(state.action_to_string(bot.choose(state, random.Random(seed))) == CALL
                for seed in range(12))
    assert calls >= 8  # he does not read the real card (it has the Lock icon: calling loses)


def test_module_records_need_no_manual_step() -> None:
    catalog = default_catalog()
    for record_id in ("armed-train-guard",):
        assert all(step.do != "manual" for step in catalog.card(record_id).effect)
    special = next(s for loaded in catalog.sets.values() for s in loaded.card_set.specials
                   if s.id == duel.DUEL_CARD)
    assert all(step.do != "manual" for step in special.effect)

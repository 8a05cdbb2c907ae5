"""The ambushes of Expansion 1.1 (module `ambushes`), played through the protocol: the three
kinds, one face down at each battlefield, revealed as the marker enters (or, by the switch,
in McReady's turn there), what each does, what nobody may see, bots playing whole games; and
the 1.1 cards with no known text played as plain cards (ambush.py's docstring gives the
readings)."""

from __future__ import annotations

import random

import pytest

from deckbuilder.bots import make_bot
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import K_MAIN, PASS
from deckbuilder.engine.board import firepower
from deckbuilder.engine.observe import observe
from deckbuilder.engine.state import State
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver import ambush
from deckbuilder.games.revolver.plugin import module_data, set_module_data

GANG, LAWMEN = 0, 1
FIREPOWER, KILL, FALSE_ALARM = ("ambush-mcready-firepower", "ambush-gang-member-killed",
                                "ambush-false-alarm")


def _decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


def _game(seed: int = 1, switches: dict[str, str] | None = None) -> State:
    return new_game(_decks(), seed=seed, modules=(ambush.AMBUSHES,), switches=switches,
                    verbose=True)


def _deal(state: State) -> ambush.AmbushDeal:
    return module_data(state, ambush.AMBUSHES)


def _uid(state: State, card_id: str) -> int:
    return next(uid for uid in state.spec.facts.plugin_facts[ambush.AMBUSHES].uids
                if state.spec.card_def[uid].id == card_id)


def _lay(state: State, bf: int, card_id: str) -> int:
    """Swap the ambush of `card_id` face down onto battlefield `bf` (a staged position)."""
    uid = _uid(state, card_id)
    face_down = list(_deal(state).face_down)
    if uid in face_down:
        face_down[face_down.index(uid)] = face_down[bf]
    elif uid not in state.limbo:
        pytest.skip("that ambush is already revealed in this deal")
    face_down[bf] = uid
    set_module_data(state, ambush.AMBUSHES, ambush.AmbushDeal(tuple(face_down)))
    return uid


def _pass_until(state: State, player: int, bf: int) -> None:
    """End play phases (answering any other decision with its first option) until `player`'s
    play phase at battlefield `bf`."""
    while not state.over and not (state.pending_kind == K_MAIN and state.active == player
                                  and state.marker_bf == bf):
        state.apply(PASS if state.pending_kind == K_MAIN else state.legal[0])


def test_three_kinds_of_ambush_one_record_each() -> None:
    catalog = default_catalog()
    cards = ambush.ambush_cards(catalog)
    assert set(cards) == {FIREPOWER, KILL, FALSE_ALARM}
    assert len(cards) == 5  # one per battlefield of the base game
    assert all(player == LAWMEN for player, _ in ambush.PLUGIN.extra_cards(
        [ambush.AMBUSHES], catalog))
    for card_id in set(cards):
        record = catalog.card(card_id)
        assert not record.deckable and not record.reshuffles
        assert "copies" in record.provenance.unconfirmed


def test_one_ambush_face_down_at_each_battlefield_the_first_revealed_at_once() -> None:
    state = _game()
    face_down = _deal(state).face_down
    assert len(face_down) == state.spec.n_bf
    assert face_down[0] == -1  # the marker is on the first battlefield: revealed
    assert all(uid >= 0 and uid in state.limbo for uid in face_down[1:])
    assert any(line.startswith("Ambush at ") for line in state.log)
    state.check_invariants()


def test_a_firepower_ambush_joins_mcreadys_column_as_the_marker_enters() -> None:
    state = _game()
    uid = _lay(state, 1, FIREPOWER)
    _pass_until(state, GANG, 1)
    assert uid in state.rows[2 * 1 + LAWMEN]
    assert state.spec.owner[uid] == LAWMEN
    assert firepower(state, 1, LAWMEN) == state.spec.card_def[uid].modes[0].firepower
    state.check_invariants()


def test_a_false_alarm_does_nothing_and_is_removed() -> None:
    state = _game()
    uid = _lay(state, 1, FALSE_ALARM)
    _pass_until(state, GANG, 0)
    alive = sum(state.alive)
    _pass_until(state, GANG, 1)
    assert uid in state.removed[LAWMEN]
    assert firepower(state, 1, LAWMEN) == 0
    assert sum(state.alive) == alive


def _border_after_mcready_turn_with_a_kill_ambush(reading: str) -> tuple[int, int, int]:
    state = _game(switches={ambush.REVEAL_SWITCH.id: reading})
    uid = _lay(state, 1, KILL)
    _pass_until(state, GANG, 1)
    alive, border = sum(state.alive), state.countdown
    _pass_until(state, LAWMEN, 1)
    _pass_until(state, GANG, 1)  # McReady's turn at battlefield 1 is over
    assert uid in state.removed[LAWMEN]
    return alive, sum(state.alive), border - state.countdown


def test_switch_ambush_reveal_marker_enters_kills_in_the_gangs_turn() -> None:
    alive_before, alive_after, border_lost = _border_after_mcready_turn_with_a_kill_ambush(
        ambush.MARKER_ENTERS)
    assert alive_after == alive_before  # the kill came as the marker entered
    assert border_lost == 1  # McReady's own turn had no kill: a border token goes


def test_switch_ambush_reveal_mcready_turn_kill_counts_for_the_border() -> None:
    alive_before, alive_after, border_lost = _border_after_mcready_turn_with_a_kill_ambush(
        ambush.MCREADY_TURN)
    assert alive_after == alive_before - 1  # revealed in McReady's turn
    assert border_lost == 0  # a bandit died in his turn: the border keeps its tokens


def test_nobody_sees_a_face_down_ambush_and_bots_re_deal_them() -> None:
    state = _game()
    other = state.clone()
    face_down = list(_deal(other).face_down)
    face_down[1], face_down[2] = face_down[2], face_down[1]
    set_module_data(other, ambush.AMBUSHES, ambush.AmbushDeal(tuple(face_down)))
    for player in (GANG, LAWMEN):
        assert observe(state, player) == observe(other, player)
    shown = dict(observe(state, GANG).game_view)["ambushes_face_down"]
    assert shown == tuple(bf.id for bf in state.spec.bfs[1:])
    deals = set()
    for seed in range(30):
        world = state.resample_hidden(LAWMEN, random.Random(seed))
        world.check_invariants()
        deals.add(_deal(world).face_down)
        assert _deal(world).face_down[0] == -1
    assert len(deals) > 1


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_play_whole_games_with_the_ambushes(bot: str) -> None:
    heuristics = get_game("revolver").heuristics
    players = [make_bot(bot, heuristics), make_bot(bot, heuristics)]
    for seed in range(3 if bot == "greedy" else 12):
        state = _game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(players[state.current_player()].choose(state, rng))
        state.check_invariants()
        assert state.outcome() is not None


@pytest.mark.parametrize("card_id", ["cherokee-freedmen", "pinkerton-agents",
                                     "female-bounty-hunter"])
def test_a_1_1_card_with_no_known_text_plays_as_a_plain_card(card_id: str) -> None:
    catalog = default_catalog()
    record = catalog.card(card_id)
    assert record.effect == [] and "effect" in record.provenance.unconfirmed
    decks = _decks()
    side = GANG if record.faction == "colty" else LAWMEN
    decks[side] = {**decks[side], card_id: 1}
    state = new_game(decks, seed=3)  # refused if the engine could not play it
    state.check_invariants()

"""Rule scenarios from the base rulebook, played on the synthetic set (tests/engine_cards.py).

Each test stages a position (`tests/table_staging.py`) and plays it through the protocol.
"""

from __future__ import annotations

import pytest
from engine_cards import alive, bandit, hand, in_play, names, ready, synthetic_game
from table_staging import clear_hand, do, refresh, stage, stage_character, stage_marker

from deckbuilder.engine.board import character_dies, column_count, is_protected
from deckbuilder.engine.marker import advance_marker
from deckbuilder.engine.play import can_play, play_problem, verify_play
from deckbuilder.games.revolver.endings import Termination
from deckbuilder.protocol import IllegalActionError

GANG, LAWMEN = 0, 1
ZERO_RATED = ("marmaduke", "bullet", "micky-mason", "poppy-mcready")
ONE_RATED = ("skinny-landell", "annie-mcgraw", "harry-houndy", "bruno-caple", "lenny-mason")


def _definition(state, card_id: str) -> int:
    return next(card.idx for card in state.spec.defs if card.id == card_id)


def _space(state) -> tuple[str, str]:
    bf = state.spec.bfs[state.marker_bf]
    return bf.id, bf.labels[state.marker_space]


def _kill_all(state, *bandit_ids: str) -> None:
    for bandit_id in bandit_ids:
        stage_character(state, bandit_id, alive=False)


# -- the attack ------------------------------------------------------------------------------
def test_attack_example_1_four_against_one_costs_the_gang_a_member() -> None:
    state = ready(synthetic_game(1), LAWMEN)
    deputy, _cowboy = in_play(state, LAWMEN, "deputy", "cowboy")
    state.power[deputy] += 1  # "a Deputy (power of three)": a 2 with a power token
    in_play(state, GANG, "38-special")
    do(state, "end play phase")
    # lawmen 4 against the Bank's 0 + the .38's 1: the gang chooses among its 0-rated members
    assert state.current_player() == GANG
    assert sorted(names(state)) == ["casualty: Bullet", "casualty: Marmaduke",
                                    "casualty: Micky Mason", "casualty: Poppy Mcready"]
    do(state, "casualty: Bullet")
    assert not alive(state, "bullet")
    assert sum(state.alive) == 15
    assert state.countdown == 12  # a bandit died this turn: the border keeps its tokens
    assert state.active == GANG and state.turn == 3


def test_attack_example_2_the_gangs_six_thwarts_the_lawmens_five() -> None:
    state = ready(synthetic_game(2), LAWMEN)
    stage_marker(state, "3-15-express", "1")
    in_play(state, LAWMEN, "deputy", "charlie-weathers")
    in_play(state, GANG, "hail-of-bullets", "38-special", "38-special")
    do(state, "end play phase")
    assert all(state.alive)
    assert state.countdown == 11  # thwarted, and no earlier kill: one border token goes
    assert state.active == GANG


def test_equal_firepower_is_no_kill() -> None:
    state = ready(synthetic_game(2), LAWMEN)
    stage_marker(state, "buzzard-point", "1")  # defence 1
    in_play(state, LAWMEN, "cowboy", "cowboy")
    in_play(state, GANG, "38-special")
    do(state, "end play phase")
    assert all(state.alive) and state.countdown == 11


def test_casualties_come_from_the_lowest_survival_rating() -> None:
    state = ready(synthetic_game(3), LAWMEN)
    _kill_all(state, *ZERO_RATED)
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope")  # costs two: both cowboys go
    assert state.current_player() == GANG
    choices = names(state)
    assert sorted(choices) == sorted(f"casualty: {state.spec.characters[bandit(state, b)].name}"
                                     for b in ONE_RATED)
    assert "casualty: Manolito" not in choices  # not while one-rated members live
    do(state, "casualty: Annie Mcgraw")
    assert not alive(state, "annie-mcgraw")


def test_a_lone_lowest_member_dies_without_a_choice() -> None:
    state = ready(synthetic_game(3), LAWMEN)
    _kill_all(state, *ZERO_RATED, *ONE_RATED, "manolito", "josie-newcombe")
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope")
    assert not alive(state, "salomon-mason")
    assert state.current_player() == LAWMEN


# -- true grit and tokens on bandits ---------------------------------------------------------
def test_true_grit_absorbs_the_first_kill() -> None:
    state = ready(synthetic_game(4), GANG)
    stage_marker(state, "whiskey-canyon", "1")
    (charlie,) = in_play(state, LAWMEN, "charlie-weathers")
    assert state.grit[charlie] == 1  # the true grit icon puts a token on him
    hand(state, GANG, "chew-on-this-gringo", "chew-on-this-gringo")
    do(state, "play Chew On This Gringo")
    assert state.placed[charlie] is not None and state.grit[charlie] == 0
    do(state, "play Chew On This Gringo")
    assert state.card_zone(charlie) == "discard"


def test_skinnys_token_saves_him_and_gives_an_extra_turn_at_rattlesnake_creek() -> None:
    state = ready(synthetic_game(5), LAWMEN)
    _kill_all(state, *ZERO_RATED, "annie-mcgraw", "harry-houndy", "bruno-caple", "lenny-mason")
    skinny = state.spec.character_base + bandit(state, "skinny-landell")
    assert state.power[skinny] == 1  # rulebook-en set-up: a power token
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope")
    assert alive(state, "skinny-landell") and state.power[skinny] == 0
    do(state, "end play phase")
    assert state.countdown == 11  # losing a token is no kill
    stage_marker(state, "rattlesnake-creek", "3")
    advance_marker(state)
    assert _space(state) == ("rattlesnake-creek", "skinny")
    advance_marker(state)
    assert _space(state) == ("3-15-express", "1")


def test_skinnys_token_follows_the_ruleset() -> None:
    for ruleset, grit, power in (("rulebook-en", 0, 1), ("rulebook-nl", 1, 0)):
        state = synthetic_game(0, ruleset)
        skinny = state.spec.character_base + bandit(state, "skinny-landell")
        assert (state.grit[skinny], state.power[skinny]) == (grit, power)


def test_kittens_killed_before_the_train_gives_two_extra_turns() -> None:
    state = ready(synthetic_game(6), LAWMEN)
    _kill_all(state, *ZERO_RATED, *ONE_RATED, "manolito", "josie-newcombe", "salomon-mason")
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope", "casualty: Kittens Mackenzie")
    stage_marker(state, "rattlesnake-creek", "3")
    path = []
    for _ in range(3):
        advance_marker(state)
        path.append(_space(state))
    assert path == [("rattlesnake-creek", "kittens"), ("rattlesnake-creek", "kittens"),
                    ("3-15-express", "1")]


def test_without_face_turns_rattlesnake_creek_ends_at_space_3() -> None:
    state = ready(synthetic_game(6), GANG)
    stage_marker(state, "rattlesnake-creek", "3")
    advance_marker(state)
    assert _space(state) == ("3-15-express", "1")


def test_cortez_gets_a_token_on_the_train_and_it_saves_him() -> None:
    state = ready(synthetic_game(7), LAWMEN)
    stage_marker(state, "rattlesnake-creek", "3")
    do(state, "end play phase")  # the gang's turn: the marker enters the 3:15 Express
    cortez = state.spec.character_base + bandit(state, "cortez")
    assert _space(state) == ("3-15-express", "1")
    assert state.power[cortez] == 1
    _kill_all(state, *(c.id for c in state.spec.characters if c.survival < 4))
    refresh(state)
    do(state, "end play phase")
    clear_hand(state, LAWMEN)
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope")
    assert alive(state, "cortez") and state.power[cortez] == 0


def test_cortez_dying_before_the_train_wins_only_in_the_dutch_rules() -> None:
    for ruleset, over in (("rulebook-en", False), ("rulebook-nl", True)):
        state = ready(synthetic_game(8, ruleset), LAWMEN)
        stage_marker(state, "buzzard-point", "2")
        _kill_all(state, *(c.id for c in state.spec.characters if c.survival < 4))
        hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
        do(state, "play Get The Rope")
        assert not alive(state, "cortez")
        assert state.is_terminal() == over
        if over:
            assert state.outcome().winner == LAWMEN
            assert state.outcome().termination == Termination.CORTEZ_KILLED


def test_killing_the_last_member_wipes_the_gang_out() -> None:
    state = ready(synthetic_game(9), LAWMEN)
    _kill_all(state, *(c.id for c in state.spec.characters if not c.leader))
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope")
    assert state.outcome().winner == LAWMEN
    assert state.outcome().termination == Termination.GANG_WIPED_OUT


def test_bruno_dead_forbids_more_peacemakers() -> None:
    state = ready(synthetic_game(10), GANG)
    hand(state, GANG, "peacemaker-45")
    assert "play Peacemaker 45" in names(state)
    character_dies(state, bandit(state, "bruno-caple"))
    refresh(state)
    assert "play Peacemaker 45" not in names(state)
    assert "forbids" in play_problem(state, GANG, _definition(state, "peacemaker-45"))


# -- the border and the train -----------------------------------------------------------------
def test_a_border_token_goes_each_lawmen_turn_without_a_kill() -> None:
    state = ready(synthetic_game(11), LAWMEN)
    do(state, "end play phase")
    assert state.countdown == 11
    do(state, "end play phase")  # the gang's turn: no border check
    assert state.countdown == 11


def test_no_border_token_goes_when_a_card_killed_a_bandit_that_turn() -> None:
    state = ready(synthetic_game(12), LAWMEN)
    hand(state, LAWMEN, "get-the-rope", "cowboy", "cowboy")
    do(state, "play Get The Rope", "casualty: Bullet", "end play phase")  # the attack: 0 vs 0
    assert state.countdown == 12 and not alive(state, "bullet")


def test_the_border_running_out_wins_for_the_gang() -> None:
    state = ready(synthetic_game(13), LAWMEN)
    state.countdown = 1
    do(state, "end play phase")
    assert state.outcome().winner == GANG
    assert state.outcome().termination == Termination.BORDER_EMPTIED


def test_jack_surviving_space_4_of_the_train_wins() -> None:
    state = ready(synthetic_game(14), LAWMEN)
    stage_marker(state, "3-15-express", "4")
    do(state, "end play phase")
    assert state.outcome().winner == GANG
    assert state.outcome().termination == Termination.TRAIN_REACHED


def test_the_train_is_not_reached_on_space_3() -> None:
    state = ready(synthetic_game(14), LAWMEN)
    stage_marker(state, "3-15-express", "3")
    do(state, "end play phase")
    assert not state.is_terminal()


def test_the_lightning_reflexes_reaction_cancels_the_attack() -> None:
    state = ready(synthetic_game(15), LAWMEN)
    in_play(state, LAWMEN, "deputy")
    hand(state, GANG, "lightning-reflexes", "38-special")
    assert "play Lightning Reflexes" not in names(state)  # McReady's turn anyway
    do(state, "end play phase")
    assert state.current_player() == GANG
    assert names(state) == ["do not react", "react with Lightning Reflexes"]
    do(state, "react with Lightning Reflexes")  # pays the .38
    assert all(state.alive)
    assert state.countdown == 11  # the attack failed: a token goes
    assert state.hands[GANG] == [] or state.active == GANG


def test_lightning_reflexes_is_not_played_in_the_play_phase() -> None:
    state = ready(synthetic_game(15), GANG)
    hand(state, GANG, "lightning-reflexes", "38-special")
    assert "play Lightning Reflexes" not in names(state)
    with pytest.raises(IllegalActionError, match="reaction"):
        verify_play(state, GANG, _definition(state, "lightning-reflexes"))


def test_he_shot_my_hat_cancels_fire_at_will() -> None:
    for react in (True, False):
        state = ready(synthetic_game(16), GANG)
        (cowboy,) = in_play(state, LAWMEN, "cowboy")
        hand(state, LAWMEN, "he-shot-my-hat")
        hand(state, GANG, "fire-at-will-boys")
        do(state, "play Fire At Will Boys")
        assert state.current_player() == LAWMEN
        assert names(state) == ["do not react", "react with He Shot My Hat"]
        do(state, "react with He Shot My Hat" if react else "do not react")
        assert (state.placed[cowboy] is not None) == react
        assert state.current_player() == GANG


# -- derail the train -------------------------------------------------------------------------
def test_derail_destroys_everything_there_and_saves_paid_bandits() -> None:
    state = ready(synthetic_game(17), GANG)
    stage_marker(state, "3-15-express", "2")
    (clan,) = in_play(state, GANG, "the-jackson-clan")
    deputies = in_play(state, LAWMEN, "deputy", "deputy")
    (far_cowboy,) = in_play(state, LAWMEN, "cowboy", battlefield="bank")
    hand(state, GANG, "38-special", "38-special", "hail-of-bullets")
    do(state, "activate Derail the Train")
    assert state.card_zone(clan) == "discard"  # impervious, yet the train takes it
    assert all(state.card_zone(d) == "discard" for d in deputies)
    assert state.placed[far_cowboy] is not None  # other battlefields are untouched
    assert names(state)[0] == "stop saving bandits"
    do(state, "save Jack Colty", "pay: discard .38 Special", "save Cortez",
       "pay: discard .38 Special", "save Missy Jameson")
    assert [c.id for c in state.spec.characters if state.alive[c.idx]] == \
        ["jack-colty", "cortez", "missy-jameson"]
    assert state.hands[GANG] == []
    assert not state.is_terminal() and state.current_player() == GANG
    assert "activate Derail the Train" not in names(state)  # once per game


def test_derail_saving_nobody_loses() -> None:
    state = ready(synthetic_game(18), GANG)
    stage_marker(state, "3-15-express", "1")
    hand(state, GANG, "38-special")
    do(state, "activate Derail the Train", "stop saving bandits")
    assert state.outcome().winner == LAWMEN
    assert state.outcome().termination == Termination.DERAIL_FAILED


def test_derail_without_saving_jack_loses_by_his_death() -> None:
    state = ready(synthetic_game(18), GANG)
    stage_marker(state, "3-15-express", "1")
    hand(state, GANG, "38-special", "hail-of-bullets")
    do(state, "activate Derail the Train", "save Cortez", "pay: discard .38 Special",
       "stop saving bandits")
    assert state.outcome().winner == LAWMEN
    assert state.outcome().termination == Termination.JACK_KILLED


def test_derail_is_only_offered_on_the_train() -> None:
    state = ready(synthetic_game(19), GANG)
    stage_marker(state, "rattlesnake-creek", "3")
    refresh(state)
    assert "activate Derail the Train" not in names(state)


# -- turn sequence and decks ------------------------------------------------------------------
def test_the_gangs_first_turn_does_not_advance_the_marker() -> None:
    state = synthetic_game(20)
    assert state.turn == 1 and state.active == GANG
    assert _space(state) == ("bank", "1")
    assert len(state.hands[GANG]) == 7 and len(state.hands[LAWMEN]) == 5
    do(state, "end play phase")
    assert state.active == LAWMEN and _space(state) == ("bank", "1")
    assert len(state.hands[LAWMEN]) == 7
    do(state, "end play phase")
    assert state.active == GANG and state.turn == 3 and _space(state) == ("bank", "2")


def test_the_marker_moves_on_to_space_1_of_the_next_battlefield() -> None:
    state = ready(synthetic_game(21), LAWMEN)
    stage_marker(state, "bank", "4")
    do(state, "end play phase")
    assert _space(state) == ("whiskey-canyon", "1")


def test_an_empty_deck_reshuffles_the_discard_pile_without_the_colonel() -> None:
    state = ready(synthetic_game(22), LAWMEN)
    colonel = stage(state, LAWMEN, "colonel-ned-mcready", "discard")
    state.discards[LAWMEN].extend(state.decks[LAWMEN])
    state.decks[LAWMEN].clear()
    do(state, "end play phase", "end play phase")  # the lawmen, then the gang; then a draw
    assert state.active == LAWMEN
    assert state.card_zone(colonel) == "removed"
    assert len(state.hands[LAWMEN]) == 2
    assert len(state.decks[LAWMEN]) == 36 - 1 - 2
    assert state.discards[LAWMEN] == []
    state.check_invariants()


# -- limits -----------------------------------------------------------------------------------
def test_three_card_limit_and_the_derringer_exception() -> None:
    state = ready(synthetic_game(23), GANG)
    in_play(state, GANG, "38-special", "38-special", "hail-of-bullets")
    hand(state, GANG, "38-special", "derringer", "chew-on-this-gringo")
    choices = names(state)
    assert "play .38 Special" not in choices
    assert "three-card limit" in play_problem(state, GANG, _definition(state, "38-special"))
    assert not can_play(state, GANG, _definition(state, "38-special"))
    assert "play 1866 Double Barrel Derringer" in choices
    assert "play Chew On This Gringo" in choices  # one-shots ignore the limit
    do(state, "play 1866 Double Barrel Derringer")
    assert len(state.rows[0]) == 4 and column_count(state, 0, GANG) == 3


def test_the_lawmen_have_no_card_limit() -> None:
    state = ready(synthetic_game(24), LAWMEN)
    in_play(state, LAWMEN, *["cowboy"] * 5)
    hand(state, LAWMEN, "cowboy")
    do(state, "play Cowboy")
    assert len(state.rows[1]) == 6


def test_row_blocking_cards_fill_the_gangs_column() -> None:
    state = ready(synthetic_game(25), GANG)
    in_play(state, LAWMEN, "cactus-field")
    in_play(state, GANG, "38-special", "38-special")
    hand(state, GANG, "38-special")
    assert "play .38 Special" not in names(state)


def test_no_row_blocking_card_where_the_gang_has_three_cards() -> None:
    state = ready(synthetic_game(26), LAWMEN)
    in_play(state, GANG, "38-special", "38-special", "38-special")
    hand(state, LAWMEN, "cactus-field", "cowboy")
    assert "play Cactus Field" not in names(state)


def test_at_most_two_row_blocking_cards_per_battlefield() -> None:
    state = ready(synthetic_game(27), LAWMEN)
    in_play(state, LAWMEN, "cactus-field", "rickety-bridge")
    hand(state, LAWMEN, "cactus-field", "rickety-bridge", "cowboy", "cowboy")
    assert "play Cactus Field" not in names(state)
    assert "row-blocking" in play_problem(state, LAWMEN, _definition(state, "cactus-field"))
    do(state, "play Rickety Bridge")  # it may go to any battlefield: not the Bank
    assert "place at The Bank at Repentance Springs" not in names(state)
    assert len(state.legal) == 4


def test_sandstorm_limits_the_lawmen_to_two_cards() -> None:
    state = ready(synthetic_game(28), LAWMEN)
    in_play(state, GANG, "sandstorm")
    in_play(state, LAWMEN, "cowboy", "cowboy")
    hand(state, LAWMEN, "cowboy", "josie-logan", "deputy")
    assert "play Cowboy" not in names(state)
    do(state, "play Josie Logan")  # she may go anywhere: not to the Bank
    assert "place at The Bank at Repentance Springs" not in names(state)


# -- card texts -------------------------------------------------------------------------------
def test_pack_yer_bags_cannot_leave_the_battlefield() -> None:
    state = ready(synthetic_game(29), GANG)
    stage_marker(state, "bank", "4")
    hand(state, GANG, "pack-yer-bags", "38-special")
    assert "rightmost" in play_problem(state, GANG, _definition(state, "pack-yer-bags"))
    stage_marker(state, "bank", "3")
    refresh(state)
    do(state, "play Pack Yer Bags")
    assert _space(state) == ("bank", "4")


def test_pilgrim_moves_the_marker_back_for_an_extra_turn() -> None:
    state = ready(synthetic_game(30), LAWMEN)
    stage_marker(state, "whiskey-canyon", "1")
    hand(state, LAWMEN, "pilgrim", "pilgrim", "cowboy", "cowboy")
    do(state, "play Pilgrim", "pay: discard Cowboy")
    assert _space(state) == ("whiskey-canyon", "-")
    assert "play Pilgrim" not in names(state)
    assert "leftmost" in play_problem(state, LAWMEN, _definition(state, "pilgrim"))
    do(state, "end play phase")
    assert _space(state) == ("whiskey-canyon", "1")  # the gang's advance: the extra turn


def test_the_colonel_costs_nothing_at_rattlesnake_creek() -> None:
    state = ready(synthetic_game(31), LAWMEN)
    hand(state, LAWMEN, "colonel-ned-mcready", "cowboy", "cowboy")
    assert "play Colonel Ned Mcready" not in names(state)  # three discards at the Bank
    stage_marker(state, "rattlesnake-creek", "1")
    refresh(state)
    do(state, "play Colonel Ned Mcready")
    assert len(state.hands[LAWMEN]) == 2  # no discard
    assert state.current_player() == GANG  # the gang takes a casualty (a choice of four)


def test_dynamite_kills_up_to_three_firepower_and_not_at_the_bank() -> None:
    state = ready(synthetic_game(32), GANG)
    hand(state, GANG, "stick-of-dynamite", "38-special")
    assert "cannot be used at" in play_problem(state, GANG,
                                               _definition(state, "stick-of-dynamite"))
    stage_marker(state, "whiskey-canyon", "1")
    deputy, cowboy, charlie = in_play(state, LAWMEN, "deputy", "cowboy", "charlie-weathers")
    do(state, "play Stick Of Dynamite")
    assert len(state.legal) == 4  # stop, or any of the three (each fits in 3)
    do(state, "kill Deputy at Whiskey Canyon")
    assert names(state) == ["stop (choose no more)", "kill Cowboy at Whiskey Canyon"]
    do(state, "kill Cowboy at Whiskey Canyon")
    assert state.current_player() == GANG and state.pending_kind == 0  # back in the play phase
    assert state.placed[charlie] is not None
    assert state.card_zone(deputy) == state.card_zone(cowboy) == "discard"


def test_adios_amigo_shoots_the_colonel_anywhere_through_true_grit() -> None:
    state = ready(synthetic_game(33), GANG)
    (colonel,) = in_play(state, LAWMEN, "colonel-ned-mcready", battlefield="buzzard-point")
    hand(state, GANG, "adios-amigo", "38-special")
    do(state, "play Adios Amigo")
    assert state.card_zone(colonel) == "discard"
    assert len(state.hands[GANG]) == 1  # paid the .38, drew a card


def test_josie_gets_a_power_token_only_at_an_upcoming_battlefield() -> None:
    for place, tokens in (("The Bank at Repentance Springs", 0), ("Buzzard Point", 1)):
        state = ready(synthetic_game(34), LAWMEN)
        hand(state, LAWMEN, "josie-logan", "cowboy", "cowboy")
        do(state, "play Josie Logan", f"place at {place}")
        josie = next(u for row in state.rows for u in row)
        assert state.power[josie] == tokens


def test_quincey_rides_to_the_adjacent_battlefield_once_a_turn() -> None:
    state = ready(synthetic_game(35), LAWMEN)
    (quincey,) = in_play(state, LAWMEN, "quincey-whitmore")
    hand(state, LAWMEN, "cowboy", "cowboy")
    do(state, "use Quincey Whitmore: ride")
    assert state.rows[2 * 1 + LAWMEN] == (quincey,)  # Whiskey Canyon: the only neighbour
    assert len(state.hands[LAWMEN]) == 1
    assert "use Quincey Whitmore: ride" not in names(state)


def test_yellow_boy_may_pay_a_card_to_kill_a_lawman() -> None:
    state = ready(synthetic_game(36), GANG)
    (deputy,) = in_play(state, LAWMEN, "deputy")
    hand(state, GANG, "yellow-boy-rifle", "38-special", "38-special")
    do(state, "play Yellow Boy Rifle")
    assert names(state) == ["decline the optional cost", "pay the optional cost"]
    do(state, "pay the optional cost")
    assert state.card_zone(deputy) == "discard" and state.hands[GANG] == []


def test_lets_shoot_is_firepower_or_a_one_shot_against_row_blocking() -> None:
    state = ready(synthetic_game(37), GANG)
    (cactus,) = in_play(state, LAWMEN, "cactus-field")
    hand(state, GANG, "lets-shoot")
    do(state, "play Lets Shoot")
    assert names(state) == ["play Lets Shoot as: gain one firepower",
                            "play Lets Shoot as: destroy one row-blocking card"]
    do(state, "play Lets Shoot as: destroy one row-blocking card")
    assert state.card_zone(cactus) == "discard"
    assert state.discards[GANG][-1] != cactus and len(state.discards[GANG]) == 1


def test_the_jackson_clan_is_impervious_to_the_lawmen() -> None:
    state = ready(synthetic_game(38), LAWMEN)
    (clan,) = in_play(state, GANG, "the-jackson-clan")
    (special,) = in_play(state, GANG, "38-special")
    assert is_protected(state, clan, LAWMEN) and not is_protected(state, clan, GANG)
    assert not is_protected(state, special, LAWMEN)


def test_illegal_play_names_its_reason() -> None:
    state = ready(synthetic_game(39), GANG)
    hand(state, GANG, "gatling-gun", "38-special")
    with pytest.raises(IllegalActionError, match="costs 2 discard"):
        state.apply(state.spec.play_action[_definition(state, "gatling-gun")])
    with pytest.raises(IllegalActionError, match="holds no"):
        state.apply(state.spec.play_action[_definition(state, "hail-of-bullets")])


def test_play_phase_options_agree_with_play_problem() -> None:
    """The play-phase options' fast path and `play_problem` never disagree."""
    import random

    from deckbuilder.engine.actions import K_MAIN

    for seed in range(40):
        state = synthetic_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.pending_kind == K_MAIN:
                player = state.current_player()
                play_action = state.spec.play_action
                for definition in {state.spec.def_of[u] for u in state.hands[player]}:
                    assert (play_action[definition] in state.legal) == can_play(state, player,
                                                                          definition)
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])

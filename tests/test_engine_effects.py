"""Every effect step of the registry, each through a card that uses it."""

from __future__ import annotations

import pytest
from engine_cards import (
    HOMEBREW_CARDS,
    UNPLAYABLE,
    alive,
    hand,
    in_play,
    names,
    ready,
    synthetic_catalog,
    synthetic_decks,
    synthetic_game,
)
from table_staging import clear_hand, do, stage, stage_marker

from deckbuilder.engine.actions import K_MAIN
from deckbuilder.engine.board import firepower
from deckbuilder.engine.effects import IMPLEMENTED_STEPS, REGISTRY
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.games import get_game
from deckbuilder.games.revolver.endings import Termination
from deckbuilder.models.effects import STEP_NAMES
from deckbuilder.protocol import UnplayableDeckError

GANG, LAWMEN = 0, 1



def game(player: int, seed: int = 0):
    decks = synthetic_decks()
    for card in HOMEBREW_CARDS:
        if card["id"] not in UNPLAYABLE:
            decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return ready(synthetic_game(seed, decks=decks), player)


def test_every_step_but_manual_is_implemented() -> None:
    """Every step but `manual` is performed: by the table, or by the game it belongs to
    (Derail the Train and the Tarnished Star's hidden cards, twins and guesses are Revolver's
    own, the Gatling Gun Revolver 2's)."""
    assert set(REGISTRY) == IMPLEMENTED_STEPS
    revolver = set(get_game("revolver").rules.steps)
    revolver2 = set(get_game("revolver2").rules.steps)
    assert revolver == {"derail", "hide-under", "take-under", "change-sides", "guess-hand",
                        "forbid-here"}
    assert revolver2 == {"gatling-gun"}
    assert not (revolver | revolver2) & IMPLEMENTED_STEPS
    assert set(STEP_NAMES) - {"manual"} == IMPLEMENTED_STEPS | revolver | revolver2


def test_support_reports_cards_with_manual_steps() -> None:
    catalog = synthetic_catalog()
    assert unimplemented_reasons(catalog.card("ghost-story"))
    assert unimplemented_reasons(catalog.card("yellow-boy-rifle")) == []


def test_new_game_refuses_a_deck_with_an_unplayable_card() -> None:
    decks = synthetic_decks()
    decks[0]["ghost-story"] = 1
    with pytest.raises(UnplayableDeckError, match="Ghost Story: effect not expressible"):
        synthetic_game(0, decks=decks)


def test_new_game_refuses_a_manual_step_nested_in_an_optional_cost() -> None:
    decks = synthetic_decks()
    decks[0]["hidden-trick"] = 1
    with pytest.raises(UnplayableDeckError, match=r"Hidden Trick: .*a nested mystery"):
        synthetic_game(0, decks=decks)


def test_new_game_refuses_unknown_cards_with_a_suggestion() -> None:
    decks = synthetic_decks()
    decks[1]["cowboi"] = 1
    with pytest.raises(UnplayableDeckError, match=r"'cowboi'.*unknown card.*Cowboy"):
        synthetic_game(0, decks=decks)


def test_unknown_ruleset_is_refused() -> None:
    from deckbuilder.rulesets import UnknownRulesetError

    with pytest.raises(UnknownRulesetError, match="rulebook-nl"):
        synthetic_game(0, ruleset="house-rules")


# -- discard ----------------------------------------------------------------------------------
def test_random_discard() -> None:
    state = game(GANG)
    hand(state, LAWMEN, "cowboy", "deputy", "pilgrim")
    hand(state, GANG, "pickpocket")
    do(state, "play Pickpocket")
    assert len(state.hands[LAWMEN]) == 2 and len(state.discards[LAWMEN]) == 1


def test_named_discard() -> None:
    state = game(GANG)
    hand(state, LAWMEN, "cowboy", "deputy")
    hand(state, GANG, "name-your-poison")
    do(state, "play Name Your Poison")
    assert state.current_player() == GANG and "name Cowboy" in names(state)
    assert "name .38 Special" not in names(state)  # only cards of McReady's deck
    do(state, "name Cowboy")
    assert [state.spec.card_def[u].id for u in state.hands[LAWMEN]] == ["deputy"]


def test_the_opponent_chooses_his_discards() -> None:
    state = game(LAWMEN)
    hand(state, GANG, "38-special", "hail-of-bullets", "gatling-gun")
    hand(state, LAWMEN, "tax-collector")
    do(state, "play Tax Collector")
    assert state.current_player() == GANG
    do(state, "discard Gatling Gun", "discard .38 Special")
    assert [state.spec.card_def[u].id for u in state.hands[GANG]] == ["hail-of-bullets"]
    assert state.current_player() == LAWMEN


# -- deck and hands ---------------------------------------------------------------------------
def test_search_deck_puts_the_chosen_card_on_top() -> None:
    state = game(GANG)
    hand(state, GANG, "scout-ahead")
    do(state, "play Scout Ahead", "put on top Gatling Gun")
    assert state.spec.card_def[state.decks[GANG][-1]].id == "gatling-gun"


def test_shuffle_hands_keeps_hand_sizes() -> None:
    state = game(GANG)
    hand(state, GANG, "card-sharp", "38-special", "38-special")
    hand(state, LAWMEN, "cowboy")
    do(state, "play Card Sharp")
    assert (len(state.hands[GANG]), len(state.hands[LAWMEN])) == (2, 1)


def test_draw_for_both_players() -> None:
    state = game(LAWMEN)
    hand(state, LAWMEN, "sheriffs-decree")
    do(state, "play Sheriffs Decree")
    assert (len(state.hands[GANG]), len(state.hands[LAWMEN])) == (1, 1)


# -- border, forbid, losing, removing ---------------------------------------------------------
def test_border_tokens_and_remove_self() -> None:
    state = game(GANG)
    hand(state, GANG, "smuggler")
    (smuggler,) = [u for u in state.hands[GANG]]
    do(state, "play Smuggler")
    assert state.countdown == 10
    assert state.card_zone(smuggler) == "removed"


def test_forbid() -> None:
    state = game(LAWMEN)
    hand(state, LAWMEN, "deadly-oath")
    do(state, "play Deadly Oath", "end play phase")
    clear_hand(state, GANG)
    hand(state, GANG, "38-special")
    assert "play .38 Special" not in names(state)


def test_lose_game_on_a_card() -> None:
    state = game(GANG)
    hand(state, GANG, "cursed-idol")
    do(state, "play Cursed Idol")
    assert state.outcome().winner == LAWMEN
    assert state.outcome().termination == Termination.CARD_EFFECT


# -- tokens -----------------------------------------------------------------------------------
def test_add_token_on_a_chosen_card() -> None:
    state = game(LAWMEN)
    deputy, cowboy = in_play(state, LAWMEN, "deputy", "cowboy")
    hand(state, LAWMEN, "ammo-wagon")
    do(state, "play Ammo Wagon", "token on Cowboy at The Bank at Repentance Springs")
    assert (state.power[deputy], state.power[cowboy]) == (0, 2)
    assert firepower(state, 0, LAWMEN) == 2 + 3 + 0


def test_add_token_on_each_matching_card() -> None:
    """"Place two chips on each .45 Long Colt and .38 Special" ("Fan" the gun): every card
    the target matches gets the tokens, no choice asked; other cards get none."""
    state = game(LAWMEN)
    deputy, cowboy, other = in_play(state, LAWMEN, "deputy", "cowboy", "deputy")
    elsewhere = in_play(state, LAWMEN, "cowboy", battlefield="3-15-express")[0]
    marshal = in_play(state, LAWMEN, "buffalo-stampede")[0]
    hand(state, LAWMEN, "fan-the-hammer")
    do(state, "play Fan The Hammer")
    assert state.pending_kind == K_MAIN  # no token decision
    assert [state.power[uid] for uid in (deputy, cowboy, other)] == [2, 2, 2]
    assert (state.power[elsewhere], state.power[marshal]) == (0, 0)


def test_add_token_per_card_in_discard() -> None:
    state = game(LAWMEN)
    for _ in range(3):
        stage(state, LAWMEN, "cowboy", "discard")
    hand(state, LAWMEN, "war-chest")
    do(state, "play War Chest")
    assert firepower(state, 0, LAWMEN) == 1 + 3


def test_eagle_token_empties_a_card() -> None:
    state = game(GANG)
    in_play(state, LAWMEN, "deputy")
    hand(state, GANG, "eagle-eye")
    do(state, "play Eagle Eye")
    assert firepower(state, 0, LAWMEN) == 0


def test_silver_dollar_goes_to_the_player() -> None:
    state = game(GANG)
    hand(state, GANG, "lucky-dollar")
    do(state, "play Lucky Dollar")
    assert state.silver == [1, 0]


# -- retrieve, bounce, move, destroy, kill, sacrifice -----------------------------------------
def test_retrieve_to_hand_to_play_and_to_deck_top() -> None:
    state = game(LAWMEN)
    stage(state, LAWMEN, "deputy", "discard")
    stage(state, LAWMEN, "pilgrim", "discard")
    hand(state, LAWMEN, "about-time-partner", "shucks", "dust-off", "cowboy")
    do(state, "play About Time Partner")  # the only character: no choice
    assert "play Deputy" in names(state)
    stage(state, LAWMEN, "charlie-weathers", "discard")
    do(state, "play Shucks", "pay: discard Cowboy", "take Charlie Weathers")
    assert [state.spec.card_def[u].id for u in state.rows[1]] == ["charlie-weathers"]
    assert state.grit[state.rows[1][0]] == 1  # printed tokens come with it
    do(state, "play Dust Off", "take Pilgrim")
    assert state.spec.card_def[state.decks[LAWMEN][-1]].id == "pilgrim"


def test_bounce_returns_your_own_card_but_not_a_gatling_gun() -> None:
    state = game(GANG)
    special, gatling = in_play(state, GANG, "38-special", "gatling-gun")
    hand(state, GANG, "saddlebags", "hail-of-bullets")
    do(state, "play Saddlebags")
    assert state.card_zone(special) == "hand" and state.placed[gatling] is not None


def test_move_a_lawman_to_the_current_battlefield() -> None:
    state = game(LAWMEN)
    stage_marker(state, "whiskey-canyon", "1")
    deputy, = in_play(state, LAWMEN, "deputy", battlefield="buzzard-point")
    hand(state, LAWMEN, "didnt-see-this-comin")
    do(state, "play Didnt See This Comin")
    assert deputy in state.rows[2 * 1 + LAWMEN]


def test_destroy_up_to_one_gatling_gun_then_draw() -> None:
    state = game(LAWMEN)
    (gatling,) = in_play(state, GANG, "gatling-gun")
    hand(state, LAWMEN, "outta-bullets")
    do(state, "play Outta Bullets")
    assert names(state) == ["stop (choose no more)",
                            "destroy Gatling Gun at The Bank at Repentance Springs"]
    do(state, "destroy Gatling Gun at The Bank at Repentance Springs")
    assert state.card_zone(gatling) == "discard" and len(state.hands[LAWMEN]) == 1


def test_destroy_all_spares_impervious_cards() -> None:
    state = game(LAWMEN)
    clan, special = in_play(state, GANG, "the-jackson-clan", "38-special")
    (far,) = in_play(state, GANG, "hail-of-bullets", battlefield="3-15-express")
    hand(state, LAWMEN, "wrecking-ball")
    do(state, "play Wrecking Ball")
    assert state.placed[clan] is not None
    assert state.card_zone(special) == state.card_zone(far) == "discard"


def test_kill_two_lawmen_and_remove_them_from_the_game() -> None:
    state = game(GANG)
    deputy, charlie = in_play(state, LAWMEN, "deputy", "charlie-weathers")
    hand(state, GANG, "polecats", "38-special", "38-special")
    do(state, "play Polecats", "kill Charlie Weathers at The Bank at Repentance Springs")
    assert state.placed[charlie] is not None  # true grit took the first kill
    do(state, "kill Charlie Weathers at The Bank at Repentance Springs")
    assert state.card_zone(charlie) == "removed" and state.placed[deputy] is not None


def test_came_along_for_the_ride_sacrifices_two_and_clears_the_lawmen() -> None:
    state = game(GANG)
    for bandit_id in ("marmaduke", "bullet", "micky-mason"):
        from table_staging import stage_character

        stage_character(state, bandit_id, alive=False)
    deputies = in_play(state, LAWMEN, "deputy", "deputy")
    (far,) = in_play(state, LAWMEN, "deputy", battlefield="whiskey-canyon")
    hand(state, GANG, "came-along-for-the-ride")
    do(state, "play Came Along For The Ride")
    # Poppy is the lone 0-rated member; then the gang chooses among the 1-rated ones
    assert not alive(state, "poppy-mcready")
    do(state, "lose Annie Mcgraw")
    assert not alive(state, "annie-mcgraw") and alive(state, "skinny-landell")
    assert all(state.card_zone(d) == "discard" for d in deputies)
    assert state.placed[far] is not None
    assert state.countdown == 12  # the gang's own turn: no border check


def test_the_lawmen_sacrifice_their_own_characters() -> None:
    state = game(LAWMEN)
    (deputy,) = in_play(state, LAWMEN, "deputy")
    hand(state, LAWMEN, "last-stand")
    do(state, "play Last Stand")
    assert state.card_zone(deputy) == "discard"


def test_move_the_marker_across_battlefields() -> None:
    state = game(GANG)
    stage_marker(state, "bank", "4")
    hand(state, GANG, "smoke-signals")
    do(state, "play Smoke Signals")
    bf = state.spec.bfs[state.marker_bf]
    assert (bf.id, bf.labels[state.marker_space]) == ("whiskey-canyon", "2")


# -- triggers ---------------------------------------------------------------------------------
def test_on_destroyed_and_on_death_triggers() -> None:
    state = game(GANG)
    in_play(state, LAWMEN, "lookout-post")
    in_play(state, LAWMEN, "bounty-posse")
    hand(state, GANG, "fire-at-will-boys", "chew-on-this-gringo")
    do(state, "play Fire At Will Boys", "destroy Lookout Post at The Bank at Repentance Springs")
    assert len(state.hands[LAWMEN]) == 1  # the lookout post's owner draws
    do(state, "play Chew On This Gringo")
    assert len(state.hands[GANG]) == 1  # the posse's death: its opponent draws


def test_draw_phase_leave_and_marker_triggers() -> None:
    state = game(GANG)
    stage_marker(state, "rattlesnake-creek", "3")
    (post,) = in_play(state, LAWMEN, "lookout-post")
    (far_post,) = in_play(state, LAWMEN, "lookout-post", battlefield="3-15-express")
    do(state, "end play phase")  # McReady draws 2, +1 for the post at the current battlefield
    assert len(state.hands[LAWMEN]) == 3
    do(state, "end play phase")  # a border token goes (no kill); the marker moves on
    assert state.card_zone(post) == "removed"  # the marker left its battlefield
    assert state.placed[far_post] is not None
    # one token at the end of McReady's turn, one for each post seeing the marker enter the
    # train (both triggers fire at that moment, even for the post its leaving removes)
    assert state.countdown == 12 - 1 - 2

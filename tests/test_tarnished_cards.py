"""The Tarnished Star's cards as their text says, through the engine API: the Strongbox and
its hidden card (FAQ Q1, Q2), a card under a character, every way to play a card, naming a
card, the hidden-token guess and changing sides, the Legend of Boggy Creek, silver dollars,
the Indian Burial ground, Brady Logan's extra row (FAQ Q3) and the cards whose text the
sheet does not give."""

from __future__ import annotations

import random

from table_staging import do, refresh, stage, stage_marker
from test_card_text import GANG, LAWMEN, WHISKEY, drain, game, option_texts

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import K_MAIN, MODE_BASE, PASS
from deckbuilder.engine.addons import (
    cards_under_character,
    is_hidden,
    put_under_character,
    take_from_character,
)
from deckbuilder.engine.board import column_has_room, firepower, place
from deckbuilder.engine.definitions import set_fast_path as _set_fast_path
from deckbuilder.engine.observe import observe
from deckbuilder.engine.play import play_problem
from deckbuilder.engine.position import render, snapshot
from deckbuilder.engine.state import State
from deckbuilder.games import new_game
from deckbuilder.games.revolver.declaration import K_GUESS_HAND, K_HIDE_TOKEN
from deckbuilder.games.revolver.frontier_steps import change_sides

STRONGBOX = "strongbox"
TAKE = "use Strongbox: Take the card under the Strongbox into your hand"


def strongbox_game(hand: list[str]) -> State:
    state = game(mcready=[STRONGBOX], player=LAWMEN)
    stage(state, LAWMEN, STRONGBOX, "hand")
    for card_id in hand:
        stage(state, LAWMEN, card_id, "hand")
    refresh(state)
    do(state, "play Strongbox")
    return state


def strongbox_of(state: State) -> int:
    return next(u for row in state.rows for u in row if state.spec.card_def[u].id == STRONGBOX)


def test_the_strongbox_hides_a_card_its_owner_sees_and_the_opponent_does_not() -> None:
    state = strongbox_game(["deputy", "cowboy"])
    assert sorted(option_texts(state)) == ["hide Cowboy", "hide Deputy"]
    do(state, "hide Deputy")
    box = strongbox_of(state)
    hidden = [u for u in state.rows[2 * state.spec.n_bf + LAWMEN] if is_hidden(state, u)]
    assert [state.spec.card_def[u].id for u in hidden] == ["deputy"]
    assert state.silver[LAWMEN] == 1
    assert firepower(state, state.spec.n_bf, LAWMEN) == 0  # a hidden card adds nothing
    mine = observe(state, LAWMEN).open_range[LAWMEN]
    theirs = observe(state, GANG).open_range[LAWMEN]
    assert [(c.id, c.hidden, c.under) for c in mine] == [(STRONGBOX, False, ""),
                                                          ("deputy", True, STRONGBOX)]
    assert [(c.id, c.hidden) for c in theirs] == [(STRONGBOX, False), ("", True)]
    assert observe(state, GANG).silver == (0, 1)
    text = "\n".join(render(snapshot(state)))
    assert "deputy (under strongbox, face down)" in text and "silver dollars: colty 0, mcready 1" \
        in text
    assert TAKE in option_texts(state)
    do(state, TAKE)
    assert "deputy" in [state.spec.card_def[u].id for u in state.hands[LAWMEN]]
    assert box in state.discards[LAWMEN] and state.placed[box] is None
    state.check_invariants()


def test_faq_q1_an_eagle_on_the_strongbox_locks_the_card_under_it() -> None:
    state = strongbox_game(["deputy"])
    assert TAKE in option_texts(state)
    box = strongbox_of(state)
    state.eagle[box] = 1
    refresh(state)
    assert TAKE not in option_texts(state)


def test_faq_q2_a_strongbox_played_with_an_empty_hand_lies_there_useless() -> None:
    state = strongbox_game([])
    box = strongbox_of(state)
    assert state.placed[box] is not None and state.pending_kind == K_MAIN
    assert TAKE not in option_texts(state)
    assert state.silver[LAWMEN] == 1  # the dollar is still gained


def test_the_hidden_card_is_re_dealt_for_the_opponent_bot() -> None:
    state = strongbox_game(["deputy"])
    seen = set()
    for seed in range(30):
        other = state.resample_hidden(GANG, random.Random(seed))
        other.check_invariants()
        seen |= {other.spec.card_def[u].id for row in other.rows for u in row
                 if is_hidden(other, u)}
    assert len(seen) > 1  # the gang's bot cannot know what lies in the box


def test_a_card_under_a_character_is_out_of_play_and_seen_by_both() -> None:
    state = game(mcready=["rock-strewn-vantage-point"])
    uid = stage(state, GANG, "38-special", "hand")
    put_under_character(state, uid, 0)
    state.check_invariants()
    assert cards_under_character(state, 0) == [uid]
    bandit = state.spec.characters[0].id
    assert observe(state, LAWMEN).under_characters == ((bandit, "38-special"),)
    assert state.card_zone(uid) == "under-character"
    clone = state.clone()
    take_from_character(state, uid, "hand")
    assert uid in state.hands[GANG] and not cards_under_character(state, 0)
    assert cards_under_character(clone, 0) == [uid]  # clones do not share it
    state.check_invariants()


def test_the_volcanic_pistol_offers_its_three_uses_and_each_works() -> None:
    state = game(mcready=["volcanic-pistol"], player=LAWMEN)
    deputy = stage(state, LAWMEN, "deputy", "play")
    special = stage(state, GANG, "38-special", "play")
    stage(state, LAWMEN, "volcanic-pistol", "hand")
    stage(state, LAWMEN, "cowboy", "hand")
    refresh(state)
    snap = state.clone()
    do(state, "play Volcanic pistol")
    modes = option_texts(state)
    assert modes == ["play Volcanic pistol as: Place under a lawman card",
                     "play Volcanic pistol as: Discard to destroy a bandit firepower card",
                     "play Volcanic pistol as: Discard to remove a dark-hand-icon card"]
    do(state, modes[0])  # the cost: the Cowboy, the only other card
    assert firepower(state, 0, LAWMEN) == 2 + 3
    state = snap.clone()
    do(state, "play Volcanic pistol",
       "play Volcanic pistol as: Discard to destroy a bandit firepower card")
    assert special in state.discards[GANG]
    state = snap.clone()
    card = state.spec.card_def[special]
    saved = card.icons
    try:  # no packaged card bears the dark hand: lend the .38 one for the test
        card.icons = frozenset({"dark-hand"})
        do(state, "play Volcanic pistol",
           "play Volcanic pistol as: Discard to remove a dark-hand-icon card")
        assert special in state.removed[GANG]
    finally:
        card.icons = saved
    assert state.placed[deputy] is not None


def test_chicken_foot_names_any_card_the_opponent_could_hold() -> None:
    state = game(colty=["chicken-foot-dipped-in-rattlesnake-venom"])
    stage(state, GANG, "chicken-foot-dipped-in-rattlesnake-venom", "hand")
    stage(state, LAWMEN, "deputy", "hand")
    refresh(state)
    do(state, "play Chicken foot dipped in rattlesnake venom")
    names = option_texts(state)
    spec = state.spec
    owned = {f"name {spec.defs[d].name}" for d in spec.owned_defs[LAWMEN]}
    assert owned < set(names)  # every card he has, and more
    assert "name Texas Ranger" in names  # a lawman's card his deck does not hold
    assert "name Gatling Gun" not in names  # the gang's own: he cannot hold it
    probe = state.clone()
    do(probe, "name Cowboy")  # a wrong guess
    assert [probe.spec.card_def[u].id for u in probe.hands[LAWMEN]] == ["deputy"]
    do(state, "name Deputy")
    assert state.hands[LAWMEN] == []


def test_chicken_foot_does_not_show_the_opponents_deck_list() -> None:
    """The names offered are the same whatever the opponent's deck holds: a list of only his
    deck's cards would tell the player who names which cards he built it with."""

    def names_against(lawmen: list[str]) -> list[str]:
        state = game(colty=["chicken-foot-dipped-in-rattlesnake-venom"], mcready=lawmen)
        stage(state, GANG, "chicken-foot-dipped-in-rattlesnake-venom", "hand")
        refresh(state)
        do(state, "play Chicken foot dipped in rattlesnake venom")
        return option_texts(state)

    assert names_against([]) == names_against(["texas-ranger", "pinkerton-agents"])


def test_no_name_is_numbered_where_no_card_names_one() -> None:
    """The names take action numbers only in a game with a card that names one: every other
    game keeps its action table."""
    state = game()
    assert state.spec.name_defs == ((), ())
    assert not any(card.names_a_card for card in state.spec.card_def)


def test_a_silver_dollar_cost_needs_the_dollars_and_spends_them() -> None:
    state = game(player=LAWMEN)
    uid = stage(state, LAWMEN, "cowboy", "hand")
    card = state.spec.card_def[uid]
    try:
        card.silver = 1
        _set_fast_path(card)
        stage(state, LAWMEN, "deputy", "hand")
        refresh(state)
        assert "play Cowboy" not in option_texts(state)
        assert "silver dollar" in (play_problem(state, LAWMEN, card.idx) or "")
        state.silver[LAWMEN] = 2
        refresh(state)
        do(state, "play Cowboy")
        assert state.silver[LAWMEN] == 1
    finally:
        card.silver = 0
        _set_fast_path(card)


def test_the_legend_of_boggy_creek_is_played_when_drawn() -> None:
    state = game(mcready=["the-legend-of-boggy-creek"])
    stage(state, GANG, "38-special", "hand")
    stage(state, LAWMEN, "the-legend-of-boggy-creek", "deck-top")
    refresh(state)
    do(state, "end play phase")  # McReady's turn: his draw phase draws it
    assert "mcready plays The Legend of Boggy Creek at once" in state.log
    assert state.silver[LAWMEN] == 1
    legend = [u for u in state.discards[LAWMEN]
              if state.spec.card_def[u].id == "the-legend-of-boggy-creek"]
    assert legend and len(state.hands[LAWMEN]) == 1 and len(state.hands[GANG]) == 1
    state.check_invariants()


def frontier_game() -> State:
    catalog = default_catalog()
    decks = [dict(catalog.base_deck("revolver", "colty")),
             dict(catalog.base_deck("revolver", "mcready"))]
    return new_game(decks, seed=0, catalog=catalog, verbose=True,
                    modules=["frontier-deck", "frontier-deck-cards"])


def _instance(state: State, card_id: str, player: int) -> int:
    spec = state.spec
    return next(u for u in spec.extra_uids
                if spec.card_def[u].id == card_id and spec.owner[u] == player)


def test_twins_and_changing_sides_keep_the_tokens() -> None:
    state = frontier_game()
    kane, other = _instance(state, "reverend-henry-kane", GANG), \
        _instance(state, "reverend-henry-kane", LAWMEN)
    assert state.spec.twin[kane] == other and state.spec.twin[other] == kane
    assert state.spec.twin[state.spec.decks[0][0]] == -1
    state.limbo.remove(kane)
    place(state, kane, GANG, 0, state.spec.card_def[kane].modes[0])
    state.power[kane] = 1
    assert change_sides(state, kane)
    assert other in state.rows[1] and kane not in state.rows[0] and state.power[other] == 1
    assert kane in state.limbo
    state.check_invariants()
    deputy = stage(state, LAWMEN, "deputy", "play")
    assert not change_sides(state, deputy)  # no twin: it stays


def step_on(state: State) -> None:
    """Play on quietly: draw from his own deck, pass, or take the first option."""
    texts = option_texts(state)
    own = [a for a, t in zip(state.legal_actions(), texts, strict=True) if "own deck" in t]
    actions = state.legal_actions()
    state.apply(own[0] if own else PASS if PASS in actions else actions[0])


def test_reverend_kane_hides_a_token_and_a_right_guess_moves_him() -> None:
    for right in (True, False):
        state = frontier_game()
        kane = _instance(state, "reverend-henry-kane", GANG)
        state.limbo.remove(kane)
        place(state, kane, GANG, 0, state.spec.card_def[kane].modes[0])
        for _ in range(60):
            kind = state.pending_kind
            if kind == K_HIDE_TOKEN:
                assert state.current_player() == GANG
                do(state, "hide the token in the left hand")
                view = observe(state, LAWMEN)
                assert view.decision == "guess the hand holding the token"
                assert view.legal_actions == (MODE_BASE, MODE_BASE + 1)  # nothing leaks
                do(state, "guess the left hand" if right else "guess the right hand")
                break
            step_on(state)
        else:
            raise AssertionError("no hidden-token decision in the gang's draw phase")
        twin = state.spec.twin[kane]
        assert (state.placed[twin] is not None) == right
        assert (state.placed[kane] is not None) == (not right)


def test_a_guess_re_deals_the_hidden_hand_for_the_guesser_bot() -> None:
    state = frontier_game()
    kane = _instance(state, "reverend-henry-kane", GANG)
    state.limbo.remove(kane)
    place(state, kane, GANG, 0, state.spec.card_def[kane].modes[0])
    for _ in range(60):
        if state.pending_kind == K_HIDE_TOKEN:
            do(state, "hide the token in the left hand")
            break
        step_on(state)
    assert state.pending_kind == K_GUESS_HAND
    hands = {state.resample_hidden(LAWMEN, random.Random(seed)).pending_data[2]
             for seed in range(20)}
    assert hands == {0, 1}


def test_indian_burial_ground_forbids_bounty_hunters_here_and_may_remove_a_lawman() -> None:
    state = game(colty=["indian-burial-ground"])
    deputy = stage(state, LAWMEN, "deputy", "play")
    stage(state, GANG, "indian-burial-ground", "hand")
    stage(state, GANG, "38-special", "hand")
    refresh(state)
    do(state, "play Indian Burial ground")
    assert option_texts(state)[0] == "stop (choose no more)"  # "you may"
    do(state, "destroy Deputy")
    assert deputy in state.removed[LAWMEN]
    do(state, "end play phase")
    stage(state, LAWMEN, "bounty-hunter", "hand")
    stage(state, LAWMEN, "cowboy", "hand")
    stage(state, LAWMEN, "cowboy", "hand")
    refresh(state)
    if state.marker_bf == 0:
        assert "play Bounty Hunter" not in option_texts(state)
        hunter = state.spec.def_of[next(u for u in state.hands[LAWMEN]
                                        if state.spec.card_def[u].id == "bounty-hunter")]
        assert "forbids" in (play_problem(state, LAWMEN, hunter) or "")
        state.silent_bf = 0  # its text silenced: the bounty hunter may come
        refresh(state)
        assert "play Bounty Hunter" in option_texts(state)


def test_faq_q3_brady_logan_sandstorm_and_the_eagle() -> None:
    """Sandstorm at Brady's battlefield: McReady still has two rows for other cards; with the
    eagle token on Brady, one."""
    state = game(mcready=["brady-logan"], player=LAWMEN)
    stage_marker(state, WHISKEY, "2")
    bf = 1
    stage(state, GANG, "sandstorm", "play", battlefield=WHISKEY)
    brady = stage(state, LAWMEN, "brady-logan", "play", battlefield=WHISKEY)
    stage(state, LAWMEN, "deputy", "play", battlefield=WHISKEY)
    assert column_has_room(state, bf, LAWMEN)  # a second row is still free
    state.eagle[brady] = 1
    assert not column_has_room(state, bf, LAWMEN)  # only one row: the deputy's
    state.eagle[brady] = 0
    stage(state, LAWMEN, "cowboy", "play", battlefield=WHISKEY)
    assert not column_has_room(state, bf, LAWMEN)


def test_the_cards_without_sheet_text_play() -> None:
    state = game(colty=["travis-dane-molly-maguire-member"],
                 mcready=["curly-son-of-ma-and-pa-shepperson", "mary-lous-shack",
                          "swarm-of-horseflies"], player=LAWMEN)
    curly = stage(state, LAWMEN, "curly-son-of-ma-and-pa-shepperson", "hand")
    stage(state, LAWMEN, "mary-lous-shack", "play")
    stage(state, LAWMEN, "swarm-of-horseflies", "hand")
    stage(state, LAWMEN, "cowboy", "hand")
    special = stage(state, GANG, "38-special", "play")
    refresh(state)
    do(state, "play \"Curly\"", "pay: discard Cowboy")
    assert state.grit[curly] == 1  # the tan token read as true grit
    do(state, "play Swarm of Horseflies")
    drain(state)
    assert special in state.rows[2 * 1 + GANG]  # driven off to the next battlefield
    travis_uid = stage(state, GANG, "travis-dane-molly-maguire-member", "discard")
    travis = state.spec.card_def[travis_uid]
    assert travis.firepower == 1 and not travis.modes[0].effect

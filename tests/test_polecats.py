"""A kill step's `at_least`: the kills a card owes are no choice, only the ones after them
(issue 35: "Come on, ya no-good polecats" offered "stop" before its first kill, so it could be
paid for and kill nobody). The packaged card plays out in
`tests/scenarios/polecats-*.yaml`; here the step option itself, on a homebrew card."""

from __future__ import annotations

from pathlib import Path

from engine_cards import _card, _kill, hand, in_play, names, ready, synthetic_decks, synthetic_set
from table_staging import do

from deckbuilder.catalog import Catalog, LoadedSet, default_catalog
from deckbuilder.engine.state import State
from deckbuilder.games import new_game

GANG, LAWMEN = 0, 1
STOP = "stop (choose no more)"
#: "Kill two or three lawmen": two kills owed, the third a choice.
POSSE = _card("posse", "colty", "one-shot", 0, deckable=False,
              effect=[_kill(count=3, up_to=True, at_least=2)])


def posse_game() -> State:
    card_set = synthetic_set()
    card_type = type(card_set.cards[0])
    cards = [*card_set.cards, card_type.model_validate(POSSE)]
    catalog = Catalog()
    catalog.add_set(LoadedSet(card_set.model_copy(update={"cards": cards}), Path("<posse>"),
                              "package"))
    decks = synthetic_decks()
    decks[GANG] = {**decks[GANG], "posse": 1}
    return ready(new_game(decks, seed=0, ruleset="rulebook-en", catalog=catalog), GANG)


def test_no_stop_is_offered_until_the_owed_kills_are_made() -> None:
    state = posse_game()
    in_play(state, LAWMEN, "deputy", "cowboy", "charlie-weathers")
    hand(state, GANG, "posse")
    do(state, "play Posse")
    lawmen = [f"kill {name} at The Bank at Repentance Springs"
              for name in ("Charlie Weathers", "Cowboy", "Deputy")]
    assert names(state) == lawmen
    do(state, lawmen[0])  # his true grit token takes it: he is still there
    assert names(state) == lawmen  # the second kill is owed too
    do(state, lawmen[0])
    assert names(state) == [STOP, *lawmen[1:]]  # the third is the gang's choice
    do(state, STOP)
    assert names(state) == ["end play phase"]


def test_an_owed_kill_with_one_lawman_in_reach_is_made_without_asking() -> None:
    state = posse_game()
    (deputy,) = in_play(state, LAWMEN, "deputy")
    hand(state, GANG, "posse")
    do(state, "play Posse")
    assert state.card_zone(deputy) == "discard"  # one answer only: no decision
    assert names(state) == ["end play phase"]  # nobody left for the second owed kill


def test_the_packaged_polecats_owe_one_kill_of_two() -> None:
    step = default_catalog().card("come-on-ya-no-good-polecats").effect[0]
    assert (step.count, step.up_to, step.at_least) == (2, True, 1)

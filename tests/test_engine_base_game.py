"""The packaged base game: its decks play, every card gets played, every ending happens."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.games import new_game
from deckbuilder.rulesets import available_rulesets

GAMES = 300


def _decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]


pytestmark = pytest.mark.skipif(not sum(_decks()[0].values()), reason="no base game data")


def test_the_base_decks_are_62_cards_each_and_playable() -> None:
    decks = _decks()
    assert [sum(deck.values()) for deck in decks] == [62, 62]
    state = new_game(decks, seed=1)
    assert len(state.spec.characters) == 16 and state.countdown == 12
    assert state.spec.bfs[0].id == "bank-at-repentance-springs"


def test_every_ruleset_of_the_base_set_plays() -> None:
    base = default_catalog().sets["revolver-base"].card_set
    for ruleset in available_rulesets(base):
        state = new_game(_decks(), seed=2, ruleset=ruleset)
        rng = random.Random(2)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])


def test_random_games_play_every_card_and_reach_every_ending() -> None:
    decks = _decks()
    played: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(GAMES):
        state = new_game(decks, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        for stats in state.stats:
            played.update(stats.played)
        endings[state.outcome().termination.value] += 1
    never = sorted((set(decks[0]) | set(decks[1])) - set(played))
    assert never == [], f"never played in {GAMES} random games: {never}"
    assert {"border_emptied", "train_reached", "jack_killed", "derail_failed",
            "gang_wiped_out"} <= set(endings), endings
    assert endings["turn_cap"] == 0

"""The state's fields are named once: clone copies every slot (lists as new lists), the zone
list covers every card zone, and re-dealing hidden cards keeps each zone's size."""

from __future__ import annotations

import random

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.state import EVERYONE, PLAYER_ZONES, State
from deckbuilder.games import get_game, new_game

#: Slots a clone shares on purpose: immutable values, the game's fixed spec, and the
#: per-card lists, copied on write (tests/test_state_fields.py).
SHARED = {"spec", "_rng", "_rng_snapshot", "pending_resume", "pending_data", "_legal",
          "used_abilities", "pieces_used", "game_data", "termination",
          "placed", "power", "grit", "eagle"}


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_clone_copies_every_slot(game: str) -> None:
    catalog = default_catalog()
    decks = [catalog.base_deck(game, side) for side in get_game(game).side_names]
    state = new_game(decks, 5, catalog=catalog)
    rng = random.Random(5)
    for _ in range(40):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    copy = state.clone()
    for slot in State.__slots__:
        assert hasattr(copy, slot), slot
        value = getattr(state, slot)
        if isinstance(value, list) and slot not in SHARED:
            assert getattr(copy, slot) is not value, f"{slot} is shared by the clone"
            assert getattr(copy, slot) == value
    assert copy.snapshot() == state.snapshot()


def test_the_zone_list_names_every_card_zone_of_a_player() -> None:
    names = {field for field, _, _ in PLAYER_ZONES}
    assert names == {"decks", "hands", "discards", "removed"}
    assert {seen for _, _, seen in PLAYER_ZONES} >= {EVERYONE}


def test_re_dealing_keeps_each_zone_size_and_the_public_zones() -> None:
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", side) for side in ("colty", "mcready")]
    state = new_game(decks, 9, catalog=catalog)
    rng = random.Random(9)
    for _ in range(60):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    world = state.resample_hidden(0, random.Random(1))
    for field, _, seen in PLAYER_ZONES:
        for player in (0, 1):
            assert len(getattr(world, field)[player]) == len(getattr(state, field)[player])
            if seen == EVERYONE or (player == 0 and field == "hands"):
                assert getattr(world, field)[player] == getattr(state, field)[player]
    assert sorted(world.hands[1] + world.decks[1]) == sorted(state.hands[1] + state.decks[1])
    world.check_invariants()

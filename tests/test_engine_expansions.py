"""The effect steps the expansion cards (Module D decks) need, and the example decks in play.

Two sources: the packaged data (the example decks of `deckbuilder/data/decks`, random games
with invariants, clones and replays) and homebrew cards on the synthetic set of
`engine_cards`, one or more per new step, so each step is seen doing exactly what its
docstring says, whatever the guessed values of the packaged data.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from engine_cards import BANDITS, COLTY_CARDS, MCREADY_CARDS, hand, in_play, names, synthetic_set
from table_staging import clear_hand, do, refresh, stage, stage_character, stage_marker

from deckbuilder.catalog import Catalog, LoadedSet, default_catalog
from deckbuilder.decks import load_deck
from deckbuilder.engine.actions import ACCEPT, K_OPTIONAL, PASS
from deckbuilder.engine.board import firepower
from deckbuilder.engine.expansion_steps import attach_card
from deckbuilder.engine.play import play_problem
from deckbuilder.engine.state import State
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.games import new_game
from deckbuilder.models import CardSet
from deckbuilder.paths import PACKAGED_DECKS

GANG, LAWMEN = 0, 1
BASE_DECK_PLAYERS = ("colty", "mcready")
EXAMPLES = {"colty": "example-colty-fan-the-gun.yaml", "mcready": "example-mcready-pinkertons.yaml"}


# -- the packaged example decks ------------------------------------------------------------------
def example_deck(faction: str) -> dict[str, int]:
    return load_deck(Path(PACKAGED_DECKS) / EXAMPLES[faction], default_catalog()).counts()


def base_deck(faction: str) -> dict[str, int]:
    return default_catalog().base_deck("revolver", faction)


PAIRINGS = {
    "both-examples": lambda: [example_deck("colty"), example_deck("mcready")],
    "colty-example-vs-base": lambda: [example_deck("colty"), base_deck("mcready")],
    "base-vs-mcready-example": lambda: [base_deck("colty"), example_deck("mcready")],
}


def test_every_deckable_card_of_the_example_decks_is_playable() -> None:
    catalog = default_catalog()
    for faction in BASE_DECK_PLAYERS:
        for card_id in example_deck(faction):
            assert unimplemented_reasons(catalog.card(card_id)) == [], card_id


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
def test_random_games_with_the_example_decks_keep_the_invariants(pairing: str) -> None:
    decks = PAIRINGS[pairing]()
    ends: Counter[str] = Counter()
    for seed in range(60):
        state = new_game(decks, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            state.check_invariants()
            actions = state.legal_actions()
            assert actions and actions == sorted(set(actions))
            if steps % 17 == 0:  # what a search bot does: resample hidden cards, play on
                resampled = state.resample_hidden(state.current_player(), rng)
                resampled.check_invariants()
                assert resampled.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps < 5000, "a game that does not end"
        state.check_invariants()
        ends[state.outcome().termination.value] += 1
    assert ends["turn_cap"] <= 3


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
def test_example_games_replay_and_clone(pairing: str) -> None:
    decks = PAIRINGS[pairing]()
    for seed in range(15):
        state = new_game(decks, seed=seed)
        rng = random.Random(seed + 7)
        while not state.is_terminal():
            if rng.random() < 0.1:
                before = state.snapshot()
                copy = state.clone()
                while not copy.is_terminal():
                    options = copy.legal_actions()
                    copy.apply(options[rng.randrange(len(options))])
                assert state.snapshot() == before, "playing a clone changed the original"
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        replay = new_game(decks, seed=seed)
        for action in state.history:
            replay.apply(action)
        assert replay.snapshot() == state.snapshot()


def test_the_base_game_sets_none_of_the_expansion_hooks() -> None:
    state = new_game([base_deck("colty"), base_deck("mcready")], seed=0)
    spec = state.spec
    assert not spec.attaching and not spec.immune
    assert spec.play_watch_defs == (None, None) and spec.arrival_defs is None
    assert spec.discounters == ((), ())


def test_cards_tied_to_things_a_base_board_lacks_stay_unplayable() -> None:
    """Double the guard and Pull the bars need the San Manzanillo Prison; the Texas Ranger's
    cancel needs Sister Sarah dead and a Frontier card played: none of that is on the board."""
    decks = [dict(example_deck("colty")), dict(example_deck("mcready"))]
    decks[1]["double-the-guard"] = 1
    state = new_game(decks, seed=3)
    clear_hand(state, GANG)
    stage(state, GANG, "pull-the-bars-out-with-a-horse", "hand")
    stage(state, GANG, "38-special", "hand")
    refresh(state)
    assert "play Pull the bars out with a horse" not in names(state)
    pull = state.spec.def_of[state.hands[GANG][0]]
    assert "condition does not hold" in play_problem(state, GANG, pull)
    do(state, "end play phase")
    clear_hand(state, LAWMEN)
    stage(state, LAWMEN, "double-the-guard", "hand")
    stage(state, LAWMEN, "cowboy", "hand")
    refresh(state)
    assert "play Double the guard" not in names(state)
    guard = state.spec.def_of[state.hands[LAWMEN][0]]
    assert "San Manzanillo Prison" in play_problem(state, LAWMEN, guard)
    frontier = {card.idx for card in state.spec.defs if card.id in ("robbers-roost", "banditos")}
    assert frontier <= state.spec.play_watch_defs[LAWMEN]  # the Rangers watch for them ...
    assert not frontier & {state.spec.def_of[u] for u in state.spec.decks[GANG]}  # ... in vain


# -- homebrew cards, one per new step -----------------------------------------------------------
def _card(card_id: str, faction: str, play: str, cost: int = 0, firepower: int | None = None,
          category: str | None = None, **extra: Any) -> dict[str, Any]:
    card = {"id": card_id, "name": extra.pop("name", card_id.replace("-", " ").title()),
            "faction": faction, "play": play, "cost": cost, "copies": 2, "deckable": False,
            "category": category or ("firepower" if play == "firepower" else "action")}
    if firepower is not None:
        card["firepower"] = firepower
    card.update(extra)
    return card


BULLET_DEAD = {"do": "only-if", "condition": {"dead": ["bullet"]}}
EXPANSION_CARDS = [
    _card("pinkerton-rookie", "mcready", "firepower", 2, 2, "character"),
    _card("desk-sergeant", "mcready", "firepower", 1, 1, "character", effect=[
        {"do": "cost-reduction", "amount": 3, "name_contains": "Pinkerton"}]),
    _card("lookout-rock", "mcready", "firepower", 0, 0, "location", icons=["scope"],
          movable=False,
          effect=[{"do": "unaffected-by",
                   "target": {"side": "opponent", "where": "any", "cards": ["sandstorm"]}}],
          triggers=[{"when": "on-destroyed", "steps": [{"do": "draw"}]},
                    {"when": "opponent-plays-while-in-play", "cards": ["stick-of-dynamite"],
                     "here": True, "optional": False, "steps": [{"do": "destroy-self"}]}]),
    _card("six-shooter", "mcready", "firepower", 0, 2, effect=[
        {"do": "attach", "target": {"side": "self", "where": "any",
                                    "categories": ["character"]}}],
          abilities=[{"name": "ride", "steps": [
              {"do": "move-card", "target": {"side": "self", "host": True}, "to": "current"}]}]),
    _card("iron-marshal", "mcready", "firepower", 1, 1, "character", triggers=[
        {"when": "opponent-plays", "cards": ["38-special"],
         "steps": [BULLET_DEAD, {"do": "cancel-card"}]},
        {"when": "opponent-plays-while-in-play", "cards": ["38-special"],
         "steps": [BULLET_DEAD, {"do": "remove-self"}, {"do": "cancel-card"}]}]),
    _card("border-guard", "mcready", "firepower", 0, 1, "character", effect=[
        {"do": "only-if", "condition": {"marker_before": "rattlesnake-creek"}}]),
    _card("quiet-oath", "mcready", "firepower", 0, 1, "character", abilities=[
        {"name": "mourn", "steps": [BULLET_DEAD, {"do": "draw"}]}]),
    _card("outhouse", "colty", "firepower", 0, 0, "location", movable=False,
          counts_toward_limit=False, triggers=[
              {"when": "card-arrives-here", "cards": ["cowboy"], "optional": False,
               "steps": [{"do": "casualty"}, {"do": "discard-self"}]}]),
    _card("crowbar", "colty", "one-shot", 0, effect=[
        {"do": "only-if", "condition": {"marker_at": ["rattlesnake-creek"],
                                        "in_play": ["cactus-field"]}},
        {"do": "destroy", "target": {"side": "opponent", "where": "any",
                                     "cards": ["cactus-field"]}, "remove_from_game": True}]),
    _card("lasso", "colty", "one-shot", 0, effect=[
        {"do": "move-card", "target": {"side": "opponent", "categories": ["character"]},
         "to": "previous"}]),
    _card("spyglass-shot", "colty", "one-shot", 0, effect=[
        {"do": "destroy", "target": {"side": "any", "where": "any", "icons": ["scope"]},
         "remove_from_game": True}]),
    _card("eagle-shadow", "colty", "one-shot", 0, effect=[
        {"do": "add-token", "token": "eagle",
         "target": {"side": "opponent", "where": "any", "categories": ["character"]}}]),
    _card("late-bloomer", "colty", "firepower", 0, 1, effect=[
        {"do": "only-if", "condition": {"marker_at": ["3-15-express"]}, "blocks_play": False},
        {"do": "draw"}]),
]

_CATALOG: Catalog | None = None


def expansion_catalog() -> Catalog:
    global _CATALOG
    if _CATALOG is None:
        data = synthetic_set().model_dump(mode="json")
        data.update(id="synthetic-expansions", name="Synthetic with expansion steps",
                    cards=COLTY_CARDS + MCREADY_CARDS + EXPANSION_CARDS, characters=BANDITS)
        catalog = Catalog()
        catalog.add_set(LoadedSet(CardSet.model_validate(data), Path("<synthetic>"), "package"))
        _CATALOG = catalog
    return _CATALOG


def expansion_decks() -> list[dict[str, int]]:
    catalog = expansion_catalog()
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    for card in EXPANSION_CARDS:
        decks[0 if card["faction"] == "colty" else 1][card["id"]] = 2
    return decks


def game(player: int, seed: int = 0) -> State:
    """A game at `player`'s first play phase, both hands put back under the decks."""
    state = new_game(expansion_decks(), seed=seed, catalog=expansion_catalog(), verbose=True)
    if player == LAWMEN:
        state.apply(PASS)
    clear_hand(state, GANG)
    clear_hand(state, LAWMEN)
    refresh(state)
    return state


def ids(state: State, uids: list[int]) -> list[str]:
    return sorted(state.spec.card_def[uid].id for uid in uids)


def at(state: State, bf: int, player: int) -> list[str]:
    return ids(state, state.rows[2 * bf + player])


def test_random_games_exercise_every_new_step() -> None:
    seen: Counter[str] = Counter()
    fragments = {"attach": "is put under", "remove-from-game": "destroyed and removed",
                 "discard-self": "is discarded from play", "only-if": "condition does not hold",
                 "move": "moves to", "cancel": "is cancelled"}
    for seed in range(120):
        state = new_game(expansion_decks(), seed=seed, catalog=expansion_catalog(),
                         verbose=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.check_invariants()
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        state.check_invariants()
        text = "\n".join(state.log)
        seen.update(name for name, fragment in fragments.items() if fragment in text)
    assert set(seen) == set(fragments), seen


def test_only_if_blocks_a_play_until_the_condition_holds() -> None:
    state = game(LAWMEN)
    hand(state, LAWMEN, "border-guard")
    assert "play Border Guard" in names(state)  # the Bank: before Rattlesnake Creek
    stage_marker(state, "rattlesnake-creek", "1")
    refresh(state)
    assert "play Border Guard" not in names(state)


def test_only_if_without_blocks_play_skips_only_what_follows() -> None:
    state = game(GANG)
    hand(state, GANG, "late-bloomer")
    do(state, "play Late Bloomer")  # playable at the Bank; its draw needs the train
    assert state.hands[GANG] == []
    stage_marker(state, "3-15-express", "1")
    hand(state, GANG, "late-bloomer")
    do(state, "play Late Bloomer")
    assert len(state.hands[GANG]) == 1


def test_a_condition_on_a_dead_bandit_gates_a_reaction_from_the_hand() -> None:
    state = game(GANG)
    hand(state, LAWMEN, "iron-marshal")
    hand(state, GANG, "38-special")
    do(state, "play .38 Special")  # Bullet alive: no reaction is offered
    assert at(state, 0, GANG) == ["38-special"]
    stage_character(state, "bullet", alive=False)
    hand(state, GANG, "38-special")
    do(state, "play .38 Special")
    assert state.current_player() == LAWMEN and "react with Iron Marshal" in names(state)
    do(state, "react with Iron Marshal")
    assert at(state, 0, GANG) == ["38-special"]  # the second .38 is cancelled
    assert ids(state, state.discards[LAWMEN]) == ["iron-marshal"]  # no cost beyond itself


def test_a_card_in_play_may_cancel_by_leaving_the_game() -> None:
    state = game(GANG)
    (marshal,) = in_play(state, LAWMEN, "iron-marshal", battlefield="buzzard-point")
    stage_character(state, "bullet", alive=False)
    hand(state, GANG, "38-special", "38-special")
    do(state, "play .38 Special")
    assert state.pending_kind == K_OPTIONAL and state.legal_actions() == [PASS, ACCEPT]
    state.apply(PASS)
    assert at(state, 0, GANG) == ["38-special"] and state.card_zone(marshal) == "play@2"
    do(state, "play .38 Special")
    state.apply(ACCEPT)
    assert at(state, 0, GANG) == ["38-special"]
    assert state.card_zone(marshal) == "removed"


def test_cost_reduction_only_at_the_current_battlefield_and_never_below_zero() -> None:
    state = game(LAWMEN)
    (sergeant,) = in_play(state, LAWMEN, "desk-sergeant", battlefield="whiskey-canyon")
    hand(state, LAWMEN, "pinkerton-rookie", "cowboy")
    assert "play Pinkerton Rookie" not in names(state)  # costs 2, one other card in hand
    stage_marker(state, "whiskey-canyon", "1")
    refresh(state)
    do(state, "play Pinkerton Rookie")  # 2 - 3: free
    assert ids(state, state.hands[LAWMEN]) == ["cowboy"]
    assert at(state, 1, LAWMEN) == ["desk-sergeant", "pinkerton-rookie"]
    assert state.card_zone(sergeant) == "play@1"


def test_unaffected_by_sandstorm_neither_counts_nor_is_stopped() -> None:
    state = game(LAWMEN)
    in_play(state, GANG, "sandstorm")
    in_play(state, LAWMEN, "cowboy", "lookout-rock")
    hand(state, LAWMEN, "cowboy", "lookout-rock")
    assert "play Cowboy" in names(state)  # the rock does not count: one of two
    do(state, "play Cowboy")
    assert "play Cowboy" not in names(state) and "play Lookout Rock" in names(state)
    do(state, "play Lookout Rock")
    assert at(state, 0, LAWMEN) == ["cowboy", "cowboy", "lookout-rock", "lookout-rock"]


def test_dynamite_here_destroys_the_watching_card_first() -> None:
    state = game(GANG)
    stage_marker(state, "whiskey-canyon", "1")
    in_play(state, LAWMEN, "lookout-rock", "deputy", battlefield="whiskey-canyon")
    (far,) = in_play(state, LAWMEN, "lookout-rock", battlefield="bank")
    hand(state, GANG, "stick-of-dynamite", "38-special")
    do(state, "play Stick Of Dynamite")
    assert at(state, 1, LAWMEN) == ["deputy"] and len(state.hands[LAWMEN]) == 1  # it drew
    assert state.card_zone(far) == "play@0"  # only the one where the dynamite went off
    do(state, "kill Deputy")
    assert at(state, 1, LAWMEN) == []


def test_attach_adds_firepower_moves_with_and_leaves_with_its_host() -> None:
    state = game(LAWMEN)
    hand(state, LAWMEN, "six-shooter")
    assert "play Six Shooter" not in names(state)  # no character to go under
    (deputy,) = in_play(state, LAWMEN, "deputy", battlefield="whiskey-canyon")
    in_play(state, LAWMEN, "cowboy")
    do(state, "play Six Shooter", "put it under Deputy")
    (shooter,) = [u for u in state.rows[3] if u != deputy]
    assert firepower(state, 1, LAWMEN) == 2 + 2 and state.placed[deputy].firepower == 2
    assert state.placed[shooter].host == deputy
    do(state, "use Six Shooter: ride")
    assert at(state, 0, LAWMEN) == ["cowboy", "deputy", "six-shooter"]
    assert firepower(state, 0, LAWMEN) == 1 + 2 + 2
    do(state, "end play phase")  # the attack kills a gang member: the gang's turn next
    while state.current_player() == GANG and state.pending_kind != 0:
        state.apply(state.legal_actions()[-1])
    hand(state, GANG, "chew-on-this-gringo")
    do(state, "play Chew On This Gringo", "kill Deputy")
    assert state.card_zone(shooter) == "discard" and state.card_zone(deputy) == "discard"
    state.check_invariants()


def test_attached_cards_are_no_targets_and_go_with_their_host_in_a_derail() -> None:
    state = game(LAWMEN)
    stage_marker(state, "3-15-express", "1")
    in_play(state, LAWMEN, "deputy")
    hand(state, LAWMEN, "six-shooter")
    do(state, "play Six Shooter")
    assert at(state, 4, LAWMEN) == ["deputy", "six-shooter"]
    do(state, "end play phase")
    while state.current_player() == GANG and state.pending_kind != 0:
        state.apply(state.legal_actions()[-1])
    hand(state, GANG, "fire-at-will-boys", "38-special")
    do(state, "play Fire At Will Boys")  # one target only: the Deputy, not his pistol
    assert "destroy Six Shooter" not in " ".join(names(state))
    assert at(state, 4, LAWMEN) == []
    assert ids(state, state.discards[LAWMEN]) == ["deputy", "six-shooter"]
    (deputy,) = in_play(state, LAWMEN, "deputy")
    shooter = stage(state, LAWMEN, "six-shooter", "hand")
    state.hands[LAWMEN].remove(shooter)
    state.limbo.append(shooter)
    attach_card(state, shooter, deputy, state.spec.card_def[shooter].modes[0])
    state.check_invariants()
    do(state, "activate Derail the Train", "stop saving bandits")
    assert state.is_terminal()  # nobody saved: the gang loses
    assert state.card_zone(shooter) == "discard" and state.card_zone(deputy) == "discard"
    state.check_invariants()


def test_a_card_arriving_here_sets_off_the_watcher() -> None:
    state = game(GANG)
    (outhouse,) = in_play(state, GANG, "outhouse")
    do(state, "end play phase")
    hand(state, LAWMEN, "deputy", "cowboy")
    do(state, "play Deputy", "pay: discard Cowboy")
    assert state.card_zone(outhouse) == "play@0"
    hand(state, LAWMEN, "cowboy")
    alive = sum(state.alive)
    do(state, "play Cowboy")
    while state.current_player() == GANG:  # the gang picks its casualty among equals
        state.apply(state.legal_actions()[0])
    assert sum(state.alive) == alive - 1
    assert state.card_zone(outhouse) == "discard"


def test_destroy_with_remove_from_game_and_an_icon_filter() -> None:
    state = game(GANG)
    (rock,) = in_play(state, LAWMEN, "lookout-rock", battlefield="buzzard-point")
    in_play(state, LAWMEN, "deputy")
    hand(state, GANG, "spyglass-shot")
    do(state, "play Spyglass Shot")
    assert state.card_zone(rock) == "removed"
    assert len(state.hands[LAWMEN]) == 1  # it still counts as destroyed: the rock drew


def test_crowbar_needs_its_place_and_its_target() -> None:
    state = game(GANG)
    hand(state, GANG, "crowbar")
    assert "play Crowbar" not in names(state)
    stage_marker(state, "rattlesnake-creek", "1")
    refresh(state)
    assert "play Crowbar" not in names(state)  # no Cactus Field in play
    (cactus,) = in_play(state, LAWMEN, "cactus-field", battlefield="bank")
    do(state, "play Crowbar")
    assert state.card_zone(cactus) == "removed"


def test_move_a_lawman_back_one_battlefield() -> None:
    state = game(GANG)
    hand(state, GANG, "lasso")
    (deputy,) = in_play(state, LAWMEN, "deputy")
    do(state, "play Lasso")  # at the Bank there is no battlefield before
    assert state.card_zone(deputy) == "play@0"
    stage_marker(state, "buzzard-point", "1")
    from deckbuilder.engine.board import relocate

    relocate(state, deputy, 2)
    hand(state, GANG, "lasso")
    do(state, "play Lasso")
    assert state.card_zone(deputy) == "play@1"


def test_an_ability_gated_by_a_condition() -> None:
    state = game(LAWMEN)
    in_play(state, LAWMEN, "quiet-oath")
    assert "use Quiet Oath: mourn" not in names(state)
    stage_character(state, "bullet", alive=False)
    refresh(state)
    do(state, "use Quiet Oath: mourn")
    assert len(state.hands[LAWMEN]) == 1


def test_an_eagle_token_empties_the_cards_under_its_card() -> None:
    state = game(LAWMEN)
    in_play(state, LAWMEN, "deputy")
    hand(state, LAWMEN, "six-shooter")
    do(state, "play Six Shooter")
    assert firepower(state, 0, LAWMEN) == 2 + 2
    do(state, "end play phase")
    while state.current_player() == GANG and state.pending_kind != 0:
        state.apply(state.legal_actions()[-1])
    hand(state, GANG, "eagle-shadow")
    do(state, "play Eagle Shadow")
    assert firepower(state, 0, LAWMEN) == 0
    state.check_invariants()

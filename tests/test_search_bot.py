"""The search bot's economies and its Revolver 2 judge: small decisions taken by the game's
rule without a search, and the judge that counts the guardians the spaces ahead can recruit,
with which the search guardian stays where the greedy one moves on. How much stronger that
makes it is measured over hundreds of games (benchmarks/calibrate.py; the ladders in
docs/maintainers/performance.md): 60 games could not tell it reliably."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
import toy_game as toy

from deckbuilder.bots import CHEAP_SEARCH, IsmctsBot, SearchBot, is_mid_move, make_bot
from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import BF_BASE, PASS
from deckbuilder.engine.state import State
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver2.bots.quick import quick_choice
from deckbuilder.games.revolver2.bots.scoring import ScoringGreedy
from deckbuilder.games.revolver2.bots.search_judge import judge, recruits_ahead
from deckbuilder.games.revolver2.declaration import K_STAY

REVOLVER2 = get_game("revolver2").heuristics


def decks() -> list[dict[str, int]]:
    catalog = default_catalog()
    return [catalog.base_deck("revolver2", "esteban"), catalog.base_deck("revolver2", "mapache")]


def greedy_positions(seeds: range) -> Iterator[State]:
    """Every decision of seeded greedy games of Revolver 2's base decks."""
    bot = ScoringGreedy()
    for seed in seeds:
        state = new_game(decks(), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(bot.choose(state, rng))


def counting_search(spec: str) -> tuple[SearchBot, list[int]]:
    """A search bot that counts the rounds it spends rollouts in."""
    bot = make_bot(spec, REVOLVER2)
    assert isinstance(bot, SearchBot)
    rounds: list[int] = []
    original = bot._try

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        rounds.append(1)
        return original(*args, **kwargs)

    bot._try = spy  # type: ignore[method-assign]
    return bot, rounds


def test_small_decisions_follow_the_games_rule_without_a_search() -> None:
    """Which card pays a cost, which guardian falls: the game's quick rule answers, as inside
    every rollout; `quick=false` searches them as before."""
    quick_bot, quick_rounds = counting_search("search:rollouts=4")
    full_bot, full_rounds = counting_search("search:rollouts=4,quick=false")
    checked = 0
    for state in greedy_positions(range(3)):
        actions = state.legal_actions()
        if len(actions) < 2 or not is_mid_move(state):
            continue
        rule = quick_choice(state, actions)
        if rule is None:
            continue
        assert quick_bot.choose(state, random.Random(1)) == rule
        full_bot.choose(state, random.Random(1))
        checked += 1
        if checked == 8:
            break
    assert checked == 8
    assert not quick_rounds
    assert len(full_rounds) >= checked


def test_revolver2_search_ends_its_rollouts_with_the_recruit_judge() -> None:
    assert make_bot("search", REVOLVER2).judge is judge
    value_bot = make_bot("search:judge=value", REVOLVER2)
    assert value_bot.judge is None and value_bot.name == "search:judge=value"
    assert make_bot("search", get_game("revolver").heuristics).judge is None
    assert make_bot("greedy", REVOLVER2).name == "greedy"  # the greedy bot is untouched


def stay_decisions(seeds: range) -> Iterator[State]:
    """Positions where the guardians choose to stay or move on, the pile still well filled."""
    for state in greedy_positions(seeds):
        if state.pending_kind == K_STAY and len(state.pile) >= 9:
            yield state.clone()


def test_moving_on_leaves_the_skipped_spaces_recruits_behind() -> None:
    """After staying, the spaces still ahead hold the rest of this battlefield's recruits and
    the next one's first space's, which moving on skips (read from the battlefield data)."""
    checked = 0
    for state in stay_decisions(range(6)):
        bf = state.marker_bf
        stay, move = BF_BASE + bf, BF_BASE + bf + 1
        assert sorted(state.legal_actions()) == [stay, move]
        after_stay, after_move = state.clone(), state.clone()
        after_stay.apply(stay)
        after_move.apply(move)
        assert (after_stay.marker_bf, after_move.marker_bf) == (bf, bf + 1)
        recruits = state.spec.bfs[bf].recruits
        skipped = sum(recruits[after_stay.marker_space + 1:]) + state.spec.bfs[bf + 1].recruits[0]
        assert recruits_ahead(after_stay) - recruits_ahead(after_move) == skipped
        assert skipped > 0
        # the judge counts them: the same position judged with more recruits ahead is better
        guardians = judge(after_stay, 0)
        after_stay.pile.clear()
        assert recruits_ahead(after_stay) == 0
        assert judge(after_stay, 0) < guardians
        checked += 1
    assert checked >= 4


def test_the_recruit_judge_makes_the_search_stay_where_the_greedy_value_moves_on() -> None:
    """The guardians' stay-or-move-on decisions of seeded games: judging with the greedy's
    value the search moves on at most of them (one space nearer the mine, the recruits it
    gives up out of sight); with the recruit judge it stays at more of them."""
    positions = list(stay_decisions(range(10)))
    assert len(positions) >= 10
    stays = {}
    for spec in ("search:judge=value", "search"):
        bot = make_bot(spec, REVOLVER2)
        stays[spec] = sum(bot.choose(state, random.Random(index)) == BF_BASE + state.marker_bf
                          for index, state in enumerate(positions))
    assert stays["search"] >= stays["search:judge=value"] + len(positions) // 4, stays


def test_a_copy_draws_the_same_chance_as_the_world_it_was_copied_from() -> None:
    """The last candidate of each world plays on the re-dealt world itself, the others on
    copies of it: the same luck for all only while a copy draws what the world would have
    drawn. Each candidate's rollout on the world and on a copy must agree."""
    bot = make_bot("search:rollouts=4", REVOLVER2)
    assert isinstance(bot, SearchBot)
    checked = 0
    for index, state in enumerate(greedy_positions(range(2))):
        actions = state.legal_actions()
        if len(actions) < 2 or index % 5:
            continue
        player = state.current_player()
        for action in actions:
            world = state.resample_hidden(player, random.Random(index))
            copy = world.clone()
            values = []
            for trial in (copy, world):
                trial.apply(action)
                values.append(bot._rollout(trial, player, state.turn + 1, random.Random(7)))
            assert values[0] == values[1]
            assert world.legal_actions() == copy.legal_actions()
            assert (world.hands, world.decks) == (copy.hands, copy.decks)
        checked += 1
    assert checked >= 10


def planted_double() -> toy.ToyState:
    """Red at 8 of the toy race's 12 with a `double` and a `step-2` in hand and two plays
    left: `double` then `step-2` wins this turn; `step-2` first (the one-ply greedy's choice:
    it moves at once) does not. Blue is at 11 and wins on its turn."""
    state = toy.new_game([toy.TOY_DECK, toy.TOY_DECK], 3)
    state.hands[0] = [0, 1, 0, 1, 0, 0]
    state.positions = [8, 11]
    state.plays_left = 2
    return state


def one_ply_values(state: toy.ToyState, actions: list[int], player: int,
                   rng: random.Random) -> list[float]:
    """The toy's greedy ranking: each option's position judged after it."""
    values = []
    for action in actions:
        after = state.clone()
        after.apply(action)
        values.append(toy.evaluate(after, player))
    return values


@pytest.mark.parametrize("spec", ["search:top=2,allocate=uniform,rollouts=1",
                                  "ismcts:iterations=40,horizon=1",
                                  "ismcts:iterations=40,horizon=1,widen=rank"])
def test_a_search_finds_the_win_the_greedy_misses(spec: str) -> None:
    state = planted_double()
    assert make_bot("greedy", toy.evaluate).choose(state, random.Random(1)) == toy.STEP_2
    bot = dataclasses.replace(make_bot(spec, toy.evaluate), rank=one_ply_values)
    assert isinstance(bot, SearchBot)
    assert bot.choose(state, random.Random(1)) == toy.DOUBLE


def test_ismcts_widening_by_rank_tries_the_rank_favourite_first() -> None:
    """`widen=rank` adds a node's options in the order `rank` values them: with one
    iteration the root has tried only the greedy's favourite, whatever the seed; widening
    at random tries other options on some seeds."""
    def first_tried(widen: str, seed: int) -> int:
        bot = dataclasses.replace(make_bot(f"ismcts:iterations=1,horizon=1,widen={widen}",
                                           toy.evaluate), rank=one_ply_values)
        return bot.choose(planted_double(), random.Random(seed))
    assert {first_tried("rank", seed) for seed in range(12)} == {toy.STEP_2}
    assert len({first_tried("greedy", seed) for seed in range(12)}) > 1


def test_ismcts_is_reproducible_per_seed() -> None:
    """The same seed, the same choices; another seed may differ, but the tree search over
    re-dealt worlds never reads the true hidden cards."""
    def choices(seed: int) -> list[int]:
        bot = make_bot("ismcts:iterations=30", REVOLVER2)
        assert isinstance(bot, IsmctsBot)
        return [bot.choose(state, random.Random(seed + index))
                for index, state in enumerate(greedy_positions(range(1)))
                if len(state.legal_actions()) > 1 and index % 7 == 0]
    first = choices(5)
    assert len(first) >= 5
    assert choices(5) == first


def main_decisions(seeds: range, least: int) -> Iterator[State]:
    """Revolver 2's main decisions of seeded greedy games with at least `least` options."""
    for state in greedy_positions(seeds):
        if not is_mid_move(state) and len(state.legal_actions()) >= least:
            yield state.clone()


def test_the_cheap_level_searches_the_favourites_and_ending_the_play_phase() -> None:
    """`top=3`: the rollout bot's three best options and PASS, which its values under-rate;
    `allocate=check`: one world each, and one more for the rollouts' best and the favourite
    where they differ."""
    bot = make_bot(CHEAP_SEARCH, REVOLVER2)
    assert isinstance(bot, SearchBot) and bot.rank is not None
    tried: list[list[int]] = []
    original = bot._try

    def spy(state, actions, alive, *rest):  # type: ignore[no-untyped-def]
        tried.append([actions[index] for index in alive])
        if len(tried) == 1:
            tried.append([-1 if bot._favourite is None else bot._favourite])
        return original(state, actions, alive, *rest)

    bot._try = spy  # type: ignore[method-assign]
    checks = 0
    for state in main_decisions(range(4), 6):
        actions = state.legal_actions()
        values = bot.rank(state, actions, state.current_player(), random.Random(1))
        best = [actions[index] for index in
                sorted(range(len(actions)), key=values.__getitem__, reverse=True)[:3]]
        tried.clear()
        bot.choose(state, random.Random(1))
        first, favourite = tried[0], tried[1][0]
        assert set(first) == {*best, PASS} and favourite in best
        if len(tried) > 2:
            assert favourite in tried[2] and len(tried[2]) == 2
            checks += 1
    assert checks >= 3


def test_small_decisions_of_more_options_than_small_are_the_rollout_bots() -> None:
    """`small=2`: staying or moving on is searched; a choice among more is the rollout bot's."""
    bot = make_bot("search:small=2", REVOLVER2)
    assert isinstance(bot, SearchBot) and bot.rollout_bot is not None
    searched = taken = 0
    for state in greedy_positions(range(6)):
        actions = state.legal_actions()
        if not is_mid_move(state) or quick_choice(state, actions) is not None:
            continue
        candidates = bot._candidates(state, random.Random(2))
        if len(actions) == 2:
            assert candidates == actions
            searched += 1
        elif len(actions) > 2:
            assert candidates == [bot.rollout_bot.choose(state, random.Random(2))]
            taken += 1
    assert searched and taken

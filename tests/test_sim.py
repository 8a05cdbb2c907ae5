"""Batch simulation on the toy race: seeds, executors, pairing and the report's arithmetic."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import pytest
import toy_game as toy

from deckbuilder.sim import (
    Contestant,
    GameJob,
    ProcessExecutor,
    SerialExecutor,
    build_report,
    game_seed,
    game_seeds,
    play_one,
    simulate,
)
from deckbuilder.sim.runs.runner import deck_items
from deckbuilder.sim.runs.seeds import bot_seed

T = TypeVar("T")
R = TypeVar("R")
PLAYERS = toy.PLAYER_NAMES["toy"]
SLOW_DECK = {"step-1": 8, "guard": 6, "double": 6}  # short steps only: a poor racer


def run_toy(games: int = 30, seed: int = 5, **options):
    deck = options.pop("deck", Contestant("racer", toy.TOY_DECK, "greedy"))
    opponent = options.pop("opponent", Contestant("rival", toy.TOY_DECK, "random"))
    return simulate(deck, opponent, side=options.pop("side", 0), games=games, seed=seed,
                    new_game=toy.new_game, evaluate=toy.evaluate, game="toy",
                    ruleset="toy", keep_results=True, **options)


# -- seeds -----------------------------------------------------------------------------------
def test_game_seeds_depend_only_on_master_and_index() -> None:
    seeds = game_seeds(42, 1000)
    assert game_seeds(42, 10) == seeds[:10]  # a longer batch extends a shorter one
    assert len(set(seeds)) == 1000
    assert seeds != game_seeds(43, 1000)
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert game_seed(42, 999) == seeds[999]
    assert bot_seed(seeds[0], 0) != bot_seed(seeds[0], 1)


# -- executors -------------------------------------------------------------------------------
def test_results_are_identical_for_one_and_two_workers() -> None:
    serial = run_toy(games=40, workers=1)
    parallel = run_toy(games=40, workers=2)
    assert serial.results == parallel.results
    assert [result.index for result in parallel.results] == list(range(40))


#: The toy race has no rule switches: this one, "sprint", shortens the games to three turns.
def toy_with_switches(decks, seed, ruleset="toy", game="toy", max_turns=200, switches=None):
    if switches is not None and set(switches) != {"sprint"}:
        raise ValueError(f"the toy race has no switch {sorted(switches)}")
    short = switches is not None and switches["sprint"] == "on"
    return toy.new_game(decks, seed, ruleset, game=game, max_turns=3 if short else max_turns)


def test_a_rule_switch_reaches_every_worker_and_plays_the_same_games() -> None:
    def sprint(workers: int, switches: dict[str, str] | None):
        return simulate(Contestant("racer", toy.TOY_DECK, "greedy"),
                        Contestant("rival", toy.TOY_DECK, "random"), side=0, games=16, seed=5,
                        new_game=toy_with_switches, evaluate=toy.evaluate, game="toy",
                        ruleset="toy", workers=workers, switches=switches, keep_results=True)

    plain = sprint(1, None)
    serial, parallel = sprint(1, {"sprint": "on"}), sprint(2, {"sprint": "on"})
    assert serial.config.switches == (("sprint", "on"),)
    assert serial.results == parallel.results
    assert {r.termination for r in serial.results} == {"turn_cap"}  # the switch was played
    assert all(r.turns == 3 for r in serial.results)
    assert any(r.termination != "turn_cap" for r in plain.results)
    assert sprint(2, {"sprint": "off"}).results == plain.results


def test_switches_in_a_job_are_sorted_hashable_and_picklable() -> None:
    import pickle

    from deckbuilder.sim.runs.runner import switch_items

    items = switch_items({"b-rule": "two", "a-rule": "one"})
    assert items == switch_items({"a-rule": "one", "b-rule": "two"}) == (
        ("a-rule", "one"), ("b-rule", "two"))
    spec = GameJob(index=0, seed=1, decks=(deck_items(toy.TOY_DECK),) * 2,
                   bots=("random", "random"), game="toy", ruleset="toy",
                   new_game=toy_with_switches, evaluate=toy.evaluate,
                   switches=switch_items({"sprint": "on"}))
    assert hash(spec) == hash(pickle.loads(pickle.dumps(spec)))
    assert play_one(pickle.loads(pickle.dumps(spec))).turns == 3


class ShuffledExecutor:
    """An executor that returns results in a random order, like a distributed one might."""

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        results = [fn(item) for item in items]
        random.Random(1).shuffle(results)
        return iter(results)


def test_any_executor_gives_the_same_results_in_game_order() -> None:
    reference = run_toy(games=25, executor=SerialExecutor())
    shuffled = run_toy(games=25, executor=ShuffledExecutor())
    assert shuffled.results == reference.results
    chunked = run_toy(games=25, executor=ProcessExecutor(workers=2, chunk_size=3))
    assert chunked.results == reference.results


def test_a_game_is_a_picklable_task_that_replays_exactly() -> None:
    import pickle

    spec = GameJob(index=3, seed=game_seed(9, 3),
                    decks=(deck_items(toy.TOY_DECK), deck_items(toy.TOY_DECK)),
                    bots=("greedy", "search:rollouts=4,horizon=1"), game="toy", ruleset="toy",
                    new_game=toy.new_game, evaluate=toy.evaluate)
    copy = pickle.loads(pickle.dumps(spec))
    assert play_one(copy) == play_one(spec)


def test_different_seeds_give_different_games() -> None:
    first, second = run_toy(games=20, seed=1), run_toy(games=20, seed=2)
    assert [r.turns for r in first.results] != [r.turns for r in second.results]


# -- pairing ---------------------------------------------------------------------------------
def test_a_baseline_identical_to_the_deck_differs_in_nothing() -> None:
    run = run_toy(games=30, baseline=Contestant("same again", toy.TOY_DECK, "greedy"))
    assert [(r.winner, r.turns) for r in run.results] == [
        (r.winner, r.turns) for r in run.baseline_results
    ]
    baseline = build_report(run, PLAYERS)["baseline"]
    assert baseline["difference"] == {"estimate": 0.0, "low": 0.0, "high": 0.0}
    assert baseline["games_with_different_winner"] == 0


def test_a_worse_deck_shows_a_negative_paired_difference() -> None:
    weak = Contestant("short steps", SLOW_DECK, "greedy")
    strong = Contestant("full", toy.TOY_DECK, "greedy")
    rival = Contestant("rival", toy.TOY_DECK, "greedy")
    run = run_toy(games=60, deck=weak, opponent=rival, baseline=strong)
    difference = build_report(run, PLAYERS)["baseline"]["difference"]
    deck_rate = sum(r.winner == 0 for r in run.results) / 60
    base_rate = sum(r.winner == 0 for r in run.baseline_results) / 60
    assert difference["estimate"] == pytest.approx(deck_rate - base_rate)
    assert difference["low"] < difference["estimate"] < difference["high"] < 0


# -- the report ------------------------------------------------------------------------------
def test_report_counts_add_up() -> None:
    run = run_toy(games=60, side=1)
    report = build_report(run, PLAYERS, names={"shot": "Shot!"})
    sides = report["sides"]
    assert [side["faction"] for side in sides] == list(PLAYERS)
    assert sides[1]["is_deck_under_test"] and sides[1]["bot"] == "greedy"
    assert sides[0]["wins"] + sides[1]["wins"] + report["draws"]["games"] == 60
    assert sum(row["games"] for row in report["endings"]) == 60
    for side in sides:
        rate = side["win_rate"]
        assert rate["low"] <= side["wins"] / 60 <= rate["high"]
    cards = {row["id"]: row for row in report["cards"]["deck"]}
    assert set(cards) == set(toy.TOY_DECK)
    assert cards["shot"]["name"] == "Shot!"
    for row in cards.values():
        assert 0 <= row["played_per_game"] <= row["drawn_per_game"]
        assert row["wins_when_played"] <= row["games_played"] <= 60
    turns = report["length"]["turns"]
    assert turns["min"] <= turns["median"] <= turns["max"]
    assert [t["precision"] for t in report["precision"]["targets"]] == [0.05, 0.02, 0.01]
    assert report["baseline"] is None
    assert "deck and the bots together" in report["note"]


def test_turn_cap_games_are_counted_as_draws() -> None:
    run = run_toy(games=20, max_turns=3)
    report = build_report(run, PLAYERS)
    assert report["draws"]["games"] > 0
    ending = {row["termination"]: row for row in report["endings"]}
    assert ending["turn_cap"]["games"] == report["draws"]["games"]
    assert ending["turn_cap"]["winners"] == {"draw": report["draws"]["games"]}


def test_an_unplayable_deck_fails_before_any_game_is_played() -> None:
    played: list[object] = []
    with pytest.raises(toy.UnplayableDeckError, match="gatling-gun"):
        run_toy(deck=Contestant("odd", {"gatling-gun": 3, "step-1": 5}),
                on_result=played.append)
    assert played == []


def test_progress_is_reported_once_per_game() -> None:
    seen: list[int] = []
    run_toy(games=12, workers=2, on_result=lambda result: seen.append(result.index))
    assert sorted(seen) == list(range(12))

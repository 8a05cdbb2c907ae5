"""The optimiser's race spends its budget where it can change the answer: a candidate leaves
only on evidence, a strong candidate with an unlucky start is looked at again, the games are
scored over a weighted field, and the result says what the budget bought and why."""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from typer.testing import CliRunner

from deckbuilder.app.play_decks import load_sim_deck
from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.sim.optimize_candidates import Candidate, Swap
from deckbuilder.sim.optimize_table import Opponent, Table, TableSettings, score
from deckbuilder.sim.racing import FIRST_UNITS, LEAST_TO_DROP, Race
from deckbuilder.sim.runner import GameJob, SerialExecutor, deck_items, run_games
from deckbuilder.sim.stats import paired_games_needed

runner = CliRunner()


class ScriptedTable:
    """A stand-in for the games: the deck wins half its units at random, and each
    candidate's unit i is `rule(i, deck's score)`; the budget is counted as the real one."""

    games_per_unit = 1

    def __init__(self, rules: Mapping[str, object], seed: int = 7) -> None:
        draw = random.Random(seed)
        self.deck = [float(draw.random() < 0.5) for _ in range(5000)]
        self.noise = [draw.random() for _ in range(5000)]
        self.rules = rules
        self.games = 0

    def play(self, asks: Sequence[tuple[str, Mapping[str, int], range]], offset: int = 0,
             keep: Sequence[str] = ()) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for label, _cards, indices in asks:
            rule = self.rules.get(label)
            found[label] = [self.deck[i] if rule is None else
                            rule(i, self.deck[i], self.noise[i])  # type: ignore[operator]
                            for i in indices]
            self.games += len(indices)
        return found


def _neutral(i: int, deck: float, noise: float) -> float:
    """A swap that changes nothing much: the deck's result, flipped one time in six."""
    return 1.0 - deck if noise < 1 / 6 else deck


def _hopeless(i: int, deck: float, noise: float) -> float:
    return 0.0


def _late_bloomer(i: int, deck: float, noise: float) -> float:
    """Much better than the deck (about +30 points), after an unlucky first few units."""
    if i < FIRST_UNITS:
        return 0.0
    return 1.0 if noise < 0.8 else deck * 0.0


def _candidates(count: int) -> list[Candidate]:
    return [Candidate((Swap(f"out{k}", f"in{k}"),), {}, f"c{k}") for k in range(count)]


def _race(rules: Mapping[str, object], count: int, budget: int) -> tuple[Race, list[Candidate]]:
    table = ScriptedTable(rules)
    race = Race(table, {})  # type: ignore[arg-type]
    pool = _candidates(count)
    race.enter(pool, budget)
    race.run(budget, "test")
    race.refit()
    return race, pool


def test_a_candidate_leaves_the_race_only_on_evidence() -> None:
    """Dropped: a swap that lost all of 30 units the deck won half of. Kept: the same swap
    after a few units (too few to tell), and swaps no worse than the deck."""
    table = ScriptedTable({})
    race = Race(table, {})  # type: ignore[arg-type]
    race.baseline = table.deck[:30]
    hopeless, early, *neutral = _candidates(6)
    hopeless.scores = [0.0] * 30
    early.scores = [0.0] * (LEAST_TO_DROP - 1)
    for candidate in neutral:
        candidate.scores = [_neutral(i, table.deck[i], table.noise[i]) for i in range(30)]
    race.pool = [hopeless, early, *neutral]
    race.rounds = 1
    race._drop()
    assert hopeless.dropped_by == "the deck" and hopeless.dropped_after == 30
    assert not early.dropped_after and not any(c.dropped_after for c in neutral)


def test_a_strong_swap_with_an_unlucky_start_is_found_with_a_larger_budget() -> None:
    """Ranked on its first units it is the worst of forty; halving the field by the mean
    dropped it at once. Here it is parked, not dropped, and re-sampled as the others'
    bounds fall, so a larger budget finds it."""
    rules: dict[str, object] = {f"c{k}": _neutral for k in range(40)}
    rules["c17"] = _late_bloomer
    small, small_pool = _race(rules, 40, 41 * FIRST_UNITS + 20)
    assert small.ranked()[0].label != "c17"
    assert not small_pool[17].dropped_after
    large, _ = _race(rules, 40, 2400)
    assert large.ranked()[0].label == "c17"


def test_a_unit_is_the_weighted_mean_over_the_field() -> None:
    catalog = default_catalog()
    mcready = dict(catalog.base_deck("revolver", "mcready"))
    colty = dict(catalog.base_deck("revolver", "colty"))
    fan = load_sim_deck("example-colty-fan-the-gun", catalog).cards
    field = [Opponent("colty", colty, 3.0), Opponent("fan the gun", fan, 1.0)]
    settings = TableSettings(1, field, ("random", "random"), 3, "revolver", None, None, (),
                             200)
    table = Table(settings, SerialExecutor(), mcready)
    units = table.play([("deck", mcready, range(6))])["deck"]
    assert table.games == 12
    for index, unit in enumerate(units):
        seed = table.seed_of(index)
        first, second = (run_games([GameJob(index=0, seed=seed, decks=(
            deck_items(opponent), deck_items(mcready)), bots=("random", "random"))])[0]
            for opponent in (colty, fan))
        assert unit == 0.75 * score(first, 1) + 0.25 * score(second, 1)
    assert len(set(units)) > 1


def test_games_needed_grow_with_the_noise_and_fall_with_the_difference() -> None:
    quiet, loud = [0.0, 0.5, -0.5, 0.0] * 5, [1.0, -1.0, 1.0, -1.0] * 5
    assert paired_games_needed(loud, 0.05) > paired_games_needed(quiet, 0.05)
    assert 3.5 < paired_games_needed(loud, 0.05) / paired_games_needed(loud, 0.1) < 4.5


def _deck(tmp_path: Path) -> Path:
    cards = dict(default_catalog().base_deck("revolver", "mcready"))
    del cards["deputy"]
    cards["texas-ranger"] = 10
    deck = tmp_path / "weakened.yaml"
    deck.write_text("name: McReady without his deputies\ngame: revolver\nfaction: mcready\n"
                    "cards:\n" + "".join(f"  {c}: {n}\n" for c, n in cards.items()),
                    encoding="utf-8")
    return deck


def test_the_games_that_changed_the_winner_replay_with_the_command_shown(
        tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    result = runner.invoke(app, ["optimize", str(deck), "--out", "texas-ranger", "--in",
                                 "deputy", "--budget", "120", "--seed", "3", "--bot",
                                 "random", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    explanation = json.loads(result.stdout)["explanation"]
    assert {card["role"] for card in explanation["cards"]} == {"in", "out"}
    for card in explanation["cards"]:
        assert card["drawn_in"] <= card["games"] == explanation["paired_games"]
    games = explanation["games"]
    assert games and explanation["changed_winner"] >= len(games)
    for game in games[:2]:
        assert game["deck"] != game["with_swap"]
        words = shlex.split(game["replay_deck"])
        assert words[:2] == ["deckbuilder", "play"] and str(game["seed"]) in words
        played = runner.invoke(app, [*words[1:], "--json"])
        assert played.exit_code == 0, played.output
        winner = json.loads(played.stdout)["outcome"]["winner"]
        expected = {"won": "mcready", "lost": "colty", "drew": None}[game["deck"]]
        assert winner == expected


def test_the_text_says_what_the_budget_bought_and_why(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    result = runner.invoke(app, ["optimize", str(deck), "--out", "texas-ranger", "--in",
                                 "deputy", "--budget", "120", "--seed", "3", "--bot",
                                 "random", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "what the budget bought: " in result.stdout
    assert "candidates told apart from the deck" in result.stdout
    assert "changed the winner in" in result.stdout and "deckbuilder play" in result.stdout


def test_a_field_of_weighted_opponents_scores_the_same_on_any_worker_count(
        tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    common = ["optimize", str(deck), "--vs", "colty", "--vs",
              "example-colty-fan-the-gun@3", "--out", "texas-ranger", "--in", "deputy",
              "--budget", "120", "--seed", "2", "--bot", "random", "--json"]
    serial = runner.invoke(app, [*common, "--workers", "1"])
    pooled = runner.invoke(app, [*common, "--workers", "2"])
    assert serial.exit_code == 0 and pooled.exit_code == 0, serial.output + pooled.output
    report = json.loads(serial.stdout)
    assert report == json.loads(pooled.stdout)
    assert [round(o["weight"], 2) for o in report["opponents"]] == [0.25, 0.75]
    assert report["games"] <= 120 and report["games"] % 2 == 0  # every unit meets both
    assert "field of 2 decks" in report["opponent"]

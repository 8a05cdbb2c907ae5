"""The optimiser's race spends its budget where it can change the answer: a candidate leaves
only on evidence, a strong candidate with an unlucky start is looked at again, the games are
scored over a weighted field, and the result says what the budget bought and why."""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from deckbuilder.app.play_decks import load_sim_deck
from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.sim.optimiser.optimize import OptimizeResult, OptimizeSettings, _confirm
from deckbuilder.sim.optimiser.optimize_candidates import Candidate, Swap
from deckbuilder.sim.optimiser.optimize_table import Opponent, Table, score
from deckbuilder.sim.optimiser.racing import FIRST_UNITS, LEAST_TO_DROP, Race
from deckbuilder.sim.reports.optimize_json import ChangedGameJson, ExplanationJson
from deckbuilder.sim.reports.optimize_report import explain, explanation_lines
from deckbuilder.sim.runs.runner import GameJob, GameResult, SerialExecutor, deck_items, run_games
from deckbuilder.sim.runs.stats import paired_games_needed

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


def test_a_lucky_one_card_swap_ranks_below_a_ten_card_swap_that_is_really_better() -> None:
    """A one-card swap that won its first units by luck (+37 points over 8 units, among
    thirty one-card swaps around zero) is shrunk towards zero, where such swaps lie; a
    ten-card swap's +17 over 24 units keeps most of its weight. On plain means the lucky
    swap led, and its games went to the wrong candidate."""
    table = ScriptedTable({})
    race = Race(table, {})  # type: ignore[arg-type]
    race.baseline = table.deck[:40]
    lucky = Candidate((Swap("a", "b"),), {}, "lucky")
    lucky.scores = [1.0] * 8  # won every unit, the deck's lost ones too
    strong = Candidate((Swap("c", "d", 10),), {}, "strong")
    # turns most of the deck's losses into wins, a few of its wins into losses
    strong.scores = [(0.0 if i % 9 == 0 else 1.0) if d == 1.0 else float(i % 4 != 0)
                     for i, d in enumerate(race.baseline[:24])]
    others = _candidates(30)
    for candidate in others:
        candidate.scores = [_neutral(i, table.deck[i], table.noise[i]) for i in range(16)]
    race.pool = [lucky, strong, *others]
    race.refit()
    plain = {c.label: sum(c.scores) / len(c.scores) - sum(race.baseline[:len(c.scores)]) /
             len(c.scores) for c in race.pool}
    assert plain["lucky"] > plain["strong"] > 0.1
    assert race.ranked()[0] is strong
    assert race.blended(lucky) < plain["lucky"] / 2
    assert race.contenders(3)[0] is strong


class KeepingTable(ScriptedTable):
    """The scripted games, kept whole as the confirmation keeps them."""

    def __init__(self, rules: Mapping[str, object]) -> None:
        super().__init__(rules)
        self.kept: dict[str, list[object]] = {}

    def play(self, asks: Sequence[tuple[str, Mapping[str, int], range]], offset: int = 0,
             keep: Sequence[str] = ()) -> dict[str, list[float]]:
        found = super().play(asks, offset, keep)
        for label in keep:
            self.kept.setdefault(label, []).extend(found.get(label, []))
        return found

    def seed_of(self, index: int, offset: int = 0) -> int:
        return offset + index


def test_the_confirmation_gives_its_games_to_the_finalists_it_cannot_tell_apart() -> None:
    """Three finalists on fresh seeds: every one plays the first half; the rest goes to the
    deck, the leader and the one finalist its paired games cannot tell apart from it, not to
    the one clearly behind (which played as many as the others under a fixed split)."""
    rules = {"best": lambda i, deck, noise: 1.0 if noise < 0.9 else deck,
             "close": lambda i, deck, noise: 1.0 if noise * 7919 % 1 < 0.9 else deck,
             "behind": lambda i, deck, noise: deck}
    table = KeepingTable(rules)
    finalists = [Candidate((Swap(label, "x"),), {}, label) for label in rules]
    settings = OptimizeSettings(side=1, opponent={}, budget=800)
    result = OptimizeResult({}, finalists, finalists, [], [], 0, settings)
    _confirm(result, table, finalists, {})  # type: ignore[arg-type]
    played = {c.label: len(c.confirmed) for c in finalists}
    assert table.games <= 800 and len(result.baseline_confirmed) == played["best"]
    assert played["best"] == played["close"] > played["behind"] * 1.5
    assert result.difference(finalists[0]).low > 0


def test_a_unit_is_the_weighted_mean_over_the_field() -> None:
    catalog = default_catalog()
    mcready = dict(catalog.base_deck("revolver", "mcready"))
    colty = dict(catalog.base_deck("revolver", "colty"))
    fan = load_sim_deck("example-colty-fan-the-gun", catalog).cards
    field = [Opponent("colty", colty, 3.0), Opponent("fan the gun", fan, 1.0)]
    settings = OptimizeSettings(side=1, bot="random", opponent_bot="random", seed=3,
                                field=field)
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
    """McReady's base deck with ten Texas Rangers for his Deputies: five boxes' worth
    (`optimize` is told so with BOXES)."""
    cards = dict(default_catalog().base_deck("revolver", "mcready"))
    del cards["deputy"]
    cards["texas-ranger"] = 10
    deck = tmp_path / "weakened.yaml"
    deck.write_text("name: McReady without his deputies\ngame: revolver\nfaction: mcready\n"
                    "cards:\n" + "".join(f"  {c}: {n}\n" for c, n in cards.items()),
                    encoding="utf-8")
    return deck


#: The boxes of The Tarnished Star the deck's ten Texas Rangers take (two a box).
BOXES = ("--boxes", "5")


def test_the_games_that_changed_the_winner_replay_with_the_command_shown(
        tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    result = runner.invoke(app, ["optimize", str(deck), "--out", "texas-ranger", "--in",
                                 "deputy", "--budget", "120", "--seed", "3", "--bot",
                                 "random", "--workers", "1", "--json", *BOXES])
    assert result.exit_code == 0, result.output
    explanation = json.loads(result.stdout)["explanation"]
    assert {card["role"] for card in explanation["cards"]} == {"in", "out"}
    for card in explanation["cards"]:
        assert card["drawn_in"] <= card["games"] == explanation["paired_games"]
    games = explanation["games"]
    assert games and explanation["changed_winner"] >= len(games)
    winners = {"won": "mcready", "lost": "colty", "drew": None}
    for game in games[:2]:
        assert game["deck"] != game["with_swap"]
        # both games of the pair: the deck's, and the one with the swap (laid out along the
        # deck by play --swap, as the search laid it): the same winner and length
        for command, result, turns in (("replay_deck", "deck", "deck_turns"),
                                       ("replay_with_swap", "with_swap", "with_swap_turns")):
            words = shlex.split(game[command])
            assert words[:2] == ["deckbuilder", "play"] and str(game["seed"]) in words
            played = runner.invoke(app, [*words[1:], "--json"])
            assert played.exit_code == 0, played.output
            replayed = json.loads(played.stdout)
            assert replayed["outcome"]["winner"] == winners[game[result]], command
            assert replayed["turns"] == game[turns], command
        assert "--swap" in game["replay_with_swap"] and "--swap" not in game["replay_deck"]


def test_play_swap_lays_the_changed_deck_along_the_deck_and_refuses_what_it_cannot(
        tmp_path: Path) -> None:
    """`play --swap` plays the deck changed as `optimize` pairs it: the same game as the
    changed deck laid out along the deck by hand (`--aligned-with`), and not in general the
    game of the changed deck in its own order; a swap of cards no deck holds, or with
    --record (which keeps no order), is one line and exit 2."""
    deck = _deck(tmp_path)
    changed = tmp_path / "changed.yaml"
    text = deck.read_text(encoding="utf-8").replace("texas-ranger: 10", "deputy: 10")
    changed.write_text(text, encoding="utf-8")
    common = ["--bots", "random,random", "--json"]

    def game(*words: str) -> list[object]:
        played = runner.invoke(app, ["play", *words, *common])
        assert played.exit_code == 0, played.output
        return [step["action"] for step in json.loads(played.stdout)["steps"]]

    differ = 0
    for seed in ("1", "2", "3"):
        swapped = game(str(deck), "--swap", "texas-ranger=deputy:10", "--seed", seed)
        assert swapped == game(str(changed), "--aligned-with", str(deck), "--seed", seed)
        differ += swapped != game(str(changed), "--seed", seed)
    assert differ
    for bad in (["--swap", "no-such-card=deputy"], ["--swap", "texas-ranger"],
                ["--swap", "texas-ranger=deputy", "--record", str(tmp_path / "r.jsonl")]):
        refused = runner.invoke(app, ["play", str(deck), *bad])
        assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1, bad


def test_the_text_says_what_the_budget_bought_and_why(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    result = runner.invoke(app, ["optimize", str(deck), "--out", "texas-ranger", "--in",
                                 "deputy", "--budget", "120", "--seed", "3", "--bot",
                                 "random", "--workers", "1", *BOXES])
    assert result.exit_code == 0, result.output
    assert "what the budget bought: " in result.stdout
    assert "candidates told apart from the deck" in result.stdout
    # at this budget the swap is not told apart: its changed games are chance, none is told
    assert "changed the winner in" in result.stdout
    assert "not told apart from the deck: which games it changed is chance" in result.stdout
    assert "deckbuilder play" not in result.stdout


def _changed(seed: int) -> ChangedGameJson:
    return ChangedGameJson(seed, "colty base deck", "lost", "won", 30, 31,
                           f"deckbuilder play {seed}", f"deckbuilder play {seed} --swap a=b:1")


def test_a_swap_told_apart_tells_three_of_its_changed_games_and_how_to_see_more() -> None:
    explanation = ExplanationJson([], [], 40, 9, 7, 2, True, [_changed(seed) for seed in range(8)],
                                  "")
    lines = explanation_lines(explanation)
    assert [line for line in lines if line.strip().startswith("seed ")] == [
        f"  seed {seed} against colty base deck: the deck lost in 30 turns, with the swap won "
        "in 31" for seed in range(3)]
    assert sum("deckbuilder play" in line for line in lines) == 6
    assert lines[-1] == ("  and 6 more: the same command with --json lists 8 of them with the "
                         "commands that replay them")
    quiet = explanation_lines(replace(explanation, told_apart=False))
    assert not any("seed " in line or "deckbuilder play" in line for line in quiet)


def test_a_field_of_weighted_opponents_scores_the_same_on_any_worker_count(
        tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    common = ["optimize", str(deck), "--vs", "colty", "--vs",
              "example-colty-fan-the-gun@3", "--out", "texas-ranger", "--in", "deputy",
              "--budget", "120", "--seed", "2", "--bot", "random", "--json", *BOXES]
    serial = runner.invoke(app, [*common, "--workers", "1"])
    pooled = runner.invoke(app, [*common, "--workers", "2"])
    assert serial.exit_code == 0 and pooled.exit_code == 0, serial.output + pooled.output
    report = json.loads(serial.stdout)
    assert report == json.loads(pooled.stdout)
    assert [round(o["weight"], 2) for o in report["opponents"]] == [0.25, 0.75]
    assert report["games"] <= 120 and report["games"] % 2 == 0  # every unit meets both
    assert "field of 2 decks" in report["opponent"]


def test_a_card_that_can_do_nothing_in_the_set_up_is_not_swapped_in() -> None:
    """Double the guard lies only in the San Manzanillo Prison: without the prison's module a
    swap bringing it in only weakens the deck, so the search leaves such swaps out (and the
    report says which and why); with the module it is a candidate like any other."""
    from deckbuilder.catalog import build_catalog
    from deckbuilder.sim.optimiser.optimize_candidates import dead_in_setup

    catalog = build_catalog()
    mcready, colty = catalog.base_deck("revolver", "mcready"), catalog.base_deck("revolver",
                                                                                 "colty")
    ins = ["double-the-guard", "texas-ranger"]
    dead = dead_in_setup(ins, mcready, 1, [colty], catalog, "revolver")
    assert list(dead) == ["double-the-guard"] and "Prison" in dead["double-the-guard"]
    assert dead_in_setup(ins, mcready, 1, [colty], catalog, "revolver",
                         ["san-manzanillo-prison-rules"]) == {}


def test_a_card_two_swaps_bring_in_is_explained_once_with_its_copies_added() -> None:
    """Pinkerton Agents for ten Cowboys and for four Bounty Hunters: one line for the agents
    (fourteen copies, the figures of the same games), one for each card going out."""
    swaps = (Swap("cowboy", "pinkerton-agents", 10), Swap("bounty-hunter", "pinkerton-agents", 4))
    candidate = Candidate(swaps, {}, "agents", scores=[0.5] * 6)
    alone = Candidate((Swap("deputy", "pinkerton-agents", 2),), {}, "two agents", scores=[0.0] * 3)
    other = Candidate((Swap("cowboy", "texas-ranger", 1),), {}, "a ranger", scores=[1.0] * 5)
    games = [GameResult(index, seed, "", 1 if index % 2 else 0, "border_emptied", 40, 150,
                        ({}, {"pinkerton-agents": 1}), ({}, {"pinkerton-agents": 2}))
             for index, seed in enumerate((11, 12, 13, 14))]
    settings = OptimizeSettings(side=1, opponent={}, budget=800)
    result = OptimizeResult({}, [candidate, alone, other], [candidate], [], [], 0, settings,
                            worth={"pinkerton-agents": 0.02}, cost={"cowboy": 0.01})
    result.confirmation_games = {"deck": games, "agents": games}
    explanation = explain(result, candidate, default_catalog())
    lines = [(card.card, card.role, card.copies, card.model_units) for card in explanation.cards]
    # the model's figure for the agents rests on both swaps bringing them in (6 + 3 units),
    # the cowboys' on both taking them out (6 + 5)
    assert lines == [("pinkerton-agents", "in", 14, 9), ("cowboy", "out", 10, 11),
                     ("bounty-hunter", "out", 4, 6)]
    words = explanation_lines(explanation)
    assert "from 9 racing units of the swaps bringing it in" in words[0]
    # the agents were drawn in every game, the cowboys in none: no '0% (0/0)' either way
    assert words[0].endswith("won 50% when drawn (2/4), drawn in every game")
    assert words[1].endswith("never drawn, won 50% when not (2/4)")

"""The command line plays Revolver 2 as it plays Revolver: `play` by --game or by the guardians'
and Mapache's decks, records that replay, `simulate` with the game's own sides, endings and
rule switches, `rules` for both games, and one-line refusals for decks of two games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.games import get_game, new_game
from deckbuilder.games.revolver2.endings import Termination
from deckbuilder.rulesets import DEFAULT_RULESETS
from deckbuilder.sim.records.transcript import read_record

BASE_DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
runner = CliRunner()


def invoke(*args: str | Path):
    return runner.invoke(app, list(map(str, args)))


def one_line_error(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def simulate_json(*args: str | Path) -> dict:
    result = invoke("simulate", *args, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def endings(report: dict) -> dict[str, int]:
    return {row["termination"]: row["games"] for row in report["endings"]}


def write_deck(folder: Path, name: str, cards: dict[str, int], sets: str = "") -> Path:
    lines = [f"name: {name}", "game: revolver2", "faction: esteban"]
    lines += [f"sets: [{sets}]"] if sets else []
    lines += ["cards:"] + [f"  {card}: {copies}" for card, copies in cards.items()]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def guardians() -> tuple[int, int]:
    """(all guardians, those in front of Esteban at set-up), from the card data."""
    characters = build_catalog().sets["revolver2-base"].card_set.characters
    return len(characters), sum(1 for character in characters if character.starting)


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "malpaso.jsonl"
    result = invoke("play", "--game", "revolver2", "--bots", "random", "--seed", "4",
                    "--record", path, "-q")
    assert result.exit_code == 0, result.output
    return path


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


# -- play -------------------------------------------------------------------------------------
def test_a_first_game_of_revolver2_is_told_in_its_own_words(guardians: tuple[int, int]) -> None:
    result = invoke("play", "--game", "revolver2", "--bots", "greedy,greedy", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Revolver 2: Last Stand at Malpaso, seed 3, ruleset rulebook-es: "
                          "esteban (esteban base deck, bot greedy) against mapache "
                          "(mapache base deck, bot greedy)\n")
    # the poker tournament comes before the first turn and decides the row of battlefields
    tournament = out.split("-- turn 1: esteban")[0]
    assert "the All Rivers Poker tournament begins" in tournament
    assert re.search(r"(esteban|mapache) wins the poker tournament: .+ are in play", tournament)
    assert "[marker:" not in tournament  # no status before the battlefields are laid
    total, starting = guardians
    statuses = re.findall(r"\[marker: .+\]", out)
    assert statuses and all("border" not in status and "gang" not in status
                            for status in statuses)
    catalog = build_catalog()
    tokens = new_game([catalog.base_deck("revolver2", side) for side in ("esteban", "mapache")],
                      3, catalog=catalog).countdown
    assert f"| Mexican Army: {tokens} | guardians: " in statuses[0]
    counted = []
    for status in statuses:  # every guardian is in play, in the pile or dead
        counts = re.search(r"guardians: (\d+) in play, (\d+) in the pile, (\d+) dead", status)
        assert counts and sum(map(int, counts.groups())) == total, status
        counted.append(tuple(map(int, counts.groups())))
    in_play, _, dead = counted[0]
    assert in_play >= starting and dead == 0  # the first turn may recruit; nobody died yet
    assert "joins the guardians" in out  # recruitment on the first three battlefields
    assert "stay at " in out or "move on to " in out  # an optional space
    assert "powder kegs in hand: esteban" in out and "ammunition in hand: mapache" in out
    final = out.split("final position:")[1]
    assert "Mexican Army tokens:" in final and "border" not in final
    assert "guardians in play (" in final and "guardians in the pile (" in final
    assert "bandits" not in final
    assert out.rstrip().splitlines()[-1].startswith("result: ")


def test_the_position_tells_the_pile_from_the_dead_in_the_games_words() -> None:
    """Guardians not yet recruited wait face down in the pile: out of play, but not dead."""
    from deckbuilder.engine.position import render, snapshot
    from deckbuilder.sim.records.session import play_game
    from deckbuilder.sim.records.transcript import status_line

    catalog = build_catalog()
    decks = [catalog.base_deck("revolver2", side) for side in ("esteban", "mapache")]
    state, _ = play_game(decks, 5, ("random", "random"), catalog=catalog, game="revolver2",
                         max_turns=4)
    data = snapshot(state, legal=False)
    assert data["game"] == "revolver2"
    assert data["countdown"] == {"name": "Mexican Army", "tokens": state.countdown}
    characters = data["characters"]
    assert characters["name"] == "guardians"
    pile = characters["pile"]
    in_play = [b["id"] for b in data["bandits"] if b["alive"]]
    assert pile and sorted(pile) == sorted(state.spec.characters[i].id for i in state.pile)
    assert not set(pile) & set(characters["dead"]) and not set(pile) & set(in_play)
    assert len(in_play) + len(pile) + len(characters["dead"]) == len(data["bandits"])
    lines = render(data)
    assert f"guardians in the pile ({len(pile)}, face down)" in lines
    assert f"guardians dead ({len(characters['dead'])}): " \
        f"{', '.join(characters['dead']) or '-'}" in lines
    assert any(line.startswith(f"guardians in play ({len(in_play)}): ") for line in lines)
    assert any(f"; Mexican Army tokens: {state.countdown};" in line for line in lines)
    assert not any("bandits" in line or "border" in line for line in lines)
    status = status_line(state)
    assert f"guardians: {len(in_play)} in play, {len(pile)} in the pile, " \
        f"{len(characters['dead'])} dead" in status


def test_a_guardians_deck_file_names_the_game_and_mapache_gets_his_base_deck() -> None:
    result = invoke("play", "--esteban", BASE_DECKS / "esteban-base.yaml",
                    "--bots", "random,greedy", "-q", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    catalog = build_catalog()
    assert data["game"] == "revolver2" and data["ruleset"] == DEFAULT_RULESETS["revolver2"]
    assert data["bots"] == {"esteban": "random", "mapache": "greedy"}
    assert data["decks"] == {"esteban": catalog.base_deck("revolver2", "esteban"),
                             "mapache": catalog.base_deck("revolver2", "mapache")}
    assert data["outcome"]["termination"] in {t.value for t in Termination}


def test_mapache_alone_plays_against_the_guardians_base_deck(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    result = invoke("play", "--mapache", "mapache", "--bots", "random", "--record", path, "-q")
    assert result.exit_code == 0, result.output
    header = rows_of(path)[0]
    assert header["game"] == "revolver2" and set(header["decks"]) == {"esteban", "mapache"}


def test_the_account_of_a_replay_is_the_account_of_the_game(recorded: Path) -> None:
    played = invoke("play", "--game", "revolver2", "--bots", "random", "--seed", "4")
    replayed = invoke("replay", recorded)
    assert replayed.exit_code == 0, replayed.output
    record = read_record(recorded)
    assert record.game == "revolver2" and record.ruleset == "rulebook-es"
    assert f"replayed {len(record.steps)} actions: the same game" in replayed.stdout
    body = played.stdout.split("\n", 1)[1].split("final position:")[0]
    assert body and body in replayed.stdout
    assert "Revolver 2: Last Stand at Malpaso" in replayed.stdout.splitlines()[0]


def test_play_is_the_simulated_game_of_the_same_seed(recorded: Path) -> None:
    from deckbuilder.sim.runs.runner import GameJob, deck_items, play_one

    catalog = build_catalog()
    decks = (deck_items(catalog.base_deck("revolver2", "esteban")),
             deck_items(catalog.base_deck("revolver2", "mapache")))
    simulated = play_one(GameJob(0, 4, decks, ("random", "random"), game="revolver2"))
    record = read_record(recorded)
    sides = get_game("revolver2").side_names
    winner = None if simulated.winner is None else sides[simulated.winner]
    assert (record.winner, record.termination, record.turns) == (
        winner, simulated.termination, simulated.turns)
    assert len(record.steps) == simulated.decisions


def test_a_tampered_record_fails_at_the_step_it_changed(recorded: Path) -> None:
    rows = rows_of(recorded)
    rows[3]["text"] = "show the ace of spades"
    rewrite(recorded, rows)
    line = one_line_error(invoke("replay", recorded, "-q"), code=1)
    assert line.startswith(f"error: {recorded}:4: the engine no longer reproduces this game: "
                           "step 2: the record says 'show the ace of spades'")


def test_a_record_of_the_old_format_is_refused_in_one_line(recorded: Path) -> None:
    rows = rows_of(recorded)
    rows[0]["format"] = 1
    rewrite(recorded, rows)
    line = one_line_error(invoke("replay", recorded))
    assert line.startswith(f"error: {recorded}:1") and "record format 1 is not 2" in line


def test_rule_switches_are_played_recorded_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "switched.jsonl"
    result = invoke("play", "--game", "revolver2", "--bots", "random", "--seed", "2",
                    "--switch", "poker-tie=guardians", "--switch", "gatling-casualty=owner-chooses",
                    "--record", path)
    assert result.exit_code == 0, result.output
    assert "ruleset rulebook-es with poker-tie=guardians, gatling-casualty=owner-chooses" \
        in result.stdout.splitlines()[0]
    assert rows_of(path)[0]["switches"] == {"poker-tie": "guardians",
                                            "gatling-casualty": "owner-chooses"}
    replayed = invoke("replay", path, "-q")
    assert replayed.exit_code == 0, replayed.output


def test_a_single_switch_changes_how_games_end() -> None:
    """Any guardian alive at the mine's showdown wins under the review's reading: every game
    Padre Esteban won there is won by the guardians there, and more may be."""
    options = ("esteban", "--games", "40", "--bot", "random")
    rulebook = endings(simulate_json(*options))
    switched_report = simulate_json(*options, "--switch", "malpaso-victory=any-guardian-alive")
    switched = endings(switched_report)
    assert switched_report["switches"] == {"malpaso-victory": "any-guardian-alive"}
    assert rulebook.get("esteban_survived_mine", 0) > 0, rulebook
    assert "esteban_survived_mine" not in switched
    assert switched.get("guardian_survived_mine", 0) >= rulebook["esteban_survived_mine"]


def test_a_switch_reaches_the_engine_in_every_worker() -> None:
    from deckbuilder.sim.runs.runner import GameJob, deck_items, start_game, switch_items

    catalog = build_catalog()
    decks = (deck_items(catalog.base_deck("revolver2", "esteban")),
             deck_items(catalog.base_deck("revolver2", "mapache")))
    job = GameJob(0, 1, decks, ("random", "random"), game="revolver2",
                  switches=switch_items({"poker-tie": "guardians"}))
    assert start_game(job).spec.rules.choices["poker-tie"] == "guardians"
    options = ("mapache", "--games", "6", "--bot", "random", "--switch", "poker-tie=guardians")
    assert simulate_json(*options, "--workers", "1") == simulate_json(*options, "--workers", "2")


def test_a_bad_switch_is_one_line_naming_the_choices() -> None:
    known = get_game("revolver2").rules.known_variants
    line = one_line_error(invoke("play", "--game", "revolver2", "--switch",
                                 "poker-tie=sometimes", "-q"))
    assert "--switch poker-tie=sometimes: 'sometimes' is not a reading of poker-tie" in line
    assert all(value in line.split("choose one of:")[1] for value in known["poker-tie"])
    line = one_line_error(invoke("simulate", "esteban", "--switch", "poker-ties=replay"))
    assert "revolver2 has no rule switch 'poker-ties'" in line
    assert all(switch in line.split("choose one of:")[1] for switch in known)


@pytest.mark.parametrize(("args", "words"), [
    (("play", "--esteban", "esteban", "--switch", "skinny-token=power"),
     "revolver2 has no rule switch 'skinny-token'"),
    (("simulate", "esteban", "--switch", "poker-tie"), "--switch 'poker-tie' is not ID=VALUE"),
    (("play", "--colty", "colty", "--mapache", "mapache"),
     "--colty is a deck of revolver and --mapache one of revolver2"),
    (("play", "--game", "revolver", "--esteban", "esteban"),
     "--esteban is a deck of revolver2, but --game is revolver"),
    (("play", "--esteban", BASE_DECKS / "colty-base.yaml"),
     "--esteban got a revolver deck (colty), but the game is revolver2"),
    (("play", "--game", "revolver3"), "unknown game 'revolver3'"),
    (("play", "--game", "revolver2", "--ruleset", "rulebook-en"), "unknown ruleset 'rulebook-en'"),
    (("simulate", "esteban", "--vs", "mcready"),
     "--vs got a revolver deck (mcready), but the game is revolver2"),
])
def test_bad_arguments_are_one_line(args: tuple[str, ...], words: str) -> None:
    extra = ("--games", "1") if args[0] == "simulate" else ("-q",)
    assert words in one_line_error(invoke(*args, *extra))


# -- simulate ---------------------------------------------------------------------------------
def test_simulate_names_the_sides_and_endings_of_revolver2() -> None:
    report = simulate_json("esteban", "--games", "8", "--bot", "random", "--seed", "5")
    assert (report["game"], report["ruleset"]) == ("revolver2", "rulebook-es")
    assert report["terminations"] == [t.value for t in Termination]
    esteban, mapache = report["sides"]
    assert (esteban["faction"], mapache["faction"]) == ("esteban", "mapache")
    assert esteban["is_deck_under_test"] and not mapache["is_deck_under_test"]
    assert esteban["wins"] + mapache["wins"] + report["draws"]["games"] == 8
    assert sum(endings(report).values()) == 8
    assert set(endings(report)) <= set(report["terminations"])
    for row in report["endings"]:
        assert set(row["winners"]) <= {"esteban", "mapache", "draw"}
    catalog = build_catalog()
    cards = {row["id"]: row["copies"] for row in report["cards"]["deck"]}
    assert {c: n for c, n in cards.items() if n} == catalog.base_deck("revolver2", "esteban")


def test_simulate_a_mapache_deck_file_in_its_seat() -> None:
    report = simulate_json(BASE_DECKS / "mapache-base.yaml", "--games", "3", "--bot", "random")
    assert report["deck"]["seat"] == 1 and report["deck"]["faction"] == "mapache"
    assert report["opponent"] == {"name": "esteban base deck", "faction": "esteban", "seat": 0,
                                  "bot": "random"}
    text = invoke("simulate", "mapache", "--games", "3", "--bot", "random")
    assert text.exit_code == 0, text.output
    assert "game Revolver 2: Last Stand at Malpaso, ruleset rulebook-es" in text.stdout


def test_a_deck_file_against_its_own_base_deck_differs_in_no_game() -> None:
    report = simulate_json(BASE_DECKS / "esteban-base.yaml", "--baseline", "esteban",
                           "--games", "6", "--bot", "random")
    assert report["baseline"]["games_with_different_winner"] == 0
    assert report["baseline"]["difference"] == {"estimate": 0.0, "low": 0.0, "high": 0.0}


HOMEBREW_SET = """\
id: malpaso-deputies
name: Malpaso deputies
version: "0.1"
game: revolver2
kind: homebrew
requires: [revolver2-base]
cards:
  - id: malpaso-deputy
    name: Malpaso deputy
    faction: esteban
    category: character
    play: firepower
    copies: 2
    cost: 1
    firepower: 2
    chip: white
"""


def test_a_legal_custom_guardians_deck_is_simulated_against_the_base_deck(
        tmp_path: Path, user_home: Path) -> None:
    """Revolver 2 has no expansion, so a legal swap needs a card from another set: a homebrew
    set adds a deputy, who replaces two armed villagers like for like (rule C)."""
    (user_home / "sets").mkdir(parents=True)
    (user_home / "sets" / "malpaso-deputies.yaml").write_text(HOMEBREW_SET)
    cards = dict(build_catalog().base_deck("revolver2", "esteban"))
    cards["armed-villager"] -= 2
    cards["malpaso-deputy"] = 2
    deck = write_deck(tmp_path, "deputies", cards, "revolver2-base, malpaso-deputies")
    assert invoke("validate", deck).exit_code == 0
    result = invoke("simulate", deck, "--baseline", "esteban", "--games", "6", "--bot", "random",
                    "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # legal: no warning
    report = json.loads(result.stdout)
    assert report["warnings"] == [] and report["deck"]["name"] == "deputies"
    rows = {row["id"]: row for row in report["cards"]["deck"]}
    assert rows["malpaso-deputy"]["copies"] == 2 and rows["armed-villager"]["copies"] == 12
    baseline = report["baseline"]
    assert baseline["deck"] == "esteban base deck"
    assert baseline["wins"] + report["sides"][1]["wins"] <= 6 + report["draws"]["games"]
    played = invoke("play", "--esteban", deck, "--bots", "random", "-q")
    assert played.exit_code == 0, played.output


def test_a_guardians_deck_with_a_revolver_card_is_refused_with_the_violation(
        tmp_path: Path) -> None:
    cards = dict(build_catalog().base_deck("revolver2", "esteban"))
    cards["armed-villager"] -= 1
    cards["38-special"] = 1
    deck = write_deck(tmp_path, "mixed", cards)
    line_number = deck.read_text().splitlines().index("  38-special: 1") + 1
    for command in (("simulate", deck, "--games", "1"), ("play", "--esteban", deck, "-q")):
        line = one_line_error(invoke(*command))
        assert line.startswith(f"error: {deck}:{line_number}:3: wrong-faction: "), line
        assert "revolver card" in line and "take .38 Special out" in line


def test_an_illegal_guardians_deck_is_refused_unless_allowed(tmp_path: Path) -> None:
    cards = dict(build_catalog().base_deck("revolver2", "esteban"))
    cards["armed-villager"] -= 1
    deck = write_deck(tmp_path, "short", cards)
    refused = invoke("simulate", deck, "--games", "2", "--bot", "random")
    assert refused.exit_code == 2
    assert "not a legal deck: deck-size" in refused.stderr
    played = invoke("play", "--esteban", str(deck), "--bots", "random", "--quiet")
    assert played.exit_code == 2 and "not a legal deck" in played.stderr
    result = invoke("simulate", deck, "--games", "2", "--bot", "random", "--json",
                    "--allow-illegal")
    assert result.exit_code == 0, result.output
    assert "warning:" in result.stderr and "deck-size" in result.stderr
    assert json.loads(result.stdout)["warnings"]


# -- rules and cards --------------------------------------------------------------------------
def test_rules_lists_both_games_with_the_source_of_every_reading() -> None:
    text = invoke("rules")
    assert text.exit_code == 0, text.output
    assert "Revolver (revolver)" in text.stdout
    assert "Revolver 2: Last Stand at Malpaso (revolver2)" in text.stdout
    result = invoke("rules", "--json")
    games = {entry["game"]: entry for entry in json.loads(result.stdout)}
    assert set(games) == {"revolver", "revolver2"}
    for name, entry in games.items():
        assert entry["default_ruleset"] == DEFAULT_RULESETS[name]
        assert [r["id"] for r in entry["rulesets"] if r["default"]] == [DEFAULT_RULESETS[name]]
        assert entry["switches"]
        for switch in entry["switches"]:
            assert all(variant["source"] for variant in switch["variants"])
            assert f"[{switch['variants'][0]['source']}]" in text.stdout
    playable = {s["id"] for s in games["revolver2"]["switches"] if s["switchable"]}
    assert playable == set(get_game("revolver2").rules.known_variants)


def test_the_engine_plays_every_revolver2_record() -> None:
    result = invoke("cards", "--unimplemented", "--game", "revolver2", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout) == []
    catalog = build_catalog()
    every = json.loads(invoke("cards", "--unimplemented", "--json").stdout)
    assert all(catalog.entries[row["id"]].game != "revolver2" for row in every)

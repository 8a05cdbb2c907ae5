"""`deckbuilder play` and `deckbuilder replay`: one seeded game, told turn by turn, recorded as
JSON lines, and stepped through again; a record the engine no longer reproduces fails loudly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.bots import BotSpecError
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.commands.play_setup import split_bots
from deckbuilder.engine.position import render, snapshot
from deckbuilder.games.revolver.endings import Termination
from deckbuilder.sim.records.session import play_game, replay_record
from deckbuilder.sim.records.transcript import RecordError, read_record, status_line

runner = CliRunner()


def play(*args: str | Path):
    return runner.invoke(app, ["play", *map(str, args)])


def replay(*args: str | Path):
    return runner.invoke(app, ["replay", *map(str, args)])


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    result = play("--bots", "random", "--seed", "5", "--record", path, "--quiet")
    assert result.exit_code == 0, result.output
    return path


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


# -- play -------------------------------------------------------------------------------------
def test_play_tells_the_game_turn_by_turn() -> None:
    result = play("--bots", "random,greedy", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Revolver, seed 1, ruleset rulebook-en: colty (colty base deck, "
                          "bot random) against mcready (mcready base deck, bot greedy)")
    # set-up: five cards each before the first turn; then the gang's first turn draws two
    before_turn_1 = out.split("-- turn 1: colty")[0]
    assert before_turn_1.count("colty draws") == 5 and before_turn_1.count("mcready draws") == 5
    turn_1 = out.split("-- turn 1: colty")[1].split("-- turn 2: mcready")[0]
    assert turn_1.count("colty draws") == 2
    assert "marker: The Bank at Repentance Springs space 1 | border: 12" in turn_1
    for event in ("plays", "discards", "attack at", "is killed", "border token goes"):
        assert event in out, event
    assert "final position:" in out and "bandits dead" in out
    assert out.rstrip().splitlines()[-1].startswith("result: ")


def test_the_same_seed_plays_the_same_game_and_another_seed_another(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in ((first, 3), (second, 3), (other, 4)):
        assert play("--bots", "random", "--seed", seed, "--record", path, "-q").exit_code == 0
    assert first.read_text() == second.read_text()
    assert first.read_text() != other.read_text()


def test_play_matches_the_simulated_game_of_the_same_seed(recorded: Path) -> None:
    from deckbuilder.sim.runs.runner import GameJob, deck_items, play_one

    catalog = build_catalog()
    decks = (deck_items(catalog.base_deck("revolver", "colty")),
             deck_items(catalog.base_deck("revolver", "mcready")))
    simulated = play_one(GameJob(0, 5, decks, ("random", "random")))
    record = read_record(recorded)
    assert (record.winner, record.termination, record.turns) == (
        ("colty", "mcready")[simulated.winner] if simulated.winner is not None else None,
        simulated.termination, simulated.turns)
    assert len(record.steps) == simulated.decisions


def test_record_has_a_header_one_line_per_action_and_a_final_line(recorded: Path) -> None:
    rows = lines_of(recorded)
    header, steps, final = rows[0], rows[1:-1], rows[-1]
    catalog = build_catalog()
    assert header["record"] == "deckbuilder-game" and header["format"] == 2
    assert header["seed"] == 5 and header["ruleset"] == "rulebook-en"
    assert header["bots"] == {"colty": "random", "mcready": "random"}
    assert header["decks"] == {"colty": catalog.base_deck("revolver", "colty"),
                               "mcready": catalog.base_deck("revolver", "mcready")}
    assert header["deckbuilder"]
    assert [step["i"] for step in steps] == list(range(len(steps)))
    assert {step["player"] for step in steps} == {"colty", "mcready"}
    assert all(isinstance(step["action"], int) and step["text"] for step in steps)
    assert final["actions"] == len(steps)
    assert final["outcome"]["termination"] in {t.value for t in Termination}
    assert final["outcome"]["winner"] in {"colty", "mcready", None}


def test_play_json_prints_the_record() -> None:
    result = play("--bots", "random", "--seed", "2", "--json", "--max-turns", "6")
    data = json.loads(result.stdout)
    assert data["max_turns"] == 6
    assert data["outcome"] == {"winner": None, "termination": "turn_cap"}
    assert data["turns"] == 6 and data["steps"][0]["i"] == 0


def test_play_with_a_deck_file(tmp_path: Path) -> None:
    catalog = build_catalog()
    cards = catalog.base_deck("revolver", "colty")
    cards["38-special"] -= 2
    cards["hail-of-bullets"] += 2
    deck = tmp_path / "colty.yaml"
    deck.write_text("name: More hail\ngame: revolver\nfaction: colty\ncards:\n"
                    + "".join(f"  {card}: {copies}\n" for card, copies in cards.items()))
    record = tmp_path / "game.jsonl"
    result = play("--colty", deck, "--bots", "random", "--seed", "1", "--record", record, "-q",
                  "--allow-illegal")
    assert result.exit_code == 0, result.output
    assert lines_of(record)[0]["decks"]["colty"] == dict(sorted(cards.items()))
    assert replay(record, "-q").exit_code == 0


@pytest.mark.parametrize(("args", "message"), [
    (("--mcready", "colty"), "--mcready must be a mcready deck, not colty"),
    (("--bots", "random,greedy,search"), "names 3 bots"),
    (("--bots", "clever"), "unknown bot 'clever'"),
    (("--ruleset", "house-rules"), "unknown ruleset 'house-rules'"),
    (("--colty", "no-such-deck.yaml"), "no-such-deck.yaml"),
])
def test_play_refuses_bad_arguments_in_one_line(args: tuple[str, ...], message: str) -> None:
    result = play(*args, "-q")
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_refused_set_up_prints_no_account() -> None:
    result = play("--ruleset", "house-rules")
    assert result.exit_code == 2 and result.stdout == ""
    assert "unknown ruleset 'house-rules'" in result.stderr


def test_a_rule_switch_is_kept_in_the_record_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "faq.jsonl"
    result = play("--bots", "random", "--seed", "6", "--switch", "skinny-token=true-grit",
                  "--record", path)
    assert result.exit_code == 0, result.output
    assert "ruleset rulebook-en with skinny-token=true-grit" in result.stdout.splitlines()[0]
    assert lines_of(path)[0]["switches"] == {"skinny-token": "true-grit"}
    replayed = replay(path)
    assert replayed.exit_code == 0, replayed.output
    assert "ruleset rulebook-en with skinny-token=true-grit" in replayed.stdout.splitlines()[0]


def test_a_rule_switch_changes_the_table() -> None:
    """Skinny's token at set-up: power by the English set-up, true grit by its FAQ."""
    tokens = {}
    for switch in ("power", "true-grit"):
        result = play("--bots", "random", "--max-turns", "1", "--switch", f"skinny-token={switch}")
        alive = next(line for line in result.stdout.splitlines() if "bandits in play" in line)
        tokens[switch] = alive.split('"Skinny" Landell')[1].split(")")[0]  # names, not ids
    assert tokens == {"power": " (survival 1, power 1", "true-grit": " (survival 1, true grit 1"}


def test_bots_split_on_commas_but_keep_their_options() -> None:
    assert split_bots("greedy") == ("greedy", "greedy")
    assert split_bots("greedy,search") == ("greedy", "search")
    assert split_bots("search:rollouts=50,horizon=3,random") == (
        "search:rollouts=50,horizon=3", "random")
    assert split_bots("random, search:rollouts=5,policy=random") == (
        "random", "search:rollouts=5,policy=random")
    with pytest.raises(BotSpecError):
        split_bots("")


# -- replay -----------------------------------------------------------------------------------
def test_replay_reproduces_the_recorded_game(recorded: Path) -> None:
    result = replay(recorded)
    assert result.exit_code == 0, result.output
    record = read_record(recorded)
    assert f"replayed {len(record.steps)} actions: the same game" in result.stdout
    assert "-- turn 1: colty" in result.stdout
    assert record.steps[0].text in result.stdout


def test_replay_fails_at_the_first_step_whose_text_differs(recorded: Path) -> None:
    rows = lines_of(recorded)
    rows[4]["text"] = "play Something Else"
    rewrite(recorded, rows)
    result = replay(recorded, "-q")
    assert result.exit_code == 1
    assert f"{recorded}:5: the engine no longer reproduces this game: step 3: the record " \
           "says 'play Something Else'" in result.stderr


def test_replay_fails_on_an_action_that_is_no_longer_legal(recorded: Path) -> None:
    rows = lines_of(recorded)
    rows[2]["action"] = 99999
    rewrite(recorded, rows)
    result = replay(recorded, "-q")
    assert result.exit_code == 1
    assert f"{recorded}:3:" in result.stderr and "is not legal now" in result.stderr


def test_replay_fails_when_the_outcome_differs(recorded: Path) -> None:
    rows = lines_of(recorded)
    rows[-1]["turns"] += 1
    rewrite(recorded, rows)
    result = replay(recorded, "-q")
    assert result.exit_code == 1
    assert f"{recorded}:{len(rows)}: " in result.stderr and "the outcome differs" in result.stderr


def test_replay_fails_when_the_record_stops_early(recorded: Path) -> None:
    rows = lines_of(recorded)
    final = {**rows[-1], "actions": rows[-1]["actions"] - 2}  # the count agrees: not a cut
    rewrite(recorded, [*rows[:-3], final])
    result = replay(recorded, "-q")
    assert result.exit_code == 1
    assert "the game is not over" in result.stderr


@pytest.mark.parametrize(("damage", "where", "message"), [
    (lambda text: text.replace('"player": "colty"', '"player": colty', 1), ":2:", "not JSON"),
    (lambda text: text.split("\n", 1)[1], ":1", "not a deckbuilder game header"),
    (lambda text: text.replace('"seed": 5', '"seed": "five"'), ":1", "'seed' has the wrong type"),
    (lambda text: "\n".join(text.splitlines()[:-1]), ":", "missing 'outcome'"),
    (lambda text: "", ":1", "a record needs a header line and a final line"),
    (lambda text: text.replace('"switches": {}', '"switches": ["skinny-token"]', 1), ":1",
     "'switches' is not switch id -> variant"),
])
def test_broken_record_exits_2_with_file_and_line(recorded: Path, damage, where: str,
                                                  message: str) -> None:
    recorded.write_text(damage(recorded.read_text()))
    result = replay(recorded, "-q")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {recorded}{where}")
    assert message in result.stderr


def test_records_are_replayable_from_the_library(recorded: Path) -> None:
    record = read_record(recorded)
    result = replay_record(record, build_catalog())
    assert result.mismatch is None and result.state.is_terminal()
    with pytest.raises(RecordError):
        read_record(recorded.parent / "missing.jsonl")


# -- the library: switches, the ruleset played, the position -----------------------------------
def base_decks(catalog) -> list[dict[str, int]]:
    return [catalog.base_deck("revolver", side) for side in ("colty", "mcready")]


def test_play_game_records_its_switches_and_replay_plays_them(tmp_path: Path) -> None:
    catalog = build_catalog()
    state, record = play_game(base_decks(catalog), 6, ("random", "random"), catalog=catalog,
                              switches={"skinny-token": "true-grit"})
    assert state.spec.rules.choices["skinny-token"] == "true-grit"
    assert record.switches == {"skinny-token": "true-grit"}
    path = tmp_path / "faq.jsonl"
    path.write_text(record.to_jsonl())
    assert lines_of(path)[0]["switches"] == {"skinny-token": "true-grit"}
    again = read_record(path)
    assert again.switches == record.switches
    replayed = replay_record(again, catalog)
    assert replayed.mismatch is None
    assert replayed.state.spec.rules.choices["skinny-token"] == "true-grit"
    # the caller may replay the record under another reading
    other = replay_record(again, catalog, switches={})
    assert other.state.spec.rules.choices["skinny-token"] != "true-grit"


def test_a_header_without_switches_means_none(recorded: Path) -> None:
    rows = lines_of(recorded)
    assert rows[0].pop("switches") == {}
    rewrite(recorded, rows)
    record = read_record(recorded)
    assert record.switches == {}
    assert replay(recorded, "-q").exit_code == 0


def test_the_record_names_the_ruleset_played_when_none_is_given() -> None:
    catalog = build_catalog()
    _, record = play_game(base_decks(catalog), 2, ("random", "random"), ruleset=None,
                          catalog=catalog, max_turns=2)
    assert record.ruleset == "rulebook-en"
    assert record.header()["switches"] == {}


def test_revolvers_position_keeps_its_keys_and_names_the_countdown() -> None:
    catalog = build_catalog()
    state, _ = play_game(base_decks(catalog), 7, ("random", "random"), catalog=catalog)
    data = snapshot(state, legal=False)
    assert data["game"] == "revolver"
    assert data["countdown"] == {"name": "border", "tokens": state.countdown}
    assert data["border"] == state.countdown
    assert data["derail_used"] == ("derail" in data["pieces_used"])
    assert data["characters"]["pile"] is None  # Revolver has no pile: out of play is dead
    dead = [b["id"] for b in data["bandits"] if not b["alive"]]
    assert data["characters"]["dead"] == dead and dead
    lines = render(data)
    assert f"bandits dead ({len(dead)}): {', '.join(dead)}" in lines
    assert not any("in the pile" in line for line in lines)
    assert f"| border: {state.countdown} | gang alive: " in status_line(state)

"""Every result says what it rests on: the unconfirmed values of the decks' cards counted as
`data status` counts them, the cards that matter most (by plays, or by copies before any
game), and the opt-in sensitivity check that moves those cards' unconfirmed whole numbers
within the model's bounds. Games are few: the CPU is shared."""

from __future__ import annotations

import json
from typing import Any

import pytest
from json_shapes import shape_problems
from typer.testing import CliRunner

from deckbuilder.app.data_notes import deck_data_notes
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.status import deck_status
from deckbuilder.models.common import UNCONFIRMED
from deckbuilder.sim.reports.sensitivity import (
    Move,
    Setup,
    check_sensitivity,
    moved_catalog,
    moves_of,
    rests_on,
    rests_on_lines,
    values_in_play,
)
from deckbuilder.sim.reports.simulate_json import SimulationReport
from deckbuilder.sim.runs.batch import Contestant
from deckbuilder.sim.runs.runner import engine_catalog, prime_catalog

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog(use_user_data=False)


# -- counting and ranking ---------------------------------------------------------------------
@pytest.mark.parametrize("game, faction", [("revolver", "mcready"), ("revolver", "colty"),
                                           ("revolver2", "esteban")])
def test_the_values_in_play_are_counted_as_data_status_counts_them(
        catalog: Any, game: str, faction: str) -> None:
    deck = catalog.base_deck(game, faction)
    counts, ranked = values_in_play(catalog, [deck])
    status = deck_status(catalog, faction, deck)
    assert (counts.stated, counts.player, counts.unconfirmed) == (
        status.counts.stated, status.counts.player, status.counts.unconfirmed)
    assert counts.unconfirmed > 0
    # before any game the order is data status's "review first"
    assert [card.id for card in ranked[:len(status.review_first)]] == [
        row[0] for row in status.review_first]


def test_two_decks_count_each_card_once_and_the_run_reranks_by_plays(catalog: Any) -> None:
    mcready = catalog.base_deck("revolver", "mcready")
    colty = catalog.base_deck("revolver", "colty")
    alone = [values_in_play(catalog, [deck])[0] for deck in (mcready, colty)]
    both, _ = values_in_play(catalog, [mcready, colty])
    assert both.unconfirmed == sum(count.unconfirmed for count in alone)
    assert values_in_play(catalog, [mcready, mcready])[0].total == alone[0].total
    # a card played a lot outweighs one with more copies that is never played
    plays = {"josie-logan": 3.0}
    first = rests_on(catalog, [mcready, colty], plays)["matter_most"][0]
    assert first["id"] == "josie-logan" and first["played_per_game"] == 3.0
    by_copies = rests_on(catalog, [mcready, colty])["matter_most"][0]
    assert by_copies["id"] != "josie-logan" and by_copies["played_per_game"] is None


def test_a_players_confirmation_leaves_the_unconfirmed_count(tmp_path: Any) -> None:
    assert run("overlay", "set", "Deputy", "cost", "1", "--source", "my card")[0] == 0
    catalog = build_catalog()
    deck = catalog.base_deck("revolver", "mcready")
    before = values_in_play(build_catalog(use_user_data=False), [deck])[0]
    after = values_in_play(catalog, [deck])[0]
    assert after.unconfirmed == before.unconfirmed - 1 and after.player == 1
    note = deck_data_notes(deck, catalog)[-1]
    assert note.startswith(f"{after.unconfirmed} values of this deck's cards are unconfirmed")
    assert "1 value confirmed by a player" in note
    lines = rests_on_lines(rests_on(catalog, [deck]))
    assert "1 confirmed by a player" in lines[0] and "the deck's 20 cards" in lines[0]


def test_the_deck_note_names_the_cards_to_review_first(catalog: Any) -> None:
    deck = catalog.base_deck("revolver", "mcready")
    note = deck_data_notes(deck, catalog)[-1]
    first = deck_status(catalog, "mcready", deck).review_first[0][1]
    assert f"cards: {first}," in note and "`deckbuilder data review`" in note


# -- moving values ----------------------------------------------------------------------------
def test_moves_stay_within_the_models_bounds_and_touch_only_unconfirmed_numbers(
        catalog: Any) -> None:
    scout = catalog.entries["apache-scout"]  # cost 0 and firepower 1, both unconfirmed
    assert scout.record.cost == 0 and "cost" in scout.record.provenance.unconfirmed
    assert set(moves_of(scout)) == {Move("apache-scout", "cost", 0, 1),
                                    Move("apache-scout", "firepower", 1, 0),
                                    Move("apache-scout", "firepower", 1, 2)}
    for entry in catalog.cards():
        for move in moves_of(entry):
            field = type(entry.record).model_fields[move.field]
            low = next((rule.ge for rule in field.metadata if hasattr(rule, "ge")), None)
            high = next((rule.le for rule in field.metadata if hasattr(rule, "le")), None)
            assert abs(move.after - move.before) == 1
            assert low is not None and high is not None and low <= move.after <= high
            assert entry.record.provenance.source_of(move.field) == UNCONFIRMED


def test_a_moved_catalog_changes_one_value_and_leaves_the_original(catalog: Any) -> None:
    moved = moved_catalog(catalog, Move("deputy", "cost", 1, 2))
    assert moved.entries["deputy"].record.cost == 2
    assert catalog.entries["deputy"].record.cost == 1
    assert moved.entries["cowboy"] is catalog.entries["cowboy"]


def test_the_check_plays_what_it_says_and_puts_the_catalog_back(catalog: Any) -> None:
    prime_catalog(catalog)
    mcready = catalog.base_deck("revolver", "mcready")
    colty = catalog.base_deck("revolver", "colty")
    setup = Setup(Contestant("McReady", mcready, "random"), Contestant("Colty", colty, "random"),
                  1, 7, None, "revolver", 200, {}, ())
    played: list[Any] = []
    checked = check_sensitivity(catalog, setup, ["cowboy", "fire-at-will-boys"], 3,
                                on_result=played.append)
    assert engine_catalog() is catalog
    assert checked["moves"] == 1 and checked["games"] == 6 == len(played)
    assert [card["id"] for card in checked["cards"]] == ["cowboy"]
    assert checked["cards"][0]["largest"]["from"] == 0
    assert checked["not_moved"] == ["Fire at will, boys"]  # no whole number unconfirmed
    difference = checked["cards"][0]["largest"]["difference"]
    assert -1 <= difference["estimate"] <= 1


# -- the commands -----------------------------------------------------------------------------
def test_simulate_says_what_it_rests_on_and_the_check_changes_no_number() -> None:
    common = ("simulate", "mcready", "-n", "4", "--bot", "random", "--workers", "1", "--json")
    code, plain, _ = run(*common, "--no-sensitivity")
    assert code == 0
    code, out, err = run(*common, "--sensitivity", "--sensitivity-games", "2")
    assert code == 0, err
    without, report = json.loads(plain), json.loads(out)
    assert shape_problems(SimulationReport, report) == []  # the check's JSON included
    checked = report["rests_on"].pop("sensitivity")
    assert without["rests_on"].pop("sensitivity") is None
    assert report == without  # every number of the run is the same
    assert checked["games"] == 2 * (checked["moves"] + 1) and checked["moves"] > 0
    assert f"sensitivity: {checked['games']} more games" in err
    rests = report["rests_on"]
    assert rests["ranked_by"].startswith("unconfirmed values x copies x plays")
    plays = {row["id"]: row["played_per_game"] for row in report["cards"]["deck"]}
    assert all(card["played_per_game"] == plays.get(card["id"], card["played_per_game"])
               for card in rests["matter_most"])
    assert report["data"]["packs"] == {} and report["data"]["overlay"] is None


def test_the_text_and_the_page_show_the_same_words(tmp_path: Any) -> None:
    page = tmp_path / "report.html"
    code, out, _ = run("simulate", "mcready", "-n", "2", "--bot", "random", "--workers", "1",
                       "--report", str(page))
    assert code == 0
    shown = [line for line in out.splitlines() if line.startswith("Rests on: ")]
    assert len(shown) == 2 and "of the decks' 39 cards are unconfirmed" in shown[0]
    html = page.read_text(encoding="utf-8")
    assert 'id="rests-on"' in html and "x copies x plays per copy per game" in html


def test_a_gauntlet_rests_on_the_whole_field_and_refuses_the_check() -> None:
    code, out, _ = run("simulate", "mcready", "--vs", "colty", "--vs", "colty", "-n", "1",
                       "--bot", "random", "--workers", "1", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["rests_on"]["ranked_by"].startswith("unconfirmed values x copies (")
    assert "sha256" in report["data"]
    code, _, err = run("simulate", "mcready", "--vs", "colty", "--vs", "colty", "-n", "1",
                       "--sensitivity")
    assert code == 2 and "not a field" in err and len(err.strip().splitlines()) == 1


def test_a_gauntlets_text_says_what_it_rests_on() -> None:
    code, out, _ = run("simulate", "mcready", "--vs", "colty", "--vs", "colty", "-n", "1",
                       "--bot", "random", "--workers", "1")
    assert code == 0
    assert any(line.startswith("Rests on: ") and "unconfirmed" in line
               for line in out.splitlines())


def test_optimize_rests_on_the_deck_the_field_and_the_cards_it_puts_in(tmp_path: Any) -> None:
    page = tmp_path / "optimize.html"
    code, out, _ = run("optimize", "mcready", "--budget", "60", "--bot", "random", "--workers",
                       "1", "--json", "--report", str(page))
    assert code == 0
    data = json.loads(out)
    catalog = build_catalog()
    decks = [catalog.base_deck("revolver", "mcready"), catalog.base_deck("revolver", "colty")]
    decks += [{swap["in"]: swap["count"]} for finalist in data["finalists"]
              for swap in finalist["swaps"]]
    assert data["rests_on"]["unconfirmed"] == values_in_play(catalog, decks)[0].unconfirmed
    assert "sha256" in data["data"] and 'id="rests-on"' in page.read_text(encoding="utf-8")

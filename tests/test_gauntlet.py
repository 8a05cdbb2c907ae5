"""Gauntlets: a deck against a field of opponents (`simulate DECK --vs A --vs B`), the field
read from files, packaged names, factions and folders with weights (`app.field`), on paired
seeds, the same on every executor, in text, JSON and HTML."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.app.field import is_field, read_field, single_opponent, split_weight
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.errors import DeckbuilderError
from deckbuilder.paths import PACKAGED_DECKS
from deckbuilder.sim import Contestant, ProcessExecutor, SerialExecutor, simulate
from deckbuilder.sim.rankings.gauntlet import run_gauntlet, weighted_mean

PACKAGED = PACKAGED_DECKS  # the installed package's, which a packaged deck's name finds
HAS_DASK = importlib.util.find_spec("distributed") is not None
runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str | Path) -> dict:
    code, out, err = invoke(*args, "--json")
    assert code == 0, out + err
    return json.loads(out)


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return build_catalog()


def write_deck(folder: Path, name: str, faction: str, cards: dict[str, int],
               game: str = "revolver") -> Path:
    lines = [f"name: {name}", f"game: {game}", f"faction: {faction}", "cards:"]
    lines += [f"  {card}: {copies}" for card, copies in cards.items()]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture()
def folder_of_both_sides(tmp_path: Path, catalog) -> Path:  # type: ignore[no-untyped-def]
    """A player's folder: two McReady decks and a Colty deck."""
    folder = tmp_path / "decks"
    folder.mkdir()
    mcready = catalog.base_deck("revolver", "mcready")
    write_deck(folder, "lawmen-a", "mcready", mcready)
    write_deck(folder, "lawmen-b", "mcready", mcready)
    write_deck(folder, "gang", "colty", catalog.base_deck("revolver", "colty"))
    return folder


# -- reading the field ------------------------------------------------------------------------
def test_a_weight_follows_the_last_at_and_must_be_positive() -> None:
    assert split_weight("mcready@2") == ("mcready", 2.0)
    assert split_weight("decks/@0.5") == ("decks/", 0.5)
    assert split_weight("mcready") == ("mcready", 1.0)
    for bad in ("mcready@0", "mcready@-1", "mcready@1e400"):
        with pytest.raises(DeckbuilderError, match="weight"):
            split_weight(bad)


def test_a_file_whose_name_ends_in_at_a_number_is_that_file(tmp_path: Path,
                                                             monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck@2").write_text("x")
    assert split_weight("deck@2") == ("deck@2", 1.0)


def test_a_folder_gives_its_decks_of_the_side_and_notes_the_others(
        folder_of_both_sides: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    field = read_field([f"{folder_of_both_sides}@3", "mcready"], catalog, game="revolver",
                       side_against="mcready")
    assert [entry.label for entry in field.entries] == ["lawmen-a", "lawmen-b",
                                                         "mcready base deck"]
    assert [entry.weight for entry in field.entries] == [3.0, 3.0, 1.0]
    assert field.weights == [3 / 7, 3 / 7, 1 / 7]
    assert any("gang.yaml left out" in note for note in field.notes)


def test_the_same_deck_twice_is_one_opponent_with_the_weights_added(catalog) -> None:  # type: ignore[no-untyped-def]
    field = read_field(["example-mcready-pinkertons", str(PACKAGED /
                        "example-mcready-pinkertons.yaml") + "@2"], catalog, game="revolver",
                       side_against="mcready")
    assert len(field.entries) == 1 and field.entries[0].weight == 3.0
    assert field.notes


def test_a_deck_of_the_wrong_side_or_game_named_directly_is_one_line(catalog) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DeckbuilderError, match="--vs must be a mcready deck"):
        read_field(["colty"], catalog, game="revolver", side_against="mcready")
    with pytest.raises(DeckbuilderError, match="both decks must be of one game"):
        read_field(["mapache"], catalog, game="revolver", side_against="mcready")


def test_a_broken_deck_in_the_folder_names_its_file_and_line(folder_of_both_sides: Path,
                                                             catalog) -> None:  # type: ignore[no-untyped-def]
    (folder_of_both_sides / "broken.yaml").write_text(
        "name: broken\ngame: revolver\nfaction: mcready\ncards:\n  no-such-card: 3\n")
    with pytest.raises(DeckbuilderError) as raised:
        read_field([str(folder_of_both_sides)], catalog, game="revolver",
                   side_against="mcready")
    assert f"{folder_of_both_sides / 'broken.yaml'}:5" in str(raised.value)


def test_one_opponent_is_no_field_but_two_or_a_folder_are(folder_of_both_sides: Path) -> None:
    assert not is_field(["mcready"]) and not is_field(["mcready@2"])
    assert is_field(["mcready", "example-mcready-pinkertons"])
    assert is_field([str(folder_of_both_sides)])
    assert single_opponent(["mcready@2"]) == "mcready" and single_opponent(None) is None


# -- the games ----------------------------------------------------------------------------------
def _field(catalog):  # type: ignore[no-untyped-def]
    mcready = catalog.base_deck("revolver", "mcready")
    return [Contestant("greedy lawmen", mcready, "greedy"),
            Contestant("random lawmen", mcready, "random")]


def test_each_row_is_the_single_opponent_simulation_on_the_same_seeds(catalog) -> None:  # type: ignore[no-untyped-def]
    deck = Contestant("gang", catalog.base_deck("revolver", "colty"), "greedy")
    result = run_gauntlet(deck, _field(catalog), games=6, seed=5)
    for row, opponent in zip(result.matchups, _field(catalog), strict=True):
        alone = simulate(deck, opponent, side=0, games=6, seed=5, keep_results=True)
        assert row.wins == sum(1 for r in alone.results if r.winner == 0)
        assert row.mean_turns == sum(r.turns for r in alone.results) / 6


def test_the_weights_move_the_field_toward_the_heavier_opponent(catalog) -> None:  # type: ignore[no-untyped-def]
    deck = Contestant("gang", catalog.base_deck("revolver", "colty"), "greedy")
    even = run_gauntlet(deck, _field(catalog), games=6, seed=5)
    heavy = run_gauntlet(deck, _field(catalog), games=6, seed=5, weights=[1, 3])
    rates = [row.win_rate.estimate for row in even.matchups]
    assert even.field_win_rate.estimate == pytest.approx(sum(rates) / 2)
    assert heavy.field_win_rate.estimate == pytest.approx(0.25 * rates[0] + 0.75 * rates[1])
    assert heavy.side == "colty" and heavy.opponent_side == "mcready"


def test_the_field_interval_counts_a_row_of_all_wins_as_uncertain() -> None:
    mixed = weighted_mean([[1.0] * 10, [0.0] * 10], [0.75, 0.25])
    assert mixed.estimate == pytest.approx(0.75)
    assert mixed.low < 0.75 < mixed.high
    swept = weighted_mean([[1.0] * 10, [1.0] * 10], [0.5, 0.5])
    assert swept.estimate == 1.0 and swept.low < 0.9 and swept.high == 1.0


def test_the_same_seed_gives_the_same_gauntlet_in_a_pool_of_processes(catalog) -> None:  # type: ignore[no-untyped-def]
    deck = Contestant("gang", catalog.base_deck("revolver", "colty"), "greedy")
    serial = run_gauntlet(deck, _field(catalog), games=4, seed=9, executor=SerialExecutor())
    pooled = run_gauntlet(deck, _field(catalog), games=4, seed=9,
                          executor=ProcessExecutor(2, chunk_size=1))
    assert pooled == serial


@pytest.mark.skipif(not HAS_DASK, reason="dask is not installed (the dask extra)")
def test_the_same_seed_gives_the_same_gauntlet_on_a_local_dask_cluster(catalog) -> None:  # type: ignore[no-untyped-def]
    from deckbuilder.sim.runs.dask_executor import DaskExecutor

    deck = Contestant("gang", catalog.base_deck("revolver", "colty"), "greedy")
    serial = run_gauntlet(deck, _field(catalog), games=3, seed=9)
    with DaskExecutor(None, workers=1, catalog=catalog) as executor:
        on_dask = run_gauntlet(deck, _field(catalog), games=3, seed=9, executor=executor)
    assert on_dask == serial


def test_a_revolver_2_deck_runs_a_gauntlet(catalog) -> None:  # type: ignore[no-untyped-def]
    mapache = catalog.base_deck("revolver2", "mapache")
    result = run_gauntlet(Contestant("esteban", catalog.base_deck("revolver2", "esteban")),
                          [Contestant("greedy", mapache), Contestant("random", mapache,
                                                                    "random")],
                          games=2, seed=1)
    assert (result.game, result.side, result.opponent_side) == ("revolver2", "esteban",
                                                                "mapache")
    assert [row.games for row in result.matchups] == [2, 2]


# -- the command line -----------------------------------------------------------------------------
def test_simulate_with_a_folder_and_a_weight_reports_each_opponent_and_the_field(
        folder_of_both_sides: Path, tmp_path: Path) -> None:
    page = tmp_path / "gauntlet.html"
    report = run_json("simulate", "colty", "--vs", folder_of_both_sides, "--vs",
                      "example-mcready-pinkertons@2", "-n", "3", "--report", page)
    assert report["kind"] == "gauntlet" and report["games_per_opponent"] == 3
    assert [row["name"] for row in report["opponents"]] == [
        "lawmen-a", "lawmen-b", "McReady's Pinkertons (example)"]
    assert [row["share"] for row in report["opponents"]] == [0.25, 0.25, 0.5]
    shares = sum(row["share"] * row["win_rate"]["estimate"] for row in report["opponents"])
    assert report["field"]["win_rate"]["estimate"] == pytest.approx(shares)
    assert any("gang.yaml left out" in note for note in report["notes"])
    text = page.read_text()
    assert "<svg" in text and "the field (weighted)" in text and "lawmen-b" in text


def test_simulate_prints_the_gauntlet_as_a_table_that_fits_80_columns() -> None:
    import io

    from rich.console import Console

    from deckbuilder.sim.reports.tournament_report import print_gauntlet

    code, out, _ = invoke("simulate", "colty", "--vs", "mcready", "--vs",
                          "example-mcready-pinkertons", "-n", "2")
    assert code == 0
    assert "the field (weighted)" in out and "McReady's Pinkertons" in out
    report = run_json("simulate", "colty", "--vs", "mcready", "--vs",
                      "example-mcready-pinkertons", "-n", "2")
    terminal = io.StringIO()
    print_gauntlet(Console(file=terminal, width=80, markup=False), report)
    table = [line for line in terminal.getvalue().splitlines() if line[:1] in "┏┃┡│└"]
    assert table and all(len(line) <= 80 for line in table)
    # whole words: the win rate and its interval are not wrapped over two lines
    assert all(re.search(r"\d+% \[\d+, \d+\]", line) for line in table
               if line.startswith("│") and "[" in line)


def test_one_vs_still_plays_the_single_opponent_report() -> None:
    report = run_json("simulate", "colty", "--vs", "mcready@3", "-n", "2")
    assert report["opponent"]["name"] == "mcready base deck" and "sides" in report


@pytest.mark.parametrize(("args", "message"), [
    (("--vs", "mcready", "--vs", "colty"), "--vs must be a mcready deck"),
    (("--vs", "mcready", "--vs", "mapache"), "both decks must be of one game"),
    (("--vs", "mcready", "--vs", "mcready@0"), "a weight must be above 0"),
    (("--vs", "mcready", "--vs", "mcready", "--baseline", "colty"), "--baseline"),
])
def test_a_wrong_field_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke("simulate", "colty", *args, "-n", "2")
    assert code == 2 and message in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1

"""Tournaments: every deck of one side against every deck of the other on shared seeds, a
Bradley-Terry rating fitted from the results, the same on every executor, on both games, in
text, JSON and a page with pictures."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.sim import Contestant, ProcessExecutor, SerialExecutor
from deckbuilder.sim.rankings.ratings import ELO_SCALE, fit_bradley_terry
from deckbuilder.sim.rankings.tournament import run_tournament

HAS_DASK = importlib.util.find_spec("distributed") is not None
runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return build_catalog()


# -- the rating --------------------------------------------------------------------------------
def _played(strengths: dict[str, float], firsts: str, seconds: str, games: int,
            seed: int) -> dict[tuple[str, str], tuple[float, float]]:
    """Games drawn from the Bradley-Terry model itself: first beats second with probability
    g_first / (g_first + g_second)."""
    rng = random.Random(seed)
    scores = {}
    for a in firsts:
        for b in seconds:
            chance = strengths[a] / (strengths[a] + strengths[b])
            wins = sum(rng.random() < chance for _ in range(games))
            scores[(a, b)] = (float(wins), float(games - wins))
    return scores


def test_the_fit_finds_the_strengths_the_games_were_drawn_from() -> None:
    strengths = {"a": 4.0, "b": 1.0, "c": 0.25, "x": 2.0, "y": 0.5}
    fit = fit_bradley_terry(list(strengths), _played(strengths, "abc", "xy", 2000, 1))
    order = sorted(range(5), key=lambda i: -fit.ratings[i])
    assert [fit.names[i] for i in order] == ["a", "x", "b", "y", "c"]
    # a against c: 16 to 1 in strength, 4 * 400 * log10(2) ~ 482 Elo points
    assert fit.ratings[0] - fit.ratings[2] == pytest.approx(ELO_SCALE * 2.7726, abs=60)
    assert all(low < rating < high for low, rating, high
               in zip(fit.lows, fit.ratings, fit.highs, strict=True))
    assert sum(fit.ratings) == pytest.approx(0, abs=1e-6)


def test_more_games_narrow_the_intervals() -> None:
    strengths = {"a": 2.0, "b": 1.0, "x": 1.0}
    few = fit_bradley_terry(list(strengths), _played(strengths, "ab", "x", 20, 2))
    many = fit_bradley_terry(list(strengths), _played(strengths, "ab", "x", 2000, 2))
    assert many.highs[0] - many.lows[0] < (few.highs[0] - few.lows[0]) / 5


def test_a_clean_sweep_has_a_finite_rating_and_even_results_rate_alike() -> None:
    swept = fit_bradley_terry(["a", "b"], {("a", "b"): (10.0, 0.0)})
    assert 0 < swept.ratings[0] < 1000 and swept.ratings[1] == pytest.approx(-swept.ratings[0])
    even = fit_bradley_terry(["a", "b"], {("a", "b"): (5.0, 5.0)})
    assert even.ratings[0] == pytest.approx(0, abs=1e-9)
    assert even.expected_score(0, 1) == pytest.approx(0.5)


# -- the games ----------------------------------------------------------------------------------
def _decks(catalog, game: str = "revolver"):  # type: ignore[no-untyped-def]
    first, second = ("colty", "mcready") if game == "revolver" else ("esteban", "mapache")
    return [Contestant("first greedy", catalog.base_deck(game, first), "greedy"),
            Contestant("first random", catalog.base_deck(game, first), "random"),
            Contestant("second greedy", catalog.base_deck(game, second), "greedy")]


def test_every_deck_of_one_side_meets_every_deck_of_the_other(catalog) -> None:  # type: ignore[no-untyped-def]
    result = run_tournament(_decks(catalog), games=3, seed=2)
    assert [(p.first, p.second, p.games) for p in result.pairings] == [
        ("first greedy", "second greedy", 3), ("first random", "second greedy", 3)]
    assert result.sides == ("colty", "mcready")
    second = next(row for row in result.standings if row.deck == "second greedy")
    assert second.games == 6
    assert second.wins == sum(p.second_wins for p in result.pairings)
    ratings = [row.rating.estimate for row in result.standings]
    assert ratings == sorted(ratings, reverse=True)
    assert [row.rank for row in result.standings] == [1, 2, 3]


def test_decks_of_one_side_meet_the_other_sides_base_deck(catalog) -> None:  # type: ignore[no-untyped-def]
    result = run_tournament(_decks(catalog)[:2], games=2, seed=2)
    assert {p.second for p in result.pairings} == {"Colonel McReady base deck"}
    assert result.notes and "mcready" in result.notes[0]


def test_the_same_seed_gives_the_same_tournament_in_a_pool_of_processes(catalog) -> None:  # type: ignore[no-untyped-def]
    serial = run_tournament(_decks(catalog), games=3, seed=4, executor=SerialExecutor())
    pooled = run_tournament(_decks(catalog), games=3, seed=4,
                            executor=ProcessExecutor(2, chunk_size=1))
    assert pooled == serial


@pytest.mark.skipif(not HAS_DASK, reason="dask is not installed (the dask extra)")
def test_the_same_seed_gives_the_same_tournament_on_a_local_dask_cluster(catalog) -> None:  # type: ignore[no-untyped-def]
    from deckbuilder.sim.runs.dask_executor import DaskExecutor

    serial = run_tournament(_decks(catalog), games=2, seed=4)
    with DaskExecutor(None, workers=1, catalog=catalog) as executor:
        on_dask = run_tournament(_decks(catalog), games=2, seed=4, executor=executor)
    assert on_dask == serial


def test_a_revolver_2_tournament(catalog) -> None:  # type: ignore[no-untyped-def]
    result = run_tournament(_decks(catalog, "revolver2"), games=2, seed=1)
    assert result.game == "revolver2" and result.sides == ("esteban", "mapache")
    assert len(result.pairings) == 2 and len(result.standings) == 3


def test_decks_of_two_games_are_refused(catalog) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="one game"):
        run_tournament([_decks(catalog)[0], _decks(catalog, "revolver2")[2]], games=1, seed=1)


# -- the command line -----------------------------------------------------------------------------
def test_the_command_ranks_a_folder_and_draws_a_page(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "decks"
    folder.mkdir()
    for name, faction in (("gang", "colty"), ("<b>lawmen</b>", "mcready")):
        cards = "\n".join(f"  {card}: {copies}" for card, copies
                          in catalog.base_deck("revolver", faction).items())
        (folder / f"{faction}.yaml").write_text(
            f"name: \"{name}\"\ngame: revolver\nfaction: {faction}\ncards:\n{cards}\n")
    page = tmp_path / "t.html"
    code, out, err = invoke("tournament", folder, "example-colty-fan-the-gun", "-n", "2",
                            "--json", "--report", page)
    assert code == 0, out + err
    report = json.loads(out)
    assert report["kind"] == "tournament" and report["games"] == 4
    assert {row["deck"] for row in report["standings"]} == {
        "gang", "<b>lawmen</b>", "Colty fans the gun (example)"}
    assert len(report["pairings"]) == 2
    text = page.read_text()
    assert "<svg" in text and "&lt;b&gt;lawmen&lt;/b&gt;" in text and "<b>lawmen" not in text


def test_the_command_prints_standings_and_pairings() -> None:
    code, out, _ = invoke("tournament", "colty", "mcready", "example-mcready-pinkertons",
                          "-n", "2")
    assert code == 0
    assert "Standings" in out and "Pairings" in out and "McReady's Pinkertons" in out


def test_decks_of_two_games_are_one_line_and_exit_2() -> None:
    code, out, err = invoke("tournament", "colty", "mapache", "-n", "1")
    assert code == 2 and "decks of one game only" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_a_weight_in_a_tournament_is_refused_rather_than_ignored() -> None:
    code, _, err = invoke("tournament", "colty", "mcready@2", "-n", "1")
    assert code == 2 and "counts every pairing alike" in err


def test_gauntlet_and_tournament_reports_name_the_build() -> None:
    from deckbuilder.build import describe

    for args in (("tournament", "colty", "mcready", "-n", "2"),
                 ("simulate", "colty", "--vs", "mcready", "--vs", "example-mcready-pinkertons",
                  "-n", "2")):
        code, out, err = invoke(*args, "--json")
        assert code == 0, err
        assert json.loads(out)["build"]["name"] == describe()
        code, out, _ = invoke(*args)
        assert code == 0 and f"Build: {describe()}" in out

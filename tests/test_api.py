"""The Python API a script uses (`deckbuilder.simulate`, `gauntlet`, `tournament`): decks given
any way, the seat read from the deck, typed frozen results, the command line's numbers for the
same seed, and bad input as one-line `DeckbuilderError`s."""

from __future__ import annotations

import dataclasses
import inspect
import json
from typing import Any

import pytest
from typer.testing import CliRunner

import deckbuilder
from deckbuilder.api import DeckInputError, SettingError, SimulationResult
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.cli import app
from deckbuilder.errors import DeckbuilderError, DeckError
from deckbuilder.models import Deck

runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog()


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# -- simulate ---------------------------------------------------------------------------------
def test_simulate_gives_the_command_lines_numbers_for_the_same_seed() -> None:
    report = cli_json("simulate", "example-mcready-pinkertons", "--vs", "colty", "--games", "12",
                      "--seed", "7")
    result = deckbuilder.simulate("example-mcready-pinkertons", against="colty", games=12,
                                  seed=7)
    seat = report["deck"]["seat"]
    assert (result.wins, result.draws) == (report["sides"][seat]["wins"],
                                           report["draws"]["games"])
    assert result.losses == report["sides"][1 - seat]["wins"]
    assert result.win_rate.as_dict() == report["sides"][seat]["win_rate"]
    assert dict(result.endings) == {row["termination"]: row["games"]
                                    for row in report["endings"]}
    assert result.lengths.turns.mean == report["length"]["turns"]["mean"]
    assert [[turns, games] for turns, games in result.lengths.turn_histogram] == \
        report["length"]["turn_counts"]
    deputy = next(row for row in report["cards"]["deck"] if row["id"] == "deputy")
    assert result.card("Deputy").played_per_game == deputy["played_per_game"]
    assert result.card("deputy").games_played == deputy["games_played"]


def test_the_seat_is_read_from_the_deck_and_the_opponent_is_the_other_base_deck() -> None:
    lawmen = deckbuilder.simulate("mcready", games=3, seed=2, bot="random")
    gang = deckbuilder.simulate("colty", games=3, seed=2, bot="random")
    assert (lawmen.side, lawmen.opponent_side, lawmen.opponent) == (
        "mcready", "colty", "colty base deck")
    assert (gang.side, gang.opponent_side, gang.opponent) == ("colty", "mcready",
                                                             "mcready base deck")
    # the same games seen from either seat: one deck's wins are the other's losses
    assert (lawmen.wins, lawmen.draws) == (gang.losses, gang.draws)
    explicit = deckbuilder.simulate("mcready", "colty", games=3, seed=2, bot="random")
    assert explicit.wins == lawmen.wins and explicit.endings == lawmen.endings


def test_a_revolver_2_deck_sits_in_its_own_seat_and_processes_change_nothing() -> None:
    serial = deckbuilder.simulate("mapache", games=4, seed=5, bot="random")
    pooled = deckbuilder.simulate("mapache", games=4, seed=5, bot="random", workers=2)
    assert (serial.side, serial.opponent_side) == ("mapache", "esteban")
    assert serial.settings.ruleset == "rulebook-es"
    assert (pooled.wins, pooled.endings, pooled.lengths) == (serial.wins, serial.endings,
                                                             serial.lengths)


def test_a_deck_given_any_way_plays_the_same_games(catalog: Catalog) -> None:
    path = deckbuilder.packaged_deck("example-colty-fan-the-gun")
    loaded = deckbuilder.load_deck(path, catalog)
    model = Deck.model_validate({"name": loaded.name, "game": "revolver", "faction": "colty",
                                 "cards": loaded.counts()})
    results = [deckbuilder.simulate(deck, games=4, seed=3, bot="random", catalog=catalog)
               for deck in (loaded, model, path, str(path), "example-colty-fan-the-gun")]
    assert len({(r.wins, r.draws, tuple(r.endings.items())) for r in results}) == 1
    assert {r.deck for r in results} == {loaded.name}


def test_the_result_is_typed_frozen_and_names_its_settings() -> None:
    result = deckbuilder.simulate("colty", games=2, seed=1, bot="random",
                                  switches={"train-victory": "any-member"}, modules=["A"])
    assert isinstance(result, SimulationResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.wins = 99  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.endings["border_emptied"] = 1  # type: ignore[index]
    settings = result.settings
    assert (settings.seed, settings.games, settings.bot, settings.opponent_bot) == (
        1, 2, "random", "random")
    assert settings.ruleset == "rulebook-en" and dict(settings.switches) == {
        "train-victory": "any-member"}
    assert settings.modules == ("saloon-duel",)
    assert settings.build in ("plain Python", "compiled with mypyc")
    assert all(ending.words and " " in ending.words for ending in result.ending_details)
    assert sum(result.endings.values()) == result.games


def _one_line(error: pytest.ExceptionInfo[DeckbuilderError]) -> str:
    text = str(error.value)
    assert "\n" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize(("call", "kind", "words"), [
    (lambda: deckbuilder.simulate("no-such-deck.yaml", games=2), DeckError, "file not found"),
    (lambda: deckbuilder.simulate("colty", against="colty", games=2), DeckError,
     "must be a mcready deck"),
    (lambda: deckbuilder.simulate("colty", against="mapache", games=2), DeckError,
     "both decks must be of one game"),
    (lambda: deckbuilder.simulate("colty", games=0), SettingError, "games must be"),
    (lambda: deckbuilder.simulate("colty", games=2, workers=-1), SettingError, "workers"),
    (lambda: deckbuilder.simulate(42, games=2), DeckInputError,  # type: ignore[arg-type]
     "not int"),
    (lambda: deckbuilder.simulate("colty", games=2, bot="genius"), DeckbuilderError,
     "unknown bot"),
    (lambda: deckbuilder.simulate("colty", games=2, ruleset="house"), DeckbuilderError,
     "unknown ruleset"),
    (lambda: deckbuilder.simulate("colty", games=2, switches={"no-such": "x"}),
     DeckbuilderError, "no rule switch 'no-such'"),
    (lambda: deckbuilder.simulate("colty", games=2, modules=["Z"]), DeckbuilderError,
     "no module"),
])
def test_bad_input_is_one_line(call: Any, kind: type[DeckbuilderError], words: str) -> None:
    with pytest.raises(kind) as error:
        call()
    assert words in _one_line(error)


def test_a_deck_object_is_checked_like_a_deck_file() -> None:
    unknown = Deck(name="typo", game="revolver", faction="colty", cards={"no such card": 62})
    with pytest.raises(DeckError) as error:
        deckbuilder.simulate(unknown, games=2)
    assert "unknown-card" in _one_line(error) and "typo" in str(error.value)
    short = Deck(name="short", game="revolver", faction="mcready", cards={"deputy": 10})
    with pytest.raises(DeckError) as refused:
        deckbuilder.simulate(short, games=2)
    assert "not a legal deck" in _one_line(refused) and "allow_illegal" in str(refused.value)
    played = deckbuilder.simulate(short, games=2, bot="random", allow_illegal=True)
    assert played.games == 2 and "not a legal deck" in played.warnings[0]


def test_the_top_level_exports_are_the_api_and_the_librarys_simulate_stays() -> None:
    import deckbuilder.api
    import deckbuilder.sim

    assert deckbuilder.simulate is deckbuilder.api.simulate
    assert deckbuilder.sim.simulate is not deckbuilder.api.simulate
    assert "side" in inspect.signature(deckbuilder.sim.simulate).parameters  # a seat, still
    for name in deckbuilder.__all__:
        assert getattr(deckbuilder, name) is not None, name


# -- gauntlet ---------------------------------------------------------------------------------
def test_a_gauntlet_gives_the_command_lines_numbers_and_weighs_its_field() -> None:
    report = cli_json("simulate", "mcready", "--vs", "colty@2", "--vs",
                      "example-colty-fan-the-gun", "--games", "6", "--seed", "4")
    result = deckbuilder.gauntlet("mcready", ["colty", "example-colty-fan-the-gun"],
                                  weights=[2, 1], games=6, seed=4)
    assert [row.wins for row in result.matchups] == [row["wins"] for row in report["opponents"]]
    assert result.field_win_rate.as_dict() == report["field"]["win_rate"]
    assert [round(row.share, 6) for row in result.matchups] == [0.666667, 0.333333]
    assert result.matchup("colty base deck").weight == 2
    assert result.weakest.win_rate.estimate == min(row.win_rate.estimate
                                                   for row in result.matchups)
    assert (result.side, result.opponent_side) == ("mcready", "colty")


def test_each_gauntlet_row_carries_the_decks_card_figures_of_its_games() -> None:
    """A row's per-card figures are `simulate`'s for that opponent on the same seeds (the
    same games), in the typed result and in the command line's JSON."""
    field = ["colty", "example-colty-fan-the-gun"]
    result = deckbuilder.gauntlet("mcready", field, games=6, seed=4)
    report = cli_json("simulate", "mcready", "--vs", field[0], "--vs", field[1], "--games", "6",
                      "--seed", "4")
    for row, opponent, reported in zip(result.matchups, field, report["opponents"],
                                       strict=True):
        alone = deckbuilder.simulate("mcready", against=opponent, games=6, seed=4)
        assert row.cards == alone.cards and row.cards
        assert [card["id"] for card in reported["cards"]] == [card.id for card in row.cards]
        deputy = row.card("deputy")
        assert deputy.games_played + deputy.games_not_played == 6
        assert deputy.copies == alone.card("Deputy").copies > 0
    with pytest.raises(KeyError):
        result.matchups[0].card("Gatling Gun")  # the gang's card, not the deck's


def test_a_gauntlet_takes_deck_objects_and_tells_same_named_opponents_apart(
        catalog: Catalog) -> None:
    base = deckbuilder.load_deck(deckbuilder.packaged_deck("colty-base"), catalog)
    result = deckbuilder.gauntlet("mcready", [base, "colty"], games=2, seed=1, bot="random",
                                  catalog=catalog)
    labels = [row.opponent for row in result.matchups]
    assert len(set(labels)) == 2
    # the same deck on the same seeds: the same row
    assert result.matchups[0].wins == result.matchups[1].wins
    with pytest.raises(SettingError):
        deckbuilder.gauntlet("mcready", ["colty"], weights=[1, 2], games=2)
    with pytest.raises(DeckError) as wrong_side:
        deckbuilder.gauntlet("mcready", ["mcready"], games=2)
    assert "field must be a colty deck" in _one_line(wrong_side)


# -- tournament -------------------------------------------------------------------------------
def test_a_tournament_gives_the_command_lines_standings() -> None:
    report = cli_json("tournament", "colty", "mcready", "example-mcready-pinkertons",
                      "--games", "3", "--seed", "2")
    result = deckbuilder.tournament(["colty", "mcready", "example-mcready-pinkertons"],
                                    games=3, seed=2)
    assert [(row.deck, row.wins, row.losses) for row in result.standings] == [
        (row["deck"], row["wins"], row["losses"]) for row in report["standings"]]
    assert result.standing("colty base deck").rating.as_dict() == next(
        row["rating"] for row in report["standings"] if row["deck"] == "colty base deck")
    assert {row.side for row in result.ranking("mcready")} == {"mcready"}
    assert len(result.pairings) == 2


def test_a_tournament_gives_each_decks_card_figures_over_its_games() -> None:
    decks = ["mcready", "colty", "example-colty-fan-the-gun"]
    result = deckbuilder.tournament(decks, games=4, seed=3)
    report = cli_json("tournament", *decks, "--games", "4", "--seed", "3")
    # the base gang met McReady alone: its figures are simulate's on the same seeds
    alone = deckbuilder.simulate("colty", against="mcready", games=4, seed=3)
    assert result.cards_of("colty base deck") == alone.cards
    # McReady met both gangs: his figures count his 8 games
    deputy = next(card for card in result.cards_of("mcready base deck") if card.id == "deputy")
    assert deputy.games_played + deputy.games_not_played == 8
    against = [deckbuilder.simulate("mcready", against=gang, games=4, seed=3).card("deputy")
               for gang in decks[1:]]
    assert deputy.drawn_per_game == pytest.approx(sum(card.drawn_per_game for card in against) / 2)
    listed = {row["deck"]: [card["id"] for card in row["cards"]] for row in report["standings"]}
    assert listed["mcready base deck"] == [card.id for card in result.cards_of("mcready base deck")]
    with pytest.raises(KeyError):
        result.cards_of("no such deck")


def test_a_tournament_refuses_decks_of_two_games() -> None:
    with pytest.raises(DeckError) as error:
        deckbuilder.tournament(["colty", "esteban"], games=2)
    assert "decks of one game only" in _one_line(error)


# -- optimize ---------------------------------------------------------------------------------
def test_optimize_names_its_swaps_and_proposes_the_deck_they_make(catalog: Catalog) -> None:
    result = deckbuilder.optimize("mcready", only_out=["Deputy"], only_in=["Texas Ranger"],
                                  budget=100, seed=1, bot="random", catalog=catalog)
    base = catalog.base_deck("revolver", "mcready")
    assert result.swaps and all(str(swap).endswith("Deputy -> Texas Ranger")
                                for swap in result.swaps)
    swapped = sum(swap.count for swap in result.swaps)
    assert result.best.cards.get("deputy", 0) == base["deputy"] - swapped
    assert result.best.cards["texas-ranger"] == swapped
    assert result.difference is not None
    assert result.is_better == (result.difference.low > 0)
    assert 0 < result.games <= result.budget == 100
    assert result.advice and result.settings.bot == "random"


def test_optimize_refuses_a_budget_too_small_and_an_unknown_card() -> None:
    with pytest.raises(SettingError) as small:
        deckbuilder.optimize("mcready", budget=5)
    assert "budget" in _one_line(small)
    with pytest.raises(DeckError) as unknown:
        deckbuilder.optimize("mcready", only_in=["Texas Rangr"], budget=100)
    assert "unknown card 'Texas Rangr'" in _one_line(unknown)
    with pytest.raises(DeckError) as unowned:
        deckbuilder.optimize("mcready", collection={"Texas Rangr": 1}, budget=100)
    assert "collection: unknown card 'Texas Rangr'" in _one_line(unowned)

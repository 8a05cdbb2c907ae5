"""Decks a player can build: `simulate`, gauntlets, `tournament` and `optimize` judge and search
only decks within the supply (`legality.deck_supply`: one box of each product unless `--boxes
N`, a collection or `card-copies=any-number` says otherwise), and every report says which."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import deckbuilder
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.cli import app
from deckbuilder.legality import deck_supply
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize import single_swaps

PRIVY = "the-jakes-railworkers-privy-hut"  # one in the box of The Tarnished Star
ONE_BOX = "judged against one copy of each product; --boxes N or --collection FILE changes it"
TWO_BOXES = "judged against 2 copies of each product (--boxes 2)"
runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


def colty_with(catalog: Catalog, out: str, privies: int) -> dict[str, int]:
    cards = dict(catalog.base_deck("revolver", "colty"))
    cards[out] -= privies
    cards[PRIVY] = privies
    return {card: count for card, count in cards.items() if count}


def write_deck(path: Path, cards: dict[str, int]) -> Path:
    path.write_text("name: Privies\ngame: revolver\nfaction: colty\ncards:\n"
                    + "".join(f"  {card}: {count}\n" for card, count in cards.items()),
                    encoding="utf-8")
    return path


@pytest.fixture
def two_privies(tmp_path: Path, catalog: Catalog) -> Path:
    return write_deck(tmp_path / "privies.yaml", colty_with(catalog, "38-special", 2))


def run(*args: str | Path) -> Any:
    return runner.invoke(app, [*map(str, args)])


# -- the optimiser searches only decks within the supply ------------------------------------------
def test_a_swap_of_two_gatling_guns_for_two_privy_huts_needs_two_boxes(catalog: Catalog) -> None:
    """Planted: the Gatling guns (2) out for the privy hut: all of them would take two privy
    huts, which one box does not hold; `--boxes 2` lets that swap in."""
    template = Deck(name="Colty", game="revolver", faction="colty",
                    cards=dict(catalog.base_deck("revolver", "colty")))
    cards = template.cards

    def counts(supply_boxes: int) -> set[int]:
        return {c.swaps[0].count for c in single_swaps(
            template, cards, catalog, deck_supply(catalog, boxes=supply_boxes),
            only_out=["gatling-gun"], only_in=[PRIVY])}

    assert counts(1) == {1} and counts(2) == {1, 2}


def test_optimize_never_proposes_more_than_the_box_holds(tmp_path: Path) -> None:
    common = ("optimize", "colty", "--out", "gatling-gun", "--in", PRIVY, "--budget", "40",
              "--bot", "random", "--workers", "1", "--json")
    one = json.loads(run(*common).stdout)
    assert one["supply"] == ONE_BOX and one["candidates"] == 1
    for raced in [*one["race"], *one["finalists"]]:
        assert all(swap["count"] == 1 for swap in raced["swaps"])
    two = json.loads(run(*common, "--boxes", "2").stdout)
    assert two["supply"] == TWO_BOXES and two["candidates"] == 2
    page = tmp_path / "optimize.html"
    text = run(*common[:-1], "--report", page)
    assert text.exit_code == 0 and f"decks {ONE_BOX}" in text.stdout
    assert ONE_BOX in page.read_text(encoding="utf-8")  # the optimiser's page


# -- a deck beyond the supply is refused, in one line that says how to allow it -----------------
@pytest.mark.parametrize("command", [("simulate",), ("simulate", "--vs", "mcready", "--vs",
                                                    "example-mcready-pinkertons"),
                                     ("tournament", "mcready")])
def test_a_deck_beyond_the_supply_is_refused_in_one_line(two_privies: Path,
                                                        command: tuple[str, ...]) -> None:
    refused = run(command[0], two_privies, *command[1:], "-n", "2", "--workers", "1")
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    (line,) = refused.stderr.strip().splitlines()
    assert "not-in-supply" in line and "privy hut" in line
    assert "--boxes 2" in line and "--collection FILE" in line
    assert "--switch card-copies=any-number" in line


@pytest.mark.parametrize("allow, sentence", [
    (("--boxes", "2"), TWO_BOXES),
    (("--switch", "card-copies=any-number"),
     "judged against any number of copies of each card (rule switch card-copies=any-number)"),
])
def test_boxes_or_the_switch_allow_two(two_privies: Path, allow: tuple[str, ...],
                                       sentence: str) -> None:
    played = run("simulate", two_privies, "-n", "2", "--workers", "1", "--json", *allow)
    assert played.exit_code == 0, played.output
    report = json.loads(played.stdout)
    assert report["supply"] == sentence and f"decks {sentence}" in report["notes"]


def test_a_collection_is_a_supply_too(two_privies: Path, tmp_path: Path) -> None:
    shelf = tmp_path / "shelf.yaml"
    shelf.write_text(f"sets: {{revolver-base: 1, tarnished-star: 1}}\ncards: {{{PRIVY}: 1}}\n",
                     encoding="utf-8")
    played = run("tournament", two_privies, "mcready", "-n", "2", "--workers", "1", "--json",
                 "--collection", shelf)
    assert played.exit_code == 0, played.output
    assert "collection" in json.loads(played.stdout)["supply"]


# -- every report says the supply -----------------------------------------------------------------
def test_every_report_says_the_supply_it_assumed() -> None:
    common = ("-n", "2", "--workers", "1", "--bot", "random")
    simulate = run("simulate", "colty", *common)
    assert simulate.exit_code == 0 and f"note: decks {ONE_BOX}" in simulate.stdout
    gauntlet = run("simulate", "colty", "--vs", "mcready", "--vs", "example-mcready-pinkertons",
                   *common, "--json")
    assert json.loads(gauntlet.stdout)["supply"] == ONE_BOX
    tournament = run("tournament", "colty", "mcready", *common)
    assert tournament.exit_code == 0 and f"note: decks {ONE_BOX}" in tournament.stdout


def test_the_python_api_says_the_supply_and_takes_boxes(two_privies: Path) -> None:
    result = deckbuilder.simulate("colty", games=2, seed=1, bot="random")
    assert result.settings.supply == result.report["supply"] == ONE_BOX
    with pytest.raises(deckbuilder.DeckbuilderError, match="not-in-supply"):
        deckbuilder.simulate(two_privies, games=2, bot="random")
    allowed = deckbuilder.tournament([two_privies, "mcready"], games=2, bot="random", boxes=2)
    assert allowed.settings.supply == TWO_BOXES


def test_the_web_simulator_says_the_supply(deck_folder: Path) -> None:
    testclient = pytest.importorskip("starlette.testclient")
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    form = {"deck": "base:colty", "games": "2", "seed": "1", "bot": "random"}
    with testclient.TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                               base_url="http://localhost") as client:
        started = client.post("/api/simulate", data=form)
        assert started.status_code == 200, started.text
        with client.stream("GET", started.json()["events"]) as stream:
            events = "".join(stream.iter_text())
        report = client.get(f"/api/simulate/{started.json()['job']}/report.json").json()
    assert report["supply"] == ONE_BOX
    assert "decks judged against one copy of each product" in events

"""The supply a deck is judged against (Module D, rule A: cards "from this (or another)
expansion"): one box of each product by default, `--boxes N`, a collection, or the rule switch
`card-copies=any-number`; every face says which and names the boxes a deck needs."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import deckbuilder
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.cli import app
from deckbuilder.legality import Code, deck_supply, validate_deck
from deckbuilder.legality.supply import COPIES_READINGS, COPIES_SWITCH, WHAT_YOU_OWN

PRIVY = "the-jakes-railworkers-privy-hut"
ONE_BOX = "judged against one copy of each product; --boxes N or --collection FILE changes it"
NEEDS_TEN = "needs 10 boxes of The Tarnished Star"
ANY_NUMBER = {COPIES_SWITCH: "any-number"}
runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


def colty_with_privies(catalog: Catalog, privies: int) -> dict[str, int]:
    """Colty's base deck with `privies` .38 Specials swapped for the privy hut (rule D)."""
    cards = dict(catalog.base_deck("revolver", "colty"))
    cards["38-special"] -= privies
    cards[PRIVY] = privies
    return {card: count for card, count in cards.items() if count}


def write_deck(folder: Path, cards: dict[str, int], name: str = "privies.yaml") -> Path:
    lines = ["name: Ten privies", "game: revolver", "faction: colty", "cards:"]
    lines += [f"  {card}: {count}" for card, count in cards.items()]
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def ten_privies(tmp_path: Path, catalog: Catalog) -> Path:
    return write_deck(tmp_path, colty_with_privies(catalog, 10))


def validate(*args: str | Path) -> Any:
    return runner.invoke(app, ["validate", *map(str, args)])


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# -- the default: one box of each product -----------------------------------------------------
def test_ten_privy_huts_need_ten_boxes_of_the_tarnished_star(ten_privies: Path,
                                                             catalog: Catalog) -> None:
    report = validate_deck(ten_privies, catalog)
    assert not report.is_legal
    (violation,) = report.violations
    assert violation.code == Code.NOT_IN_SUPPLY == "not-in-supply"
    assert violation.cards == (PRIVY,)
    assert violation.line == line_of(ten_privies, PRIVY)
    assert NEEDS_TEN in violation.message
    assert "one box of The Tarnished Star holds 1" in violation.message
    assert "--boxes 10" in violation.fix and "--collection" in violation.fix
    assert "from this (or another) expansion" in violation.rule
    assert report.supply == ONE_BOX


def test_one_privy_hut_is_what_one_box_holds(tmp_path: Path, catalog: Catalog) -> None:
    report = validate_deck(write_deck(tmp_path, colty_with_privies(catalog, 1)), catalog)
    assert report.is_legal, report.violations
    assert report.supply == ONE_BOX


def test_the_cli_says_the_supply_and_the_boxes_needed(ten_privies: Path) -> None:
    result = validate(ten_privies)
    assert result.exit_code == 1
    assert ONE_BOX in result.stdout
    assert f"{ten_privies}:{line_of(ten_privies, PRIVY)}  not-in-supply" in result.stdout
    assert NEEDS_TEN in result.stdout
    assert "fix: keep at most 1" in result.stdout


def test_json_carries_the_supply_sentence_and_the_violation(ten_privies: Path) -> None:
    result = validate(ten_privies, "--json")
    assert result.exit_code == 1
    verdict = json.loads(result.stdout)
    assert verdict["supply"] == ONE_BOX and verdict["legal"] is False
    (violation,) = verdict["violations"]
    assert violation["code"] == "not-in-supply" and violation["cards"] == [PRIVY]
    assert NEEDS_TEN in violation["message"]
    assert violation["line"] == line_of(ten_privies, PRIVY)


def test_the_python_api_gives_the_same_verdict(ten_privies: Path) -> None:
    catalog = deckbuilder.load_catalog(use_user_data=False)
    report = deckbuilder.validate_deck(ten_privies, catalog)
    cli = json.loads(validate(ten_privies, "--json").stdout)
    assert report.supply == cli["supply"] == ONE_BOX
    assert [v.to_json() for v in report.violations] == cli["violations"]


# -- what changes it ---------------------------------------------------------------------------
def test_ten_boxes_make_ten_privy_huts_legal(ten_privies: Path, catalog: Catalog) -> None:
    result = validate(ten_privies, "--boxes", "10")
    assert result.exit_code == 0, result.stdout
    assert "judged against 10 copies of each product (--boxes 10)" in result.stdout
    assert validate_deck(ten_privies, catalog, boxes=10).is_legal


def test_nine_boxes_are_one_short(ten_privies: Path, catalog: Catalog) -> None:
    report = validate_deck(ten_privies, catalog, boxes=9)
    (violation,) = report.violations
    assert "9 boxes of The Tarnished Star hold 9: needs 10 boxes" in violation.message
    assert report.supply == "judged against 9 copies of each product (--boxes 9)"


def test_a_collection_holding_ten_makes_them_legal(ten_privies: Path, tmp_path: Path,
                                                   catalog: Catalog) -> None:
    shelf = tmp_path / "shelf.yaml"
    shelf.write_text("sets: {revolver-base: 1, tarnished-star: 1}\n"
                     f"cards: {{{PRIVY}: 9}}\n", encoding="utf-8")
    result = validate(ten_privies, "--collection", shelf, "--json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["supply"] == \
        "judged against the collection's boxes and cards (--collection)"
    short = {**deck_supply(catalog, collection=shelf).copies, PRIVY: 9}  # type: ignore[dict-item]
    (violation,) = validate_deck(ten_privies, catalog, short).violations
    assert violation.code == Code.NOT_OWNED  # a collection's shortfall keeps its code


def test_the_any_number_reading_makes_them_legal(ten_privies: Path, catalog: Catalog) -> None:
    result = validate(ten_privies, "--switch", f"{COPIES_SWITCH}=any-number")
    assert result.exit_code == 0, result.stdout
    assert ("judged against any number of copies of each card "
            "(rule switch card-copies=any-number)") in result.stdout
    report = validate_deck(ten_privies, catalog, switches=ANY_NUMBER)
    assert report.is_legal and "any number" in report.supply


@pytest.mark.parametrize("args", [
    ("--boxes", "2", "--switch", "card-copies=any-number"),
    ("--switch", "saloon-duel-resolution=by-response"),
    ("--switch", "card-copies=lots"),
])
def test_a_supply_that_cannot_be_built_is_one_line_exit_2(ten_privies: Path,
                                                          args: tuple[str, ...]) -> None:
    result = validate(ten_privies, *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "fix:" in result.stderr


def test_boxes_and_a_collection_together_are_refused(ten_privies: Path, tmp_path: Path) -> None:
    shelf = tmp_path / "shelf.yaml"
    shelf.write_text("sets: {tarnished-star: 1}\n", encoding="utf-8")
    result = validate(ten_privies, "--boxes", "2", "--collection", shelf)
    assert result.exit_code == 2
    assert "--boxes and --collection" in result.stderr


# -- one mistake, one violation; the base decks --------------------------------------------------
def test_a_base_card_beyond_its_base_deck_is_rule_as_only(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    cards = dict(catalog.base_deck("revolver", "colty"))
    cards["38-special"] += 1
    cards["hail-of-bullets"] -= 1
    deck = write_deck(tmp_path, cards)
    report = validate_deck(deck, catalog)
    assert Code.BASE_COPIES_EXCEEDED in report.codes()
    assert report.codes() == validate_deck(deck, catalog, switches=ANY_NUMBER).codes()


def test_a_unique_card_twice_is_rule_es_only(tmp_path: Path, catalog: Catalog) -> None:
    cards = colty_with_privies(catalog, 0)
    cards["38-special"] -= 2
    cards["trixie-and-delilah-saloon-shakes"] = 2
    deck = write_deck(tmp_path, cards)
    report = validate_deck(deck, catalog)
    assert Code.UNIQUE_COPIES in report.codes()
    assert report.codes() == validate_deck(deck, catalog, switches=ANY_NUMBER).codes()


def test_the_supply_comes_from_each_sets_copies(catalog: Catalog) -> None:
    one, three = deck_supply(catalog), deck_supply(catalog, boxes=3)
    assert (one.limit(PRIVY), three.limit(PRIVY)) == (1, 3)
    assert one.limit("texas-ranger") == 2  # "2 Texas Ranger" in the Components list
    for faction in ("colty", "mcready"):  # a base deck comes from the base game box
        for card, count in catalog.base_deck("revolver", faction).items():
            assert one.limit(card) == count
    assert deck_supply(catalog, switches=ANY_NUMBER).limit(PRIVY) is None


def packaged_decks() -> Iterator[Path]:
    yield from sorted(Path(deckbuilder.__file__).parent.joinpath("data", "decks").glob("*.yaml"))


@pytest.mark.parametrize("deck", list(packaged_decks()), ids=lambda path: path.stem)
def test_every_packaged_deck_fits_one_box_of_each_product(deck: Path, catalog: Catalog) -> None:
    report = validate_deck(deck, catalog)
    assert report.is_legal, report.violations
    assert report.supply == ONE_BOX


# -- the switch is data, with both readings' sources ----------------------------------------------
def test_the_switch_is_declared_with_both_readings_and_their_sources(catalog: Catalog) -> None:
    (switch,) = [switch for loaded in catalog.sets.values()
                 for switch in loaded.card_set.rule_switches if switch.id == COPIES_SWITCH]
    assert switch.default == WHAT_YOU_OWN
    assert tuple(variant.value for variant in switch.variants) == COPIES_READINGS
    sources = {variant.value: variant.source for variant in switch.variants}
    assert "Module D, Deck-Building Rule A" in sources[WHAT_YOU_OWN]
    assert "from this (or another) expansion" in sources[WHAT_YOU_OWN]
    assert "Rule E" in sources["any-number"]


def test_the_sources_quote_the_sheet() -> None:
    sheet = (Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
             / "expansion-1.4-tarnished-star.en.txt")
    if not sheet.is_file():
        pytest.skip("the rule documents are not beside the checkout")
    text = sheet.read_text(encoding="utf-8")
    assert "replace them with equivalent cards from this (or another) expansion" in text
    assert "Your deck may not contain more than one copy of each unique card" in text
    assert '1 "The Jakes" Railworker\'s privy hut' in text


# -- the web editor -----------------------------------------------------------------------------
def test_the_web_editor_says_the_supply_and_the_boxes_needed(
        ten_privies: Path, deck_folder: Path, catalog: Catalog) -> None:
    testclient = pytest.importorskip("starlette.testclient")
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    state = {"name": "Ten privies", "game": "revolver", "faction": "colty",
             "cards": [[card, count] for card, count in colty_with_privies(catalog, 10).items()],
             "sets": None, "description": None, "file": None, "version": None}
    with testclient.TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                               base_url="http://localhost") as client:
        answer = client.post("/api/deck/check", json={"deck": state}).json()
    cli = json.loads(validate(ten_privies, "--json").stdout)
    assert answer["report"]["supply"] == cli["supply"] == ONE_BOX
    assert [{**v, "line": None} for v in cli["violations"]] == answer["report"]["violations"]
    assert html.escape(ONE_BOX) in answer["html"]["verdict"]
    assert html.escape(NEEDS_TEN).replace("&#x27;", "&#39;") in answer["html"]["verdict"]


def test_deck_swap_says_the_supply_its_verdict_was_judged_against(tmp_path: Path,
                                                                   catalog: Catalog) -> None:
    """`deck swap` states the same supply as `validate`: two privy huts are one box short."""
    deck = write_deck(tmp_path, colty_with_privies(catalog, 1))
    swapped = runner.invoke(app, ["deck", "swap", str(deck), "--out", "38-special", "--in",
                                  PRIVY, "--count", "1"])
    assert swapped.exit_code == 1
    assert "not-in-supply" in swapped.output and ONE_BOX in swapped.output
    again = runner.invoke(app, ["deck", "swap", str(deck), "--out", PRIVY, "--in",
                                "38-special", "--count", "1", "--json"])
    assert again.exit_code == 0
    assert json.loads(again.output)["supply"] == ONE_BOX

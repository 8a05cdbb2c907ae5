"""The card where a player looks, in the terminal: `cards show` prints the card face (a
unique start of a name finds it), the listings read in 80 columns, and `play --human` shows
each hand card's and each played card's cost and firepower, the card behind `?NAME` or
`? N`, the survival ratings, and the endings and positions in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.app.endings import ENDING_WORDS, ending_words
from deckbuilder.app.table_words import space_words
from deckbuilder.card_face import one_line, unconfirmed_fields
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app

runner = CliRunner()
DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
PINKERTONS = DECKS / "example-mcready-pinkertons.yaml"


def run(*args: str | Path, columns: int = 80, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args], input=input,
                           env={"COLUMNS": str(columns)})
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


# -- cards show -------------------------------------------------------------------------------
def test_cards_show_prints_the_face_not_json() -> None:
    code, out, _ = run("cards", "show", "volcanic-pistol")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Volcanic pistol"
    assert any(re.match(r"\s+Firepower\s+3$", line) for line in lines)
    assert "Text" in out and "{" not in out and '"do"' not in out
    assert max(len(line) for line in lines) <= 80


def test_a_unique_start_of_a_name_finds_the_card() -> None:
    code, out, _ = run("cards", "show", "volcanic")
    assert code == 0 and out.splitlines()[0] == "Volcanic pistol"


def test_an_ambiguous_start_lists_the_choices() -> None:
    catalog = build_catalog()
    code, _, err = run("cards", "show", "malp")
    assert code == 2 and err.count("\n") == 1
    names = [entry.name for entry in catalog.entries.values()
             if entry.name.lower().startswith("malp") or entry.id.startswith("malp")]
    assert len(set(names)) > 1 and f"begins {len(names)} names" in err
    assert all(name in err for name in names[:3])


def test_cards_show_json_agrees_with_the_face_about_what_is_unconfirmed() -> None:
    catalog = build_catalog()
    _, out, _ = run("cards", "show", "volcanic-pistol", "--json")
    details = json.loads(out)
    expected = unconfirmed_fields(catalog.entries["volcanic-pistol"].record)
    assert details["unconfirmed"] == list(expected)
    marked = {row["field"] for row in details["values"] if row["unconfirmed"]}
    assert marked == {field for field in expected if field in marked | {"cost", "chip"}}
    assert {"cost", "chip"} <= marked


# -- listings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("arguments", [
    ("cards",), ("cards", "--kind", "special"), ("cards", "--kind", "token"),
    ("characters",), ("battlefields",), ("cards", "--unconfirmed"),
])
def test_listings_fit_an_80_column_terminal(arguments: tuple[str, ...]) -> None:
    code, out, _ = run(*arguments)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_listing_shows_each_cards_cost_and_firepower() -> None:
    catalog = build_catalog()
    code, out, _ = run("cards", "--search", "gatling", "--game", "revolver")
    summary = one_line(catalog.entries["gatling-gun"]).split(" - ", 1)[1]
    assert code == 0 and summary in out and "gatling-gun" in out.split()


# -- play --human -----------------------------------------------------------------------------
def test_play_human_shows_costs_firepower_survival_and_the_card_asked_for() -> None:
    catalog = build_catalog()
    code, out, _ = run("play", "--human", "colty", "--seed", "3", columns=200,
                       input="? 2\n?volcanic\nq\n")
    assert code == 130
    decision = out[out.index("your decision"):]
    played = re.search(r"  2\. \[[^]]+\] play (.+?) - (cost .+)", decision)
    assert played is not None
    entry = next(e for e in catalog.cards() if e.name == played[1] and e.game == "revolver")
    assert played[2] == one_line(entry).split(" - ", 1)[1]
    assert f"    {played[1]}" in out.split("your hand (")[1]
    # `? 2` prints the face of the card action 2 plays, `?volcanic` the Volcanic pistol
    assert re.search(rf"^\s+{re.escape(played[1])}\n\s+card \(Revolver\)", out, re.M)
    assert re.search(r"^\s+Volcanic pistol\n\s+card \(Revolver\)", out, re.M)
    jack = catalog.entries["jack-colty"].record
    assert f"{jack.name} (survival {jack.survival}" in out


def test_revolver2_guardians_show_their_survival() -> None:
    catalog = build_catalog()
    _, out, _ = run("play", "--human", "mapache", "--seed", "2", columns=200, input="q\n")
    esteban = catalog.entries["padre-esteban"].record
    assert f"{esteban.name} (survival {esteban.survival}" in out


def test_play_names_the_ending_in_words_and_the_final_position_by_names() -> None:
    code, out, _ = run("play", "--seed", "3", columns=200)
    assert code == 0
    code, data, _ = run("play", "--seed", "3", "--json")
    termination = json.loads(data)["outcome"]["termination"]
    assert termination in ENDING_WORDS
    result = out.splitlines()[-1]
    assert ending_words(termination) in result and termination not in result
    final = out[out.index("final position:"):]
    assert "bank-at-repentance-springs" not in final and "jack-colty" not in final
    assert "The Bank at Repentance Springs" in final
    assert not re.search(r"\([a-z]+_[a-z_]+\)", out)  # no `(gang_wiped_out)` anywhere


def test_a_face_space_is_named_by_its_character() -> None:
    characters = [{"id": "skinny-landell", "name": '"Skinny" Landell'}]
    assert space_words("skinny", characters) == '"Skinny" Landell\'s face space'
    assert space_words("3", characters) == "space 3"


# -- play DECK --------------------------------------------------------------------------------
def test_a_deck_given_alone_plays_the_side_its_faction_names(tmp_path: Path) -> None:
    deck = tmp_path / "my-deck.yaml"
    deck.write_text(PINKERTONS.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run("play", str(deck), "--seed", "2", "--json")
    assert code == 0
    given = json.loads(out)["decks"]
    _, out, _ = run("play", "--mcready", str(deck), "--seed", "2", "--json")
    assert given == json.loads(out)["decks"]  # as if given with --mcready
    _, out, _ = run("play", "--seed", "2", "--json")
    assert given["mcready"] != json.loads(out)["decks"]["mcready"]
    code, _, err = run("play", str(deck), "--mcready", "mcready", "-q")
    assert code == 2 and "already" in err


def test_two_decks_given_alone_play_a_revolver2_game() -> None:
    code, out, _ = run("play", "mapache", "esteban", "-q")
    assert code == 0 and "wins:" in out



@pytest.mark.parametrize("kind, noun", [("token", "kinds of token"),
                                        ("special", "special cards")])
def test_a_listing_counts_its_kind_as_the_web_page_does(kind: str, noun: str,
                                                        tmp_path: Path) -> None:
    """The command line and the web's card page say one count in one wording."""
    pytest.importorskip("jinja2")
    from starlette.testclient import TestClient

    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    code, out, _ = run("cards", "--kind", kind)
    counted = re.search(rf"^(\d+ {noun})\.$", out, re.MULTILINE)
    assert code == 0 and counted is not None, out[-300:]
    app = create_app(WebConfig(deck_folder=tmp_path))
    page = TestClient(app, base_url="http://localhost").get(f"/cards?kind={kind}").text
    assert counted[1] in page

"""The "Confirm card data" page (/data, issue 24 section 1) without a browser: it lists the
cards of a base deck, a packaged deck, a deck-folder file or a set as faces with a form per
unconfirmed value; an answer is saved into the overlay as `data review` saves it (provenance
"read from the printed card", the date, the name), refused with the terminal's one line, and
only from the app's own pages (the Origin check); the whole McReady deck can be confirmed."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckbuilder import paths
from deckbuilder.catalog import build_catalog
from deckbuilder.data_packs.review import NOT_ASKED
from deckbuilder.data_packs.standing import Standing, value_standings
from deckbuilder.data_packs.status import deck_status
from deckbuilder.yamlio import load_yaml

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
MCREADY = "base:mcready"
PROGRESS = re.compile(r'id="data-progress"[^>]*>([^<]*)<')
FORM = re.compile(r'<form class="data-edit[^"]*"[^>]*data-id="([^"]+)" data-field="([^"]+)"')


@pytest.fixture
def client(deck_folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                    base_url="http://localhost") as test:
        yield test


def to_review(ids: list[str]) -> set[tuple[str, str]]:
    """(record id, field) of every value of these records no document states, counted by
    the data packs' own standing (not by the page)."""
    catalog = build_catalog()
    return {(record_id, row.field) for record_id in ids
            for row in value_standings(catalog.entries[record_id])
            if row.standing is Standing.UNCONFIRMED and row.field not in NOT_ASKED}


def mcready_ids() -> list[str]:
    return list(build_catalog().base_deck("revolver", "mcready"))


def progress_of(page: str) -> str:
    found = PROGRESS.findall(page)
    assert len(found) == 1, page[:2000]
    return found[0]


def answer(client: TestClient, **fields: str) -> Any:
    return client.post("/api/data/answer", json={"cards": MCREADY, **fields})


def overlay() -> Any:
    path = paths.overlay_path()
    return load_yaml(path) if path.exists() else None


# -- the page ---------------------------------------------------------------------------------
def test_the_page_is_in_the_navigation_and_offers_decks_and_sets(client: TestClient) -> None:
    cards = client.get("/cards").text
    assert '<a href="/data"' in cards and "Card data" in cards
    page = client.get("/data")
    assert page.status_code == 200
    assert '<option value="base:mcready"' in page.text
    assert '<option value="set:revolver-base"' in page.text
    assert '<option value="packaged:example-mcready-pinkertons"' in page.text
    assert "data-progress" not in page.text  # nothing chosen: no cards yet


def test_every_unconfirmed_value_of_the_deck_has_a_form_on_its_face(client: TestClient
                                                                     ) -> None:
    ids = mcready_ids()
    expected = to_review(ids)
    page = client.get(f"/data?cards={MCREADY}").text
    assert progress_of(page) == f"0 of {len(expected)} values reviewed"
    assert set(FORM.findall(page)) == expected
    # each form is inside its card's face (the article), not beside it
    for card in re.findall(r'<div class="data-card" id="card-([^"]+)".*?</article>', page,
                           re.DOTALL):
        assert card in ids
    deputy = page[page.index('id="card-deputy"'):]
    deputy = deputy[:deputy.index("</article>")]
    assert 'data-field="cost"' in deputy and 'value="1"' in deputy  # the current reading
    assert '<dd class="unconfirmed"' in deputy
    assert "Colonel McReady base deck" in page


@pytest.mark.parametrize("card_id", ["apache-scout", "deputy", "cowboy"])
def test_the_page_asks_a_cards_values_in_the_terminals_order(client: TestClient,
                                                             card_id: str) -> None:
    """`data review` in the terminal and the page ask a card's values in one order: down
    the card's face (each answer skipped here, so nothing is written)."""
    from typer.testing import CliRunner

    from deckbuilder.cli import app as cli_app

    page = client.get(f"/data?cards=card:{card_id}").text
    card = page[page.index(f'id="card-{card_id}"'):]
    on_the_page = re.findall(r'data-field="([^"]+)"', card[:card.index("</article>")])
    typed = CliRunner().invoke(cli_app, ["data", "review", "--card", card_id], input="\n" * 40)
    assert typed.exit_code == 0, typed.output
    asked = [label.replace(" ", "_") for label in re.findall(r"([a-z][a-z ]*) \(now ",
                                                              typed.output)]
    assert len(asked) > 1 and asked == on_the_page
    assert overlay() is None


def test_the_whole_mcready_deck_can_be_confirmed_in_the_browser(client: TestClient) -> None:
    ids = mcready_ids()
    expected = to_review(ids)
    last: dict[str, Any] = {}
    for record_id, field in sorted(expected):
        response = answer(client, id=record_id, field=field, action="as-shown",
                          player="Ann")
        assert response.status_code == 200, response.text
        last = response.json()
    assert last["progress"]["text"] == f"{len(expected)} of {len(expected)} values reviewed"
    page = client.get(f"/data?cards={MCREADY}").text
    assert progress_of(page) == f"{len(expected)} of {len(expected)} values reviewed"
    cards = page.split('id="data-card-list"')[1].split("<footer")[0]
    assert 'class="unconfirmed"' not in cards and "card-face__flag--player" in cards
    catalog = build_catalog()
    status = deck_status(catalog, "mcready", catalog.base_deck("revolver", "mcready"))
    assert status.counts.unconfirmed == 0
    assert status.counts.player == len(expected)
    source = overlay()["corrections"]["deputy"]["source"]
    assert source == f"read from the printed card, {date.today().isoformat()}, by Ann"


def test_an_answer_is_saved_with_its_provenance_and_the_page_shows_it(client: TestClient
                                                                      ) -> None:
    response = answer(client, id="deputy", field="copies", value="9", action="save",
                      player="Ann Reader")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["saved"]["before"] == "10" and data["saved"]["after"] == "9"
    assert data["progress"]["text"].startswith("1 of ")
    assert 'class="player-confirmed"' in data["card"] and "by Ann Reader" in data["card"]
    saved = overlay()["corrections"]["deputy"]
    assert saved["values"]["copies"] == 9
    assert saved["source"] == (f"read from the printed card, {date.today().isoformat()}, "
                               "by Ann Reader")
    # the other pages read the new value at once
    card_page = client.get("/cards/deputy").text
    assert "confirmed by a player (your overlay)" in card_page
    assert build_catalog().entries["deputy"].record.copies == 9


def test_a_form_without_the_script_saves_and_returns_to_the_card(client: TestClient) -> None:
    response = client.post("/data/answer", data={
        "id": "deputy", "field": "cost", "value": "1", "action": "as-shown",
        "cards": MCREADY, "player": "Ann"}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/data?cards=base%3Amcready&player=Ann#card-deputy"
    assert overlay()["corrections"]["deputy"]["values"]["cost"] == 1


@pytest.mark.parametrize(("fields", "expected"), [
    ({"id": "deputy", "field": "copies", "value": "99", "action": "save"},
     "copies: Input should be less than or equal to 62"),
    ({"id": "colonel-ned-mcready", "field": "unique", "value": "perhaps", "action": "save"},
     "answer yes or no"),
    ({"id": "cactus-field", "field": "effect", "value": "[]", "action": "save"},
     "effect is engine data"),
    ({"id": "deputy", "field": "copies", "value": "", "action": "save"},
     "type the printed value, or press 'as shown'"),
    ({"id": "deputy", "field": "play", "value": "firepower", "action": "save"},
     "play is not a value of Deputy to review"),
    ({"id": "no-such-card", "field": "cost", "value": "1", "action": "save"},
     "no card with id 'no-such-card'"),
    ({"id": "deputy", "field": "cost", "value": "1", "action": "save", "player": "a;b"},
     "is not a plain name"),
])
def test_a_refused_answer_is_one_line_and_writes_nothing(client: TestClient,
                                                         fields: dict[str, str],
                                                         expected: str) -> None:
    response = answer(client, **fields)
    assert response.status_code == 400
    error = response.json()["error"]
    assert expected in error and "\n" not in error
    assert overlay() is None


def test_a_refused_form_answer_shows_its_line_beside_the_input(client: TestClient) -> None:
    response = client.post("/data/answer", data={
        "id": "deputy", "field": "copies", "value": "99", "action": "save",
        "cards": MCREADY}, follow_redirects=False)
    assert response.status_code == 400
    form = response.text[response.text.index('data-id="deputy" data-field="copies"'):]
    form = form[:form.index("</form>")]
    assert 'aria-invalid="true"' in form
    assert re.search(r'class="data-edit__message error"[^>]*>copies: Input should be less '
                     r"than or equal to 62<", form)
    assert overlay() is None


def test_bodies_that_are_no_answer_are_refused(client: TestClient) -> None:
    for body in (b"[1, 2]", b"{not json", b'{"id": ["deputy"]}'):
        response = client.post("/api/data/answer", content=body,
                               headers={"content-type": "application/json"})
        assert response.status_code == 400 and "error" in response.json()
    # the API reads only JSON: a form (what another site's page can send) is no answer
    response = client.post("/api/data/answer", data={"id": "deputy", "field": "cost",
                                                     "action": "as-shown"})
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert overlay() is None


def test_another_sites_page_cannot_save_an_answer(client: TestClient) -> None:
    fields = {"id": "deputy", "field": "cost", "action": "as-shown", "cards": MCREADY}
    refused = client.post("/api/data/answer", json=fields,
                          headers={"origin": "http://evil.example"})
    assert refused.status_code == 403
    refused = client.post("/data/answer", data=fields, headers={"origin": "null"},
                          follow_redirects=False)
    assert refused.status_code == 403
    assert overlay() is None
    own = client.post("/api/data/answer", json=fields, headers={"origin": "http://localhost"})
    assert own.status_code == 200


def test_a_players_text_is_escaped_everywhere_it_shows(client: TestClient) -> None:
    response = answer(client, id="deputy", field="cost", action="as-shown",
                      player='<b onmouseover="x">Ann</b>')
    assert response.status_code == 200, response.text
    for page in (response.json()["card"], client.get(f"/data?cards={MCREADY}").text,
                 client.get("/cards/deputy").text):
        assert "<b onmouseover" not in page
        assert html.escape('<b onmouseover="x">Ann</b>', quote=True) in page


def test_a_placeholder_name_is_replaced_and_kept_as_an_alias(client: TestClient) -> None:
    catalog = build_catalog()
    entry = catalog.entries["hired-guardian-1"]
    assert "name" in entry.record.provenance.unconfirmed
    response = client.post("/api/data/answer", json={
        "id": entry.id, "field": "name", "value": "Old Pete", "action": "save",
        "cards": f"set:{entry.set_id}"})
    assert response.status_code == 200, response.text
    assert response.json()["saved"]["alias"] == entry.name
    record = build_catalog().entries[entry.id].record
    assert record.name == "Old Pete" and entry.name in record.aliases
    page = client.get(f"/data?cards=set:{entry.set_id}").text
    assert "Old Pete" in page


def test_a_deck_folder_file_and_one_card_can_be_reviewed(client: TestClient,
                                                         deck_folder: Path) -> None:
    (deck_folder / "mine.yaml").write_text(
        "name: Two cards\ngame: revolver\nfaction: mcready\ncards:\n  deputy: 10\n"
        "  cowboy: 10\n", encoding="utf-8")
    page = client.get("/data?cards=file:mine.yaml").text
    assert {record_id for record_id, _ in FORM.findall(page)} == {"deputy", "cowboy"}
    assert progress_of(page) == f"0 of {len(to_review(['deputy', 'cowboy']))} values reviewed"
    one = client.get("/data?cards=card:deputy").text
    assert {record_id for record_id, _ in FORM.findall(one)} == {"deputy"}


@pytest.mark.parametrize("choice", ["file:../outside.yaml", "set:no-such-set", "nothing:x",
                                    "packaged:no-such-deck"])
def test_a_choice_that_names_nothing_is_one_line(client: TestClient, choice: str) -> None:
    response = client.get("/data", params={"cards": choice})
    assert response.status_code == 400
    problem = re.search(r'id="data-problem"[^>]*>([^<]*)<', response.text)
    assert problem is not None and problem.group(1).strip()
    assert "Traceback" not in response.text

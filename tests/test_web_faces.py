"""Issue 21 in the web app, without a browser: the card face (card_face.face_html) on the
card pages and behind every card name (data-face), the Revolver 2 table read like the real
table (the pile a pile, the dead dead, no row before the poker tournament chose it), poker
cards by value with each round explained, endings in words, web advice instead of command
lines, and the greedy bot as the web opponent by default."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deckbuilder.app.endings import ENDING_WORDS, ending_words
from deckbuilder.card_face import face, face_html, one_line, stylesheet
from deckbuilder.catalog import build_catalog
from deckbuilder.games import games
from deckbuilder.web.faces import linked_segments, name_index
from deckbuilder.web.pages import web_advice

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(deck_folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                    base_url="http://localhost") as test:
        yield test


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog(use_user_data=False)


def words_of(fragment: str) -> str:
    """What a reader sees of an HTML fragment: the text, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def start(client: TestClient, **form: str) -> dict[str, Any]:
    response = client.post("/api/play", data=form, headers={"accept": "application/json"})
    assert response.status_code == 200, response.text
    return dict(client.get(f"/api/play/{response.json()['session']}").json())


def act(client: TestClient, state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    actions = re.findall(r'data-action="(\d+)"', state["actions"])
    assert actions, state["actions"]
    response = client.post(f"/api/play/{state['session']}/act",
                           json={"action": int(actions[index])})
    assert response.status_code == 200, response.text
    return {**dict(response.json()), "session": state["session"]}


# -- the face on the card pages and behind every name -----------------------------------------
def test_the_card_face_stylesheet_is_served_and_linked(client: TestClient) -> None:
    sheet = client.get("/card-face.css")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
    assert sheet.text == stylesheet()
    page = client.get("/cards").text
    assert '<link rel="stylesheet" href="/card-face.css">' in page
    assert '<script src="/static/faces.js"></script>' in page
    assert client.get("/static/faces.js").status_code == 200


def test_a_card_page_shows_the_face_and_no_json(client: TestClient, catalog: Any) -> None:
    entry = catalog.entries["texas-ranger"]
    assert entry.record.triggers  # its text is a trigger: once printed as JSON
    page = client.get("/cards/texas-ranger").text
    assert face_html(face(entry, catalog), heading_level=2) in page
    assert 'class="json"' not in page and '"do"' not in page and "{&#39;" not in page
    assert "&#34;when&#34;" not in page and '{"' not in page
    # the values table names the trigger's steps in words
    assert "the text&#39;s effect, as the engine&#39;s steps: only if" in page


def test_card_search_results_carry_the_face(client: TestClient) -> None:
    page = client.get("/cards", params={"q": "texas ranger"}).text
    assert 'data-face="texas-ranger" data-game="revolver"' in page
    answer = client.get("/api/faces/texas-ranger")
    assert answer.status_code == 200
    data = answer.json()
    assert data["name"] == "Texas Ranger" and 'class="card-face' in data["html"]
    assert data["summary"].startswith("Texas Ranger - cost")
    missing = client.get("/api/faces/no-such-card-at-all")
    assert missing.status_code == 404 and "error" in missing.json()


@pytest.fixture
def hostile_faces(user_home: Path) -> None:
    """A homebrew set whose card name and text are markup (written before the app starts)."""
    sets = user_home / "sets"
    sets.mkdir(parents=True, exist_ok=True)
    (sets / "hostile.yaml").write_text(
        'id: hostile-faces\nname: Hostile faces\nversion: "1.0"\ngame: revolver\nkind: homebrew\n'
        'cards:\n  - id: hostile-face\n    name: "<img src=x onerror=alert(1)>"\n'
        '    faction: mcready\n    category: character\n    play: firepower\n'
        '    firepower: 1\n    copies: 1\n    text: "<script>alert(2)</script>"\n',
        encoding="utf-8")


def test_a_face_from_a_file_is_escaped(hostile_faces: None, client: TestClient) -> None:
    response = client.get("/api/faces/hostile-face")
    assert response.status_code == 200, response.text
    answer = response.json()["html"]
    assert "<img" not in answer and "<script" not in answer
    assert "&lt;script&gt;" in answer


def test_log_lines_are_cut_at_the_games_names(catalog: Any) -> None:
    names = name_index(catalog, "revolver2")
    pieces = linked_segments("poker: esteban shows Esteban cheat card 1, mapache shows "
                             "Mapache poker card 5; esteban wins the round (1-0)", names)
    assert "".join(text for text, _ in pieces).startswith("poker: esteban shows")
    assert [record for _, record in pieces if record] == [
        "all-rivers-poker-esteban-cheat-1", "all-rivers-poker-mapache-5"]
    # a name inside a longer word is no name
    assert all(not record for _, record in linked_segments("Churchyard", names))


# -- the Revolver 2 table -------------------------------------------------------------------
def test_revolver2_before_the_poker_tournament(client: TestClient) -> None:
    state = start(client, game="revolver2", seat="esteban", seed="1")
    board = state["board"]
    seen = words_of(board)
    # the twelve guardians face down in the pile are a pile, not the dead
    assert "(dead)" not in seen and 'id="characters-dead"' not in board
    assert "12 face down in the pile" in seen
    assert board.count('class="character in-pile"') == 12
    assert board.count('class="character in-play"') == 7
    # no row before the tournament chose it: the fixed battlefields and the two choices
    assert 'data-row-known="false"' in board
    assert "The battlefield row is not chosen yet" in seen
    assert 'data-battlefield="malpaso-church"' not in board
    assert 'data-battlefield="malpaso-cathouse"' not in board
    assert 'data-battlefield="los-quantos-bridge"' in board
    assert "Crystal River (Church, Saloon, Livery Stable)" in seen
    assert "marker" not in words_of(board.split('class="battlefields"')[1])
    # the poker cards by their values and effects, marked unconfirmed
    poker = words_of(board.split('id="poker"')[1].split("</section>")[0])
    assert "Esteban poker card 1 poker value 2?, +2 opening cards?" in poker
    assert "Esteban cheat card 1 poker value cheat?" in poker
    assert 'data-face="all-rivers-poker-esteban-1"' in board


def test_each_poker_round_says_what_was_played_and_why(client: TestClient) -> None:
    state = start(client, game="revolver2", seat="esteban", seed="1")
    state = act(client, state, index=-1)  # a cheat card
    rounds = words_of(state["board"].split('class="poker-rounds">')[1].split("</ol>")[0])
    assert rounds.startswith("Round 1: esteban shows Esteban cheat card"), rounds
    assert "mapache shows Mapache poker card" in rounds
    assert "esteban cheats: a cheat beats any card that does not call cheats" in rounds
    state = act(client, state, index=-1)
    board = state["board"]
    if 'data-row-known="true"' in board:  # the tournament is over: the row is drawn
        assert board.count('data-battlefield="') == 6
        assert "The poker tournament: won by" in words_of(board)


def test_the_table_names_are_faces_and_hand_cards_say_cost_and_firepower(
        client: TestClient) -> None:
    state = start(client, game="revolver", seat="colty", seed="4")
    board = state["board"]
    hand = board.split('id="my-hand"')[1].split("</ul>")[0]
    assert hand.count("data-face=") >= 5
    assert hand.count('class="face-summary"') >= 5 and "cost" in words_of(hand)
    assert 'data-face="' in board.split('class="battlefields"')[1]
    linked = [piece for line in state["log_segments"] for piece in line if piece[1]]
    assert linked, state["log"]
    page = client.get(f"/play/{state['session']}").text
    assert re.search(r'<ol id="log" class="log">.*<span data-face="[^"]+" data-game="revolver">',
                     page, re.S)



def test_a_summary_keeps_what_follows_a_name_with_a_dash(catalog: Any) -> None:
    """Both tables and the terminal cut a card's summary after its whole name: "Ambush! -
    false alarm" is not cut at its own dash."""
    from deckbuilder.app.table_words import card_summary
    from deckbuilder.web.table_view import summary_of

    assert summary_of(catalog, "ambush-false-alarm").startswith("cost free")
    assert summary_of(catalog, "ambush-false-alarm") == card_summary(
        catalog, "ambush-false-alarm", "\u2713")

# -- words ----------------------------------------------------------------------------------
def test_every_ending_has_words() -> None:
    for game_id in games():
        from deckbuilder.games import get_game

        for termination in get_game(game_id).terminations:
            assert termination.value in ENDING_WORDS, termination
    assert ending_words("guardians_wiped_out") == "the guardians are wiped out"


def test_a_finished_game_ends_in_words(client: TestClient) -> None:
    state = start(client, game="revolver2", seat="watch", seed="3", bot0="random",
                  bot1="random")
    for _ in range(60):
        if state["over"]:
            break
        answer = client.post(f"/api/play/{state['session']}/step", data={"steps": "200"})
        state = {**answer.json(), "session": state["session"]}
    assert state["over"]
    assert "_" not in state["outcome"] and "after" in state["outcome"]
    assert state["outcome"] in words_of(state["board"])
    assert "_" not in words_of(state["actions"])


def test_pages_give_web_advice_not_command_lines(client: TestClient) -> None:
    for url in ("/", "/cards", "/cards/texas-ranger", "/play", "/simulate"):
        raw = client.get(url).text
        seen = words_of(raw)
        assert "<code>deckbuilder" not in raw, url
        assert not re.search(r"deckbuilder (cards|deck|play|replay|simulate|validate|sets|rules)"
                             r"\b", seen), url
        assert not re.search(r"(?<![\w-])--[a-z]", seen), url
    assert web_advice("x (see `deckbuilder rules --game revolver`)") == (
        "x (the Rules, modules and limits section of the form lists them)")
    refused = client.post("/api/play", data={"game": "revolver", "seat": "colty",
                                             "module": "nonsense"},
                          headers={"accept": "application/json"}).json()["error"]
    assert "deckbuilder " not in refused and "--module" not in refused


def test_the_web_opponent_is_greedy_by_default(client: TestClient) -> None:
    page = client.get("/play").text
    bots = re.findall(r'id="play-bot\d" name="bot\d" value="([^"]*)"', page)
    assert bots == ["greedy", "greedy"]
    state = start(client, game="revolver", seat="mcready", seed="2")
    heading = client.get(f"/play/{state['session']}").text
    assert "bot greedy" in heading and "bot random" not in heading


def test_an_action_that_plays_a_card_says_its_cost_and_firepower(
        client: TestClient, catalog: Any) -> None:
    """As `play --human` does: the button of an action that plays, pays with or targets a card
    carries that card's summary; a pass names none."""
    state = start(client, game="revolver", seat="colty", seed="4")
    for _ in range(30):  # to the gang's first play phase
        if "action-summary" in state["actions"]:
            break
        state = act(client, state)
    buttons = re.findall(r'<button[^>]*data-action="\d+"[^>]*>(.*?)</button>', state["actions"])
    faces = re.findall(r'<button[^>]*data-action="\d+"(?: data-face="([^"]+)")?', state["actions"])
    # a button that names a card shows that card's face (static/faces.js); a pass none
    assert faces.count("") == sum("action-summary" not in button for button in buttons)
    summarised = [words_of(button) for button in buttons if "action-summary" in button]
    assert summarised, state["actions"]
    names = {entry.name: entry for entry in catalog.entries.values()
             if entry.game == "revolver"}
    for text in summarised:
        card = next(name for name in sorted(names, key=len, reverse=True) if name in text)
        assert one_line(names[card]).partition(" - ")[2] in text
    assert any("action-summary" not in button for button in buttons)  # a pass, a choice

"""The web app's frame and the card browser: every page answers, errors are the CLI's one
line, paths from the browser never leave the deck folder, request bodies are bounded, text
from files is escaped, and `deckbuilder serve` starts (or says in one line why it cannot)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app as cli_app

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from deckbuilder.web.app import PAGE_MODULES, create_app  # noqa: E402
from deckbuilder.web.config import UnsafePathError, WebConfig, resolve_deck_path  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()

HOSTILE_NAME = "<script>alert('pwned')</script>"
HOSTILE_TEXT = "<img src=x onerror=alert(1)>"
HOSTILE_SET = f"""\
id: hostile-homebrew
name: "<b>Hostile</b> set"
version: "1.0"
game: revolver
kind: homebrew
cards:
  - id: hostile-card
    name: "{HOSTILE_NAME}"
    faction: mcready
    category: character
    play: firepower
    firepower: 1
    copies: 1
    text: "{HOSTILE_TEXT}"
  - id: hand-played-card
    name: Hand-played card
    faction: mcready
    category: action
    play: one-shot
    copies: 1
    effect:
      - do: manual
        text: the players agree what happens
"""


@pytest.fixture
def decks(deck_folder: Path) -> Path:
    """The web app's deck folder (conftest's `deck_folder`), by this file's name for it."""
    return deck_folder


@pytest.fixture
def client(decks: Path) -> Iterator[TestClient]:
    app = create_app(WebConfig(deck_folder=decks, max_request_bytes=10_000))
    with TestClient(app, base_url="http://localhost") as test:
        yield test


# -- the frame ------------------------------------------------------------------------------
def test_every_page_module_is_present() -> None:
    """Every page module contributes its routes to the app."""
    assert {module.__name__.rsplit(".", 1)[1] for module in PAGE_MODULES} == {
        "cards", "decks", "simulator", "table", "faces", "friends", "replays", "data_review"}
    for module in PAGE_MODULES:
        assert module.ROUTES, module.__name__


@pytest.mark.parametrize("url, expected", [
    ("/", "Revolver deck builder"),
    ("/cards", "Cards"),
    ("/cards?kind=character&game=revolver2", "survival"),
    ("/cards?kind=battlefield", "defence"),
    ("/cards?kind=special", "Derail"),
    ("/cards?kind=token", "in the box"),
    ("/cards/texas-ranger", "Values and their sources"),
    ("/deck", "Start a deck"),
    ("/deck?base=colty", "LEGAL"),
    ("/static/app.css", "--brand"),
    ("/static/deck.js", "textContent"),
])
def test_every_page_answers(client: TestClient, url: str, expected: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text[:300]
    assert expected in response.text


def test_the_home_page_leads_to_every_page_of_the_bar(client: TestClient) -> None:
    """A tile for each page of the navigation bar (Play a friend, Replays and Card data too),
    with what it is for."""
    from html import escape

    from deckbuilder.web.pages import NAVIGATION, PAGE_SUMMARIES

    home = client.get("/").text
    for path, label in NAVIGATION:
        assert (f'<a class="tile" href="{path}"><h2>{escape(label)}</h2>'
                f"<p>{escape(PAGE_SUMMARIES[path])}</p></a>") in home, path


def test_pages_share_the_navigation_and_mark_the_current_one(client: TestClient) -> None:
    page = client.get("/cards").text
    for link in ("/cards", "/deck", "/simulate", "/play"):
        assert f'href="{link}"' in page
    assert 'href="/cards" class="active"' in page
    assert 'href="/deck" class="active"' in client.get("/deck").text


def test_an_unknown_page_is_a_page_and_an_unknown_api_is_json(client: TestClient) -> None:
    page = client.get("/no-such-page")
    assert page.status_code == 404 and "there is no such page" in page.text
    assert "<html" in page.text
    api = client.get("/api/no-such-thing")
    assert api.status_code == 404 and api.json() == {"error": "there is no such page"}


def test_a_body_over_the_limit_is_refused_with_413(client: TestClient) -> None:
    big = json.dumps({"text": "1x Deputy\n" * 2000})
    response = client.post("/api/deck/import", content=big,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"].startswith("the request is larger than the server accepts")
    assert "\n" not in response.json()["error"]


def test_a_chunked_body_over_the_limit_is_refused_too(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(30):
            yield b"x" * 1000

    response = client.post("/api/deck/check", content=chunks())
    assert response.status_code == 413


def test_a_body_under_the_limit_reaches_the_page(client: TestClient) -> None:
    response = client.post("/api/deck/import", json={"text": "# faction: mcready\n1x Cowboy\n"})
    assert response.status_code != 413
    assert response.json()["lines"][1]["status"] == "ok"


def test_a_deckbuilder_error_is_one_line_on_a_page_and_json_for_scripts(client: TestClient
                                                                         ) -> None:
    page = client.get("/cards?faction=coltee")
    assert page.status_code == 400
    assert "unknown faction &#39;coltee&#39; (fix: choose one of: colty," in page.text
    api = client.get("/api/cards?faction=coltee")
    assert api.status_code == 400
    line = api.json()["error"]
    assert line.startswith("unknown faction 'coltee' (fix: choose one of: colty")
    assert "\n" not in line


def test_another_sites_page_cannot_post(client: TestClient, decks: Path) -> None:
    state = {"name": "x", "game": "revolver", "faction": "colty", "cards": [["cowboy", 1]]}
    body = {"deck": state, "file": "planted.yaml"}
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9"):
        response = client.post("/api/deck/save", json=body, headers={"origin": origin})
        assert response.status_code == 403
        assert response.json() == {"error": "requests from another site's page are refused"}
    simple = client.post("/api/deck/save", content=json.dumps(body),
                         headers={"content-type": "text/plain"})
    assert simple.status_code == 400 and "not JSON" in simple.json()["error"]
    assert list(decks.iterdir()) == []
    own = client.post("/api/deck/save", json=body, headers={"origin": "http://localhost"})
    assert own.status_code == 200 and (decks / "planted.yaml").exists()


# -- paths from the browser -----------------------------------------------------------------
@pytest.mark.parametrize("name, reason", [
    ("../outside.yaml", "may not contain '..'"),
    ("sub/../../outside.yaml", "may not contain '..'"),
    ("/etc/passwd.yaml", "relative to the deck folder"),
    ("~/deck.yaml", "relative to the deck folder"),
    ("C:/deck.yaml", "relative to the deck folder"),
    ("deck.py", "only .yaml and .txt files"),
    ("deck", "only .yaml and .txt files"),
    (".hidden.yaml", "hidden files"),
    ("a\\..\\b.yaml", "not a file name"),
    ("deck\x00.yaml", "not a file name"),
    ("", "no file name given"),
    ("x" * 300 + ".yaml", "not a file name"),
])
def test_paths_that_leave_the_deck_folder_are_refused(decks: Path, name: str, reason: str
                                                      ) -> None:
    with pytest.raises(UnsafePathError) as caught:
        resolve_deck_path(WebConfig(decks), name)
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_symbolic_link_out_of_the_folder_is_refused(decks: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("name: secret\n")
    (decks / "link.yaml").symlink_to(outside)
    (decks / "linked-folder").symlink_to(tmp_path)
    with pytest.raises(UnsafePathError, match="leads out of the deck folder"):
        resolve_deck_path(WebConfig(decks), "link.yaml")
    with pytest.raises(UnsafePathError, match="leads out of the deck folder"):
        resolve_deck_path(WebConfig(decks), "linked-folder/secret.yaml")


def test_paths_inside_the_folder_are_accepted(decks: Path) -> None:
    (decks / "sub").mkdir()
    (decks / "sub" / "mine.yaml").write_text("x: 1\n")
    (decks / "alias.yaml").symlink_to(decks / "sub" / "mine.yaml")
    config = WebConfig(decks)
    assert resolve_deck_path(config, "sub/mine.yaml") == (decks / "sub" / "mine.yaml").resolve()
    assert resolve_deck_path(config, "alias.yaml") == (decks / "sub" / "mine.yaml").resolve()
    assert resolve_deck_path(config, "new.txt") == decks.resolve() / "new.txt"


def test_the_page_refuses_a_path_out_with_one_line(client: TestClient, tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text("name: x\n")
    page = client.get("/deck", params={"file": "../outside.yaml"})
    assert page.status_code == 400
    assert "../outside.yaml: a deck path may not contain &#39;..&#39;" in page.text


# -- the card browser -----------------------------------------------------------------------
def test_search_forgives_a_typo_like_the_command_line(client: TestClient) -> None:
    page = client.get("/cards", params={"q": "texs rangr"}).text
    assert "nothing holds &#39;texs rangr&#39;; the closest names are shown" in page
    assert 'href="/cards/texas-ranger"' in page
    suggested = runner.invoke(cli_app, ["cards", "show", "texs rangr"])
    assert "Texas Ranger" in suggested.stderr  # the same name the CLI suggests


def test_search_finds_what_cards_search_finds(client: TestClient) -> None:
    data = client.get("/api/cards", params={"q": "sister sarah"}).json()
    cli = json.loads(runner.invoke(cli_app, ["cards", "--search", "sister sarah",
                                             "--json"]).stdout)
    assert [card["id"] for card in data["cards"]] == [card["id"] for card in cli]
    assert data["cards"] and data["suggestions"] == []


@pytest.mark.parametrize("query, cli_args", [
    ({"faction": "colty"}, ["--faction", "colty"]),
    ({"set": "tarnished-star"}, ["--set", "tarnished-star"]),
    ({"game": "revolver2"}, ["--game", "revolver2"]),
    ({"set": "The Tarnished Star"}, ["--set", "The Tarnished Star"]),
])
def test_filters_give_the_command_lines_listing(client: TestClient, query: dict[str, str],
                                                cli_args: list[str]) -> None:
    data = client.get("/api/cards", params=query).json()
    cli = json.loads(runner.invoke(cli_app, ["cards", *cli_args, "--json"]).stdout)
    assert data["total"] == len(cli)
    assert data["cards"] == cli[:len(data["cards"])]  # the same rows, not only the same ids


def test_category_and_play_type_filters(client: TestClient) -> None:
    locations = client.get("/api/cards", params={"category": "location"}).json()["cards"]
    assert locations and {card["category"] for card in locations} == {"location"}
    one_shots = client.get("/api/cards", params={"play": "one-shot"}).json()["cards"]
    assert one_shots and {card["play"] for card in one_shots} == {"one-shot"}


def test_a_card_page_shows_values_sources_and_the_engine(client: TestClient) -> None:
    page = client.get("/cards/texas-ranger").text
    cli = json.loads(runner.invoke(cli_app, ["cards", "show", "texas-ranger",
                                             "--json"]).stdout)
    assert "Texas Ranger" in page
    for row in cli["values"]:
        if row["unconfirmed"]:
            assert f'<td class="mono">{row["field"]}</td>' in page
    assert page.count('<tr class="unconfirmed-row">') == sum(
        1 for row in cli["values"] if row["unconfirmed"])
    assert ("the engine plays it" in page) == cli["engine"]["plays"]
    assert f"copies in its base deck: <strong>{cli['base_copies']}</strong>" in page


def test_a_name_both_games_print_shows_both_records(client: TestClient) -> None:
    page = client.get("/cards/Gatling Gun").text
    assert page.count('class="panel card-detail"') == 2


def test_an_unknown_card_page_suggests_the_name(client: TestClient) -> None:
    page = client.get("/cards/Texas Rangr")
    assert page.status_code == 404
    assert "did you mean Texas Ranger?" in page.text


def test_the_engine_answer_is_the_unimplemented_listing(hostile_set: None,
                                                        client: TestClient) -> None:
    cli = json.loads(runner.invoke(cli_app, ["cards", "--unimplemented", "--json"]).stdout)
    assert [row["id"] for row in cli] == ["hand-played-card"]
    page = client.get("/cards", params={"faction": "mcready"}).text
    assert page.count("engine cannot play it") == 1
    detail = client.get("/cards/hand-played-card").text
    assert "the engine cannot play it" in detail
    assert cli[0]["reasons"][0] in detail
    assert "the engine plays it" in client.get("/cards/hostile-card").text


def test_characters_and_battlefields_are_browsed_too(client: TestClient) -> None:
    guardians = client.get("/api/cards", params={"kind": "guardian"}).json()
    assert guardians["cards"] and {c["game"] for c in guardians["cards"]} == {"revolver2"}
    fields = client.get("/cards", params={"kind": "battlefield", "game": "revolver"}).text
    assert "Dead Man&#39;s Gulch" in fields or "spaces" in fields


# -- escaping -------------------------------------------------------------------------------
@pytest.fixture
def hostile_set(user_home: Path) -> None:
    sets = user_home / "sets"
    sets.mkdir(parents=True)
    (sets / "hostile.yaml").write_text(HOSTILE_SET, encoding="utf-8")


def test_a_hostile_card_name_is_escaped_everywhere(hostile_set: None, client: TestClient
                                                   ) -> None:
    listing = client.get("/cards", params={"q": "alert"}).text
    detail = client.get("/cards/hostile-card").text
    for page in (listing, detail):
        assert HOSTILE_NAME not in page and HOSTILE_TEXT not in page
        assert "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<b>Hostile</b>" not in detail


def test_a_hostile_deck_name_is_escaped(decks: Path, client: TestClient) -> None:
    (decks / "evil.yaml").write_text(
        'name: "</textarea><script>alert(2)</script>"\ngame: revolver\nfaction: colty\n'
        "cards: {cowboy: 1}\n", encoding="utf-8")
    page = client.get("/deck", params={"file": "evil.yaml"}).text
    assert "<script>alert(2)</script>" not in page
    assert "&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page


def test_no_template_marks_text_safe() -> None:
    """Text reaches a page only through autoescaping: no `|safe` in any template."""
    folder = Path(__file__).resolve().parent.parent / "deckbuilder" / "web" / "templates"
    for template in folder.glob("*.html"):
        assert "|safe" not in template.read_text().replace(" ", ""), template.name


# -- deckbuilder serve ----------------------------------------------------------------------
def test_serve_help() -> None:
    result = runner.invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--decks"):
        assert option in result.stdout
    assert "127.0.0.1" in result.stdout and "8765" in result.stdout


def test_serve_without_the_web_extra_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # `import starlette` now fails
    result = runner.invoke(cli_app, ["serve"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: the web app needs the web extra: pip install 'revolver-deckbuilder[web]'"]
    assert "Traceback" not in result.output


def test_the_command_line_does_not_import_the_web_stack() -> None:
    import subprocess

    code = ("import sys; import deckbuilder.cli; "
            "print(any(m.split('.')[0] in ('starlette', 'jinja2', 'uvicorn') "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, paths.HOME_VARIABLE: "/nonexistent"})
    assert out.stdout.strip() == "False"


def test_serve_prints_the_address_and_runs_the_app(monkeypatch: pytest.MonkeyPatch,
                                                   decks: Path) -> None:
    import uvicorn

    started: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app,
                                                                              **options))
    result = runner.invoke(cli_app, ["serve", "--port", "9123", "--decks", str(decks)])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:9123/" in result.stdout
    assert started["host"] == "127.0.0.1" and started["port"] == 9123
    assert started["app"].state.config.deck_folder == decks.absolute()  # type: ignore[attr-defined]


def test_serve_defaults_to_the_current_folder(monkeypatch: pytest.MonkeyPatch, decks: Path
                                              ) -> None:
    import uvicorn

    started: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    monkeypatch.chdir(decks)
    assert runner.invoke(cli_app, ["serve"]).exit_code == 0
    assert started["app"].state.config.deck_folder == decks  # type: ignore[attr-defined]


def test_serve_refuses_a_missing_deck_folder(tmp_path: Path) -> None:
    result = runner.invoke(cli_app, ["serve", "--decks", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"error: {tmp_path / 'nope'}: the deck folder does not "
                                     "exist (fix: pass --decks with an existing folder)")


def test_the_choices_are_labelled_by_kind_and_giving_up_a_card_looks_apart() -> None:
    """The table's buttons: each kind under its label, in the session's order; a choice that
    gives up one's own card is marked apart (a different look than a play)."""
    from deckbuilder.web.pages import fragment

    def choice(action: int, text: str, group: str, key: str) -> dict[str, object]:
        return {"action": action, "text": text, "group": group, "key": key,
                "record": "", "summary": ""}

    groups = {"play": [choice(17, "play Cowboy", "play", "cowboy")],
              "discard-own": [choice(70, "discard own Deputy from play", "discard-own",
                                     "drop-deputy")],
              "pass": [choice(0, "end play phase", "pass", "pass")]}
    page = fragment("play_actions.html", groups=groups, over=False, watching=False,
                    decision="play phase", waiting=False, session_id="s", outcome="",
                    game="revolver", can_take_back=False)
    labels = ["play a card", "give up one of your own cards", "pass"]
    assert [page.index(f'<span class="group-label">{label}</span>') for label in labels] == \
        sorted(page.index(f'<span class="group-label">{label}</span>') for label in labels)
    assert 'class="action give-up" data-action="70" data-key="drop-deputy"' in page
    assert 'class="action" data-action="17" data-key="cowboy"' in page  # no card: no face

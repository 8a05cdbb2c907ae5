"""The deck editor's endpoints: the verdict is `deckbuilder validate`'s for the same deck,
clicks change counts, pasted lists are labelled like `deck import`, saving keeps a file's
comments, share links reopen the deck, and every path or bad file is one line."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app

TestClient = pytest.importorskip("starlette.testclient").TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402
from deckbuilder.web.deck_state import MAX_SHARE_CODE  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()
PACKAGED_DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
EXAMPLE = "example-mcready-pinkertons.yaml"


@pytest.fixture
def decks(deck_folder: Path) -> Path:
    """The web app's deck folder (conftest's `deck_folder`), by this file's name for it."""
    return deck_folder


@pytest.fixture
def client(decks: Path) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(deck_folder=decks)), base_url="http://localhost") as test:
        yield test


def page_state(page: str) -> dict[str, Any]:
    """The deck the editor page holds (its `data-state` attribute)."""
    found = re.search(r'data-state="([^"]*)"', page)
    assert found is not None
    state = json.loads(html.unescape(found.group(1)))
    assert state is not None
    return state


def base(client: TestClient, faction: str = "mcready") -> dict[str, Any]:
    return page_state(client.get("/deck", params={"base": faction}).text)


def click(client: TestClient, state: dict[str, Any], **change: Any) -> dict[str, Any]:
    response = client.post("/api/deck/change", json={"deck": state, **change})
    assert response.status_code == 200, response.text
    return response.json()


def validate_json(path: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(cli_app, ["validate", str(path), "--json", *extra])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def without_lines(report: dict[str, Any]) -> dict[str, Any]:
    return {**report, "file": None,
            "violations": [{**v, "line": None} for v in report["violations"]]}


# -- starting a deck ------------------------------------------------------------------------
def test_the_base_deck_is_legal_with_no_replacements(client: TestClient) -> None:
    page = client.get("/deck", params={"base": "Colti"}).text  # the sheet's spelling
    assert 'id="verdict-word">LEGAL<' in page
    assert "none (the base deck as it comes)" in page
    state = page_state(page)
    assert sum(count for _, count in state["cards"]) == 62


def test_an_unknown_faction_is_one_line(client: TestClient) -> None:
    page = client.get("/deck", params={"base": "frontier"})
    assert page.status_code == 400
    assert "deck: &#39;frontier&#39; has no base deck (fix: use one of: colty, mcready" in page.text


def test_a_deck_file_opens_with_the_verdict_validate_gives(client: TestClient, decks: Path
                                                           ) -> None:
    shutil.copy(PACKAGED_DECKS / EXAMPLE, decks / EXAMPLE)
    page = client.get("/deck", params={"file": EXAMPLE}).text
    state = page_state(page)
    assert state["file"] == EXAMPLE
    checked = client.post("/api/deck/check", json={"deck": state}).json()
    assert checked["report"] == without_lines(validate_json(decks / EXAMPLE))
    assert "2× Deputy → <strong>Texas Ranger</strong>" in page


def test_a_bad_deck_file_gives_the_clis_line_on_the_page(client: TestClient, decks: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    (decks / "broken.yaml").write_text("name: x\ngame: revolver\nfaction: colty\n"
                                       "cards:\n  cowboy: -3\n", encoding="utf-8")
    monkeypatch.chdir(decks)
    cli = runner.invoke(cli_app, ["validate", "broken.yaml"])
    line = cli.stderr.strip().removeprefix("error: ")
    assert line.startswith("broken.yaml:5:")
    page = client.get("/deck", params={"file": "broken.yaml"})
    assert page.status_code == 400
    assert html.escape(line, quote=True).replace("&#x27;", "&#39;") in page.text


def test_a_missing_file_is_one_line(client: TestClient) -> None:
    page = client.get("/deck", params={"file": "nope.yaml"})
    assert page.status_code == 400
    assert "nope.yaml: " in page.text and "Traceback" not in page.text


# -- clicks and the live verdict ------------------------------------------------------------
def test_build_illegal_then_legal_by_clicks(client: TestClient, decks: Path) -> None:
    state = base(client)
    answer = click(client, state, add="Texas Ranger")
    assert answer["legal"] is False and answer["total"] == 63
    assert [v["code"] for v in answer["report"]["violations"]] == ["deck-size"]
    assert 'data-code="deck-size"' in answer["html"]["verdict"]
    answer = click(client, answer["deck"], remove="deputy")
    assert answer["legal"] is True
    assert answer["report"]["replacements"] == [{"out": "deputy", "in": "texas-ranger"}]
    assert "1× Deputy → <strong>Texas Ranger</strong>" in answer["html"]["verdict"]


def test_the_verdict_matches_validate_for_an_illegal_deck(client: TestClient, decks: Path
                                                          ) -> None:
    state = base(client)
    for change in ({"remove": "colonel-ned-mcready"}, {"add": "Texas Ranger", "count": 2},
                   {"add": "Volcanic pistol"}, {"remove": "cowboy", "count": 3},
                   {"add": "Armed train guard"}):
        state = click(client, state, **change)["deck"]
    state["cards"].append(["Texs Rangr", 1])  # a typo, as a hand-edited file would hold
    answer = client.post("/api/deck/check", json={"deck": state}).json()
    saved = client.post("/api/deck/save", json={"deck": state, "file": "odd.yaml"})
    assert saved.status_code == 200, saved.text
    expected = without_lines(validate_json(decks / "odd.yaml"))
    assert answer["report"] == expected
    codes = {v["code"] for v in expected["violations"]}
    assert {"gunslinger-replaced", "unknown-card", "not-deckable"} <= codes
    for violation in expected["violations"]:
        assert html.escape(violation["fix"]).replace("&#x27;", "&#39;") in \
            answer["html"]["verdict"]


def test_the_collections_limits_are_checked(client: TestClient, decks: Path) -> None:
    (decks / "shelf.yaml").write_text("name: my shelf\nsets: {revolver-base: 1}\n",
                                      encoding="utf-8")
    state = click(client, click(client, base(client), add="Texas Ranger")["deck"],
                  remove="deputy")["deck"]
    answer = client.post("/api/deck/check", json={"deck": state, "collection": "shelf.yaml"}
                         ).json()
    assert [v["code"] for v in answer["report"]["violations"]] == ["not-owned"]
    client.post("/api/deck/save", json={"deck": state, "file": "ranger.yaml"})
    expected = validate_json(decks / "ranger.yaml", "--collection", str(decks / "shelf.yaml"))
    assert answer["report"] == without_lines(expected)
    assert "<th class=\"num\">owned</th>" in answer["html"]["deck"]


def test_a_collection_outside_the_folder_is_refused(client: TestClient) -> None:
    response = client.post("/api/deck/check", json={"deck": base(client),
                                                    "collection": "../shelf.yaml"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("../shelf.yaml: a deck path may not contain")


def test_adding_a_misspelt_card_suggests_the_name(client: TestClient) -> None:
    response = client.post("/api/deck/change", json={"deck": base(client), "add": "Texs Rangr"})
    assert response.status_code == 400
    assert response.json()["error"] == ("deck: 'Texs Rangr' is not a known card (fix: did you "
                                        "mean Texas Ranger?)")


def test_removing_the_last_copy_drops_the_card(client: TestClient) -> None:
    state = base(client)
    answer = click(client, state, remove="colonel-ned-mcready")
    assert "colonel-ned-mcready" not in dict(answer["deck"]["cards"])
    assert 'data-add="colonel-ned-mcready">put one back' in answer["html"]["deck"]
    assert "gunslinger-replaced" in {v["code"] for v in answer["report"]["violations"]}


def test_a_deck_the_page_mangled_is_one_line(client: TestClient) -> None:
    state = base(client)
    state["cards"][0][1] = 500
    response = client.post("/api/deck/check", json={"deck": state})
    assert response.status_code == 400
    assert response.json()["error"].startswith("deck: cards.")
    response = client.post("/api/deck/check", content=b"not json",
                           headers={"content-type": "application/json"})
    assert response.json()["error"].startswith("request: the request is not JSON")


# -- pasted lists ---------------------------------------------------------------------------
def test_a_pasted_list_is_labelled_and_a_typo_offered_its_name(client: TestClient) -> None:
    text = "# faction: mcready\n10x Deputy\n2x Texas Rangr\n3 deputy\n"
    answer = client.post("/api/deck/import", json={"text": text}).json()
    statuses = [line["status"] for line in answer["lines"]]
    assert statuses == ["header", "ok", "unknown", "merged"]
    typo = answer["lines"][2]
    assert typo["suggestions"] == [{"name": "Texas Ranger", "line": "2x Texas Ranger"}]
    assert "unknown-card" in {v["code"] for v in answer["report"]["violations"]}
    accepted = text.replace("2x Texas Rangr", typo["suggestions"][0]["line"])
    again = client.post("/api/deck/import", json={"text": accepted}).json()
    assert [line["status"] for line in again["lines"]] == ["header", "ok", "ok", "merged"]
    assert dict(again["deck"]["cards"]) == {"deputy": 13, "texas-ranger": 2}


def test_a_pasted_list_reads_as_deck_import_reads_it(client: TestClient, tmp_path: Path
                                                     ) -> None:
    text = "# name: Mine\n# faction: colty\n20x Bandito\nSideboard\n2x Cowboy\n"
    listing = tmp_path / "list.txt"
    listing.write_text(text, encoding="utf-8")
    cli = runner.invoke(cli_app, ["deck", "import", str(listing), "-o",
                                  str(tmp_path / "out.yaml"), "--json"])
    expected = json.loads(cli.stdout)
    answer = client.post("/api/deck/import", json={"text": text}).json()
    assert dict(answer["deck"]["cards"]) == expected["cards"]
    shown = [(line["number"], line["status"], line["message"]) for line in answer["lines"]]
    assert shown == [(line["line"], line["status"], line["message"])
                     for line in expected["lines"] if line["status"] not in ("blank", "comment")]


def test_a_list_without_a_faction_is_labelled_and_one_line(client: TestClient) -> None:
    response = client.post("/api/deck/import", json={"text": "10x Deputy\n2x Cowboy\n",
                                                     "faction": ""})
    answer = response.json()
    assert response.status_code == 200  # the faction is guessed from the cards, as the CLI does
    assert answer["deck"]["faction"] == "mcready"
    response = client.post("/api/deck/import", json={"text": "# just a comment\n"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("pasted list:1: the list does not say whose")
    chosen = client.post("/api/deck/import", json={"text": "2x Cowboy\n", "faction": "Colti"})
    assert chosen.json()["deck"]["faction"] == "colty"


# -- saving ---------------------------------------------------------------------------------
def test_saving_an_opened_file_keeps_its_comments(client: TestClient, decks: Path) -> None:
    shutil.copy(PACKAGED_DECKS / EXAMPLE, decks / EXAMPLE)
    before = (decks / EXAMPLE).read_text(encoding="utf-8")
    state = page_state(client.get("/deck", params={"file": EXAMPLE}).text)
    state = click(client, state, remove="texas-ranger", count=2)["deck"]
    state = click(client, state, add="deputy", count=2)["deck"]
    response = client.post("/api/deck/save", json={"deck": state, "file": EXAMPLE})
    assert response.status_code == 200, response.text
    assert response.json()["saved"] == {"file": EXAMPLE, "created": False,
                                        "message": f"updated {EXAMPLE}"}
    after = (decks / EXAMPLE).read_text(encoding="utf-8")
    comments = [line for line in before.splitlines() if line.startswith("#")]
    assert [line for line in after.splitlines() if line.startswith("#")] == comments
    assert "  deputy: 10                            # Deputy" in after
    assert "texas-ranger" not in after
    assert "  cowboy: 9                             # Cowboy" in after
    report = validate_json(decks / EXAMPLE)
    assert report["replacements"] == response.json()["report"]["replacements"]


def test_a_new_card_goes_in_under_its_id_with_its_name(client: TestClient, decks: Path) -> None:
    (decks / "mine.yaml").write_text(
        "# my notes\nname: Mine\ngame: revolver\nfaction: mcready\ncards:\n"
        "  Deputy: 10   # the lawmen\n", encoding="utf-8")
    state = page_state(client.get("/deck", params={"file": "mine.yaml"}).text)
    state = click(client, state, add="Texas Ranger")["deck"]
    state = click(client, state, remove="Deputy")["deck"]
    client.post("/api/deck/save", json={"deck": state, "file": "mine.yaml"})
    text = (decks / "mine.yaml").read_text(encoding="utf-8")
    assert text.startswith("# my notes\n")
    assert re.search(r"\n  Deputy: 9 +# the lawmen\n", text)
    assert re.search(r"\n  texas-ranger: 1 +# Texas Ranger\n", text)


def test_saving_a_new_file_writes_a_deck_validate_reads(client: TestClient, decks: Path) -> None:
    state = click(client, base(client), add="cowboy")["deck"]
    saved = client.post("/api/deck/save", json={"deck": state, "file": "sub/new.yaml"})
    assert saved.json()["saved"]["created"] is True
    assert validate_json(decks / "sub" / "new.yaml")["violations"][0]["code"] == "deck-size"


def test_saving_over_another_file_needs_consent(client: TestClient, decks: Path) -> None:
    (decks / "keep.yaml").write_text("keep me\n", encoding="utf-8")
    state = base(client)
    refused = client.post("/api/deck/save", json={"deck": state, "file": "keep.yaml"})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("keep.yaml: file already exists (fix:")
    assert (decks / "keep.yaml").read_text() == "keep me\n"
    allowed = client.post("/api/deck/save", json={"deck": state, "file": "keep.yaml",
                                                  "overwrite": True})
    assert allowed.status_code == 200
    assert "faction: mcready" in (decks / "keep.yaml").read_text()


@pytest.mark.parametrize("name", ["../escape.yaml", "/tmp/escape.yaml", "deck.sh"])
def test_saving_outside_the_folder_is_refused(client: TestClient, decks: Path, name: str
                                              ) -> None:
    response = client.post("/api/deck/save", json={"deck": base(client), "file": name})
    assert response.status_code == 400
    assert "\n" not in response.json()["error"]
    assert not (decks.parent / "escape.yaml").exists()
    assert list(decks.iterdir()) == []


def test_saving_as_text_is_deck_exports_list(client: TestClient, decks: Path) -> None:
    state = click(client, base(client), add="Texas Ranger")["deck"]
    client.post("/api/deck/save", json={"deck": state, "file": "list.txt"})
    client.post("/api/deck/save", json={"deck": state, "file": "list.yaml"})
    cli = runner.invoke(cli_app, ["deck", "export", str(decks / "list.yaml")])
    assert (decks / "list.txt").read_text(encoding="utf-8") == cli.stdout


# -- share links and downloads --------------------------------------------------------------
def test_a_share_link_reopens_the_same_deck(client: TestClient) -> None:
    state = base(client)
    for change in ({"add": "Texas Ranger", "count": 2}, {"remove": "deputy", "count": 2},
                   {"remove": "colonel-ned-mcready"}):
        answer = click(client, state, **change)
        state = answer["deck"]
    assert len(answer["code"]) < 400  # a diff against the base deck, not the whole list
    reopened = client.get(answer["share"])
    assert reopened.status_code == 200
    again = page_state(reopened.text)
    assert dict(again["cards"]) == dict(state["cards"])
    assert again["name"] == state["name"]
    assert 'id="verdict-word">ILLEGAL<' in reopened.text


@pytest.mark.parametrize("code, reason", [
    ("not-a-code!", "not base64url-encoded deck data"),
    ("A" * (MAX_SHARE_CODE + 1), "longer than"),
    ("v99", "another version"),
])
def test_a_bad_share_link_is_one_line(client: TestClient, code: str, reason: str) -> None:
    if code == "v99":
        import base64
        import zlib

        code = base64.urlsafe_b64encode(zlib.compress(b'{"v": 99, "f": "colty"}')).decode()
    page = client.get("/deck", params={"share": code})
    assert page.status_code == 400
    assert "share link: the share link does not hold a deck" in page.text
    assert reason in page.text


def test_a_share_code_that_inflates_too_far_is_refused(client: TestClient) -> None:
    import base64
    import zlib

    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" + b" " * 5_000_000 + b"]", 9))
    page = client.get("/deck", params={"share": bomb.decode().rstrip("=")})
    assert page.status_code == 400
    assert "unpacks to too much" in page.text or "longer than" in page.text


def test_download_as_text_is_deck_export(client: TestClient, decks: Path) -> None:
    answer = click(client, base(client), add="Texas Ranger")
    response = client.get("/deck/export.txt", params={"share": answer["code"]})
    assert response.status_code == 200
    assert response.headers["content-disposition"] == \
        'attachment; filename="colonel-mcready-base-deck.txt"'
    client.post("/api/deck/save", json={"deck": answer["deck"], "file": "x.yaml"})
    assert response.text == runner.invoke(cli_app, ["deck", "export",
                                                    str(decks / "x.yaml")]).stdout


def test_the_files_of_the_folder_are_listed(client: TestClient, decks: Path, tmp_path: Path
                                            ) -> None:
    (decks / "a.yaml").write_text("x: 1\n")
    (decks / "b.txt").write_text("1x Cowboy\n")
    (decks / "c.py").write_text("print()\n")
    (decks / ".hidden.yaml").write_text("x: 1\n")
    (tmp_path / "outside.yaml").write_text("x: 1\n")
    (decks / "out.yaml").symlink_to(tmp_path / "outside.yaml")
    assert client.get("/api/deck/files").json() == {"files": ["a.yaml", "b.txt"]}
    page = client.get("/deck").text
    assert '<option value="a.yaml">a.yaml</option>' in page and "c.py" not in page


def test_a_text_list_of_the_folder_opens_in_the_paste_box(client: TestClient, decks: Path
                                                          ) -> None:
    (decks / "mine.txt").write_text("# faction: colty\n2x <Bandito>\n", encoding="utf-8")
    page = client.get("/deck", params={"list": "mine.txt"}).text
    assert "2x &lt;Bandito&gt;\n</textarea>" in page and "<Bandito>" not in page

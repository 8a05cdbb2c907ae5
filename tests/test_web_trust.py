"""What the web server trusts (issue 19, section 1): it answers only the host names it is
served under (DNS rebinding), takes changes only from its own pages, cannot be framed, never
undoes a change made to a deck file since the editor read it, and answers JSON nested too
deep with 400 and one line instead of a RecursionError."""

from __future__ import annotations

import base64
import hashlib
import html
import http.client
import json
import re
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app
from deckbuilder.writing import editing

TestClient = pytest.importorskip("starlette.testclient").TestClient

from browser_support import ServerThread  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()
PORT = 8765
DECK = "mine.yaml"
DECK_TEXT = """\
# my notes
name: Mine
game: revolver
faction: mcready
cards:
  deputy: 10   # the lawmen
  cowboy: 10
"""
FRAMING_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def client_for(decks: Path, base_url: str, **config: Any) -> TestClient:
    return TestClient(create_app(WebConfig(deck_folder=decks, port=PORT, **config)),
                      base_url=base_url)


@pytest.fixture
def client(deck_folder: Path) -> Iterator[TestClient]:
    with client_for(deck_folder, f"http://127.0.0.1:{PORT}") as test:
        yield test


def one_line(response: Any) -> str:
    text = response.json()["error"] if "json" in response.headers.get(
        "content-type", "") else response.text
    assert "\n" not in text.strip() and "Traceback" not in text
    return text.strip()


# -- DNS rebinding: the names the server answers ---------------------------------------------
def test_the_issues_curl_is_refused_on_a_real_socket(deck_folder: Path) -> None:
    """`curl -H 'Host: attacker.example:PORT' http://127.0.0.1:PORT/api/deck/files`."""
    (deck_folder / "secret-deck.yaml").write_text(DECK_TEXT, encoding="utf-8")
    server = ServerThread(create_app(WebConfig(deck_folder=deck_folder)))
    server.start()
    try:
        answers = {}
        for host in (f"attacker.example:{server.port}", f"127.0.0.1:{server.port}"):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("GET", "/api/deck/files", headers={"Host": host})
            response = connection.getresponse()
            answers[host.split(":")[0]] = (response.status, response.read().decode())
            connection.close()
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(b"GET /api/deck/files HTTP/1.0\r\n\r\n")  # no Host at all
            answers["none"] = (0, raw.makefile("rb").read().decode())
    finally:
        server.stop()
    status, body = answers["attacker.example"]
    assert status == 421
    assert "secret-deck" not in body and len(body.strip().splitlines()) == 1
    assert "attacker.example" in body and "--allow-host" in body
    assert answers["127.0.0.1"][0] == 200 and "secret-deck.yaml" in answers["127.0.0.1"][1]
    assert answers["none"][1].startswith("HTTP/1.1 400 ")
    assert answers["none"][1].endswith("\r\n\r\nthe request names no host\n")


@pytest.mark.parametrize("path", ["/", "/deck", "/api/deck/files", "/static/deck.js",
                                  "/no-such-page"])
def test_another_host_name_is_refused_before_any_handler(client: TestClient, path: str
                                                         ) -> None:
    response = client.get(path, headers={"host": f"attacker.example:{PORT}"})
    assert response.status_code == 421
    assert one_line(response).startswith(
        "this server does not answer to the host name 'attacker.example:8765'")


def test_a_rebound_save_with_matching_origin_and_host_is_refused(client: TestClient,
                                                                 deck_folder: Path) -> None:
    """The attack of the issue: the page of attacker.example, rebound to 127.0.0.1, posts
    with its own name as both Host and Origin (the old check compared the two)."""
    (deck_folder / DECK).write_text(DECK_TEXT, encoding="utf-8")
    state = {"name": "pwned", "game": "revolver", "faction": "colty", "cards": [["cowboy", 1]],
             "file": DECK}
    for host in (f"attacker.example:{PORT}", "attacker.example"):
        origin = "http://" + host
        response = client.post("/api/deck/save", json={"deck": state, "file": DECK,
                                                       "overwrite": True},
                               headers={"host": host, "origin": origin})
        assert response.status_code == 421, response.text
    assert (deck_folder / DECK).read_text(encoding="utf-8") == DECK_TEXT
    assert sorted(path.name for path in deck_folder.iterdir()) == [DECK]


@pytest.mark.parametrize("base_url", [f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}",
                                      f"http://[::1]:{PORT}", "http://LOCALHOST",
                                      "http://127.0.0.1"])
def test_the_loopback_names_are_answered_with_any_port(deck_folder: Path, base_url: str
                                                       ) -> None:
    with client_for(deck_folder, base_url) as client:
        response = client.get("/api/deck/files")
        assert response.status_code == 200, response.text
        assert response.json() == {"files": []}


def test_serve_answers_the_names_it_is_given(monkeypatch: pytest.MonkeyPatch,
                                            deck_folder: Path) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    result = runner.invoke(cli_app, ["serve", "--decks", str(deck_folder), "--host",
                                     "192.168.1.5", "--allow-host", "MyBox.local",
                                     "--allow-host", "deck.example.org"])
    assert result.exit_code == 0, result.output
    app = started["app"]
    for name, answered in (("mybox.local", True), ("deck.example.org:8765", True),
                           ("192.168.1.5:8765", True), ("localhost", True),
                           ("attacker.example", False), ("example.org", False)):
        with TestClient(app, base_url=f"http://{name}") as client:
            status = client.get("/api/deck/files").status_code
            assert status == (200 if answered else 421), name
    without = runner.invoke(cli_app, ["serve", "--decks", str(deck_folder)])
    assert without.exit_code == 0
    with TestClient(started["app"], base_url="http://mybox.local") as client:
        assert client.get("/api/deck/files").status_code == 421


@pytest.mark.parametrize("name", ["", "a b", "evil.example/x", "*.example", "user@host"])
def test_serve_refuses_a_name_that_is_no_host_name(monkeypatch: pytest.MonkeyPatch,
                                                   deck_folder: Path, name: str) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: pytest.fail("started"))
    result = runner.invoke(cli_app, ["serve", "--decks", str(deck_folder), "--allow-host",
                                     name])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not a host name" in lines[0] and "--allow-host" in lines[0]


# -- Origin: only this server's own pages change anything --------------------------------------
@pytest.mark.parametrize("origin, allowed", [
    (f"http://127.0.0.1:{PORT}", True),
    (f"http://localhost:{PORT}", True),  # the other loopback name of the same server
    (f"http://[::1]:{PORT}", True),
    (f"http://mybox.local:{PORT}", True),  # --allow-host
    (f"http://attacker.example:{PORT}", False),  # even though it resolves here after rebinding
    ("http://127.0.0.1:3000", False),  # another program's page on this computer
    ("http://127.0.0.1", False),
    (f"https://127.0.0.1:{PORT}", False),
    (f"http://127.0.0.1:{PORT}.attacker.example", False),
    ("null", False),
    ("http://127.0.0.1:99999", False),
])
def test_origin_is_checked_against_the_allowed_names(deck_folder: Path, origin: str,
                                                     allowed: bool) -> None:
    state = {"name": "x", "game": "revolver", "faction": "colty", "cards": [["cowboy", 1]]}
    with client_for(deck_folder, f"http://127.0.0.1:{PORT}",
                    extra_hosts=("mybox.local",)) as client:
        response = client.post("/api/deck/save", json={"deck": state, "file": "x.yaml"},
                               headers={"origin": origin})
    assert response.status_code == (200 if allowed else 403), response.text
    assert (deck_folder / "x.yaml").exists() == allowed


def test_origin_may_name_the_port_a_tunnel_uses(deck_folder: Path) -> None:
    """Behind `ssh -L 9000:127.0.0.1:8765` the page is http://localhost:9000: Host and
    Origin both name 9000; the name is still checked against the list."""
    state = {"name": "x", "game": "revolver", "faction": "colty", "cards": [["cowboy", 1]]}
    with client_for(deck_folder, "http://localhost:9000") as client:
        ok = client.post("/api/deck/save", json={"deck": state, "file": "x.yaml"},
                         headers={"origin": "http://localhost:9000"})
        other = client.post("/api/deck/save", json={"deck": state, "file": "y.yaml"},
                            headers={"origin": "http://localhost:9001"})
    assert ok.status_code == 200 and other.status_code == 403


# -- framing and sniffing headers on every response -------------------------------------------
@pytest.mark.parametrize("method, path, headers, status", [
    ("GET", "/", {}, 200),
    ("GET", "/deck?file=../x.yaml", {}, 400),
    ("GET", "/static/deck.js", {}, 200),
    ("GET", "/api/deck/files", {}, 200),
    ("GET", "/nowhere", {}, 404),
    ("GET", "/api/deck/files", {"host": "attacker.example"}, 421),
    ("POST", "/api/deck/check", {"origin": "http://evil.example"}, 403),
])
def test_every_response_forbids_framing(client: TestClient, method: str, path: str,
                                        headers: dict[str, str], status: int) -> None:
    response = client.request(method, path, headers=headers)
    assert response.status_code == status
    for name, value in FRAMING_HEADERS.items():
        assert response.headers[name] == value, name
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


# -- Save never undoes a change made since the page read the file ----------------------------
def page_state(page: str) -> dict[str, Any]:
    found = re.search(r'data-state="([^"]*)"', page)
    assert found is not None
    state = json.loads(html.unescape(found.group(1)))
    assert isinstance(state, dict)
    return state


def opened(client: TestClient, name: str = DECK) -> dict[str, Any]:
    """The deck as the editor holds it after `?file=NAME`, with one Cowboy more."""
    state = page_state(client.get("/deck", params={"file": name}).text)
    assert state["file"] == name and state["version"]
    changed = client.post("/api/deck/change", json={"deck": state, "add": "cowboy"})
    assert changed.status_code == 200
    deck: dict[str, Any] = changed.json()["deck"]
    assert deck["version"] == state["version"]  # the version rides along with every change
    return deck


def test_save_after_deck_swap_is_refused_and_keeps_the_swap(client: TestClient,
                                                            deck_folder: Path) -> None:
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = opened(client)
    swapped = runner.invoke(cli_app, ["deck", "swap", str(path), "--out", "deputy", "--in",
                                      "texas-ranger"])
    assert swapped.exit_code == 1, swapped.output  # written; a 20-card deck is not legal
    after_swap = path.read_text(encoding="utf-8")
    assert "texas-ranger" in after_swap

    response = client.post("/api/deck/save", json={"deck": state, "file": DECK})
    assert response.status_code == 409
    line = one_line(response)
    assert line.startswith(f"{DECK}: not saved: the file changed since the editor read it")
    assert "(fix: reload the file" in line
    assert response.json()["conflict"] == {"file": DECK, "reload": f"/deck?file={DECK}",
                                           "copy": "mine-copy.yaml"}
    assert path.read_text(encoding="utf-8") == after_swap

    copy = client.post("/api/deck/save", json={"deck": state, "file": "mine-copy.yaml"})
    assert copy.status_code == 200 and copy.json()["saved"]["created"] is True
    assert "cowboy: 11" in (deck_folder / "mine-copy.yaml").read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") == after_swap


def test_save_after_a_text_editor_wrote_the_file_is_refused(client: TestClient,
                                                            deck_folder: Path) -> None:
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = opened(client)
    edited = DECK_TEXT.replace("# my notes", "# notes written in another editor")
    path.write_text(edited, encoding="utf-8")
    response = client.post("/api/deck/save", json={"deck": state, "file": DECK,
                                                   "overwrite": True})
    assert response.status_code == 409
    assert path.read_text(encoding="utf-8") == edited


def test_saving_twice_from_one_page_works(client: TestClient, deck_folder: Path) -> None:
    """The version the save answers with is the one the next save sends."""
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = opened(client)
    first = client.post("/api/deck/save", json={"deck": state, "file": DECK})
    assert first.status_code == 200, first.text
    state = first.json()["deck"]
    assert state["version"] == hashlib.sha256(path.read_bytes()).hexdigest()
    state = client.post("/api/deck/change", json={"deck": state, "add": "cowboy"}).json()["deck"]
    second = client.post("/api/deck/save", json={"deck": state, "file": DECK})
    assert second.status_code == 200, second.text
    assert "cowboy: 12" in path.read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8").startswith("# my notes\n")


def test_a_deck_without_the_files_version_cannot_replace_it(client: TestClient,
                                                            deck_folder: Path) -> None:
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = {**opened(client), "version": None}
    response = client.post("/api/deck/save", json={"deck": state, "file": DECK})
    assert response.status_code == 409
    assert "does not know which version" in one_line(response)
    assert path.read_text(encoding="utf-8") == DECK_TEXT


def test_a_reopened_share_link_keeps_the_version_it_was_made_from(client: TestClient,
                                                                  deck_folder: Path) -> None:
    """The page puts `file` and `version` in its address: a reload of the tab after the
    file changed must not turn the stale deck into a silent overwrite."""
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = opened(client)
    code = client.post("/api/deck/check", json={"deck": state}).json()["code"]
    path.write_text(DECK_TEXT.replace("cowboy: 10", "cowboy: 9"), encoding="utf-8")
    page = client.get("/deck", params={"share": code, "file": DECK,
                                       "version": state["version"]})
    reopened = page_state(page.text)
    assert reopened["version"] == state["version"]
    response = client.post("/api/deck/save", json={"deck": reopened, "file": DECK})
    assert response.status_code == 409
    assert "cowboy: 9" in path.read_text(encoding="utf-8")


def test_the_check_and_the_write_hold_the_lock_deck_swap_holds(client: TestClient,
                                                               deck_folder: Path) -> None:
    """A save that arrives while `deck swap` holds the lock waits for it, then sees the
    swap's change: the check is made under the lock, not before it."""
    path = deck_folder / DECK
    path.write_text(DECK_TEXT, encoding="utf-8")
    state = opened(client)
    answers: list[Any] = []
    saver = threading.Thread(target=lambda: answers.append(
        client.post("/api/deck/save", json={"deck": state, "file": DECK})))
    with editing(path):  # what `deck swap` holds while it reads, changes and writes
        saver.start()
        time.sleep(0.5)
        assert saver.is_alive() and not answers  # the save waits for the lock
        swapped = DECK_TEXT.replace("deputy: 10", "deputy: 9\n  texas-ranger: 1")
        path.write_text(swapped, encoding="utf-8")
    saver.join(timeout=30)
    assert answers and answers[0].status_code == 409
    assert path.read_text(encoding="utf-8") == swapped


# -- JSON nested too deep ---------------------------------------------------------------------
def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


@pytest.mark.parametrize("body", [deep(1000), b'{"deck": ' + deep(1000) + b"}",
                                  b'{"a":' * 1000 + b"1" + b"}" * 1000, deep(100_000),
                                  b"[" * 5000])
@pytest.mark.parametrize("path", ["/api/deck/check", "/api/deck/save", "/api/deck/import"])
def test_a_deeply_nested_request_body_is_400_and_one_line(client: TestClient, path: str,
                                                         body: bytes) -> None:
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    line = one_line(response)
    assert line.startswith("request: the request") and "JSON" in line


def test_a_deeply_nested_action_is_400_and_one_line(client: TestClient) -> None:
    started = client.post("/api/play", data={"game": "revolver", "seat": "colty",
                                             "bot1": "random", "seed": "1"},
                          headers={"accept": "application/json"})
    assert started.status_code == 200, started.text
    act = f"/api/play/{started.json()['session']}/act"
    response = client.post(act, content=b'{"action": ' + deep(1000) + b"}",
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert "nested more than" in one_line(response)


def share_code_of(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


@pytest.mark.parametrize("raw", [deep(1000), b'{"v": 1, "f": "mcready", "i": ' + deep(1000)
                                 + b"}", b'{"v": 1, "d": ' * 1000 + b"1" + b"}" * 1000])
def test_a_deeply_nested_share_link_is_400_and_one_line(client: TestClient, raw: bytes
                                                       ) -> None:
    code = share_code_of(raw)
    page = client.get("/deck", params={"share": code})
    assert page.status_code == 400
    assert "the share link does not hold a deck: it is nested more than" in page.text
    download = client.get("/deck/export.txt", params={"share": code},
                          headers={"accept": "application/json"})
    assert download.status_code == 400
    assert one_line(download).startswith("share link: the share link does not hold a deck")


def test_ordinary_nesting_still_reads(client: TestClient) -> None:
    """A deck whose name holds brackets is not nested: strings are not counted."""
    state = {"name": "[[[[" * 50, "game": "revolver", "faction": "colty",
             "cards": [["cowboy", 1]]}
    response = client.post("/api/deck/check", json={"deck": state})
    assert response.status_code == 200, response.text

"""No file a request names can hold up the web app: a FIFO or an oversized (sparse) file
named like a deck, a list, a collection or a game record in the deck folder is refused in one
line before a byte of it is read, in a worker thread, while every other request is answered;
and a deck's version is that of the very bytes the editor parsed (read once)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import ServerThread

httpx = pytest.importorskip("httpx")
TestClient = pytest.importorskip("starlette.testclient").TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402
from deckbuilder.yamlio import MAX_FILE_BYTES  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")]

#: An answer the server owes at once (generous for a loaded 2-core machine).
PROMPT_SECONDS = 3.0
#: Sparse: a few bytes on disk, gigabytes to whoever reads it whole.
HUGE_BYTES = 2 * 1024**3
PIPE_LINE = "is a named pipe (FIFO), not a regular file"
HUGE_LINE = f"file is {HUGE_BYTES} bytes; the limit is {MAX_FILE_BYTES}"
PIPES = ("pipe.yaml", "pipe.txt", "pipe.jsonl")
DECK = """name: Mine
game: revolver
faction: mcready
cards:
  deputy: 10
"""


@pytest.fixture
def server(deck_folder: Path, user_home: Path) -> Iterator[str]:
    """The app served by uvicorn on a free port, its deck folder holding a FIFO and a huge
    file under every name a request may give (deck, list, collection)."""
    for name in PIPES:
        os.mkfifo(deck_folder / name)
    for name in ("huge.yaml", "huge.txt", "huge.jsonl"):
        with (deck_folder / name).open("wb") as stream:
            stream.truncate(HUGE_BYTES)
    running = ServerThread(create_app(WebConfig(deck_folder=deck_folder)))
    running.start()
    try:
        yield running.url
    finally:
        for name in PIPES:  # a reader stuck on a FIFO (the old code) ends
            _release(deck_folder / name)
        running.stop()


def _release(fifo: Path) -> None:
    with contextlib.suppress(OSError):  # ENXIO: nobody is reading it, nothing to release
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def _base_deck(url: str) -> dict[str, Any]:
    answer = httpx.post(f"{url}/api/deck/import", json={"text": "10 Deputy",
                                                        "faction": "mcready"},
                        timeout=30)
    assert answer.status_code == 200, answer.text
    deck: dict[str, Any] = answer.json()["deck"]
    return deck


def _request_naming(url: str, kind: str, name: str) -> Any:
    """A request that names file `name` as a deck, a list, a collection, the cards of the
    card data page or a record of the replay viewer; call it to send it."""
    if kind == "collection":
        deck = _base_deck(url)
        return lambda: httpx.post(f"{url}/api/deck/check",
                                  json={"deck": deck, "collection": name}, timeout=30)
    if kind == "record":
        return lambda: httpx.get(f"{url}/replays/file", params={"path": name}, timeout=30)
    if kind == "data":
        return lambda: httpx.get(f"{url}/data", params={"cards": f"file:{name}"}, timeout=30)
    return lambda: httpx.get(f"{url}/deck", params={"file" if kind == "deck" else "list": name},
                             timeout=30)


@pytest.mark.parametrize(("kind", "name", "line"), [
    ("deck", "pipe.yaml", PIPE_LINE),
    ("deck", "huge.yaml", HUGE_LINE),
    ("list", "pipe.txt", PIPE_LINE),
    ("list", "huge.txt", HUGE_LINE),
    ("collection", "pipe.yaml", PIPE_LINE),
    ("collection", "huge.yaml", HUGE_LINE),
    ("data", "pipe.yaml", PIPE_LINE),
    ("data", "huge.yaml", HUGE_LINE),
    ("record", "pipe.jsonl", PIPE_LINE),
    ("record", "huge.jsonl", f"file is {HUGE_BYTES} bytes; the limit is"),
])
def test_a_file_that_is_no_deck_is_refused_at_once_in_one_line(
        server: str, kind: str, name: str, line: str) -> None:
    send = _request_naming(server, kind, name)
    started = time.monotonic()
    answer = send()
    assert time.monotonic() - started < PROMPT_SECONDS
    assert answer.status_code == 400, answer.text[:300]
    assert f"{name}: {line}" in answer.text


@pytest.mark.parametrize("name", ["pipe.yaml", "huge.yaml"])
def test_other_requests_are_answered_while_one_names_such_a_file(server: str, name: str
                                                                 ) -> None:
    answers: list[Any] = []
    opener = threading.Thread(target=lambda: answers.append(
        httpx.get(f"{server}/deck", params={"file": name}, timeout=60)), daemon=True)
    opener.start()
    time.sleep(0.2)  # the server has the first request in hand
    started = time.monotonic()
    other = httpx.get(f"{server}/api/deck/files", timeout=PROMPT_SECONDS * 4)
    waited = time.monotonic() - started
    assert other.status_code == 200 and name in other.json()["files"]
    assert waited < PROMPT_SECONDS, f"another request waited {waited:.1f} s"
    opener.join(timeout=PROMPT_SECONDS * 4)
    assert answers and answers[0].status_code == 400


def test_the_version_is_that_of_the_bytes_parsed(deck_folder: Path, user_home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The file changes right after the editor read it: the deck and its version are both
    those of the bytes read, so Save then finds the file changed (409) instead of taking
    the new content for the version it opened."""
    from deckbuilder.web import deck_files

    path = deck_folder / "mine.yaml"
    path.write_text(DECK, encoding="utf-8")
    original = deck_files.read_bytes
    reads: list[Path] = []

    def read_then_changed(where: Path, *args: Any) -> bytes:
        raw = original(where, *args)
        reads.append(where)
        path.write_text(DECK.replace("Mine", "Changed"), encoding="utf-8")
        return raw

    monkeypatch.setattr(deck_files, "read_bytes", read_then_changed)
    state = deck_files.open_deck(WebConfig(deck_folder=deck_folder), "mine.yaml")
    assert len(reads) == 1
    assert state.name == "Mine"
    assert state.version == hashlib.sha256(DECK.encode()).hexdigest()
    monkeypatch.setattr(deck_files, "read_bytes", original)
    with TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                    base_url="http://localhost") as client:
        saved = client.post("/api/deck/save", json={"deck": state.to_json(),
                                                     "file": "mine.yaml"})
    assert saved.status_code == 409, saved.text
    assert "Changed" in path.read_text(encoding="utf-8")


def test_a_saved_deck_has_the_version_of_what_was_written(deck_folder: Path,
                                                          user_home: Path) -> None:
    (deck_folder / "mine.yaml").write_text(DECK, encoding="utf-8")
    with TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                    base_url="http://localhost") as client:
        opened = client.get("/deck", params={"file": "mine.yaml"})
        assert opened.status_code == 200
        state = _state_of(opened.text)
        for _ in range(2):  # the second save finds the version the first one wrote
            saved = client.post("/api/deck/save", json={"deck": state, "file": "mine.yaml"})
            assert saved.status_code == 200, saved.text
            state = saved.json()["deck"]
            written = (deck_folder / "mine.yaml").read_bytes()
            assert state["version"] == hashlib.sha256(written).hexdigest()


def _state_of(page: str) -> dict[str, Any]:
    import html
    import json
    import re

    found = re.search(r'data-state="([^"]*)"', page)
    assert found is not None
    state: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return state


def test_the_editor_saves_a_deck_as_deck_swap_does(deck_folder: Path, user_home: Path) -> None:
    """Save in the web editor is the same write as `deck swap`: the file's other names see the
    change (a hard link is not split) and what the edit did not touch keeps its layout (a
    column-0 list, CRLF line ends)."""
    text = DECK.replace("cards:\n", "sets:\n- revolver-base\ncards:\n").replace("\n", "\r\n")
    (deck_folder / "mine.yaml").write_bytes(text.encode())
    os.link(deck_folder / "mine.yaml", deck_folder / "other-name.yaml")
    with TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                    base_url="http://localhost") as client:
        state = _state_of(client.get("/deck", params={"file": "mine.yaml"}).text)
        state["description"] = "kept beside the other name"
        saved = client.post("/api/deck/save", json={"deck": state, "file": "mine.yaml"})
    assert saved.status_code == 200, saved.text
    written = (deck_folder / "mine.yaml").read_bytes()
    assert written == (deck_folder / "other-name.yaml").read_bytes()
    assert b"sets:\r\n- revolver-base\r\n" in written

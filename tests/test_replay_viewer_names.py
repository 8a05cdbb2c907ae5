"""The replay viewer names its viewers by side, in the terminal (`v mapache`) and on the web
(`?viewer=esteban`), and still takes a seat's number (0 / 1) for either."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.sim.records.replay_steps import ReplaySteps

testclient = pytest.importorskip("starlette.testclient")

from test_replays import live_game, upload  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


@pytest.fixture
def client(deck_folder: Path) -> Any:
    return testclient.TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                                 base_url="http://localhost")


def test_the_terminal_replay_takes_a_sides_name_or_number(catalog: Any, monkeypatch) -> None:
    from deckbuilder.commands import replay_watch

    session, _ = live_game(catalog, "revolver2", 4)
    steps = ReplaySteps(session.record, catalog)
    said: list[str] = []
    monkeypatch.setattr(replay_watch, "_say", said.append)
    watcher = replay_watch.Watcher(steps, catalog)
    for typed, name in (("v mapache", "mapache"), ("v all", "everything"), ("v 0", "esteban"),
                        ("v Esteban", "esteban"), ("v 1", "mapache")):
        assert watcher.key(typed) and watcher.viewer_name() == name
    said.clear()
    assert watcher.key("v 7") and watcher.viewer_name() == "mapache"
    assert said == ["v esteban, v mapache (or v 0, v 1) or v all (everything)"]
    watcher.key("banana")
    assert "v esteban/mapache/all viewer" in said[-1]


def test_the_web_replay_names_its_viewers_by_side(client: Any, catalog: Any) -> None:
    session, _ = live_game(catalog, "revolver2", 4)
    opened = upload(client, session.record.to_jsonl().encode()).json()
    page = client.get(opened["url"] + "?step=2&viewer=mapache").text
    for name in ("esteban", "mapache", "everything"):
        assert f'data-viewer="{name}"' in page
    api = f"/api/replays/{opened['replay']}/step"
    by_name = client.get(api, params={"step": 2, "viewer": "mapache"}).json()
    by_number = client.get(api, params={"step": 2, "viewer": "1"}).json()
    assert by_name["viewer"] == by_number["viewer"] == "mapache"
    assert by_name["board"] == by_number["board"]

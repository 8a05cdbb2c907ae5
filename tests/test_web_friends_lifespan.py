"""A friend table's life span: an ended table (finished, resigned, abandoned) leaves the
server's memory at once and its links still open it (read back from its file); its file
goes after the host's retention, and its links with it; open tables are counted per client
as well as in all, this computer's own only in all."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path
from typing import Any

import pytest

from deckbuilder.sim.records.transcript import read_record

pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from deckbuilder.web.app import create_app
from deckbuilder.web.config import WebConfig
from deckbuilder.web.friends import store_of
from deckbuilder.web.friends import tables as friend_tables
from deckbuilder.web.friends.lifespan import DAY_SECONDS, client_key
from deckbuilder.web.friends.seats import outcome_of
from deckbuilder.web.friends.setup import FormOfJson, new_table
from deckbuilder.web.friends.tables import FriendTableError, NoSuchTable, TableStore

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FRIEND = "203.0.113.9"  # a client on the network (a documentation address)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def config(deck_folder: Path, user_home: Path) -> WebConfig:
    return WebConfig(deck_folder=deck_folder, tables_folder=user_home / "tables")


def store_for(config: WebConfig, clock: Clock | None = None, **settings: Any) -> TableStore:
    assert config.tables_folder is not None
    return TableStore(config.tables_folder, config.catalog, clock=clock or Clock(), **settings)


def make(store: TableStore, config: WebConfig, client: str | None = FRIEND
         ) -> tuple[friend_tables.FriendTable, dict[str, str]]:
    made = new_table(config, FormOfJson({"game": "revolver", "seat": "colty"}))
    return store.create(made.session, made.creator, made.heading, made.deck_names, client)


def open_ids(store: TableStore) -> set[str]:
    return {table.id for table in store.tables()}


def play_some(store: TableStore, table: friend_tables.FriendTable, moves: int) -> None:
    """Both seats answer their decisions with their first choice, `moves` times."""
    for _ in range(moves):
        session = table.session
        mover = session.to_move()
        if mover is None or session.is_over():
            return
        store.act(table, str(session.names[mover]), table.step, session.choices()[0].action)


# -- leaving memory ----------------------------------------------------------------------------
def test_an_ended_table_leaves_memory_and_its_game_is_released(config: WebConfig) -> None:
    store = store_for(config)
    released = []
    for _ in range(3):
        table, _tokens = make(store, config)
        play_some(store, table, 6)
        released.append(weakref.ref(table.session))
        store.resign(table, "colty")
        del table
    gc.collect()
    assert [ref() for ref in released] == [None, None, None]
    assert open_ids(store) == set() and store._by_token == {}
    assert len(store.ended_tables) == 0


def test_an_abandoned_table_leaves_memory_too(config: WebConfig) -> None:
    clock = Clock()
    store = store_for(config, clock, idle_seconds=600)
    table, tokens = make(store, config)
    ref = weakref.ref(table.session)
    del table
    clock.now += 601
    store.sweep()
    gc.collect()
    assert ref() is None and open_ids(store) == set()
    ended, _ = store.find(tokens["colty"])
    assert ended.ended is not None and ended.ended["end"] == "abandoned"


def test_a_table_whose_invitation_nobody_took_ends_though_its_creator_waits(
        config: WebConfig) -> None:
    clock = Clock()
    store = store_for(config, clock, idle_seconds=600)
    table, tokens = make(store, config)
    for _ in range(3):  # the creator's page is open all along
        clock.now += 250
        store.touch(table, "colty")
        store.sweep()
    assert open_ids(store) == set()
    ended, _ = store.find(tokens["colty"])
    assert ended.ended is not None
    assert ended.ended["why"] == "nobody took the invitation within 10 minutes"
    assert outcome_of(ended) == "the table ended: nobody took the invitation within 10 minutes"


def test_a_finished_tables_record_is_served_after_it_left_memory(config: WebConfig,
                                                                  tmp_path: Path) -> None:
    """Through the app: the game is played to its end, the table leaves memory, and both
    the creator's and the spectator's links still show the end and offer the record."""
    client = TestClient(create_app(config), base_url="http://localhost")
    store = store_of(client.app)
    table, tokens = make(store, config)
    play_some(store, table, 2000)
    assert table.session.is_over() and table.ended is not None
    steps, winner = table.step, table.session.record.winner
    del table
    assert open_ids(store) == set()
    for role in ("colty", "spectator"):
        state = client.get(f"/api/tables/{tokens[role]}")
        assert state.status_code == 200, state.text
        assert state.json()["over"] and state.json()["step"] == steps
    record = client.get(f"/api/tables/{tokens['colty']}/record.jsonl")
    assert record.status_code == 200, record.text
    path = tmp_path / "finished.jsonl"
    path.write_text(record.text)
    played = read_record(path)
    assert len(played.steps) == steps and played.winner == winner
    assert len(store.ended_tables) == 1  # read back once, kept for the next request
    assert open_ids(store) == set()


def test_a_restarted_server_keeps_only_open_tables_in_memory(config: WebConfig) -> None:
    store = store_for(config)
    ended, ended_tokens = make(store, config)
    store.resign(ended, "colty")
    still, _ = make(store, config)
    assert config.tables_folder is not None
    for link in (config.tables_folder / "links").iterdir():  # as a version before links
        link.unlink()
    again = store_for(config)
    assert open_ids(again) == {still.id}
    assert all(place[0] == still.id for place in again._by_token.values())
    table, role = again.find(ended_tokens["colty"])
    assert role == "colty" and table.ended is not None and table.ended["end"] == "resigned"


# -- the retention -----------------------------------------------------------------------------
def test_ended_tables_files_go_after_the_retention_and_open_ones_stay(
        config: WebConfig) -> None:
    clock = Clock()
    store = store_for(config, clock, idle_seconds=10**9, retention_seconds=7 * DAY_SECONDS)
    folder = store.folder
    old, old_tokens = make(store, config)
    store.resign(old, "colty")
    still_open, open_tokens = make(store, config)
    clock.now += 6 * DAY_SECONDS
    newer, newer_tokens = make(store, config)
    store.resign(newer, "colty")
    (folder / "notes.jsonl").write_text("not a table\n")  # not the server's to delete
    old_link_files = {path.name for path in (folder / "links").iterdir()}
    clock.now += DAY_SECONDS + 1
    store.sweep()
    assert not old.path.exists() and newer.path.exists() and still_open.path.exists()
    assert (folder / "notes.jsonl").exists()
    links_left = {path.name for path in (folder / "links").iterdir()}
    assert links_left < old_link_files and links_left  # the old table's links are forgotten
    for token in old_tokens.values():
        with pytest.raises(NoSuchTable) as refused:
            store.find(token)
        assert "removed 7 days after it ends" in refused.value.message
    assert store.find(newer_tokens["colty"])[0].ended is not None
    assert store.find(open_tokens["colty"])[0].ended is None


def test_the_retention_is_swept_when_the_server_starts(config: WebConfig) -> None:
    clock = Clock()
    store = store_for(config, clock, retention_seconds=DAY_SECONDS)
    table, _ = make(store, config)
    store.resign(table, "colty")
    clock.now += DAY_SECONDS + 1
    store_for(config, clock, retention_seconds=DAY_SECONDS)  # a restart
    assert not table.path.exists()


def test_a_removed_tables_link_is_one_line_through_the_app(config: WebConfig) -> None:
    config.table_retention_seconds = 2 * DAY_SECONDS
    client = TestClient(create_app(config), base_url="http://localhost")
    store = store_of(client.app)
    clock = Clock()
    store.clock = clock
    table, tokens = make(store, config)
    store.resign(table, "colty")
    clock.now += 2 * DAY_SECONDS + 1
    store.sweep()
    answer = client.get(f"/api/tables/{tokens['colty']}")
    assert answer.status_code == 404
    line = answer.json()["error"]
    assert "removed 2 days after it ends" in line and "\n" not in line


# -- open tables per client --------------------------------------------------------------------
def test_one_client_may_keep_only_so_many_open_tables(config: WebConfig) -> None:
    store = store_for(config, tables_per_client=3)
    mine = [make(store, config, FRIEND)[0] for _ in range(3)]
    with pytest.raises(FriendTableError) as refused:
        make(store, config, FRIEND)
    assert refused.value.message == ("you already have 3 unfinished tables on this server "
                                     "(at most 3 each)")
    assert "resign one of them" in (refused.value.fix or "")
    make(store, config, "198.51.100.7")  # another client is not hurt
    store.resign(mine[0], "colty")
    make(store, config, f"::ffff:{FRIEND}")  # a place again (the same client, as IPv6)


def test_an_ipv6_client_is_counted_by_its_network(config: WebConfig) -> None:
    store = store_for(config, tables_per_client=2)
    make(store, config, "2001:db8:5:6::1")
    make(store, config, "2001:db8:5:6::2")
    with pytest.raises(FriendTableError):
        make(store, config, "2001:db8:5:6:ffff::3")
    assert client_key("2001:db8:5:7::1") != client_key("2001:db8:5:6::1")


def test_this_computer_is_counted_only_in_all(config: WebConfig,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(friend_tables, "MOST_OPEN_TABLES", 5)
    store = store_for(config, tables_per_client=2)
    for address in ("127.0.0.1", "::1", "127.0.0.1", None):
        make(store, config, address)
    make(store, config, FRIEND)
    with pytest.raises(FriendTableError) as refused:
        make(store, config, "198.51.100.7")
    assert "already keeps 5 unfinished tables" in refused.value.message


def test_the_app_counts_a_client_by_its_address(config: WebConfig) -> None:
    config.tables_per_client = 1
    client = TestClient(create_app(config), base_url="http://localhost")
    first = client.post("/api/tables", json={"game": "revolver", "seat": "colty"})
    assert first.status_code == 201, first.text
    second = client.post("/api/tables", json={"game": "revolver", "seat": "colty"})
    assert second.status_code == 400
    line = second.json()["error"]
    assert "you already have 1 unfinished table on this server" in line and "\n" not in line
    creator = first.json()["tokens"]["colty"]
    assert client.post(f"/api/tables/{creator}/resign").status_code == 200
    third = client.post("/api/tables", json={"game": "revolver", "seat": "colty"})
    assert third.status_code == 201, third.text


def test_serve_passes_its_retention_and_limit_to_the_app(tmp_path: Path) -> None:
    from deckbuilder.commands.serve import _app

    app = _app(tmp_path, "127.0.0.1", 8765, [], table_retention_seconds=3600.0,
               tables_per_client=4)
    assert app.state.config.table_retention_seconds == 3600.0
    assert app.state.config.tables_per_client == 4
    assert store_of(app).retention_seconds == 3600.0 and store_of(app).tables_per_client == 4


def test_a_table_file_dated_to_its_end(config: WebConfig) -> None:
    """The retention counts from the end as the store's clock tells it."""
    clock = Clock()
    store = store_for(config, clock)
    table, _ = make(store, config)
    clock.now += 1234
    store.resign(table, "colty")
    assert table.path.stat().st_mtime == pytest.approx(clock.now)
    assert json.loads(table.path.read_text().splitlines()[-1])["at"] == clock.now

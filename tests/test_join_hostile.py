"""`deckbuilder join` against servers that do not answer as a table does: a fake server (a tiny
`http.server` on 127.0.0.1, in a thread) serves canned answers, and each hostile one ends the
command with one line naming the server and what was wrong, exit code 2, no traceback.

`FakeTable` and the canned states are also what test_join.py's protocol tests serve.
"""

from __future__ import annotations

import copy
import json
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckbuilder.app import table_client
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.table_answers import AnswerError, TableState, read_answer
from deckbuilder.app.table_words import PlayerWords
from deckbuilder.cli import app as cli_app
from deckbuilder.sim.records.seed_commitment import seed_commitment
from deckbuilder.sim.records.session_view import view_lines

SIDES = ["colty", "mcready"]
#: The deal's commitment the canned states carry: seed 7, salt "00".
COMMITMENT = seed_commitment(7, "00")
Reply = Callable[[BaseHTTPRequestHandler], None]


# -- canned answers -------------------------------------------------------------------------
def seat_view(player: str = "mcready") -> dict[str, Any]:
    """A seat's position with every field the terminal draws."""
    card = {"id": "yellow-boy-rifle", "name": "Yellow Boy Rifle", "mode": "Yellow Boy Rifle",
            "firepower": 2, "power": 0, "true_grit": 0, "eagle": False}
    return {
        "game": "revolver", "player": player, "players": SIDES, "turn": 1, "active": "colty",
        "phase": "play", "to_act": player, "decision": "play phase", "row_known": True,
        "marker": {"battlefield": "bank", "name": "The Bank", "space": "1", "index": 0},
        "countdown": {"name": "border", "tokens": 12}, "pieces_used": [],
        "battlefields": [{"id": "bank", "name": "The Bank", "defence": 0, "marker": True,
                          "firepower": {"colty": 2, "mcready": 0},
                          "cards": {"colty": [card], "mcready": []}}],
        "open_range": {"colty": [], "mcready": []},
        "characters": {"name": "gang", "pile": None, "in_pile": [], "list": [
            {"id": "jack-colty", "name": "Jack Colty", "survival": 5, "alive": True,
             "true_grit": 0, "power": 0}]},
        "hand": [{"id": "cowboy", "name": "Cowboy"}], "symbols_in_hand": {},
        "opponent_hand": 5, "decks": {"colty": 20, "mcready": 20},
        "discards": {"colty": [], "mcready": [{"id": "cowboy", "name": "Cowboy"}]},
        "removed": {"colty": [], "mcready": []}, "silver_dollars": {"colty": 0, "mcready": 0},
        "under_characters": [], "game_pieces": {}, "piece_names": {}, "outcome": None,
    }


def table_state(**changes: Any) -> dict[str, Any]:
    """A seat's state at its decision (`changes` replace fields)."""
    state: dict[str, Any] = {
        "table": "t1", "role": "mcready", "seat": "mcready", "game": "revolver",
        "players": SIDES, "heading": "Revolver: the Colty gang against McReady",
        "step": 3, "to_move": "mcready", "your_turn": True, "decision": "play phase",
        "choices": [{"action": 0, "text": "pass", "group": "pass", "record": "", "summary": "",
                     "key": "pass"},
                    {"action": 17, "text": "play Cowboy", "group": "play", "record": "cowboy",
                     "summary": "cost 1", "key": "cowboy"}],
        "view": seat_view(), "log": [{"index": None, "player": None, "action": None,
                                      "lines": ["colty draws 5 cards"], "turn": 1}],
        "log_start": 0, "log_next": 1, "over": False, "ended": None, "outcome": None,
        "record": None, "version": 7, "commitment": COMMITMENT, "notices": [],
        "seats": {side: {"joined": True, "present": True} for side in SIDES},
    }
    state.update(changes)
    return state


def waiting_state(**changes: Any) -> dict[str, Any]:
    """A seat's state while the other seat decides."""
    return table_state(to_move="colty", your_turn=False, choices=[], **changes)


def ended_state(**changes: Any) -> dict[str, Any]:
    return table_state(to_move=None, your_turn=False, choices=[], over=True, decision="",
                       ended={"end": "resigned", "winner": "mcready"},
                       outcome="the McReady gang wins: a player resigned",
                       record="/api/tables/t1/record.jsonl", **changes)


def answer(value: Any = None, status: int = 200, kind: str = "application/json",
           body: bytes | None = None, headers: dict[str, str] | None = None) -> Reply:
    """A reply: `value` as JSON (NaN written as NaN), or `body` as it is."""
    data = body if body is not None else json.dumps(value).encode()

    def reply(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        for name, text in (headers or {}).items():
            handler.send_header(name, text)
        handler.end_headers()
        handler.wfile.write(data)
    return reply


def reset(handler: BaseHTTPRequestHandler) -> None:
    """Close the connection with a TCP reset, answering nothing."""
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.connection.close()


def hang(handler: BaseHTTPRequestHandler) -> None:
    """Never answer (until the fake server stops)."""
    handler.server.fake.stopping.wait(60)  # type: ignore[attr-defined]


#: A long poll's answer: the table changed.
MOVED = answer(body=b"event: state\ndata: {}\n\n", kind="text/event-stream")


# -- the fake server ------------------------------------------------------------------------
class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:
        self.server.fake.serve(self, "GET")  # type: ignore[attr-defined]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.fake.bodies.append(body)  # type: ignore[attr-defined]
        self.server.fake.serve(self, "POST")  # type: ignore[attr-defined]

    def log_message(self, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up on a hostile answer is what the tests do


class FakeTable:
    """A server on a free port of 127.0.0.1 that answers `METHOD /path` (no query) by its
    reply; a list of replies is served in turn, its last one from then on. Anything else is
    a 404 refusal. `requests` keeps (method, path with query, headers) of every request,
    `bodies` what each POST sent."""

    def __init__(self, replies: dict[str, Reply | list[Reply]]) -> None:
        self.replies = {key: value if isinstance(value, list) else [value]
                        for key, value in replies.items()}
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.bodies: list[bytes] = []
        self.stopping = threading.Event()
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.fake = self  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,),
                                       daemon=True)
        self.thread.start()

    def link(self, token: str = "INV") -> str:
        return f"{self.url}/friends/{token}"

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        self.requests.append((method, handler.path, dict(handler.headers)))
        queued = self.replies.get(f"{method} {handler.path.split('?')[0]}")
        if not queued:
            answer({"error": "no table has this link"}, 404)(handler)
            return
        reply = queued.pop(0) if len(queued) > 1 else queued[0]
        reply(handler)

    def stop(self) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fake_table() -> Iterator[Callable[[dict[str, Reply | list[Reply]]], FakeTable]]:
    """Start fake servers with the replies given; all stopped at the end of the test."""
    started: list[FakeTable] = []

    def start(replies: dict[str, Reply | list[Reply]]) -> FakeTable:
        started.append(FakeTable(replies))
        return started[-1]
    yield start
    for fake in started:
        fake.stop()


def run_join(link: str, typed: str = "") -> Any:
    """`deckbuilder join LINK` through typer's runner, `typed` on its stdin."""
    return CliRunner().invoke(cli_app, ["join", link], input=typed)


def assert_one_line_naming(result: Any, server: str, *words: str) -> str:
    """Exit 2, one line on stderr that names `server` (and `words`), no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and server in lines[0], lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.output + result.stderr
    return str(lines[0])


# -- the hostile answers --------------------------------------------------------------------
DEEP = b'{"heading": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
NESTED_60 = b'{"heading": ' + b"[" * 60 + b"]" * 60 + b"}"
HOSTILE: dict[str, tuple[Reply, str]] = {
    "an empty object": (answer({}), "over: Field required"),
    "a list": (answer([table_state()]), "a list, not a JSON object"),
    "a string": (answer("welcome"), "a string, not a JSON object"),
    "NaN": (answer(body=json.dumps(table_state(step=float("nan"))).encode()), "NaN"),
    "Infinity": (answer(body=json.dumps(table_state(version=float("inf"))).encode()),
                 "Infinity"),
    "a number too large for a float": (
        answer(body=json.dumps(table_state()).replace('"step": 3', '"step": 1e999')
               .encode()), "too large"),
    "a number of 5000 digits": (
        answer(body=json.dumps(table_state()).replace('"step": 3', '"step": ' + "9" * 5000)
               .encode()), "5000 digits"),
    "a number past any step": (answer(table_state(step=10**20)), "step"),
    "deep nesting": (answer(body=DEEP), "nested more than"),
    "nesting deeper than a state": (answer(body=NESTED_60), "nested more than"),
    "an oversized body": (answer(body=b'{"heading": "' + b"x" * 8_100_000 + b'"}'),
                          "larger than"),
    "bytes that are not UTF-8": (answer(body=b'{"heading": "\xff\xfe"}'), "not UTF-8"),
    "HTML instead of JSON": (answer(body=b"<html><body>hello</body></html>",
                                    kind="text/html"), "content type"),
    "JSON of a wrong content type": (answer(table_state(), kind="text/plain"), "content type"),
    "HTML under a JSON content type": (answer(body=b"<html>"), "not JSON"),
    "missing fields": (answer({k: v for k, v in table_state().items() if k != "version"}),
                       "version: Field required"),
    "wrong types in choices": (answer(table_state(choices=[{"action": "17", "text": 5}])),
                               "choices.0.action"),
    "a choice list that is not a list": (answer(table_state(choices={"action": 1})),
                                         "choices"),
    "a decision without actions": (answer(table_state(choices=[])), "no action"),
    "a view without the other side": (
        answer(table_state(view={**seat_view(), "decks": {"mcready": 3}})), "both sides"),
    "a view of three players": (
        answer(table_state(view={**seat_view(), "players": ["a", "b", "c"]})), "players"),
    "a poker winner who is no side": (
        answer(table_state(view={**seat_view(), "game": "revolver2", "game_pieces": {
            "poker_wins": [1, 0], "poker_winner": 7}})), "poker_winner"),
    "a view of a game not installed here": (
        answer(table_state(view={**seat_view(), "game": "chess"})), "not installed"),
    "a log entry of the wrong shape": (answer(table_state(log=[{"lines": "x"}])), "log.0.lines"),
    "a seat token that is not a token": (answer(table_state(seat_token="../../x y")),
                                         "seat_token"),
    "an error status without JSON": (answer(body=b"<h1>oops</h1>", status=500,
                                            kind="text/html"), "500"),
    "an error whose state is broken": (answer({"error": "no", "state": {"over": "yes"}}, 409),
                                       "409"),
    "an error status with a JSON list": (answer([1, 2], status=403), "403"),
    "a connection reset": (reset, "broke off its answer"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_answer_to_the_join_is_one_line_naming_the_server(
        fake_table: Any, kind: str) -> None:
    reply, words = HOSTILE[kind]
    fake = fake_table({"POST /api/tables/INV/join": reply})
    assert_one_line_naming(run_join(fake.link()), fake.url, words)


@pytest.mark.parametrize("kind", ["an empty object", "a list", "NaN", "deep nesting",
                                  "wrong types in choices", "a connection reset"])
def test_a_hostile_answer_later_in_the_game_is_one_line_too(fake_table: Any,
                                                            kind: str) -> None:
    """The join was a table's; the state after the other seat's move is not."""
    reply, words = HOSTILE[kind]
    fake = fake_table({"POST /api/tables/INV/join": answer(waiting_state()),
                       "GET /api/tables/INV/events": MOVED,
                       "GET /api/tables/INV": reply})
    result = run_join(fake.link())
    assert_one_line_naming(result, fake.url, words)
    assert "waiting for colty" in result.stdout


@pytest.mark.parametrize("kind", ["a connection reset", "an error status without JSON"])
def test_a_hostile_answer_to_the_wait_is_one_line(fake_table: Any, kind: str) -> None:
    """The long poll runs in a thread of its own: its failure still ends the command in
    one line."""
    reply, words = HOSTILE[kind]
    fake = fake_table({"POST /api/tables/INV/join": answer(waiting_state()),
                       "GET /api/tables/INV/events": reply})
    assert_one_line_naming(run_join(fake.link()), fake.url, words)


def test_a_redirect_to_another_host_is_not_followed(fake_table: Any) -> None:
    elsewhere = fake_table({"POST /api/tables/INV/join": answer(table_state())})
    fake = fake_table({"POST /api/tables/INV/join": answer(
        {}, 307, headers={"Location": elsewhere.link().replace("/friends/", "/api/tables/")
                          + "/join"})})
    assert_one_line_naming(run_join(fake.link()), fake.url, "307", "redirect to",
                           elsewhere.url)
    assert elsewhere.requests == []


def test_a_server_that_never_answers_is_left_after_the_request_time(
        fake_table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_client, "REQUEST_SECONDS", 1.0)
    fake = fake_table({"POST /api/tables/INV/join": hang})
    assert_one_line_naming(run_join(fake.link()), fake.url, "did not answer within 1 s")


def test_the_servers_words_reach_the_terminal_escaped(fake_table: Any) -> None:
    """Control characters in a refusal and in the heading are shown as escapes: the
    server cannot move the cursor, recolour the screen or split the error line."""
    fake = fake_table({"POST /api/tables/INV/join": answer(
        waiting_state(heading="\x1b[2J\x1b[31mred\u202e")),
        "GET /api/tables/INV/events": MOVED,
        "GET /api/tables/INV": answer({"error": "gone\n\x1b]0;owned\x07"}, 404)})
    result = run_join(fake.link())
    line = assert_one_line_naming(result, fake.url, "gone")
    assert "\x1b" not in result.output + result.stderr and "\\x1b" in line
    assert "\\x1b[2J\\x1b[31mred\\u202e" in result.stdout


def test_a_watch_link_on_another_server_is_not_offered(fake_table: Any) -> None:
    fake = fake_table({"POST /api/tables/INV/join": answer(
        {"error": "this seat is taken", "watch": "http://evil.example/friends/abc"}, 409)})
    line = assert_one_line_naming(run_join(fake.link()), fake.url, "this seat is taken")
    assert "evil.example" not in line


# -- what the model takes, the terminal draws -----------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**7) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=5)


def _places(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a view: each key of each object, each item of each list."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*at, key)
            yield from _places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*at, index)
            yield from _places(item, (*at, index))


POKER_VIEW = {**seat_view(), "game": "revolver2", "game_pieces": {
    "poker_wins": [1, 0], "poker_winner": -1, "poker_played": [["a"], []],
    "poker_hand": ["all-rivers-poker-mapache-1"], "poker_opponent_cards": 3,
    "poker_face_down": "chosen"}}
def test_a_views_pieces_are_drawn_by_the_game_it_names_alone() -> None:
    """The poker tournament's lines come from Revolver 2's rules, and only for a view of
    Revolver 2: the same pieces in a view of Revolver are the table's plain pairs."""
    words = PlayerWords(project_catalog())
    as_revolver2 = view_lines(read_answer(TableState, table_state(view=POKER_VIEW)).view.model_dump(
        by_alias=True), words)
    as_revolver = view_lines({**POKER_VIEW, "game": "revolver"}, words)
    assert any(line.startswith("poker tournament:") for line in as_revolver2)
    assert not any("poker tournament" in line for line in as_revolver)
    assert any(line.startswith("table:") and "poker wins" in line for line in as_revolver)


PLACES = [(name, place) for name, view in (("base", seat_view()), ("poker", POKER_VIEW))
          for place in _places(view)]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PLACES), JSON_VALUES, st.booleans())
def test_a_view_the_model_takes_is_drawn_without_an_error(
        where: tuple[str, tuple[Any, ...]], value: Any, remove: bool) -> None:
    """Any one field of a view replaced by any JSON value (or removed): either the model
    refuses the state, or the terminal's drawing of it raises nothing."""
    name, place = where
    view = copy.deepcopy(POKER_VIEW if name == "poker" else seat_view())
    parent = view
    for step in place[:-1]:
        parent = parent[step]
    if remove:
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    try:
        state = read_answer(TableState, table_state(view=view))
    except AnswerError:
        return
    assert state.view is not None
    assert view_lines(state.view.model_dump(by_alias=True), PlayerWords(project_catalog()))

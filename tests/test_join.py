"""`deckbuilder join LINK`: a seat of a web table for two people played from the terminal
(through a pseudo-terminal, as a person would), against the other seat played through the
table API; and the link's and the server's faults as one line each."""

from __future__ import annotations

import os
import re
import select
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.app.table_client import TableClientError, table_api
from deckbuilder.cli import app as cli_app

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from browser_support import ServerThread  # noqa: E402
from test_play_human import Terminal  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PROMPT = re.compile(r"\[1-(\d+), \? r q\]> $")


@pytest.fixture
def server(tmp_path: Path) -> Any:
    config = WebConfig(deck_folder=tmp_path, tables_folder=tmp_path / "tables")
    thread = ServerThread(create_app(config))
    thread.start()
    try:
        yield thread
    finally:
        thread.stop()


def _more(terminal: Terminal, seconds: float) -> bool:
    """Read what the terminal printed within `seconds`; False once it has closed."""
    ready, _, _ = select.select([terminal.master], [], [], seconds)
    if not ready:
        return True
    try:
        data = os.read(terminal.master, 65536)
    except OSError:
        return False
    terminal.output += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return bool(data)


@pytest.mark.parametrize(("game", "me", "other"), [("revolver", "mcready", "colty"),
                                                   ("revolver2", "esteban", "mapache")])
def test_a_whole_game_from_the_terminal_by_the_link(server: Any, game: str, me: str,
                                                     other: str) -> None:
    made = httpx.post(server.url + "/api/tables",
                      json={"game": game, "seat": other, "max_turns": 16}).json()
    their_api = made["api"][other]
    httpx.post(their_api + "/join", json={})
    terminal = Terminal("join", made["links"][me])
    deadline = time.time() + 120
    answered = 0
    while time.time() < deadline:
        theirs = httpx.get(their_api).json()
        if theirs["your_turn"] and not theirs["over"]:
            httpx.post(their_api + "/act", json={"step": theirs["step"],
                                                 "action": theirs["choices"][0]["action"]})
        if not _more(terminal, 0.05):
            break
        prompt = PROMPT.search(terminal.output[terminal.seen:])
        if prompt:
            terminal.seen += prompt.end()
            answered += 1
            terminal.type(f"{1 + answered % int(prompt.group(1))}\n")
    assert terminal.finish() == 0, terminal.output[-3000:]
    out = terminal.output
    assert answered > 3
    assert f"you are {me}" in out and "your decision:" in out and "waiting for" in out
    assert "result: " in out and "Traceback" not in out
    # the other seat's draws reach this seat only as counts
    assert not re.search(rf"^\s+{other} draws (?!\d+ cards?$)", out, re.MULTILINE)
    assert httpx.get(their_api).json()["over"]


@pytest.mark.parametrize("link", ["http://127.0.0.1:8765/decks/abc", "ftp://x/friends/abc",
                                  "not a link", "http://h/friends/a b"])
def test_a_link_that_is_no_table_link_is_refused(link: str) -> None:
    with pytest.raises(TableClientError, match="is not a table link"):
        table_api(link)


def test_an_unreachable_or_unknown_table_is_one_line(server: Any) -> None:
    runner = CliRunner()
    for link, words in ((server.url + "/friends/no-such-token", "no table"),
                        ("http://127.0.0.1:9/friends/abc", "cannot reach the table")):
        result = runner.invoke(cli_app, ["join", link])
        assert result.exit_code == 2, result.output
        assert words in result.stderr and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_two_people_in_two_terminals_and_the_replay_of_their_game(server: Any,
                                                                  game: str) -> None:
    """A whole game between two people, each in a terminal of his own, through the links of
    a web table; then the replay viewer steps through that game from the table's link."""
    made = httpx.post(server.url + "/api/tables",
                      json={"game": game, "max_turns": 12}).json()
    sides = [side for side in made["links"] if side != "spectator"]
    terminals = {side: Terminal("join", made["links"][side]) for side in sides}
    answered = dict.fromkeys(sides, 0)
    open_terminals = set(sides)
    deadline = time.time() + 150
    while open_terminals and time.time() < deadline:
        for side in sorted(open_terminals):
            terminal = terminals[side]
            if not _more(terminal, 0.05):
                open_terminals.discard(side)
                continue
            prompt = PROMPT.search(terminal.output[terminal.seen:])
            if prompt:
                terminal.seen += prompt.end()
                answered[side] += 1
                terminal.type(f"{1 + answered[side] % int(prompt.group(1))}\n")
    for side, terminal in terminals.items():
        assert terminal.finish() == 0, terminal.output[-2000:]
        other = sides[1 - sides.index(side)]
        assert f"you are {side}" in terminal.output and "result: " in terminal.output
        assert not re.search(rf"^\s+{other} draws (?!\d+ cards?$)", terminal.output,
                             re.MULTILINE)
    assert all(count > 2 for count in answered.values())
    # the finished table's replay, opened by a seat's link, steps to the end
    token = made["tokens"][sides[0]]
    opened = httpx.get(f"{server.url}/replays/friends/{token}",
                       headers={"Accept": "application/json"})
    assert opened.status_code == 200, opened.text
    replay = opened.json()["replay"]
    record = httpx.get(f"{made['api'][sides[0]]}/record.jsonl").text
    steps = len(record.strip().splitlines()) - 2  # a header, the steps, a footer
    last = httpx.get(f"{server.url}/api/replays/{replay}/step",
                     params={"step": steps, "viewer": "everything"})
    assert last.status_code == 200, last.text
    assert last.json()["step"] == steps

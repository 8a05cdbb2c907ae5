"""`deckbuilder join LINK`: a seat of a web table for two people played from the terminal
(through a pseudo-terminal, as a person would), against the other seat played through the
table API; the link's and the server's faults as one line each; and, against a fake server
(test_join_hostile.FakeTable), the seat protocol: an invitation exchanged for the seat's own
link, a taken seat, the client's name on every request, the deal's commitment checked at the
end, notices, and a wait for the other seat left at once by `q` or Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.app.table_client import TableClientError, table_api
from deckbuilder.cli import app as cli_app
from deckbuilder.commands.choice_prompt import GIVE_UP_QUESTION

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

#: The test's own requests wait up to 30 s (httpx's default is 5): on a loaded CI machine the
#: server answers late but does answer; a frozen server still fails the test.
HTTP = httpx.Client(timeout=30)

import test_join_hostile  # noqa: E402
from browser_support import ServerThread  # noqa: E402
from test_join_hostile import (  # noqa: E402
    COMMITMENT,
    MOVED,
    answer,
    assert_one_line_naming,
    ended_state,
    hang,
    run_join,
    table_state,
    waiting_state,
)
from test_play_human import Terminal  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PROMPT = re.compile(r"\[1-(\d+), \? r q\]> $")
#: Asked once more before a choice that gives up one's own card: the drivers say yes.
GIVE_UP = re.compile(re.escape(GIVE_UP_QUESTION) + r"$")


@pytest.fixture
def server(tmp_path: Path) -> Any:
    config = WebConfig(deck_folder=tmp_path, tables_folder=tmp_path / "tables")
    thread = ServerThread(create_app(config))
    thread.start()
    try:
        yield thread
    finally:
        thread.stop()


def _confirm_giving_up(terminal: Terminal) -> bool:
    """Say yes when the seat is asked once more before giving up one of its own cards."""
    giving_up = GIVE_UP.search(terminal.output[terminal.seen:])
    if giving_up is None:
        return False
    terminal.seen += giving_up.end()
    terminal.type("y\n")
    return True


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
    made = HTTP.post(server.url + "/api/tables",
                      json={"game": game, "seat": other, "max_turns": 16}).json()
    their_api = made["api"][other]
    HTTP.post(their_api + "/join", json={})
    terminal = Terminal("join", made["links"][me])
    deadline = time.time() + 120
    answered = 0
    while time.time() < deadline:
        theirs = HTTP.get(their_api).json()
        if theirs["your_turn"] and not theirs["over"]:
            HTTP.post(their_api + "/act", json={"step": theirs["step"],
                                                 "action": theirs["choices"][0]["action"]})
        if not _more(terminal, 0.05):
            break
        if _confirm_giving_up(terminal):
            continue
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
    assert HTTP.get(their_api).json()["over"]


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


def test_an_invitation_taken_from_the_terminal_is_spent(server: Any) -> None:
    """The first join takes the seat and prints its own link (q leaves the wait for the
    other seat); the invitation again is one line offering to watch; the seat's own link
    brings the seat back."""
    made = HTTP.post(server.url + "/api/tables", json={"game": "revolver", "seat": "colty"})
    invitation = made.json()["links"]["mcready"]
    first = run_join(invitation, typed="q\n")
    assert first.exit_code == 130, first.output
    resume = re.search(r"to continue elsewhere: deckbuilder join (\S+);", first.stdout)
    assert resume and resume.group(1) != invitation and "waiting for colty" in first.stdout
    again = run_join(invitation)
    assert_one_line_naming(again, server.url, "taken", f"deckbuilder join {server.url}/friends/")
    back = run_join(resume.group(1), typed="q\n")
    assert back.exit_code == 130 and "to continue elsewhere" not in back.stdout
    assert "you play mcready" in back.stdout


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_two_people_in_two_terminals_and_the_replay_of_their_game(server: Any,
                                                                  game: str) -> None:
    """A whole game between two people, each in a terminal of his own, through the links of
    a web table; then the replay viewer steps through that game from the table's link."""
    made = HTTP.post(server.url + "/api/tables",
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
            if _confirm_giving_up(terminal):
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
    opened = HTTP.get(f"{server.url}/replays/friends/{token}",
                       headers={"Accept": "application/json"})
    assert opened.status_code == 200, opened.text
    replay = opened.json()["replay"]
    record = HTTP.get(f"{made['api'][sides[0]]}/record.jsonl").text
    steps = len(record.strip().splitlines()) - 2  # a header, the steps, a footer
    last = HTTP.get(f"{server.url}/api/replays/{replay}/step",
                     params={"step": steps, "viewer": "everything"})
    assert last.status_code == 200, last.text
    assert last.json()["step"] == steps


# -- the seat protocol, against a fake server -----------------------------------------------
fake_table = test_join_hostile.fake_table
CLIENT = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def test_an_invitation_is_exchanged_for_the_seats_own_link(fake_table: Any) -> None:
    """The join answers the seat's own token: every later call uses it, the link that
    brings the seat back is printed once, and every request names this client alike."""
    notice = "mcready's seat was played from a new place"
    fake = fake_table({
        "POST /api/tables/INV/join": answer(waiting_state(
            seat_token="SEAT-1", seat_url="http://127.0.0.1:1/friends/SEAT-1",
            seat_api="http://127.0.0.1:1/api/tables/SEAT-1", notices=[notice])),
        "GET /api/tables/SEAT-1/events": MOVED,
        "GET /api/tables/SEAT-1": answer(ended_state(
            seed=7, seed_salt="00", notices=[notice], log=[], log_start=1, log_next=1)),
    })
    result = run_join(fake.link())
    assert result.exit_code == 0, result.output
    out = result.stdout
    resume = (f"to continue elsewhere: deckbuilder join {fake.url}/friends/SEAT-1; "
              "keep it secret")
    assert out.count(resume) == 1
    assert (f"the deal's commitment: {COMMITMENT}; check it after the game with deckbuilder "
            f"replay RECORD --check-deal {COMMITMENT}") in out
    assert out.count(f"notice: {notice}") == 1
    assert "result: the McReady gang wins" in out
    assert "seed 7, which matches the commitment" in out
    assert f"{fake.url}/api/tables/t1/record.jsonl" in out
    paths = [path for _, path, _ in fake.requests]
    assert paths[0] == "/api/tables/INV/join" and len(paths) == 3
    assert all(path.startswith("/api/tables/SEAT-1") for path in paths[1:]), paths
    clients = {headers.get("X-Deckbuilder-Client") for _, _, headers in fake.requests}
    assert len(clients) == 1 and CLIENT.match(str(clients.pop()))


def test_joining_by_the_seats_own_link_names_no_other_link(fake_table: Any) -> None:
    fake = fake_table({"POST /api/tables/SEAT-1/join": answer(ended_state())})
    result = run_join(fake.link("SEAT-1"))
    assert result.exit_code == 0, result.output
    assert "to continue elsewhere" not in result.stdout


def test_a_taken_seat_is_one_line_that_offers_to_watch(fake_table: Any) -> None:
    fake = fake_table({})
    watch = f"{fake.url}/friends/SPECTATOR-1"
    fake.replies["POST /api/tables/INV/join"] = [answer(
        {"error": "this seat is taken: its invitation was used", "watch": watch}, 409)]
    assert_one_line_naming(run_join(fake.link()), fake.url, "this seat is taken",
                           f"deckbuilder join {watch}")


def test_a_spectators_link_watches_the_log_to_the_end(fake_table: Any) -> None:
    """A spectator's view (hand sizes, no hand) is never drawn, so never read: the log is."""
    public = {"players": ["colty", "mcready"], "player": None, "hand_sizes": {"colty": 5}}
    fake = fake_table({
        "POST /api/tables/SPEC/join": answer(waiting_state(seat=None, view=public)),
        "GET /api/tables/SPEC/events": MOVED,
        "GET /api/tables/SPEC": answer(ended_state(seat=None, view=public, log_start=1,
                                                   log_next=2, log=[{
                                                       "index": 0, "player": "colty",
                                                       "action": "pass", "lines": [],
                                                       "turn": 1}]))})
    result = run_join(fake.link("SPEC"))
    assert result.exit_code == 0, result.output
    assert "you watch the game" in result.stdout and "colty    pass" in result.stdout
    assert "you play" not in result.stdout


def test_a_seed_that_breaks_the_commitment_is_told_and_fails(fake_table: Any) -> None:
    fake = fake_table({"POST /api/tables/INV/join": answer(
        ended_state(seed=8, seed_salt="00"))})
    result = run_join(fake.link())
    assert result.exit_code == 1, result.output
    assert "does not match the commitment shown at the start" in result.stdout


def test_an_action_is_sent_for_its_step_and_q_at_the_prompt_leaves(fake_table: Any) -> None:
    fake = fake_table({"POST /api/tables/INV/join": answer(table_state()),
                       "POST /api/tables/INV/act": answer(ended_state())})
    result = run_join(fake.link(), typed="2\n")
    assert result.exit_code == 0, result.output
    assert "2. [cowboy] play Cowboy - cost 1" in result.stdout
    assert "Yellow Boy Rifle" in result.stdout
    assert json.loads(fake.bodies[-1]) == {"step": 3, "action": 17}
    left = run_join(fake_table({"POST /api/tables/INV/join": answer(table_state())}).link(),
                    typed="q\n")
    assert left.exit_code == 130 and "you left the table" in left.stdout


def _join_process(link: str) -> subprocess.Popen[bytes]:
    """`deckbuilder join LINK` in a process of its own, with Ctrl-C (SIGINT) as a terminal
    gives it: a test run before this one in the same worker may leave SIGINT ignored or
    blocked there, and a child inherits both; PYTHONFAULTHANDLER: a SIGABRT makes it print
    every thread's stack (`_ended`)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        return subprocess.Popen([sys.executable, "-m", "deckbuilder", "join", link],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        signal.signal(signal.SIGINT, previous)


def _ended(process: subprocess.Popen[bytes], seconds: float) -> tuple[bytes, bytes]:
    """What the process printed once it ended within `seconds`; if it did not, the failure
    holds where each of its threads stood (faulthandler's dump on SIGABRT)."""
    try:
        return process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        out, err = process.communicate(timeout=30)
        raise AssertionError(f"still running after {seconds} s; its threads:\n"
                             f"{err.decode(errors='replace')[-8000:]}\n"
                             f"it printed: {out.decode(errors='replace')[-2000:]}") from None


def _read_until(process: subprocess.Popen[bytes], words: str, seconds: float = 60) -> str:
    """What the process printed, up to `words`."""
    assert process.stdout is not None
    seen = b""
    deadline = time.time() + seconds
    while words.encode() not in seen:
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.time()))
        assert ready, f"no {words!r} within {seconds}s; so far: {seen.decode()[-2000:]}"
        data = os.read(process.stdout.fileno(), 65536)
        assert data, f"the process ended before {words!r}: {seen.decode()[-2000:]}"
        seen += data
    return seen.decode()


@pytest.mark.parametrize("leave", ["q", "ctrl-c"])
def test_a_wait_for_the_other_seat_is_left_at_once(fake_table: Any, leave: str) -> None:
    """The server never answers the wait: `q` (after a line that is not `q`) or Ctrl-C
    leaves at once, exit 130, no traceback."""
    fake = fake_table({"POST /api/tables/INV/join": answer(waiting_state()),
                       "GET /api/tables/INV/events": hang})
    process = _join_process(fake.link())
    try:
        _read_until(process, "waiting for colty")
        assert process.stdin is not None
        if leave == "q":
            process.stdin.write(b"1\n")
            process.stdin.flush()
            _read_until(process, "q to leave")
            process.stdin.write(b"q\n")
            process.stdin.flush()
        else:
            time.sleep(0.3)
            process.send_signal(signal.SIGINT)
        started = time.time()
        out, err = _ended(process, 30)
        assert time.time() - started < 10  # at once (a loaded CI machine takes a second or two)
    finally:
        process.kill()
    assert process.returncode == 130, (out, err)
    assert b"Traceback" not in out + err, err.decode()
    assert b"you left the table" in out

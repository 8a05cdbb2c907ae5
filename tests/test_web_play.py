"""The simulator page and the game table through the app (no browser): the same numbers as
`deckbuilder simulate --json` for the same seed, progress by Server-Sent Events, games that
stop when the page goes away, a game played to its end whose record replays, no hidden card
in anything sent to the person at the table, and one-line errors for bad input."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from typer.testing import CliRunner

from deckbuilder import packaged_deck
from deckbuilder.cli import app as cli_app

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from browser_support import ServerThread  # noqa: E402

from deckbuilder.web import simulation_jobs, simulator, table  # noqa: E402
from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()


@pytest.fixture
def client(deck_folder: Path) -> TestClient:
    return TestClient(create_app(WebConfig(deck_folder=deck_folder)), base_url="http://localhost")


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(cli_app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def cli_error(*args: str) -> str:
    result = runner.invoke(cli_app, list(args))
    assert result.exit_code == 2, result.output
    return str(result.stderr.strip().removeprefix("error: "))


def sse_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) of a Server-Sent Events body, comments and `retry:` left out."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if ": " in line and not line.startswith(":"))
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


def run_simulation(client: TestClient, **form: str) -> tuple[str, list[tuple[str, Any]]]:
    started = client.post("/api/simulate", data=form)
    assert started.status_code == 200, started.text
    job = started.json()["job"]
    with client.stream("GET", started.json()["events"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        body = "".join(stream.iter_text())
    return job, sse_events(body)


def error_of(response: httpx.Response, status: int = 400) -> str:
    assert response.status_code == status, response.text
    line = response.json()["error"]
    assert isinstance(line, str) and line and "\n" not in line and "Traceback" not in line
    return str(line)


# -- the simulator ---------------------------------------------------------------------------
def test_a_simulation_has_the_numbers_of_the_command_line(client: TestClient) -> None:
    job, events = run_simulation(client, deck="base:mcready", games="16", seed="11",
                                 bot="random", opponent_bot="greedy")
    assert events[-1][0] == "done"
    web = client.get(f"/api/simulate/{job}/report.json").json()
    cli = cli_json("simulate", "mcready", "--games", "16", "--seed", "11", "--bot", "random",
                   "--opponent-bot", "greedy")
    assert web == cli
    assert web["deck"]["faction"] == "mcready" and web["games"] == 16
    # the page shows the report's numbers: the deck's wins and its interval
    page = events[-1][1]["html"]
    deck_side = next(side for side in web["sides"] if side["is_deck_under_test"])
    assert f">{deck_side['wins']}<" in page
    assert f"{100 * deck_side['win_rate']['low']:.1f}%" in page
    assert page.count("<svg") >= 4  # win rate, cards, length, endings


def test_a_baseline_comparison_is_the_commands_too(client: TestClient) -> None:
    example = packaged_deck("example-colty-fan-the-gun")
    job, events = run_simulation(client, mode="baseline", deck=f"packaged:{example.stem}",
                                 baseline="base:colty", games="30", seed="2", bot="random",
                                 max_turns="150", precision="0.05")
    web = client.get(f"/api/simulate/{job}/report.json").json()
    cli = cli_json("simulate", str(example), "--baseline", "colty", "--games", "30",
                   "--seed", "2", "--bot", "random", "--max-turns", "150",
                   "--precision", "0.05")
    assert web == cli
    assert web["baseline"]["verdict"] in events[-1][1]["html"]
    assert events[-1][1]["played"] == 60  # both decks on the same 30 seeds


def test_switches_and_modules_and_a_deck_file_reach_the_games(client: TestClient,
                                                              deck_folder: Path) -> None:
    (deck_folder / "mine.yaml").write_text(packaged_deck("mcready-base").read_text())
    job, _ = run_simulation(client, deck="file:mine.yaml", games="12", seed="5",
                            bot="random", switch="true-grit-kill=counts-as-kill",
                            module="saloon-duel", ruleset="rulebook-en-faq")
    web = client.get(f"/api/simulate/{job}/report.json").json()
    cli = cli_json("simulate", str(deck_folder / "mine.yaml"), "--games", "12", "--seed", "5",
                   "--bot", "random", "--switch", "true-grit-kill=counts-as-kill",
                   "--module", "saloon-duel", "--ruleset", "rulebook-en-faq")
    assert web == cli
    assert web["switches"] == {"true-grit-kill": "counts-as-kill"}
    assert web["modules"] == ["saloon-duel"] and web["ruleset"] == "rulebook-en-faq"


def test_progress_arrives_as_the_games_are_played(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulator, "POLL_SECONDS", 0.005)
    _, events = run_simulation(client, deck="base:colty", games="150", seed="3", bot="random")
    progress = [data for kind, data in events if kind == "progress"]
    played = [data["played"] for data in progress]
    assert len(progress) >= 2 and played == sorted(played) and len(set(played)) == len(played)
    middle = [data for data in progress if 0 < data["played"] < 150]
    assert middle, played
    for data in middle:
        rate = data["win_rate"]
        assert rate["low"] <= rate["estimate"] <= rate["high"]
        assert rate["estimate"] == pytest.approx(data["wins"] / data["games"])
    kind, done = events[-1]
    assert kind == "done" and done["played"] == done["total"] == 150


#: The page, in a process of its own (as a browser is: a client in the server's process would
#: share its socket with the pool's forked workers, and hanging up would close nothing).
PAGE_THAT_LEAVES = """
import json, sys, httpx
with httpx.Client(base_url=sys.argv[1], timeout=60) as http:
    started = http.post("/api/simulate", data={"deck": "base:colty", "games": sys.argv[2],
                                               "seed": "1", "bot": "random"}).json()
    print(started["job"], flush=True)
    with http.stream("GET", started["events"]) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:") and json.loads(line[5:]).get("played", 0) > 0:
                break  # the page goes away in the middle of the games
"""


def test_a_simulation_stops_when_the_page_goes_away(deck_folder: Path) -> None:
    """A real server and a real connection: reading a little of the stream and hanging up
    stops the games (on the process pool the command uses from 200 games)."""
    games = simulator.MAX_GAMES  # about a minute of random games on two cores
    app = create_app(WebConfig(deck_folder=deck_folder))
    server = ServerThread(app)
    server.start()
    try:
        page = subprocess.run([sys.executable, "-c", PAGE_THAT_LEAVES, server.url, str(games)],
                              capture_output=True, text=True, timeout=120)
        assert page.returncode == 0, page.stderr
        job = simulation_jobs.jobs_of(app).get(page.stdout.strip())
        assert job is not None
        deadline = time.monotonic() + 30
        while job.state == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert job.state == "cancelled" and job.listeners == 0
        stopped_at = job.progress()["played"]
        assert 0 < stopped_at < games
        time.sleep(0.5)
        assert job.progress()["played"] == stopped_at
        with httpx.Client(base_url=server.url) as http:
            assert http.get(f"/api/simulate/{job.id}/report.json").status_code == 404
    finally:
        server.stop()


def test_a_worker_stops_when_no_page_renews_its_lease() -> None:
    job = simulation_jobs.SimulationJob("x", 10, 0, lambda on_result: {})
    result = type("Result", (), {"winner": 0, "label": "deck"})()
    job.count(result)
    assert job.progress()["wins"] == 1
    job.lease -= simulation_jobs.LEASE_SECONDS + 1
    with pytest.raises(simulation_jobs.SimulationCancelled):
        job.count(result)


def test_a_job_counts_the_deck_and_the_baseline_apart() -> None:
    job = simulation_jobs.SimulationJob("x", 10, 1, lambda on_result: {})
    for label, winner in [("deck", 1), ("deck", 0), ("baseline", 1), ("baseline", 1),
                          ("baseline", 0)]:
        job.count(type("Result", (), {"winner": winner, "label": label})())
    progress = job.progress()
    assert (progress["played"], progress["games"], progress["wins"]) == (5, 2, 1)
    assert progress["baseline_games"] == 3
    assert progress["baseline_win_rate"]["estimate"] == pytest.approx(2 / 3)


def test_stop_before_the_first_game(client: TestClient) -> None:
    started = client.post("/api/simulate", data={"deck": "base:colty", "games": "50"}).json()
    assert client.post(f"/api/simulate/{started['job']}/cancel").json()["state"] == "cancelled"
    with client.stream("GET", started["events"]) as stream:
        events = sse_events("".join(stream.iter_text()))
    assert [kind for kind, _ in events] == ["cancelled"] and events[0][1]["played"] == 0


def test_names_from_deck_files_are_escaped(client: TestClient, deck_folder: Path) -> None:
    text = packaged_deck("colty-base").read_text()
    hostile = "<script>alert(1)</script>"
    text = re.sub(r"^name: .*$", f'name: "{hostile}"', text, count=1, flags=re.M)
    (deck_folder / "hostile.yaml").write_text(text)
    page = client.get("/simulate").text
    assert html.escape(hostile, quote=False) in page and hostile not in page
    _, events = run_simulation(client, deck="file:hostile.yaml", games="5", bot="random")
    report = events[-1][1]["html"]
    assert "&lt;script&gt;" in report and hostile not in report


def test_bad_simulation_input_is_one_line(client: TestClient, deck_folder: Path) -> None:
    def refused(**form: str) -> str:
        return error_of(client.post("/api/simulate", data={"deck": "base:colty", **form}))

    assert "games 0 is out of range" in refused(games="0")
    assert "out of range" in refused(games=str(simulator.MAX_GAMES + 1))
    assert "not a number" in refused(seed="seven")
    assert "unknown bot 'smart'" in refused(bot="smart")
    assert "unknown option 'x'" in refused(bot="greedy:x=1")
    assert "'..'" in refused(deck="file:../../etc/passwd.yaml")
    assert "unknown deck" in refused(deck="/etc/passwd")
    assert "module 'nonsense'" in refused(module="nonsense")
    assert "both decks must be of one game" in refused(vs="base:esteban")
    assert "needs a baseline deck" in refused(mode="baseline")
    # a broken deck file: the command line's own line, file:line:col and all
    broken = deck_folder / "broken.yaml"
    broken.write_text("name: broken\ngame: revolver\nfaction: colty\ncards: [\n")
    assert refused(deck="file:broken.yaml") == cli_error("simulate", str(broken))
    assert error_of(client.get("/api/simulate/nothing/events"), 404)


def test_the_page_offers_what_the_command_offers(client: TestClient,
                                                 deck_folder: Path) -> None:
    (deck_folder / "mine.yaml").write_text(packaged_deck("esteban-base").read_text())
    page = client.get("/simulate").text
    for expected in ('value="base:colty"', 'value="base:mapache"', 'value="file:mine.yaml"',
                     'value="packaged:example-mcready-pinkertons"', 'value="saloon-duel"',
                     'value="poker-tie=guardians"', 'value="rulebook-en-faq"',
                     '<option value="search">'):
        assert expected in page


# -- the game table --------------------------------------------------------------------------
def start_game(client: TestClient, **form: str) -> dict[str, Any]:
    response = client.post("/api/play", data=form, headers={"accept": "application/json"})
    assert response.status_code == 200, response.text
    return dict(response.json())


def actions_of(state: dict[str, Any]) -> list[int]:
    return [int(action) for action in re.findall(r'data-action="(\d+)"', state["actions"])]


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for value in data.values() for text in strings(value)]
    if isinstance(data, list | tuple):
        return [text for value in data for text in strings(value)]
    return []


def hidden_names(app: Any, session_id: str, human: int) -> set[str]:
    """Names of cards in the opponent's hand that nothing the person may see mentions (the
    server's session is asked directly: the test sees both hands, the page must not)."""
    session = table.sessions_of(app).get(session_id).session
    public = "\n".join(strings(session.view(human)) + [
        line for event in session.events(human) for line in event.text_lines()])
    return {card["name"] for card in session.view(1 - human)["hand"]
            if card["name"] not in public}


def assert_hides(texts: list[str], names: set[str]) -> None:
    for name in names:
        for text in texts:
            assert name not in text and html.escape(name) not in text, name


def test_a_game_against_the_bot_to_its_end(client: TestClient, tmp_path: Path) -> None:
    """Every response the person gets leaves the bot's hand out; the game ends, and its
    record replays with `deckbuilder replay`."""
    app = client.app
    started = start_game(client, game="revolver", seat="mcready", bot0="random", seed="8")
    session_id = started["session"]
    page = client.get(started["url"])
    assert page.status_code == 200 and 'data-action="' in page.text
    assert_hides([page.text], hidden_names(app, session_id, 1))
    state = client.get(f"/api/play/{session_id}").json()
    early = client.get(f"/api/play/{session_id}/record.jsonl")
    assert "once the game is over" in error_of(early, 409)
    moves = 0
    kept_secret: set[str] = set()
    while not state["over"]:
        choices = actions_of(state)
        assert choices, state["actions"]
        state = client.post(f"/api/play/{session_id}/act",
                            json={"action": choices[moves % len(choices)]}).json()
        assert "error" not in state, state
        secret = hidden_names(app, session_id, 1)
        assert_hides([state["board"], state["actions"], "\n".join(state["log"])], secret)
        kept_secret |= secret
        assert not any(re.match(r"\s*colty draws (?!\d+ cards?$)", line) for line in state["log"])
        moves += 1
    assert moves > 5 and "after" in state["outcome"]
    assert len(kept_secret) >= 3  # the check had secrets to keep
    assert 'id="download-record"' in state["actions"]
    record = client.get(state["record"])
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    path = tmp_path / "game.jsonl"
    path.write_text(record.text)
    replayed = runner.invoke(cli_app, ["replay", str(path), "--quiet"])
    assert replayed.exit_code == 0, replayed.output
    assert "the same game" in replayed.stdout
    header = json.loads(record.text.splitlines()[0])
    assert header["bots"] == {"colty": "random", "mcready": "human"} and header["seed"] == 8
    finished = client.post(f"/api/play/{session_id}/act", json={"action": 0})
    assert "the game is over" in error_of(finished)


def test_watching_two_bots_is_the_game_play_plays(client: TestClient, tmp_path: Path) -> None:
    started = start_game(client, game="revolver2", seat="watch", bot0="random",
                         bot1="random", seed="6")
    session_id = started["session"]
    first = client.post(f"/api/play/{session_id}/step", data={"steps": "1"}).json()
    assert len([line for line in first["log"] if re.match(r"\s+0 ", line)]) == 1
    assert 'id="watch-auto"' in first["actions"]
    state = first
    while not state["over"]:
        state = client.post(f"/api/play/{session_id}/step", data={"steps": "50"}).json()
    record = client.get(state["record"]).text
    path = tmp_path / "cli.jsonl"
    played = runner.invoke(cli_app, ["play", "--game", "revolver2", "--bots", "random,random",
                                     "--seed", "6", "--quiet", "--record", str(path)])
    assert played.exit_code == 0, played.output
    assert record.splitlines()[1:] == path.read_text().splitlines()[1:]
    refused = client.post(f"/api/play/{session_id}/act", json={"action": 0})
    assert "two bots play" in error_of(refused)


def test_bad_table_input_is_one_line(client: TestClient) -> None:
    def refused(**form: str) -> str:
        return error_of(client.post("/api/play", data={"game": "revolver", **form},
                                    headers={"accept": "application/json"}))

    assert "unknown game" in refused(game="chess")
    assert "unknown seat" in refused(seat="esteban")
    assert "unknown bot" in refused(seat="colty", bot1="smart")
    assert "must be" in refused(seat="colty", deck0="base:mcready")
    assert "'..'" in refused(seat="colty", deck1="file:../x.yaml")
    started = start_game(client, seat="colty", bot1="random", seed="1")
    act = f"/api/play/{started['session']}/act"
    assert "not a number" in error_of(client.post(act, json={"action": "two"}))
    assert "is not legal now" in error_of(client.post(act, json={"action": 99999}))
    assert "not JSON" in error_of(client.post(act, content=b"{",
                                              headers={"content-type": "application/json"}))
    step = f"/api/play/{started['session']}/step"
    assert "you play this game" in error_of(client.post(step, data={"steps": "1"}))
    assert "no game with that id" in error_of(client.get("/api/play/nope"), 404)
    missing = client.get("/play/nope", headers={"accept": "text/html"})
    assert missing.status_code == 404 and "no game with that id" in missing.text


def test_sessions_are_bounded_and_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "MAX_SESSIONS", 3)
    sessions = table.sessions_of(Starlette())
    def add(seed: int) -> table.TableSession:
        return sessions.put(table.TableSession(str(seed), object(), 0, "game", seed, object()))

    added = [add(seed) for seed in range(3)]
    sessions.get(added[0].id)  # used: the least recently used is now the second
    add(3)
    assert len(sessions) == 3 and sessions.get(added[1].id) is None
    assert sessions.get(added[0].id) is not None
    added[0].last_used -= table.IDLE_SECONDS + 1
    assert sessions.get(added[0].id) is None

"""Friend tables through the app (no browser): two seats play whole games of both games by
the JSON API, each seeing only its own hand; a spectator sees no hand; the faults of a
network game (a second click, an old view, the wrong seat, a client gone mid-turn) are each
one line and leave the game as it was; tables come back after a restart, end by a
resignation or when both seats have left; the links' tokens never reach the disk, nor the
seed while the table is open. (The seat links themselves: test_web_friends_seats.py.)"""

from __future__ import annotations

import html
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app
from deckbuilder.sim.records.transcript import read_record

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from browser_support import ServerThread  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402
from deckbuilder.web.friends import store_of  # noqa: E402
from deckbuilder.web.friends import tables as friend_tables  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()


def new_client(deck_folder: Path, **settings: Any) -> TestClient:
    config = WebConfig(deck_folder=deck_folder)
    for name, value in settings.items():
        setattr(config, name, value)
    return TestClient(create_app(config), base_url="http://localhost")


@pytest.fixture
def client(deck_folder: Path) -> TestClient:
    return new_client(deck_folder)


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    made = client.post("/api/tables", json={"game": "revolver", "seat": "colty", **fields})
    assert made.status_code == 201, made.text
    return dict(made.json())


def seats_of(client: TestClient, made: dict[str, Any]) -> dict[str, str]:
    """The table's tokens by role once the friend has taken his seat: the invitation
    exchanged (`POST .../join`) for the seat's own secret."""
    friend = made["invitation"]
    taken = client.post(f"/api/tables/{made['tokens'][friend]}/join")
    assert taken.status_code == 200, taken.text
    return {**made["tokens"], friend: taken.json()["seat_token"]}


def state_of(client: TestClient, token: str, since: int = 0) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{token}?since={since}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    line = response.json()["error"]
    assert isinstance(line, str) and line and "\n" not in line and "Traceback" not in line
    return str(line)


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for value in data.values() for text in strings(value)]
    if isinstance(data, list | tuple):
        return [text for value in data for text in strings(value)]
    return []


def session_of(client: TestClient, token: str) -> Any:
    table, _ = store_of(client.app).find(token)
    return table.session


def hidden_from(session: Any, seat: int) -> set[str]:
    """Names of cards in the other seat's hand that nothing `seat` may see mentions (the
    test asks the server's game directly: it sees both hands, the seat must not)."""
    public = "\n".join(strings(session.view(seat)) + [
        line for event in session.events(seat) for line in event.text_lines()])
    return {card["name"] for card in session.view(1 - seat)["hand"]
            if card["name"] not in public}


def assert_hides(state: dict[str, Any], names: set[str]) -> None:
    text = json.dumps(state, ensure_ascii=False)
    for name in names:
        assert name not in text and html.escape(name) not in text, name


def play_out(client: TestClient, tokens: dict[str, str], pick: int = 0,
             most: int = 600) -> tuple[dict[str, Any], int, set[str]]:
    """Both seats play by the API until the end, each acting on its own state (`tokens`:
    `seats_of`); every state each seat (and the spectator) gets is checked for the other
    seat's hand."""
    sides = [side for side in tokens if side != "spectator"]
    session = session_of(client, tokens[sides[0]])
    kept_secret: set[str] = set()
    moves = 0
    while True:
        states = {side: state_of(client, tokens[side]) for side in sides}
        for player, side in enumerate(sides):
            secret = hidden_from(session, player)
            assert_hides(states[side], secret)
            kept_secret |= secret
        spectator = state_of(client, tokens["spectator"])
        assert spectator["view"]["hand"] == [] and spectator["choices"] == []
        assert_hides(spectator, {card["name"] for player in (0, 1)
                                 for card in session.view(player)["hand"]
                                 } - _public_names(session))
        if states[sides[0]]["over"]:
            return states[sides[0]], moves, kept_secret
        mover = states[sides[0]]["to_move"]
        mine = states[mover]
        assert mine["your_turn"] and not states[sides[1 - sides.index(mover)]]["your_turn"]
        choices = mine["choices"]
        choice = choices[(moves * pick) % len(choices)]
        answer = client.post(f"/api/tables/{tokens[mover]}/act",
                             json={"step": mine["step"], "action": choice["action"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["step"] == mine["step"] + 1
        moves += 1
        assert moves < most, "the game did not end"


def _public_names(session: Any) -> set[str]:
    """Card names both seats are shown anyway (played, discarded ...): not secrets."""
    texts = [set("\n".join(strings(session.view(seat)) + [
        line for event in session.events(seat) for line in event.text_lines()]).split("\n"))
        for seat in (0, 1)]
    shown = "\n".join(texts[0] & texts[1])
    return {card["name"] for player in (0, 1) for card in session.view(player)["hand"]
            if card["name"] in shown}


# -- making a table --------------------------------------------------------------------------
def test_a_table_gives_three_links_and_writes_only_their_hashes(client: TestClient,
                                                                user_home: Path) -> None:
    made = create(client, decks={"mcready": "base:mcready"})
    assert set(made["links"]) == {"colty", "mcready", "spectator"}
    assert made["invitation"] == "mcready"
    tokens = seats_of(client, made)
    assert len(set(tokens.values())) == 3 and all(len(token) >= 22 for token in tokens.values())
    assert made["links"]["mcready"] == f"http://localhost/friends/{made['tokens']['mcready']}"
    assert made["url"] == f"/friends/{tokens['colty']}"
    files = list((user_home / "tables").glob("*.jsonl"))
    assert len(files) == 1
    written = files[0].read_text()
    assert all(token not in written for token in [*tokens.values(), *made["tokens"].values()])
    header = json.loads(written.splitlines()[0])
    assert set(header["tokens"]) == {"colty", "spectator"}
    assert set(header["invitations"]) == {"mcready"}
    assert header["game"]["bots"] == {"colty": "human", "mcready": "human"}
    # the seed deals the game: neither the file nor any seat tells it while the table is open
    seed = session_of(client, tokens["colty"]).record.seed
    assert "seed" not in header["game"] and str(seed) not in written
    state = state_of(client, tokens["mcready"])
    assert "seed" not in state and str(seed) not in json.dumps(state)
    assert state["commitment"] == header["deal"]["commitment"] == made["commitment"]


def test_the_form_without_the_script_lands_on_the_creators_seat(client: TestClient) -> None:
    answer = client.post("/api/tables", data={"game": "revolver2", "seat": "esteban"},
                         follow_redirects=False)
    assert answer.status_code == 303
    page = client.get(answer.headers["location"])
    assert page.status_code == 200
    assert "Invite your friend" in page.text and 'data-role="mapache"' in page.text
    assert "--allow-host NAME" in page.text  # what it takes to let a friend on the network in
    new_page = client.get("/friends")
    assert new_page.status_code == 200 and 'id="friend-form"' in new_page.text


def test_only_the_creators_page_shows_the_invitation(client: TestClient) -> None:
    made = create(client)
    invitation = made["tokens"]["mcready"]
    creator = client.get(f"/friends/{made['token']}").text
    assert invitation in creator and made["tokens"]["spectator"] in creator
    tokens = seats_of(client, made)
    friend = client.get(f"/friends/{tokens['mcready']}").text
    assert tokens["colty"] not in friend and invitation not in friend
    assert tokens["mcready"] in friend  # its own resume link, with its words
    assert "keep it secret" in friend and "keep it secret" in creator
    # once taken, the creator's page no longer invites anyone
    creator = client.get(f"/friends/{tokens['colty']}").text
    assert "Invite your friend" not in creator and invitation not in creator
    spectator = client.get(f"/friends/{tokens['spectator']}").text
    assert tokens["colty"] not in spectator and "you are watching" in spectator


def test_bad_set_ups_are_one_line(client: TestClient) -> None:
    assert "unknown game" in error_of(client.post("/api/tables", json={"game": "chess"}), 400)
    assert "unknown seat" in error_of(client.post("/api/tables", json={"seat": "esteban"}),
                                      400)
    wrong_side = client.post("/api/tables", json={"decks": {"colty": "base:mcready"}})
    assert "colty deck" in error_of(wrong_side, 400)
    illegal = client.post("/api/tables", json={"allow_illegal": True})
    assert "does not allow decks that break" in error_of(illegal, 400)


def test_the_server_may_allow_decks_that_break_the_rules(deck_folder: Path) -> None:
    client = new_client(deck_folder, allow_illegal=True)
    assert "play a deck that breaks" in client.get("/friends").text
    made = client.post("/api/tables", json={"allow_illegal": True})
    assert made.status_code == 201, made.text


# -- whole games -----------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "seat", "modules", "pick"), [
    ("revolver", "mcready", ["saloon-duel"], 1),
    ("revolver2", "esteban", [], 3),
])
def test_two_seats_play_a_whole_game_each_seeing_only_its_hand(
        client: TestClient, tmp_path: Path, game: str, seat: str, modules: list[str],
        pick: int) -> None:
    made = create(client, game=game, seat=seat, modules=modules)
    early = client.get(f"/api/tables/{made['token']}/record.jsonl")
    assert "once the table has ended" in error_of(early, 409)
    final, moves, kept_secret = play_out(client, seats_of(client, made), pick)
    assert moves > 10 and len(kept_secret) >= 3  # the check had secrets to keep
    assert final["over"] and final["ended"]["end"] == "finished"
    assert "after" in final["outcome"]
    record = client.get(final["record"])
    assert record.status_code == 200
    path = tmp_path / "table.jsonl"
    path.write_text(record.text)
    replayed = runner.invoke(cli_app, ["replay", str(path), "--quiet"])
    assert replayed.exit_code == 0, replayed.output
    assert read_record(path).modules == modules


# -- faults ----------------------------------------------------------------------------------
def test_a_second_click_an_old_view_and_the_wrong_seat_are_refused_in_one_line(
        client: TestClient) -> None:
    made = create(client)
    tokens = seats_of(client, made)
    colty, mcready = tokens["colty"], tokens["mcready"]
    state = state_of(client, colty)
    first = state["choices"][-1]["action"]
    # the wrong seat: mcready's link answering colty's decision
    wrong = client.post(f"/api/tables/{mcready}/act", json={"step": 0, "action": first})
    assert "colty's decision: this link plays mcready" in error_of(wrong, 403)
    assert wrong.json()["state"]["step"] == 0
    spectator = client.post(f"/api/tables/{made['tokens']['spectator']}/act",
                            json={"step": 0, "action": first})
    assert "spectator's link cannot act" in error_of(spectator, 403)
    # the click, then the same click again: taken once
    done = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": first}).json()
    assert done["step"] == 1 and done["repeated"] is False
    again = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": first})
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert again.json()["step"] == 1
    assert len(session_of(client, colty).record.steps) == 1
    # an old view: another answer to a step already answered gets the table as it is now
    other = next(choice["action"] for choice in state["choices"] if choice["action"] != first)
    stale = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": other})
    line = error_of(stale, 409)
    assert "step 0 was already answered" in line and "at step 1 now" in line
    assert stale.json()["state"]["step"] == 1
    ahead = client.post(f"/api/tables/{colty}/act", json={"step": 7, "action": first})
    assert "step 7 has not come yet" in error_of(ahead, 409)
    # nothing of it moved the game
    assert len(session_of(client, colty).record.steps) == 1
    assert "names no step" in error_of(client.post(f"/api/tables/{colty}/act",
                                                   json={"action": first}), 400)
    now = state_of(client, colty)
    mover = tokens[now["to_move"]]
    mover_state = state_of(client, mover)
    illegal = client.post(f"/api/tables/{mover}/act",
                          json={"step": mover_state["step"], "action": 99_999})
    assert "not legal now" in error_of(illegal, 400)
    assert "is not a number" in error_of(client.post(
        f"/api/tables/{mover}/act", json={"step": mover_state["step"], "action": "x"}), 400)
    assert "no table has this link" in error_of(
        client.get("/api/tables/AAAAAAAAAAAAAAAAAAAAAAAA"), 404)
    assert "no table has this link" in error_of(client.get("/api/tables/x"), 404)


def test_other_sites_and_host_names_are_refused(client: TestClient) -> None:
    made = create(client)
    colty = made["tokens"]["colty"]
    foreign = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": 0},
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    rebound = client.get(f"/api/tables/{colty}", headers={"Host": "evil.example"})
    assert rebound.status_code == 421
    own = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": 0},
                      headers={"Origin": "http://localhost"})
    assert own.status_code == 200, own.text


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_gone_mid_turn_comes_back_to_the_same_decision(client: TestClient) -> None:
    clock = Clock()
    store_of(client.app).clock = clock
    made = create(client)
    tokens = seats_of(client, made)
    colty, mcready = tokens["colty"], tokens["mcready"]
    # colty's page listens, then its connection drops in the middle of its decision
    with client.stream("GET", f"/api/tables/{colty}/events?max_events=1") as stream:
        body = "".join(stream.iter_text())
    event = json.loads(body.split("data: ", 1)[1].split("\n", 1)[0])
    assert event["your_turn"] and event["step"] == 0
    clock.now += friend_tables.PRESENT_SECONDS + 1
    seen_by_friend = state_of(client, mcready)
    assert seen_by_friend["seats"]["colty"] == {"joined": True, "present": False}
    assert seen_by_friend["to_move"] == "colty"
    back = client.get(f"/friends/{colty}")
    assert back.status_code == 200 and 'data-action="' in back.text
    again = state_of(client, colty)
    assert again["your_turn"] and again["step"] == 0 and again["choices"] == event["choices"]
    assert state_of(client, mcready)["seats"]["colty"]["present"]


def test_a_table_ends_when_both_seats_have_been_away_too_long(deck_folder: Path) -> None:
    client = new_client(deck_folder, table_idle_seconds=600)
    clock = Clock()
    store_of(client.app).clock = clock
    made = create(client)
    tokens = seats_of(client, made)
    colty, mcready = tokens["colty"], tokens["mcready"]
    clock.now += 500
    state_of(client, mcready)  # one seat still comes by: the table stays
    clock.now += 500
    assert not state_of(client, colty)["over"]
    clock.now += 601
    ended = state_of(client, colty)
    assert ended["over"] and ended["ended"]["end"] == "abandoned"
    assert "both players were away" in ended["outcome"]
    late = client.post(f"/api/tables/{colty}/act", json={"step": 0, "action": 0})
    assert "the table has already ended" in error_of(late, 409)


def test_a_resignation_ends_the_table_for_the_other_side(client: TestClient,
                                                         tmp_path: Path) -> None:
    made = create(client, game="revolver2", seat="mapache")
    esteban = seats_of(client, made)["esteban"]
    ended = client.post(f"/api/tables/{esteban}/resign").json()
    assert ended["over"] and ended["ended"]["winner"] == "mapache"
    # worded as `deckbuilder replay` words the table's record: during the poker tournament
    assert ended["outcome"] == "esteban resigned before the first turn: mapache wins"
    seen = state_of(client, made["tokens"]["mapache"])
    assert seen["over"] and seen["outcome"] == ended["outcome"]
    # the board says the same ending as the state: one view of how the table ended
    board = client.get(f"/api/tables/{made['tokens']['mapache']}?html=1").json()["html"]["board"]
    assert "Game over: esteban resigned before the first turn: mapache wins." in board
    assert "already ended" in error_of(client.post(f"/api/tables/{esteban}/resign"), 409)
    assert "cannot resign" in error_of(
        client.post(f"/api/tables/{made['tokens']['spectator']}/resign"), 403)
    record = client.get(ended["record"])
    path = tmp_path / "resigned.jsonl"
    path.write_text(record.text)
    assert read_record(path).termination == "resigned"


# -- a restart -------------------------------------------------------------------------------
def test_a_table_is_back_at_the_same_step_after_a_restart(deck_folder: Path) -> None:
    first = new_client(deck_folder)
    made = create(first, game="revolver2", seat="esteban", decks={"mapache": "base:mapache"})
    # the invitation is made again from the server's key: shown after a restart too
    assert made["tokens"]["mapache"] in new_client(deck_folder).get(made["url"]).text
    tokens = seats_of(first, made)
    for _ in range(7):
        mover = state_of(first, tokens["esteban"])["to_move"]
        mine = state_of(first, tokens[mover])
        first.post(f"/api/tables/{tokens[mover]}/act",
                   json={"step": mine["step"], "action": mine["choices"][-1]["action"]})
    before = {role: state_of(first, token) for role, token in tokens.items()}
    assert before["esteban"]["step"] == 7
    second = new_client(deck_folder)  # a new server on the same data folder
    after = {role: state_of(second, token) for role, token in tokens.items()}
    for role in tokens:
        assert after[role]["view"] == before[role]["view"], role
        assert after[role]["log"] == before[role]["log"], role
        assert after[role]["step"] == 7 and after[role]["choices"] == before[role]["choices"]
        # a page open across the restart keeps hearing: the version never goes back
        assert after[role]["version"] == before[role]["version"], role
    mover = after["esteban"]["to_move"]
    went_on = second.post(f"/api/tables/{tokens[mover]}/act",
                          json={"step": 7, "action": after[mover]["choices"][0]["action"]})
    assert went_on.status_code == 200 and went_on.json()["step"] == 8
    assert went_on.json()["version"] > before[mover]["version"]
    # the invitation is spent: the restarted creator's page does not show it, nor the seat's
    creator = second.get(f"/friends/{tokens['esteban']}").text
    assert made["tokens"]["mapache"] not in creator and tokens["mapache"] not in creator


def _one_step_table(deck_folder: Path, user_home: Path) -> tuple[str, Path, list[str], int]:
    """A table whose first seat acted once: its seat link, its file, the file's lines, the
    action taken (its step is the last line)."""
    first = new_client(deck_folder)
    colty = create(first)["tokens"]["colty"]
    action = state_of(first, colty)["choices"][0]["action"]
    first.post(f"/api/tables/{colty}/act", json={"step": 0, "action": action})
    path = next((user_home / "tables").glob("*.jsonl"))
    return colty, path, path.read_text().splitlines(), action


def test_a_table_file_the_engine_reads_differently_is_one_line(deck_folder: Path,
                                                               user_home: Path) -> None:
    colty, path, lines, _ = _one_step_table(deck_folder, user_home)
    step = json.loads(lines[-1])
    lines[-1] = json.dumps({**step, "text": "something else"})
    path.write_text("\n".join(lines) + "\n")
    (user_home / "tables" / "junk.jsonl").write_text("not a table\n")
    second = new_client(deck_folder)
    assert any("junk.jsonl" in line for line in store_of(second.app).unreadable)
    line = error_of(second.get(f"/api/tables/{colty}"), 400)
    assert "cannot be restored" in line and "something else" in line



def test_a_table_files_step_is_read_as_a_records_is(deck_folder: Path, user_home: Path) -> None:
    """A step line of a table's file is checked as a record's (`add_step`): an action that is
    no number breaks the table in one line naming the file's line."""
    colty, path, lines, action = _one_step_table(deck_folder, user_home)
    lines[-1] = json.dumps({**json.loads(lines[-1]), "action": str(action)})
    path.write_text("\n".join(lines) + "\n")
    line = error_of(new_client(deck_folder).get(f"/api/tables/{colty}"), 400)
    assert "cannot be restored" in line and "'action' has the wrong type (str)" in line
    assert f"{path.name}:{len(lines)}" in line

# -- the event stream ------------------------------------------------------------------------
def test_a_seat_hears_the_other_seat_act(deck_folder: Path, user_home: Path) -> None:
    """Over a real socket: mcready's stream sends its state again when colty acts."""
    server = ServerThread(create_app(WebConfig(deck_folder=deck_folder)))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=20) as http:
            made = http.post("/api/tables", json={"seat": "colty"}).json()
            colty = made["token"]
            mcready = http.post(f"/api/tables/{made['tokens']['mcready']}/join"
                                ).json()["seat_token"]
            seen = http.get(f"/api/tables/{mcready}").json()
            assert seen["step"] == 0 and not seen["your_turn"]
            heard: list[dict[str, Any]] = []
            ready = threading.Event()

            def listen() -> None:  # a long poll: the next state past the one it has
                wait = (f"/api/tables/{mcready}/events?max_events=1"
                        f"&after={seen['version']}&since={seen['log_next']}")
                with http.stream("GET", wait) as stream:
                    ready.set()
                    for line in stream.iter_lines():
                        if line.startswith("data: "):
                            heard.append(json.loads(line[6:]))

            listener = threading.Thread(target=listen)
            listener.start()
            assert ready.wait(20)
            threading.Event().wait(1.0)  # a few of the stream's looks at the table
            assert heard == []  # nothing changed yet: the poll waits
            state = http.get(f"/api/tables/{colty}").json()
            http.post(f"/api/tables/{colty}/act",
                      json={"step": 0, "action": state["choices"][0]["action"]})
            listener.join(timeout=20)
            assert len(heard) == 1
            assert heard[0]["step"] == 1 and heard[0]["log_start"] == seen["log_next"]
            assert heard[0]["log"] and heard[0]["log"][0]["player"] == "colty"
    finally:
        server.stop()


def test_serve_passes_its_table_settings_to_the_app(tmp_path: Path) -> None:
    from deckbuilder.commands.serve import _app

    app = _app(tmp_path, "127.0.0.1", 8765, [], allow_illegal=True, table_idle_seconds=90.0)
    config = app.state.config
    assert config.allow_illegal is True and config.table_idle_seconds == 90.0
    assert _app(tmp_path, "127.0.0.1", 8765, []).state.config.allow_illegal is False


def test_a_move_cut_short_by_a_crash_is_not_played_and_the_table_comes_back(
        deck_folder: Path) -> None:
    """Moves are appended to the table's file; a last line a crash cut short (no newline) is
    dropped when the server reads the folder again, and the table goes on from the step
    before it."""
    client = new_client(deck_folder)
    made = create(client)
    tokens = seats_of(client, made)
    token = tokens["colty"]
    state = client.post(f"/api/tables/{token}/join", json={}).json()
    assert "seat_token" not in state  # a seat's own link: nothing to exchange
    while not state["your_turn"]:
        other = tokens["mcready"]
        theirs = client.get(f"/api/tables/{other}").json()
        state = client.post(f"/api/tables/{other}/act", json={
            "step": theirs["step"], "action": theirs["choices"][0]["action"]}).json()
        state = client.get(f"/api/tables/{token}").json()
    step = state["step"]
    folder = store_of(client.app).folder
    (table_file,) = folder.glob("*.jsonl")
    with table_file.open("a", encoding="utf-8") as stream:
        stream.write('{"i": 999, "player": "colty", "act')  # a crash mid-line
    again = new_client(deck_folder)
    back = again.get(f"/api/tables/{token}").json()
    assert back["step"] == step and back["your_turn"]
    assert table_file.read_text(encoding="utf-8").endswith("\n")
    moved = again.post(f"/api/tables/{token}/act", json={
        "step": step, "action": back["choices"][0]["action"]})
    assert moved.status_code == 200 and moved.json()["step"] == step + 1

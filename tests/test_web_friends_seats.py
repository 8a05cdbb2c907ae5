"""A friend table's seats belong to whoever took them, and its deal can be checked (issue 34,
items 1 and 2), through the app without a browser: the invitation is exchanged once for a
seat secret only the joiner is told, nothing the creator is sent names that secret, a
second opener is sent to watch, a seat played from a new device is told to both seats; the
seed is sealed in the table's file until the end line reveals it, and every state shows its
commitment; tables written before all this (format 1) still load and play."""

from __future__ import annotations

import html
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from deckbuilder.sim.records.seed_commitment import commitment_matches, seed_commitment
from deckbuilder.sim.records.transcript import read_record

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from test_web_friends import create, error_of, new_client, seats_of, state_of  # noqa: E402

from deckbuilder.web.friends import store_of  # noqa: E402
from deckbuilder.web.friends.clients import CLIENT_HEADER  # noqa: E402
from deckbuilder.web.friends.tables import SeatTaken  # noqa: E402
from deckbuilder.web.friends.tokens import token_hash  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(deck_folder: Path) -> TestClient:
    return new_client(deck_folder)


def table_file(user_home: Path) -> Path:
    (path,) = (user_home / "tables").glob("*.jsonl")
    return path


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def act_once(client: TestClient, token: str, device: str | None = None) -> dict[str, Any]:
    """The seat's first choice at its decision (it must be its turn)."""
    state = state_of(client, token)
    assert state["your_turn"], state["to_move"]
    headers = {CLIENT_HEADER: device} if device else {}
    answer = client.post(f"/api/tables/{token}/act", headers=headers,
                         json={"step": state["step"], "action": state["choices"][0]["action"]})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def play_to_friends_turn(client: TestClient, tokens: dict[str, str], friend: str) -> None:
    """The creator acts until the friend is to move."""
    while state_of(client, tokens[friend])["to_move"] != friend:
        creator = next(role for role in tokens if role not in (friend, "spectator"))
        act_once(client, tokens[creator])


# -- a seat is taken once --------------------------------------------------------------------
def test_nothing_the_creator_is_sent_names_the_friends_secret(client: TestClient) -> None:
    """Everything the creator gets (the create answer, his page, his states, his actions'
    answers, his event stream) before and after the friend took the seat: never the seat's
    secret, and the invitation only while it is unspent."""
    made = create(client)
    creator, invitation = made["token"], made["tokens"]["mcready"]
    before = [json.dumps(made), client.get(f"/friends/{creator}").text,
              json.dumps(state_of(client, creator))]
    assert state_of(client, creator)["invitations"] == {"mcready": made["links"]["mcready"]}
    # opening the invitation (a chat app's preview) takes nothing
    page = client.get(f"/friends/{invitation}")
    assert page.status_code == 200 and 'id="take-seat"' in page.text
    assert 'method="post"' in page.text
    assert not state_of(client, creator)["seats"]["mcready"]["joined"]
    taken = client.post(f"/api/tables/{invitation}/join").json()
    secret = taken["seat_token"]
    assert taken["role"] == "mcready" and taken["view"]["hand"]
    assert taken["seat_url"] == f"http://localhost/friends/{secret}"
    assert taken["seat_api"] == f"http://localhost/api/tables/{secret}"
    after = [client.get(f"/friends/{creator}").text, json.dumps(state_of(client, creator))]
    act_once(client, creator)
    after.append(json.dumps(client.post(f"/api/tables/{creator}/join").json()))
    with client.stream("GET", f"/api/tables/{creator}/events?max_events=1") as stream:
        after.append("".join(stream.iter_text()))
    assert all(secret not in text for text in before + after)
    assert all(invitation not in text for text in after)
    assert "invitations" not in state_of(client, creator)
    assert "Invite your friend" not in after[0] and "Invite your friend" in before[1]


def test_a_spent_invitation_sends_the_next_opener_to_watch(client: TestClient) -> None:
    made = create(client)
    invitation, watch = made["tokens"]["mcready"], made["links"]["spectator"]
    seats_of(client, made)
    again = client.post(f"/api/tables/{invitation}/join")
    assert "this seat is taken" in error_of(again, 409)
    assert again.json()["watch"] == watch
    assert "this seat is taken" in error_of(client.get(f"/api/tables/{invitation}"), 409)
    page = client.get(f"/friends/{invitation}")
    assert page.status_code == 409 and "This seat is taken" in page.text
    assert f'href="{watch}"' in page.text and 'id="take-seat"' not in page.text
    button = client.post(f"/friends/{invitation}", follow_redirects=False)
    assert button.status_code == 409 and "This seat is taken" in button.text
    # the spectator's link is shared on purpose: opening it again and again reveals no hand
    for _ in range(2):
        watched = client.get(watch.replace("/friends/", "/api/tables/")).json()
        assert watched["role"] == "spectator" and watched["view"]["hand"] == []


def test_openers_at_the_same_moment_take_the_seat_once(client: TestClient) -> None:
    """Eight takers of one invitation at once (the store's own lock decides): one seat
    secret, seven refusals."""
    made = create(client)
    store = store_of(client.app)
    start = threading.Barrier(8)
    secrets: list[str | None] = []

    def take() -> None:
        start.wait()
        try:
            secrets.append(store.take(made["tokens"]["mcready"])[2])
        except SeatTaken:
            secrets.append(None)

    takers = [threading.Thread(target=take) for _ in range(8)]
    for taker in takers:
        taker.start()
    for taker in takers:
        taker.join()
    assert len(secrets) == 8 and len([secret for secret in secrets if secret]) == 1
    joined = [row for row in rows_of(table_file_of(client)) if row.get("joined") == "mcready"]
    assert len(joined) == 1


def test_the_invitation_never_acts(client: TestClient) -> None:
    """Neither before it is taken nor after: an invitation is no seat's link."""
    made = create(client, seat="mcready")  # colty, the friend's seat, moves first
    invitation = made["tokens"]["colty"]
    early = client.post(f"/api/tables/{invitation}/act", json={"step": 0, "action": 0})
    assert "invitation to play colty: take the seat first" in error_of(early, 409)
    tokens = seats_of(client, made)
    late = client.post(f"/api/tables/{invitation}/act", json={"step": 0, "action": 0})
    assert "this seat is taken" in error_of(late, 409)
    for path in ("/resign", "/record.jsonl", "/events"):
        refused = (client.post if path == "/resign" else client.get)(
            f"/api/tables/{invitation}{path}")
        assert "this seat is taken" in error_of(refused, 409), path
    assert state_of(client, tokens["colty"])["step"] == 0


def test_the_invitation_page_takes_the_seat_by_its_button(client: TestClient) -> None:
    made = create(client, game="revolver2", seat="esteban")
    invitation = made["tokens"]["mapache"]
    taken = client.post(f"/friends/{invitation}", follow_redirects=False)
    assert taken.status_code == 303
    seat_page = taken.headers["location"]
    secret = seat_page.rsplit("/", 1)[1]
    assert seat_page == f"/friends/{secret}" and secret != invitation
    assert token_hash(secret) in (table_file_of(client).read_text())
    page = client.get(seat_page)
    assert "you play <strong>mapache</strong>" in page.text
    assert f'value="http://localhost/friends/{secret}"' in page.text  # the resume link
    # the seat's own link pressed again (a reload of the button's answer) stays at the seat
    again = client.post(seat_page, follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == seat_page


def table_file_of(client: TestClient) -> Path:
    (path,) = store_of(client.app).folder.glob("*.jsonl")
    return path


def test_a_seat_played_from_a_new_device_is_told_to_both_seats(client: TestClient,
                                                               user_home: Path) -> None:
    made = create(client)
    phone, laptop, stranger = "phone-of-mcready-01", "laptop-of-mcready-02", "someone-else-003"
    friend = client.post(f"/api/tables/{made['tokens']['mcready']}/join",
                         headers={CLIENT_HEADER: phone}).json()
    tokens = {**made["tokens"], "mcready": friend["seat_token"]}
    play_to_friends_turn(client, tokens, "mcready")
    quiet = act_once(client, tokens["mcready"], phone)  # the device that took the seat
    assert quiet["notices"] == []
    play_to_friends_turn(client, tokens, "mcready")
    told = act_once(client, tokens["mcready"], laptop)  # the friend's second device
    (notice,) = told["notices"]
    assert "mcready acted from a device or browser that had not played this seat" in notice
    assert f"step {told['step'] - 1}" in notice
    assert state_of(client, tokens["colty"])["notices"] == [notice]
    play_to_friends_turn(client, tokens, "mcready")
    assert act_once(client, tokens["mcready"], laptop)["notices"] == [notice]  # known now
    play_to_friends_turn(client, tokens, "mcready")
    assert len(act_once(client, tokens["mcready"], stranger)["notices"]) == 2
    rows = rows_of(table_file(user_home))
    assert next(row["notice"] for row in rows if "notice" in row) == notice
    assert phone not in table_file(user_home).read_text()  # clients kept as hashes
    # the pages show them, and a restarted server still knows them
    assert notice in html.unescape(client.get(f"/friends/{tokens['colty']}").text)
    assert len(state_of(new_client(client.app.state.config.deck_folder),
                        tokens["colty"])["notices"]) == 2


def test_a_browser_is_given_a_client_cookie_it_keeps(client: TestClient) -> None:
    made = create(client)
    client.cookies.clear()  # a browser that did not make the table
    first = client.get(f"/friends/{made['token']}")
    cookie = first.cookies.get("deckbuilder_client")
    assert cookie and "httponly" in first.headers["set-cookie"].lower()
    assert "deckbuilder_client" not in client.get(f"/friends/{made['token']}").headers.get(
        "set-cookie", "")


# -- the deal --------------------------------------------------------------------------------
def test_the_seed_is_sealed_while_open_and_revealed_at_the_end(client: TestClient,
                                                               user_home: Path,
                                                               tmp_path: Path) -> None:
    made = create(client, game="revolver2", seat="mapache")
    tokens = seats_of(client, made)
    seed = store_of(client.app).find(tokens["mapache"])[0].session.record.seed
    path = table_file(user_home)
    header = rows_of(path)[0]
    assert str(seed) not in path.read_text() and "seed" not in header["game"]
    commitment, salt = header["deal"]["commitment"], header["deal"]["salt"]
    assert commitment == seed_commitment(seed, salt) == made["commitment"]
    for role in tokens:
        state = state_of(client, tokens[role])
        assert state["commitment"] == commitment and "seed" not in state
    # the key lies beside the tables folder, readable by its owner only
    key = user_home / "tables.key"
    assert key.is_file() and stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert not list((user_home / "tables").glob("*.key"))
    ended = client.post(f"/api/tables/{tokens['esteban']}/resign").json()
    assert ended["seed"] == seed and ended["seed_salt"] == salt
    assert commitment_matches(ended["seed"], ended["seed_salt"], ended["commitment"])
    end_row = rows_of(path)[-1]
    assert end_row["end"] == "resigned" and end_row["seed"] == seed
    assert end_row["seed_salt"] == salt
    record = tmp_path / "table.jsonl"
    record.write_text(client.get(ended["record"]).text)
    read = read_record(record)
    assert read.seed == seed and read.deal == {"commitment": commitment, "salt": salt}
    page = client.get(f"/friends/{tokens['mapache']}").text
    assert f'<code id="deal-seed">{seed}</code>' in page


def test_a_restarted_server_opens_the_seal_and_refuses_another_key(
        deck_folder: Path, user_home: Path) -> None:
    first = new_client(deck_folder)
    made = create(first)
    tokens = seats_of(first, made)
    act_once(first, tokens["colty"])
    again = new_client(deck_folder)
    assert state_of(again, tokens["colty"])["step"] == 1
    (user_home / "tables.key").write_text("ab" * 32)  # another key
    line = error_of(new_client(deck_folder).get(f"/api/tables/{tokens['colty']}"), 400)
    assert "cannot be restored" in line and "does not open this table's seed" in line
    (user_home / "tables.key").unlink()
    line = error_of(new_client(deck_folder).get(f"/api/tables/{tokens['colty']}"), 400)
    assert "table key is missing" in line


# -- tables written before (format 1) ---------------------------------------------------------
def format_one(path: Path, seed: int, tokens: dict[str, str]) -> None:
    """Rewrite a table's file as format 1 kept it: every role's token hashed in `tokens`
    (the friend's being his permanent link), the seed in the game, no deal, no invitation."""
    rows = rows_of(path)
    header = rows[0]
    for key in ("invitations", "deal", "sealed_seed"):
        del header[key]
    header.update(format=1, tokens={role: token_hash(token) for role, token in tokens.items()})
    header["game"]["seed"] = seed
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_a_format_one_table_still_loads_and_plays(deck_folder: Path, user_home: Path,
                                                  tmp_path: Path) -> None:
    first = new_client(deck_folder)
    made = create(first, seat="mcready")
    seed = store_of(first.app).find(made["token"])[0].session.record.seed
    old = {"colty": "old-colty-link-0000000001", "mcready": "old-mcready-link-00000002",
           "spectator": "old-spectator-link-000003"}
    format_one(table_file(user_home), seed, old)
    client = new_client(deck_folder)
    assert store_of(client.app).unreadable == []
    friend = client.post(f"/api/tables/{old['colty']}/join").json()
    assert "seat_token" not in friend and friend["role"] == "colty"  # his link, as before
    assert friend["commitment"] is None and friend["your_turn"]
    moved = act_once(client, old["colty"])
    assert moved["step"] == 1
    assert state_of(client, old["spectator"])["view"]["hand"] == []
    assert "Invite your friend" not in client.get(f"/friends/{old['mcready']}").text
    ended = client.post(f"/api/tables/{old['mcready']}/resign").json()
    assert ended["seed"] == seed
    record = tmp_path / "old.jsonl"
    record.write_text(client.get(ended["record"]).text)
    assert read_record(record).seed == seed and read_record(record).deal is None
    assert state_of(new_client(deck_folder), old["colty"])["over"]


def test_a_table_that_ends_unopened_reveals_its_seed_too(deck_folder: Path,
                                                         user_home: Path) -> None:
    """A table both seats left ends at a sweep even when no link opened it since the
    restart (its game never replayed): the end line still reveals the seed, unsealed."""
    first = new_client(deck_folder)
    made = create(first)
    seed = store_of(first.app).find(made["token"])[0].session.record.seed
    later = new_client(deck_folder, table_idle_seconds=600)
    store = store_of(later.app)
    now = store.clock()
    store.clock = lambda: now + 601
    create(later)  # a new table: the server sweeps the old ones first
    end_row = rows_of(next(path for path in (user_home / "tables").glob("*.jsonl")
                           if path.stem == made["table"]))[-1]
    assert end_row["end"] == "abandoned" and end_row["seed"] == seed

"""Replays to watch and taking back a move (issue 23, section 3).

- `ReplaySteps` gives, at every step, forward, back, by jumps and for each viewer, exactly
  the view and the log a live `GameSession` gave at that step;
- taking back a move restores the decision before it (the same choices, the same hand), the
  finished game's record holds only the moves kept, and it is refused between two people;
- the web viewer opens a table's finished game, an upload (a bad or huge one is a 400 with
  one line) and a record file of the deck folder; the table's "take back" button;
- `deckbuilder replay FILE --watch` and `u` in `play --human`, through a pseudo-terminal.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game
from deckbuilder.sim.records.replay_steps import EVERYTHING, ReplaySteps
from deckbuilder.sim.records.session import GameSession, replay_record
from deckbuilder.sim.records.take_back import TakeBackError, can_take_back, last_decision, take_back
from deckbuilder.sim.records.transcript import RecordError, Step, read_record

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from test_play_human import Terminal  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402
from deckbuilder.web.replays import MAX_UPLOAD_BYTES  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAMES = ["revolver", "revolver2"]


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


def base_decks(catalog: Any, game: str) -> list[dict[str, int]]:
    return [catalog.base_deck(game, side) for side in get_game(game).side_names]


def events_of(session: Any, viewer: int | None) -> list[dict[str, Any]]:
    return [event.to_dict() for event in session.events(viewer)]


def log_until(steps: ReplaySteps, position: int, viewer: int | None) -> list[Any]:
    """The events a viewer had read at `position` (each face filters `steps.log` so)."""
    return [event for event in steps.log(viewer)
            if event.index is None or event.index < steps.checked(position)]


def live_game(catalog: Any, game: str, seed: int) -> tuple[Any, dict[int, Any]]:
    """Two bots, one step at a time; at every step what each viewer was shown."""
    session = GameSession(base_decks(catalog, game), seed, ["random", "greedy"],
                          catalog=catalog, game=game, viewer=None)
    seen: dict[int, Any] = {}
    while True:
        seen[len(session.record.steps)] = {
            viewer: (session.view(viewer) if viewer is not None else None,
                     events_of(session, viewer)) for viewer in (0, 1, None)}
        if session.is_over():
            return session, seen
        session.advance(max_steps=1)


# -- the steps ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_step_forward_back_and_by_jumps_is_what_the_live_game_showed(
        catalog: Any, game: str) -> None:
    session, seen = live_game(catalog, game, 11)
    steps = ReplaySteps(session.record, catalog)
    assert steps.last == len(session.record.steps) == max(seen)
    order = [*range(steps.last + 1), *reversed(range(steps.last + 1))]
    jumps = random.Random(4).sample(range(steps.last + 1), min(40, steps.last + 1))
    for position in order + jumps:
        for viewer in (0, 1):  # switching viewer at each step
            view, events = seen[position][viewer]
            assert steps.view(position, viewer) == view, (position, viewer)
            assert [e.to_dict() for e in log_until(steps, position, viewer)] == events
        assert [e.to_dict() for e in log_until(steps, position, None)] == seen[position][None][1]
    # everything: player 0's view with player 1's hand as he held it
    middle = steps.last // 2
    everything = steps.view(middle, EVERYTHING)
    assert everything["hand"] == seen[middle][0][0]["hand"]
    assert everything["other_hand"] == seen[middle][1][0]["hand"]
    assert "other_hand" not in steps.view(middle, 0)


def test_a_hidden_draw_is_named_only_to_its_owner_and_to_everything(catalog: Any) -> None:
    session, _ = live_game(catalog, "revolver", 5)
    steps = ReplaySteps(session.record, catalog)
    opening = [line for event in log_until(steps, 0, 0) for line in event.lines]
    assert "mcready draws 5 cards" in opening
    named = [line for event in log_until(steps, 0, EVERYTHING) for line in event.lines]
    assert sum(line.startswith("mcready draws ") for line in named) == 5


def test_a_turn_is_reached_at_its_first_step(catalog: Any) -> None:
    session, seen = live_game(catalog, "revolver", 3)
    steps = ReplaySteps(session.record, catalog)
    for turn in steps.turn_numbers()[1:]:
        position = steps.position_of_turn(turn)
        assert seen[position][0][0]["turn"] == turn
        assert seen[position - 1][0][0]["turn"] < turn
    assert steps.position_of_turn(10_000) == steps.last


def test_a_record_the_engine_no_longer_plays_names_its_step(catalog: Any, tmp_path: Path
                                                            ) -> None:
    session, _ = live_game(catalog, "revolver", 2)
    record = session.record
    wrong = dataclasses.replace(record.steps[3], text="play something else")
    path = tmp_path / "edited.jsonl"
    edited = dataclasses.replace(record, steps=[*record.steps[:3], wrong, *record.steps[4:]])
    path.write_text(edited.to_jsonl(), encoding="utf-8")
    with pytest.raises(RecordError) as raised:
        ReplaySteps(read_record(path), catalog)
    assert "step 3: the record says 'play something else'" in str(raised.value)
    assert f"{path}:5" in str(raised.value)  # the header is line 1, step 0 line 2


# -- taking back ----------------------------------------------------------------------------
def human_game(catalog: Any, game: str, answers: int, seed: int = 6) -> Any:
    session = GameSession(base_decks(catalog, game), seed, ["human", "greedy"],
                          catalog=catalog, game=game)
    session.advance()
    rng = random.Random(seed)
    for _ in range(answers):
        if session.is_over():
            break
        session.act(rng.choice(session.choices()).action)
    return session


def decision_of(session: Any) -> tuple[Any, ...]:
    return ([c.to_dict() for c in session.choices()], session.view(0)["hand"],
            session.view(0), events_of(session, 0), len(session.record.steps))


@pytest.mark.parametrize("game", GAMES)
def test_take_back_restores_the_decision_before_it(catalog: Any, game: str) -> None:
    before = human_game(catalog, game, 11)
    after = human_game(catalog, game, 12)
    assert decision_of(before) != decision_of(after)
    taken = take_back(after, catalog)
    assert decision_of(after) == decision_of(before)  # same choices, same hand, same log
    assert taken.startswith(get_game(game).side_names[0] + " ")
    # twice: the decision before that one
    earlier = human_game(catalog, game, 10)
    take_back(after, catalog)
    assert decision_of(after) == decision_of(earlier)


def test_the_finished_game_keeps_only_the_moves_kept(catalog: Any) -> None:
    session = human_game(catalog, "revolver", 8)
    taken_back = session.record.steps[-1]
    human_steps = [s for s in session.record.steps if s.player == "colty"]
    take_back(session, catalog)
    kept = list(session.record.steps)
    assert len([s for s in kept if s.player == "colty"]) == len(human_steps) - 1
    other = next(c.action for c in session.choices() if c.action != human_steps[-1].action)
    session.act(other)
    while not session.is_over():
        session.act(session.choices()[-1].action)
    record = session.record
    assert record.steps[:len(kept)] == kept
    assert record.steps[len(kept)] != human_steps[-1]
    assert taken_back not in record.steps[len(kept):len(kept) + 1]
    assert replay_record(record, catalog).mismatch is None


def test_take_back_is_refused_between_two_people_and_before_any_decision(catalog: Any
                                                                          ) -> None:
    two = GameSession(base_decks(catalog, "revolver"), 1, ["human", "human"], catalog=catalog)
    two.act(two.choices()[0].action)
    assert not can_take_back(two)
    with pytest.raises(TakeBackError, match="not between two people"):
        take_back(two, catalog)
    assert len(two.record.steps) == 1
    fresh = human_game(catalog, "revolver", 0)
    with pytest.raises(TakeBackError, match="no decision of yours"):
        take_back(fresh, catalog)


def test_a_bot_that_moves_otherwise_when_replayed_leaves_the_game_as_it_was(catalog: Any
                                                                             ) -> None:
    session = human_game(catalog, "revolver", 20)
    last = last_decision(session)
    assert last is not None
    bot_step = next(s for s in session.record.steps[:last] if s.player == "mcready")
    other = next(a for a in range(500) if a != bot_step.action)
    session.record.steps[bot_step.index] = Step(bot_step.index, "mcready", other, "?")
    shown = decision_of(session)
    with pytest.raises(TakeBackError, match="does not make the same moves"):
        take_back(session, catalog)
    assert decision_of(session) == shown


# -- the web viewer -------------------------------------------------------------------------
@pytest.fixture
def client(deck_folder: Path) -> Any:
    config = WebConfig(deck_folder=deck_folder, max_request_bytes=4 * MAX_UPLOAD_BYTES)
    return TestClient(create_app(config), base_url="http://localhost")


def json_headers() -> dict[str, str]:
    return {"accept": "application/json"}


def upload(client: Any, data: bytes, name: str = "game.jsonl") -> Any:
    return client.post("/api/replays", files={"record": (name, data, "application/x-ndjson")},
                       headers=json_headers())


def hand_ids(board: str) -> list[str]:
    mine = re.search(r'<ul class="hand cards" id="my-hand">(.*?)</ul>', board, re.S)
    assert mine is not None
    return re.findall(r'data-face="([^"]+)"', mine.group(1))


def test_an_uploaded_record_steps_as_the_live_game_showed(client: Any, catalog: Any) -> None:
    session, seen = live_game(catalog, "revolver", 8)
    opened = upload(client, session.record.to_jsonl().encode())
    assert opened.status_code == 200, opened.text
    url = opened.json()["url"]
    replay_id = opened.json()["replay"]
    page = client.get(url + "?step=3&viewer=mcready")
    assert page.status_code == 200 and 'id="board"' in page.text
    for position in (0, 5, seen and max(seen) // 2, max(seen)):
        for viewer, name in ((0, "colty"), (1, "mcready")):
            state = client.get(f"/api/replays/{replay_id}/step",
                               params={"step": position, "viewer": name}).json()
            assert state["step"] == position and state["viewer"] == name
            assert hand_ids(state["board"]) == [c["id"] for c in seen[position][viewer][0]["hand"]]
            assert state["whole"] == []
        everything = client.get(f"/api/replays/{replay_id}/step",
                                params={"step": position, "viewer": "everything"}).json()
        assert everything["whole"]  # the whole position in words, every hidden card
    log = client.get(f"/api/replays/{replay_id}/log", params={"viewer": "mcready"}).json()
    assert [line["text"] for line in log["lines"]] == [
        line for event in session.events(1) for line in event.text_lines()]
    turn = client.get(f"/api/replays/{replay_id}/step", params={"turn": 3}).json()
    assert turn["turn"] == 3


def test_bad_requests_are_one_line_400s(client: Any, catalog: Any) -> None:
    bad = upload(client, b'{"record": "deckbuilder-game"\n', "broken.jsonl")
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("broken.jsonl:1:")
    huge = upload(client, b"{}\n" * (MAX_UPLOAD_BYTES // 3 + 10), "huge.jsonl")
    assert huge.status_code == 400
    assert "the limit is 524,288" in huge.json()["error"]
    not_a_record = upload(client, b'{"hello": 1}\n{"x": 2}\n', "other.jsonl")
    assert not_a_record.status_code == 400
    assert "not a deckbuilder game header" in not_a_record.json()["error"]
    empty = upload(client, b"", "empty.jsonl")
    assert empty.status_code == 400 and "no record was sent" in empty.json()["error"]
    session, _ = live_game(catalog, "revolver", 1)
    replay_id = upload(client, session.record.to_jsonl().encode()).json()["replay"]
    for params in ({"step": "999999"}, {"step": "x"}, {"viewer": "nobody"}):
        answer = client.get(f"/api/replays/{replay_id}/step", params=params)
        assert answer.status_code == 400 and "\n" not in answer.json()["error"], params
    assert client.get("/api/replays/nope/step").status_code == 404
    for line in (bad, huge, not_a_record):
        assert "Traceback" not in line.text


def test_a_record_file_of_the_deck_folder_opens_and_paths_out_are_refused(
        client: Any, catalog: Any, deck_folder: Path) -> None:
    session, _ = live_game(catalog, "revolver2", 4)
    (deck_folder / "games").mkdir()
    (deck_folder / "games" / "first.jsonl").write_text(session.record.to_jsonl(), "utf-8")
    listing = client.get("/replays")
    assert "games/first.jsonl" in listing.text
    opened = client.get("/replays/file", params={"path": "games/first.jsonl"},
                        follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"].startswith("/replays/")
    again = client.get("/replays/file", params={"path": "games/first.jsonl"},
                       follow_redirects=False)
    assert again.headers["location"] == opened.headers["location"]  # the same replay
    for path in ("../first.jsonl", "/etc/passwd", "games/first.yaml", ".hidden.jsonl"):
        refused = client.get("/replays/file", params={"path": path}, headers=json_headers())
        assert refused.status_code == 400, path
    missing = client.get("/replays/file", params={"path": "games/none.jsonl"},
                         headers=json_headers())
    assert missing.status_code == 404


def play_to_the_end(client: Any, session_id: str) -> dict[str, Any]:
    state = client.get(f"/api/play/{session_id}").json()
    for _ in range(2000):
        if state["over"]:
            return dict(state)
        action = re.search(r'data-action="(\d+)"', state["actions"])
        assert action is not None, state["actions"]
        state = client.post(f"/api/play/{session_id}/act",
                            json={"action": int(action.group(1))}).json()
    raise AssertionError("the game did not end")


def test_the_table_takes_back_a_move_and_offers_the_replay_at_the_end(client: Any) -> None:
    started = client.post("/api/play", data={"game": "revolver", "seat": "colty", "seed": "5",
                                             "bot1": "random"}, headers=json_headers())
    session_id = started.json()["session"]
    first = client.get(f"/api/play/{session_id}").json()
    assert 'id="take-back"' not in first["actions"]  # nothing to take back yet
    early = client.get(f"/replays/play/{session_id}", headers=json_headers())
    assert early.status_code == 409
    action = int(re.findall(r'data-action="(\d+)"', first["actions"])[-1])
    moved = client.post(f"/api/play/{session_id}/act", json={"action": action}).json()
    assert 'id="take-back"' in moved["actions"]
    back = client.post(f"/api/play/{session_id}/take-back")
    assert back.status_code == 200, back.text
    restored = back.json()
    assert restored["reset_log"] is True
    assert restored["board"] == first["board"] and restored["actions"] == first["actions"]
    assert restored["log"] == first["log"]
    end = play_to_the_end(client, session_id)
    assert 'id="watch-replay"' in end["actions"]
    opened = client.get(f"/replays/play/{session_id}", follow_redirects=False)
    assert opened.status_code == 303
    page = client.get(opened.headers["location"])
    assert page.status_code == 200 and "a game at the table" in page.text
    watched = client.post("/api/play", data={"game": "revolver", "seat": "watch", "seed": "5"},
                          headers=json_headers()).json()["session"]
    refused = client.post(f"/api/play/{watched}/take-back")
    assert refused.status_code == 400 and "two bots" in refused.json()["error"]


# -- the terminal ---------------------------------------------------------------------------
WATCH_PROMPT = re.compile(r"step (\d+)/(\d+) \((\w+)\)> $")


def until_watch_prompt(terminal: Terminal) -> tuple[int, str]:
    import time

    deadline = time.time() + 60
    while True:
        match = WATCH_PROMPT.search(terminal.output[terminal.seen:])
        if match is not None:
            terminal.seen += match.end()
            return int(match.group(1)), match.group(3)
        if not terminal._read(deadline):
            raise AssertionError(terminal.output[-2000:])


def test_replay_watch_steps_jumps_and_switches_viewer(tmp_path: Path, catalog: Any) -> None:
    session, seen = live_game(catalog, "revolver", 9)
    path = tmp_path / "game.jsonl"
    path.write_text(session.record.to_jsonl(), encoding="utf-8")
    terminal = Terminal("replay", str(path), "--watch")
    assert until_watch_prompt(terminal) == (0, "everything")
    for typed, expected in (("\n", (1, "everything")), ("n\n", (2, "everything")),
                            ("p\n", (1, "everything")), ("v 1\n", (1, "mcready")),
                            ("t 3\n", (ReplaySteps(session.record, catalog)
                                       .position_of_turn(3), "mcready")),
                            ("v 0\n", (None, "colty")), ("v a\n", (None, "everything"))):
        start = len(terminal.output)
        terminal.type(typed)
        position, viewer = until_watch_prompt(terminal)
        assert viewer == expected[1]
        if expected[0] is not None:
            assert position == expected[0]
        shown = terminal.output[start:]
        assert f"-- step {position} of {len(session.record.steps)}" in shown
        if viewer != "everything":
            assert f"you are {viewer}" in shown
            hand = seen[position][0 if viewer == "colty" else 1][0]["hand"]
            assert f"your hand ({len(hand)})" in shown
    terminal.type("banana\n")
    until_watch_prompt(terminal)
    assert "'banana' is not a key here" in terminal.output
    terminal.type("q\n")
    assert terminal.finish() == 0
    assert "Traceback" not in terminal.output


def test_u_takes_back_a_decision_in_play_human(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    terminal = Terminal("play", "--human", "colty", "--bots", "random", "--seed", "4",
                        "--record", str(record))
    offered = terminal.until_prompt()
    assert offered is not None
    assert "u takes back your last decision" in terminal.output
    first_decision = terminal.output[terminal.output.rfind("your decision:"):]
    terminal.type("u\n")
    assert terminal.until_prompt() == offered
    assert "there is no decision of yours to take back yet" in terminal.output
    terminal.type(f"{offered}\n")  # the last action: play a card or end the phase
    assert terminal.until_prompt() is not None
    terminal.type("u\n")
    assert terminal.until_prompt() == offered
    assert "taken back: colty " in terminal.output
    assert terminal.output[terminal.output.rfind("your decision:"):] == first_decision
    terminal.type("1\n")
    while terminal.until_prompt() is not None:
        terminal.type("1\n")
    assert terminal.finish() == 0, terminal.output[-2000:]
    assert "Traceback" not in terminal.output
    kept = read_record(record)
    assert replay_record(kept, build_catalog()).mismatch is None
    taken = re.search(r"taken back: colty (.+)", terminal.output)
    assert taken is not None
    if offered > 1:  # the answer taken back is not in the record; the 1 typed after it is
        assert kept.steps[0].player == "colty" and kept.steps[0].text != taken.group(1).strip()


def test_u_is_refused_between_two_people() -> None:
    terminal = Terminal("play", "--human", "colty", "--human", "mcready", "--seed", "2")
    offered = terminal.until_prompt()
    assert offered is not None
    terminal.type("u\n")
    assert terminal.until_prompt() == offered
    assert "a move is taken back only in a game against a bot, not between two people" \
        in terminal.output
    terminal.type("q\n")
    assert terminal.finish() != 0

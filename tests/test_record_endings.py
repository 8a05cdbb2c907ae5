"""Every record a friend table writes plays back everywhere (issue 34, item 6).

A table for two people ends by the game's end, by a resignation or when both seats left;
its record (`web.friends.routes.record_text`) names a table's ending as its termination, the
game not over. Each such record, of both games, with and without modules (and a game cut at
its turn cap), goes through the three faces that read records, one reader and one replay
behind them: `deckbuilder replay FILE` (exit 0, the ending named), `replay FILE --watch`
stepped to the end, and the web viewer (upload, the last step, the page). A record that
really differs from its game is still caught at its exact step, by all three alike.
"""

from __future__ import annotations

import html
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.app.endings import outcome_sentence
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app as cli_app
from deckbuilder.games import get_game
from deckbuilder.sim.records.replay_steps import ReplaySteps
from deckbuilder.sim.records.session import HUMAN, GameSession
from deckbuilder.sim.records.transcript import RecordError, read_record

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402
from deckbuilder.web.friends.routes import record_text  # noqa: E402
from deckbuilder.web.friends.tables import TableStore  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()
#: Actions played before a table is resigned or left.
MOVES_BEFORE_THE_END = 40


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


@dataclass
class TableRecord:
    """A record a friend table wrote, and the ending every face must name."""

    path: Path
    ending: str
    steps: int
    by_table: bool = True  # a resignation or an abandoned table, not the game's own end


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def table_record(catalog: Any, folder: Path, game: str, ending: str,
                 modules: tuple[str, ...] = (), max_turns: int = 200,
                 seed: int = 11) -> TableRecord:
    """A table played by its two seats through the store (random legal answers), ended as
    `ending` says ("finished": the game's own end; "resigned": the second seat gives up;
    "abandoned": both seats away past the idle time), and its record as the app offers it."""
    clock = Clock()
    store = TableStore(folder / "tables", lambda: catalog, idle_seconds=600.0, clock=clock)
    sides = get_game(game).side_names
    session = GameSession([catalog.base_deck(game, side) for side in sides], seed,
                          [HUMAN, HUMAN], None, catalog, game=game, max_turns=max_turns,
                          modules=modules, viewer=None)
    session.advance()
    table, _ = store.create(session, sides[0], "a test table", {side: side for side in sides})
    rng = random.Random(seed)
    most = 5000 if ending == "finished" else MOVES_BEFORE_THE_END
    for _ in range(most):
        if session.is_over():
            break
        mover = sides[int(session.to_move())]
        store.act(table, mover, table.step, rng.choice(session.state.legal_actions()))
    turn = session.state.turn
    if ending == "finished":
        assert session.is_over(), "the game did not end"
        said = outcome_sentence(session.record.winner, session.record.termination,
                                session.record.turns)
    elif ending == "resigned":
        store.resign(table, sides[1])
        said = f"{sides[1]} resigned at turn {turn}: {sides[0]} wins"
    else:
        clock.now += 3600.0
        store.sweep()
        said = f"both players left the table at turn {turn}: nobody wins"
    assert table.ended is not None and table.ended["end"] == ending
    text = record_text(table)
    assert text is not None
    path = folder / f"{game}-{ending}-{'-'.join(modules) or 'plain'}.jsonl"
    path.write_text(text, encoding="utf-8")
    return TableRecord(path, said, len(session.record.steps), ending != "finished")


def assert_replays(record: TableRecord) -> None:
    checked = runner.invoke(cli_app, ["replay", str(record.path), "--quiet"])
    assert checked.exit_code == 0, checked.output
    assert f"replayed {record.steps} actions: the same game ({record.ending})" in checked.output
    summary = runner.invoke(cli_app, ["replay", str(record.path), "--json"])
    assert summary.exit_code == 0, summary.output
    data = json.loads(summary.output)
    assert data["matches"] and data["ending"] == record.ending


def assert_watches(record: TableRecord) -> None:
    """Enter through every step to the last one, once more (it says it is the end), q."""
    keys = "\n" * record.steps + "n\nq\n"
    watched = runner.invoke(cli_app, ["replay", str(record.path), "--watch"], input=keys)
    assert watched.exit_code == 0, watched.output
    out = watched.output
    assert f"; {record.ending}, {record.steps} steps" in out.splitlines()[0]
    for position in {min(1, record.steps), record.steps // 2, record.steps}:
        assert f"-- step {position} of {record.steps}," in out
    assert "the game is over here" in out
    assert (f"-- the table ended here: {record.ending} --" in out) == record.by_table


def assert_views(client: Any, record: TableRecord) -> None:
    opened = client.post("/api/replays", content=record.path.read_bytes(),
                         headers={"accept": "application/json",
                                  "x-filename": record.path.name})
    assert opened.status_code == 200, opened.text
    replay = opened.json()["replay"]
    last = client.get(f"/api/replays/{replay}/step?step={record.steps}&viewer=everything")
    assert last.status_code == 200, last.text
    assert last.json()["last"] == record.steps
    assert f"Game over: {record.ending}." in html.unescape(last.json()["board"])
    page = client.get(f"/replays/{replay}?step={record.steps}")
    assert page.status_code == 200 and record.ending in html.unescape(page.text)


@pytest.fixture
def client(deck_folder: Path) -> Any:
    return TestClient(create_app(WebConfig(deck_folder=deck_folder)), base_url="http://localhost")


ENDINGS = ["finished", "resigned", "abandoned"]


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize(("game", "modules"), [
    ("revolver", ()),
    ("revolver", ("saloon-duel",)),
    ("revolver", ("mcreadys-choice", "saloon-duel")),
    ("revolver", ("frontier-deck-cards",)),
    ("revolver2", ()),
], ids=["revolver", "revolver-module-a", "revolver-modules-a-b", "revolver-module-c",
        "revolver2"])
def test_a_table_record_plays_back_in_replay_watch_and_the_viewer(
        catalog: Any, tmp_path: Path, client: Any, game: str, modules: tuple[str, ...],
        ending: str) -> None:
    record = table_record(catalog, tmp_path, game, ending, modules)
    assert read_record(record.path).modules == sorted(modules)
    assert_replays(record)
    assert_watches(record)
    assert_views(client, record)


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_a_game_cut_at_its_turn_cap_plays_back_as_a_draw(
        catalog: Any, tmp_path: Path, client: Any, game: str) -> None:
    record = table_record(catalog, tmp_path, game, "finished", max_turns=3)
    assert record.ending == "a draw: the turn limit was reached (after 3 turns)"
    assert_replays(record)
    assert_watches(record)
    assert_views(client, record)


def resigned_in_the_app(client: Any, folder: Path) -> tuple[str, str, Path]:
    """A Revolver 2 table made through the app's API and resigned by its creator before the
    first move: the creator's token, the commitment the create answer showed, and the record
    the table offers (downloaded as a player would)."""
    made = client.post("/api/tables", json={"game": "revolver2", "seat": "esteban"})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    resigned = client.post(f"/api/tables/{token}/resign")
    assert resigned.status_code == 200, resigned.text
    offered = client.get(f"/api/tables/{token}/record.jsonl")
    assert offered.status_code == 200, offered.text
    path = folder / "table.jsonl"
    path.write_bytes(offered.content)
    return token, str(made.json()["commitment"]), path


def test_the_apps_own_resigned_table_opens_in_its_viewer_and_replays(
        tmp_path: Path, client: Any) -> None:
    token, _, path = resigned_in_the_app(client, tmp_path)
    ending = "esteban resigned before the first turn: mapache wins"
    record = TableRecord(path, ending, len(read_record(path).steps))
    assert_replays(record)
    assert_watches(record)
    opened = client.get(f"/replays/friends/{token}", follow_redirects=False)
    assert opened.status_code == 303, opened.text
    page = client.get(opened.headers["location"] + f"?step={record.steps}")
    assert page.status_code == 200 and f"Game over: {ending}." in html.unescape(page.text)


def edited_record(path: Path, line: int, change: Any) -> Path:
    """The record with its `line` (1-based) changed by `change(row)`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[line - 1])
    change(row)
    lines[line - 1] = json.dumps(row)
    edited = path.with_name(f"edited-{line}-{path.name}")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return edited


def _refusals(client: Any, catalog: Any, path: Path) -> list[str]:
    """What each face says of a record that differs from its game (each must refuse it)."""
    replayed = runner.invoke(cli_app, ["replay", str(path), "--quiet"])
    assert replayed.exit_code == 1, replayed.output
    watched = runner.invoke(cli_app, ["replay", str(path), "--watch"], input="q\n")
    assert watched.exit_code == 2, watched.output
    with pytest.raises(RecordError) as raised:
        ReplaySteps(read_record(path), catalog)
    uploaded = client.post("/api/replays", content=path.read_bytes(),
                           headers={"accept": "application/json", "x-filename": path.name})
    assert uploaded.status_code == 400, uploaded.text
    return [" ".join(replayed.output.split()), " ".join(watched.output.split()),
            str(raised.value), uploaded.json()["error"]]


def test_a_changed_step_of_a_resigned_record_is_caught_at_that_step(
        catalog: Any, tmp_path: Path, client: Any) -> None:
    record = table_record(catalog, tmp_path, "revolver", "resigned")
    step = 17  # line 19 of the file: the header is line 1, step 0 line 2

    def other_action(row: dict[str, Any]) -> None:
        assert row["i"] == step
        row["action"] += 1000

    edited = edited_record(record.path, step + 2, other_action)
    for said in _refusals(client, catalog, edited):
        assert f"{edited.name}:{step + 2}" in said and f"step {step}:" in said, said


@pytest.mark.parametrize(("change", "words"), [
    (lambda final: final.update(turns=final["turns"] + 1),
     "the record says the table ended at turn"),
    (lambda final: final["outcome"].update(winner="mcready"),
     "cannot have mcready as its winner"),
], ids=["turns", "winner"])
def test_a_table_ending_that_is_not_the_games_is_caught_at_the_final_line(
        catalog: Any, tmp_path: Path, client: Any, change: Any, words: str) -> None:
    record = table_record(catalog, tmp_path, "revolver", "abandoned")
    edited = edited_record(record.path, record.steps + 2, change)
    for said in _refusals(client, catalog, edited):
        assert f"{edited.name}:{record.steps + 2}" in said and words in said, said


def test_a_finished_game_passed_off_as_resigned_is_caught(
        catalog: Any, tmp_path: Path, client: Any) -> None:
    record = table_record(catalog, tmp_path, "revolver2", "finished")
    edited = edited_record(record.path, record.steps + 2,
                     lambda final: final["outcome"].update(termination="resigned"))
    for said in _refusals(client, catalog, edited):
        assert "the record says the table ended (resigned) with the game going on, but " \
               "after its last action the game is over" in said, said

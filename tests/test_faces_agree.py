"""One question, one answer, whichever face asks it: the command line's `--json`, the web app's
JSON and the Python API answer validate, simulate, gauntlet, card detail, deck stats and a
position's view alike (the same decks, the same seeds).

Each face's answer is parsed JSON; the Python API's typed result is dumped to JSON (`plain`)
and compared with the faces'. A face that does not answer a question yet, or answers it in
its own shape, is one `xfail(strict=True)` naming what is missing, so that the day it is
fixed the test says so.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import deckbuilder
from deckbuilder.cli import app as cli_app
from deckbuilder.deck_stats import deck_stats

starlette_testclient = pytest.importorskip("starlette.testclient")
TestClient = starlette_testclient.TestClient

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()

DECK = "example-mcready-pinkertons"
SIMULATION = {"games": 6, "seed": 3, "bot": "random"}
FIELD = ["colty", "example-colty-fan-the-gun"]


def plain(value: Any) -> Any:
    """A typed result as the JSON a face would print: dataclasses and named tuples as
    objects, tuples as lists, read-only mappings as objects, enums as their values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, enum.Enum):
        return value.value
    return json.loads(json.dumps(value))


def cli_json(*args: str, exit_codes: tuple[int, ...] = (0,)) -> Any:
    result = runner.invoke(cli_app, [*args, "--json"])
    assert result.exit_code in exit_codes, result.output
    return json.loads(result.stdout)


@pytest.fixture
def deck_file(deck_folder: Path) -> Path:
    """The example deck as a file of the web app's deck folder (what the editor opens)."""
    path = deck_folder / f"{DECK}.yaml"
    shutil.copyfile(deckbuilder.packaged_deck(DECK), path)
    return path


@pytest.fixture
def client(deck_folder: Path) -> TestClient:
    return TestClient(create_app(WebConfig(deck_folder=deck_folder)), base_url="http://localhost")


@pytest.fixture(scope="module")
def catalog() -> deckbuilder.Catalog:
    return deckbuilder.load_catalog()


# -- validate ---------------------------------------------------------------------------------
def _editor_state(client: TestClient, deck_file: Path) -> dict[str, Any]:
    """The deck the editor holds once it opened the file (its page's `data-state`)."""
    import html
    import re

    page = client.get("/deck", params={"file": deck_file.name}).text
    found = re.search(r'data-state="([^"]*)"', page)
    assert found is not None
    return dict(json.loads(html.unescape(found.group(1))))


def _without_place(report: dict[str, Any]) -> dict[str, Any]:
    """The verdict without where the deck lies: the editor's deck is no file, has no lines."""
    return {**report, "file": None,
            "violations": [{**row, "line": None} for row in report["violations"]]}


def test_validate_the_command_line_and_the_web_editor_give_one_verdict(
        client: TestClient, deck_file: Path) -> None:
    cli = cli_json("validate", str(deck_file), exit_codes=(0, 1))
    web = client.post("/api/deck/check", json={"deck": _editor_state(client, deck_file)})
    assert web.status_code == 200, web.text
    assert _without_place(web.json()["report"]) == _without_place(cli)
    assert cli["name"] == "McReady's Pinkertons (example)" and cli["legal"] is True


def test_validate_the_python_api_gives_the_rules_report_the_faces_print(
        deck_file: Path, catalog: deckbuilder.Catalog) -> None:
    cli = cli_json("validate", str(deck_file), exit_codes=(0, 1))
    report = plain(deckbuilder.validate_deck(deckbuilder.load_deck(deck_file, catalog),
                                             catalog).to_json())
    assert report == {key: cli[key] for key in report}


def test_validate_the_python_api_gives_the_whole_verdict(
        deck_file: Path, catalog: deckbuilder.Catalog) -> None:
    cli = cli_json("validate", str(deck_file), exit_codes=(0, 1))
    verdict = deckbuilder.deck_verdict(deckbuilder.load_deck(deck_file, catalog), catalog)
    assert plain(verdict.to_json()) == cli
    assert verdict.is_legal is cli["legal"] and list(verdict.warnings) == cli["warnings"]
    assert cli["notes"] == list(verdict.notes) and "spellings" in cli


def test_validate_the_replacement_pairs_are_one_answer_on_every_face(
        client: TestClient, deck_file: Path, catalog: deckbuilder.Catalog) -> None:
    """`validate --json`, the web editor's JSON and the deck sheet count and word the pairs
    of a packaged legal deck alike: the report's `pairs`, presented by each."""
    from html import escape

    from deckbuilder.app.deck_sheet import deck_sheet_html

    cli = cli_json("validate", str(deck_file))["pairs"]
    web = client.post("/api/deck/check", json={"deck": _editor_state(client, deck_file)})
    deck = deckbuilder.load_deck(deck_file, catalog)
    assert cli and web.json()["report"]["pairs"] == cli
    printed = runner.invoke(cli_app, ["validate", str(deck_file)]).stdout
    page = deck_sheet_html(deck, catalog)
    assert page.split('id="sheet-replacements"')[1].count("<li>") == len(cli)
    for pair in cli:
        assert f"{pair['count']}x {pair['out_name']} -> {pair['in_name']}  ({pair['rule']})" \
            in printed
        assert f"{pair['count']}× {escape(pair['out_name'])} → " in page and pair["rule"] in page


# -- simulate ---------------------------------------------------------------------------------
def _web_simulation(client: TestClient, **form: str) -> dict[str, Any]:
    """A simulation of the web simulator, played to its end; its report."""
    started = client.post("/api/simulate", data=form)
    assert started.status_code == 200, started.text
    with client.stream("GET", started.json()["events"]) as stream:
        assert "event: done" in "".join(stream.iter_text())
    return dict(client.get(f"/api/simulate/{started.json()['job']}/report.json").json())


def test_simulate_every_face_gives_one_report(client: TestClient) -> None:
    games, seed, bot = (str(SIMULATION[key]) for key in ("games", "seed", "bot"))
    cli = cli_json("simulate", DECK, "--vs", "colty", "--games", games, "--seed", seed,
                   "--bot", bot, "--workers", "1")
    web = _web_simulation(client, deck=f"packaged:{DECK}", vs="base:colty", games=games,
                          seed=seed, bot=bot)
    result = deckbuilder.simulate(DECK, against="colty", games=6, seed=3, bot="random")
    assert web == cli
    assert plain(result.report) == cli
    seat = cli["deck"]["seat"]
    assert (result.wins, result.draws, result.games) == (
        cli["sides"][seat]["wins"], cli["draws"]["games"], 6)
    assert plain(result.win_rate) == cli["sides"][seat]["win_rate"]


# -- gauntlet ---------------------------------------------------------------------------------
def _gauntlet_cli() -> dict[str, Any]:
    return dict(cli_json("simulate", "mcready", "--vs", FIELD[0], "--vs", FIELD[1],
                         "--games", "4", "--seed", "2", "--bot", "random", "--workers", "1"))


def _gauntlet_api() -> deckbuilder.GauntletResult:
    return deckbuilder.gauntlet("mcready", FIELD, games=4, seed=2, bot="random")


def test_gauntlet_the_command_line_and_the_python_api_give_one_result() -> None:
    cli, result = _gauntlet_cli(), _gauntlet_api()
    assert plain(result.report) == cli
    assert plain(result.field_win_rate) == cli["field"]["win_rate"]
    assert result.method == cli["field"]["method"]
    assert result.weakest.opponent == cli["field"]["weakest"]
    assert [{key: row[key] for key in ("name", "games", "wins", "draws", "losses", "share",
                                       "weight", "source", "win_rate", "mean_turns")}
            for row in cli["opponents"]] == [
        {"name": row.opponent, "games": row.games, "wins": row.wins, "draws": row.draws,
         "losses": row.losses, "share": row.share, "weight": row.weight, "source": row.source,
         "win_rate": plain(row.win_rate), "mean_turns": row.mean_turns}
        for row in result.matchups]
    assert [[card["id"] for card in row["cards"]] for row in cli["opponents"]] == \
        [[card.id for card in row.cards] for row in result.matchups]


def test_gauntlet_the_web_app_plays_the_field_the_command_line_plays(
        client: TestClient) -> None:
    """The simulator page with several opponents plays the gauntlet: its JSON is the
    command's `--json` for the same seed, and its page shows the field's rows."""
    form = {"deck": "base:mcready", "vs": ["base:colty", f"packaged:{FIELD[1]}"], "games": "4",
            "seed": "2", "bot": "random"}
    cli = _gauntlet_cli()
    assert _web_simulation(client, **form) == cli
    started = client.post("/api/simulate", data=form)
    with client.stream("GET", started.json()["events"]) as stream:
        done = json.loads("".join(stream.iter_text()).split("event: done\ndata: ")[1]
                          .split("\n")[0])
    assert "against the field" in done["html"]
    for row in cli["opponents"]:
        assert f"<td>{row['name']}</td>" in done["html"].replace("&#39;", "'")


def test_tournament_the_command_line_and_the_python_api_give_one_report() -> None:
    decks = ["colty", "mcready", "example-mcready-pinkertons"]
    cli = cli_json("tournament", *decks, "--games", "3", "--seed", "2", "--workers", "1")
    result = deckbuilder.tournament(decks, games=3, seed=2)
    assert plain(result.report) == cli
    assert [(row.deck, row.wins, row.losses, plain(row.rating)) for row in result.standings] \
        == [(row["deck"], row["wins"], row["losses"], row["rating"]) for row in cli["standings"]]


# -- card detail ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["deputy", "gatling-gun"])  # one record; namesakes
def test_card_detail_the_command_line_and_the_web_app_give_one_answer(
        client: TestClient, name: str) -> None:
    web = client.get(f"/api/cards/{name}")
    assert web.status_code == 200, web.text
    cli = cli_json("cards", "show", name)
    assert web.json() == cli
    first = cli[0] if isinstance(cli, list) else cli  # namesakes of two games: a list
    assert first["id"] == name and {"standing", "confirmed_by"} <= set(first["values"][0])


# -- deck stats -------------------------------------------------------------------------------
def test_deck_stats_the_command_line_and_the_python_api_give_one_answer(
        deck_file: Path, catalog: deckbuilder.Catalog) -> None:
    cli = cli_json("deck", "stats", str(deck_file))
    found = deck_stats(deckbuilder.load_deck(deck_file, catalog), catalog)
    assert plain(found.to_json()) == cli
    assert cli["odds"] and cli["cost_curve"]


def test_deck_stats_the_web_editor_gives_the_command_lines_answer(
        client: TestClient, deck_file: Path) -> None:
    web = client.post("/api/deck/check", json={"deck": _editor_state(client, deck_file)})
    assert web.status_code == 200, web.text
    assert web.json()["stats"] == cli_json("deck", "stats", str(deck_file))


# -- a position's view ------------------------------------------------------------------------
@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    played = runner.invoke(cli_app, ["play", "colty", "mcready", "--bots", "random,random",
                                     "--seed", "3", "--record", str(path)])
    assert played.exit_code == 0, played.output
    return path


def _web_step(client: TestClient, record: Path, step: int, viewer: str) -> dict[str, Any]:
    """The web replay viewer's answer for one step (its view, and the board it draws)."""
    uploaded = client.post("/api/replays", content=record.read_bytes(),
                           headers={"x-filename": record.name, "accept": "application/json"})
    assert uploaded.status_code == 200, uploaded.text
    replay = uploaded.json()["replay"]
    answer = client.get(f"/api/replays/{replay}/step", params={"step": step, "viewer": viewer})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _web_view(client: TestClient, record: Path, step: int, viewer: str) -> dict[str, Any]:
    return dict(_web_step(client, record, step, viewer)["view"])


def _first_position(record: Path, catalog: deckbuilder.Catalog) -> Any:
    """The game's first position, set up from the record's decks and seed."""
    header = json.loads(record.read_text(encoding="utf-8").splitlines()[0])
    decks = [header["decks"][side] for side in ("colty", "mcready")]
    return deckbuilder.new_game(decks, seed=header["seed"], catalog=catalog)


def test_a_position_the_web_replay_and_the_python_api_see_alike(
        client: TestClient, record: Path, catalog: deckbuilder.Catalog) -> None:
    web = _web_view(client, record, 0, "0")
    seen = deckbuilder.observe(_first_position(record, catalog), 0)
    assert web["turn"] == seen.turn and web["players"] == list(seen.players)
    assert [card["id"] for card in web["hand"]] == list(seen.hand)


def test_a_position_the_web_view_is_the_observation_named(
        client: TestClient, record: Path, catalog: deckbuilder.Catalog) -> None:
    """Every public value of the engine's observation is in the web's view, under its name:
    the view renders the observation (seat numbers become side names), never re-derives it."""
    web = _web_view(client, record, 0, "0")
    seen = deckbuilder.observe(_first_position(record, catalog), 0)
    names = list(seen.players)
    assert (web["phase"], web["decision"], web["active"]) == \
        (seen.phase, seen.decision, names[seen.active])
    assert web["countdown"]["tokens"] == seen.countdown
    assert (web["marker"]["battlefield"], web["marker"]["space"]) == seen.marker
    assert [field["id"] for field in web["battlefields"]] == \
        [field.id for field in seen.battlefields]
    for field, seen_field in zip(web["battlefields"], seen.battlefields, strict=True):
        assert [[card["id"] for card in field["cards"][name]] for name in names] == \
            [[card.id for card in side] for side in seen_field.cards]
    assert [(who["id"], who["alive"]) for who in web["characters"]["list"]] == \
        [(who.id, who.alive) for who in seen.characters]
    assert web["decks"] == {names[p]: seen.deck_sizes[p] for p in (0, 1)}
    assert web["opponent_hand"] == seen.opponent_hand_size


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_position_the_web_view_is_the_python_apis_position_view(
        client: TestClient, record: Path, catalog: deckbuilder.Catalog, viewer: int) -> None:
    state = _first_position(record, catalog)
    seen = deckbuilder.position_view(state, viewer)
    assert _web_view(client, record, 0, str(viewer)) == plain(seen)
    assert seen["hand"] and [card["id"] for card in seen["hand"]] == \
        list(deckbuilder.observe(state, viewer).hand)


@pytest.mark.parametrize(("step", "viewer"), [(0, "colty"), (7, "mcready"), (7, "everything")])
def test_a_position_the_command_line_gives_its_json(
        client: TestClient, record: Path, step: int, viewer: str) -> None:
    cli = cli_json("replay", str(record), "--step", str(step), "--viewer", viewer)
    web = _web_step(client, record, step, viewer)
    assert cli == {key: web[key] for key in cli}
    assert (cli["step"], cli["viewer"]) == (step, viewer) and "hand" in cli["view"]
    assert (cli["done"] is None) == (step == 0)

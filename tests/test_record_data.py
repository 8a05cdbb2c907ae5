"""Records and seeds stay reproducible: a game record names the card data it was played with
(the data packs and the overlay by content hash), `replay` says in one line when the data in
force now differ and still replays, and simulation reports carry the same hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.exchange import data_hash
from deckbuilder.sim.records.session import GameSession
from deckbuilder.sim.records.transcript import read_record

runner = CliRunner()
SOURCE = "read from the printed card, 2025-03-01, by Ann"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def record_game(path: Path, seed: int = 5) -> dict[str, Any]:
    code, out, err = run("play", "--bots", "random", "--seed", str(seed), "--record", path, "-q")
    assert code == 0, out + err
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_pack(folder: Path, pack_id: str, values: dict[str, dict[str, Any]]) -> Path:
    path = folder / f"{pack_id}-file.yaml"
    data = {"format": 1, "id": pack_id, "version": "1", "applies_to": {"revolver-base": "1.0"},
            "values": {record: {field: {"value": value, "source": SOURCE}
                                for field, value in fields.items()}
                       for record, fields in values.items()}}
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return path


def test_a_record_names_the_overlay_it_was_played_with_by_content_hash(tmp_path: Path) -> None:
    plain = record_game(tmp_path / "plain.jsonl")
    assert plain["data"]["packs"] == {} and plain["data"]["overlay"] is None
    assert run("overlay", "set", "Deputy", "cost", "2", "--source", "my card")[0] == 0
    corrected = record_game(tmp_path / "corrected.jsonl")
    assert corrected["data"]["overlay"] == sha256(paths.overlay_path())
    assert corrected["data"]["sha256"] != plain["data"]["sha256"]
    assert read_record(tmp_path / "corrected.jsonl").data == corrected["data"]


def test_a_record_names_the_packs_in_force(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, "deputies", {"deputy": {"cost": 2}})
    assert run("data", "import", pack)[0] == 0
    header = record_game(tmp_path / "game.jsonl")
    installed = paths.packs_dir() / "deputies.yaml"
    assert header["data"]["packs"] == {"deputies": sha256(installed)}
    assert header["data"] == data_hash(build_catalog())


def test_replay_says_in_one_line_when_the_data_differ_and_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    code, out, _ = run("replay", "-q", path)
    assert code == 0 and "note:" not in out  # the same data: nothing to say
    assert run("overlay", "set", "Deputy", "cost", "1", "--source", "my card")[0] == 0
    assert run("data", "import", write_pack(tmp_path, "scouts", {"apache-scout": {"cost": 0}})
               )[0] == 0
    code, out, _ = run("replay", "-q", path)
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert code == 0 and len(notes) == 1, out
    assert "pack scouts was not installed then" in notes[0]
    assert "there was no overlay then" in notes[0]
    assert out.rstrip().splitlines()[-1].startswith("replayed ")
    code, out, _ = run("replay", "--json", path)
    summary = json.loads(out)
    assert code == 0 and summary["matches"] is True
    assert summary["data_note"] == notes[0].removeprefix("note: ")
    assert summary["data_now"] == data_hash(build_catalog()) != summary["data"]


def test_an_older_record_without_data_replays_without_a_note(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    assert run("overlay", "set", "Deputy", "cost", "1", "--source", "my card")[0] == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    del header["data"]
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    code, out, _ = run("replay", "-q", path)
    assert code == 0 and "note:" not in out
    assert json.loads(run("replay", "--json", path)[1])["data"] is None


def test_a_damaged_data_field_is_one_line_naming_the_header(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["data"] = {"sha256": "not a hash", "packs": {}, "overlay": None}
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    code, _, err = run("replay", path)
    assert code == 2 and f"{path}:1" in err and "'data'" in err
    assert len(err.strip().splitlines()) == 1


def test_a_tables_record_names_its_data(tmp_path: Path) -> None:
    catalog = build_catalog(use_user_data=False)
    decks = [catalog.base_deck("revolver", "colty"), catalog.base_deck("revolver", "mcready")]
    session = GameSession(decks, 3, ["random", "human"], catalog=catalog)
    header = json.loads(session.record.to_jsonl().splitlines()[0])
    assert set(header["data"]) == {"packs", "overlay", "sha256"}
    assert len(header["data"]["sha256"]) == 64


def test_a_simulation_report_carries_the_records_hash(tmp_path: Path) -> None:
    assert run("overlay", "set", "Deputy", "cost", "2", "--source", "my card")[0] == 0
    header = record_game(tmp_path / "game.jsonl")
    code, out, _ = run("simulate", "mcready", "-n", "2", "--bot", "random", "--workers", "1",
                       "--json")
    assert code == 0 and json.loads(out)["data"] == header["data"]

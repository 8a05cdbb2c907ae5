"""Data packs: checked like a card set on import, applied above the packaged data and below
the player's overlay, every change and conflict reported, engine data never reshaped, the
same catalog whatever order packs come and go in; and the maintainer's fold."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.answers import save_answer
from deckbuilder.data_packs.exchange import PackRefused, data_hash, import_pack, remove_pack
from deckbuilder.data_packs.model import DataPack
from deckbuilder.errors import DataFileError
from deckbuilder.yamlio import MAX_FILE_BYTES, load_yaml

runner = CliRunner()
SOURCE = "read from the printed card, 2025-03-01, by Ann"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def write_pack(folder: Path, pack_id: str, values: dict[str, dict[str, Any]],
               applies_to: dict[str, str] | None = None, version: str = "1") -> Path:
    path = folder / f"{pack_id}-file.yaml"
    data = {"format": 1, "id": pack_id, "version": version,
            "applies_to": applies_to or {"revolver-base": "1.0"},
            "values": {record: {field: {"value": value, "source": SOURCE}
                                for field, value in fields.items()}
                       for record, fields in values.items()}}
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return path


def snapshot() -> dict[str, Any]:
    return {record_id: entry.record.model_dump(mode="json")
            for record_id, entry in build_catalog().entries.items()}


# -- import ----------------------------------------------------------------------------------
def test_an_import_reports_every_value_it_changes(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, "deputies", {"deputy": {"cost": 2, "copies": 9}})
    code, out, _ = run("data", "import", str(pack))
    assert code == 0, out
    assert "deputy.cost: 1 -> 2 (was unconfirmed)" in out
    assert "deputy.copies: 10 -> 9" in out and "2 values changed, 0 conflicts" in out
    record = build_catalog().entries["deputy"].record
    assert (record.cost, record.copies) == (2, 9)
    assert record.provenance.sources["cost"] == f"data pack deputies 1: {SOURCE}"
    assert (paths.packs_dir() / "deputies.yaml").is_file()


@pytest.mark.parametrize(("values", "applies_to", "expected"), [
    ({"deputy": {"cost": 11}}, None, "cost"),
    ({"no-such-card": {"cost": 1}}, None, "no installed set has the record 'no-such-card'"),
    ({"deputy": {"cost": 1}}, {"no-such-set": "1"}, "set 'no-such-set' is not installed"),
    ({"deputy": {"cost": 1}}, {"tarnished-star": "1.0"}, "which the pack's applies_to"),
    ({"deputy": {"provenance": {}}}, None, "not a value a pack sets"),
    ({"deputy": {"aliases": ["Dep"]}}, None, "not a value a pack sets"),
    ({"cactus-field": {"effect": [{"do": "casualty", "count": 1}]}}, None, "engine data"),
])
def test_an_import_refuses_what_does_not_fit(tmp_path: Path, values: dict[str, Any],
                                             applies_to: dict[str, str] | None,
                                             expected: str) -> None:
    pack = write_pack(tmp_path, "bad", values, applies_to)
    code, _, err = run("data", "import", str(pack))
    assert code == 1 and expected in err, err  # refused, as `sets import` refuses a set
    assert len(err.strip().splitlines()) == 1
    assert not paths.packs_dir().exists() or not list(paths.packs_dir().iterdir())


def test_engine_data_may_be_confirmed_as_it_stands(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, "confirm", {"cactus-field": {"effect": []}})
    import_pack(pack)
    record = build_catalog().entries["cactus-field"].record
    assert "effect" not in record.provenance.unconfirmed


def test_a_file_that_is_no_pack_is_one_line_with_its_place(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("format: 1\nid: x\nversion: '1'\napplies_to: {revolver-base: '1.0'}\n"
                    "values:\n  deputy:\n    cost: {value: 2, source: me, colour: red}\n")
    code, _, err = run("data", "import", str(pack))
    assert code == 2 and f"{pack}:7:" in err and "colour" in err
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (MAX_FILE_BYTES + 10) + "\n")
    code, _, err = run("data", "import", str(big))
    assert code == 2 and ("limit" in err.lower() or "large" in err.lower()), err
    with pytest.raises(DataFileError):
        import_pack(tmp_path / "missing.yaml")


def test_a_pack_is_data_and_its_text_is_escaped(tmp_path: Path) -> None:
    pack = tmp_path / "p.yaml"
    pack.write_text("format: 1\nid: odd\nversion: '1'\napplies_to: {revolver-base: '1.0'}\n"
                    "values:\n  deputy:\n    cost: {value: !!python/object:os.system x, "
                    "source: me}\n")
    code, _, err = run("data", "import", str(pack))
    assert code == 2 and "Traceback" not in err
    escape = write_pack(tmp_path, "escape", {"deputy": {"cost": 2}})
    escape.write_text(escape.read_text().replace("by Ann", "by \\u001b[2JAnn"))
    code, out, _ = run("data", "import", str(escape))
    assert code == 0
    code, out, _ = run("cards", "show", "deputy")
    assert "\x1b" not in out and "\\x1b[2JAnn" in out


def test_an_installed_pack_is_replaced_only_with_upgrade(tmp_path: Path) -> None:
    import_pack(write_pack(tmp_path, "deputies", {"deputy": {"cost": 2}}))
    newer = write_pack(tmp_path, "deputies", {"deputy": {"cost": 3}}, version="2")
    with pytest.raises(PackRefused, match="already installed"):
        import_pack(newer)
    report = import_pack(newer, upgrade=True)
    assert report.replaced_version == "1"
    assert build_catalog().entries["deputy"].record.cost == 3


def test_packs_that_disagree_decide_nothing_and_the_overlay_wins(tmp_path: Path) -> None:
    import_pack(write_pack(tmp_path, "ann", {"deputy": {"cost": 2, "copies": 9}}))
    report = import_pack(write_pack(tmp_path, "bob", {"deputy": {"cost": 3, "copies": 9}}))
    conflicts = report.as_json()["conflicts"]
    assert len(conflicts) == 1 and "deputy.cost" in conflicts[0] and "neither" in conflicts[0]
    record = build_catalog().entries["deputy"].record
    assert record.cost == 1 and "cost" in record.provenance.unconfirmed  # as packaged
    assert record.copies == 9  # where they agree, it holds
    save_answer("deputy", "copies", 8, "Me")
    report = import_pack(write_pack(tmp_path, "cid", {"deputy": {"copies": 7}}))
    assert any("your overlay's value 8 wins" in line for line in report.overlay_wins)
    assert build_catalog().entries["deputy"].record.copies == 8


def test_a_pack_for_another_set_version_applies_only_what_is_still_unconfirmed(
        tmp_path: Path) -> None:
    pack = write_pack(tmp_path, "old", {"deputy": {"cost": 2, "faction": "colty"}},
                      {"revolver-base": "0.9"})
    code, out, err = run("data", "import", str(pack))
    assert code == 0, err
    assert "warning: deckbuilder.faction" not in out and "warning: deputy.faction" in out
    catalog = build_catalog()
    record = catalog.entries["deputy"].record
    assert record.cost == 2 and record.faction == "mcready"
    notices = [notice.message for notice in catalog.packs.notices]
    assert any("deputy.faction: not applied" in notice and "0.9" in notice
               for notice in notices)
    assert any("deputy.cost: applied, though" in notice for notice in notices)


def test_remove_takes_a_pack_out(tmp_path: Path) -> None:
    before = snapshot()
    import_pack(write_pack(tmp_path, "deputies", {"deputy": {"cost": 2}}))
    assert snapshot() != before
    code, out, _ = run("data", "remove", "deputies")
    assert code == 0 and "1 values back" in out
    assert snapshot() == before
    code, _, err = run("data", "remove", "deputies")
    assert code == 2 and "no installed pack" in err


PACKS = {
    "ann": {"deputy": {"cost": 2, "copies": 9}, "cowboy": {"copies": 8}},
    "bob": {"deputy": {"cost": 3}, "bounty-hunter": {"cost": 1}},
    "cid": {"cowboy": {"copies": 8, "cost": 1}, "colonel-ned-mcready": {"firepower": 5}},
}


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(sorted(PACKS)), st.booleans()), max_size=6))
def test_any_order_of_imports_and_removals_gives_the_same_catalog(
        tmp_path: Path, operations: list[tuple[str, bool]]) -> None:
    shutil.rmtree(paths.packs_dir(), ignore_errors=True)
    files = {name: write_pack(tmp_path, name, values) for name, values in PACKS.items()}
    installed: set[str] = set()
    for name, importing in operations:
        if importing:
            import_pack(files[name], upgrade=True)
            installed.add(name)
        elif name in installed:
            remove_pack(name)
            installed.discard(name)
    got = snapshot()
    shutil.rmtree(paths.packs_dir(), ignore_errors=True)
    for name in sorted(installed, reverse=True):  # the same packs, imported in one go
        import_pack(files[name])
    assert snapshot() == got


def test_the_data_in_force_has_a_content_hash(tmp_path: Path) -> None:
    before = data_hash(build_catalog())
    import_pack(write_pack(tmp_path, "deputies", {"deputy": {"cost": 2}}))
    after = data_hash(build_catalog())
    assert after["sha256"] != before["sha256"] and list(after["packs"]) == ["deputies"]
    save_answer("deputy", "copies", 8)
    assert data_hash(build_catalog())["overlay"] is not None


def test_the_committed_schema_is_the_models() -> None:
    from deckbuilder.schema_json import schema_for

    committed = json.loads((paths.PACKAGED_SCHEMAS / "data-pack.schema.json").read_text())
    assert committed == json.loads(json.dumps(schema_for(DataPack, "data-pack.schema.json")))


# -- the maintainer's fold (scripts/fold_pack.py: nothing installed uses it) -------------------
def _fold_script() -> Any:
    import importlib.util

    script = Path(__file__).resolve().parent.parent / "scripts" / "fold_pack.py"
    spec = importlib.util.spec_from_file_location("fold_pack_script", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_pack_folds_into_the_set_files_with_its_provenance(tmp_path: Path) -> None:
    fold_pack = _fold_script().fold_pack
    sets = tmp_path / "expansions"
    shutil.copytree(paths.PACKAGED_SETS, sets)
    pack = write_pack(tmp_path, "reviewed", {"deputy": {"cost": 2, "icons": ["true-grit"]}})
    folded = fold_pack(pack, sorted(sets.glob("*.yaml")))
    target = sets / "revolver-base.yaml"
    assert list(folded.files) == [target]
    text = target.read_text()
    assert "# Revolver (White Goblin Games" in text  # comments kept
    catalog = build_catalog(package_sets=sorted(sets.glob("*.yaml")), use_user_data=False)
    record = catalog.entries["deputy"].record
    assert record.cost == 2 and record.icons == ["true-grit"]
    assert record.provenance.sources["cost"] == f"data pack reviewed 1: {SOURCE}"
    assert "cost" not in record.provenance.unconfirmed
    assert "firepower" in record.provenance.unconfirmed
    document = load_yaml(target)
    assert document is not None
    other = write_pack(tmp_path, "later", {"deputy": {"cost": 3}}, {"revolver-base": "0.1"})
    with pytest.raises(Exception, match="any-version"):
        fold_pack(other, sorted(sets.glob("*.yaml")))
    assert build_catalog(package_sets=sorted(sets.glob("*.yaml")),
                         use_user_data=False).entries["deputy"].record.cost == 2


def test_the_fold_script_says_what_it_would_change(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    module = _fold_script()
    sets = tmp_path / "expansions"
    shutil.copytree(paths.PACKAGED_SETS, sets)
    before = (sets / "revolver-base.yaml").read_text()
    pack = write_pack(tmp_path, "reviewed", {"deputy": {"cost": 2}})
    assert module.main([str(pack), "--dry-run", "--sets-dir", str(sets)]) == 0
    assert "deputy.cost: 1 -> 2" in capsys.readouterr().out
    assert (sets / "revolver-base.yaml").read_text() == before  # dry: nothing written
    bad = write_pack(tmp_path, "bad", {"deputy": {"cost": 11}})
    assert module.main([str(bad), "--sets-dir", str(sets)]) == 2
    assert "cost" in capsys.readouterr().err

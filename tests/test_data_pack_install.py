"""`data import` installs what it checked: the pack's bytes are read once, checked, and those
same bytes are written into the packs folder, so a pack file changed (or replaced by one that
is no pack) between the check and the install still installs the checked content, and the
report describes the installed file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs import exchange

runner = CliRunner()
SOURCE = "read from the printed card, 2025-03-01, by Ann"


def pack_bytes(pack_id: str, cost: int, version: str = "1") -> bytes:
    data = {"format": 1, "id": pack_id, "version": version,
            "applies_to": {"revolver-base": "1.0"},
            "values": {"deputy": {"cost": {"value": cost, "source": SOURCE}}}}
    return (json.dumps(data, indent=1) + "\n").encode()  # JSON is YAML


def changed_after_the_check(monkeypatch: pytest.MonkeyPatch, path: Path, later: bytes) -> None:
    """The pack file is rewritten right after `check_pack` passed it."""
    checked = exchange.check_pack

    def check_then_change(*args: Any) -> list[str]:
        problems = checked(*args)
        path.write_bytes(later)
        return problems

    monkeypatch.setattr(exchange, "check_pack", check_then_change)


@pytest.mark.parametrize("later", [
    pack_bytes("deputies", 3, version="2"),  # another value, another version
    pack_bytes("other-id", 11),  # a value the check would refuse, another id
    b"{ not: [a pack",  # no YAML at all
], ids=["another-value", "refusable", "garbage"])
def test_a_pack_changed_after_the_check_installs_the_checked_bytes(
        tmp_path: Path, user_home: Path, monkeypatch: pytest.MonkeyPatch,
        later: bytes) -> None:
    checked = pack_bytes("deputies", 2)
    path = tmp_path / "deputies-file.yaml"
    path.write_bytes(checked)
    changed_after_the_check(monkeypatch, path, later)
    result = runner.invoke(app, ["data", "import", str(path), "--json"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert path.read_bytes() == later  # the file did change meanwhile
    installed = paths.packs_dir() / "deputies.yaml"
    assert installed.read_bytes() == checked
    assert sorted(paths.packs_dir().glob("*.yaml")) == [installed]
    report = json.loads(result.stdout)
    assert (report["id"], report["version"], report["path"]) == ("deputies", "1",
                                                                 str(installed))
    assert [(change["id"], change["field"], change["after"])
            for change in report["changes"]] == [("deputy", "cost", 2)]
    assert build_catalog().entries["deputy"].record.cost == 2


def test_the_report_in_words_names_the_installed_pack(tmp_path: Path, user_home: Path,
                                                      monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    path = tmp_path / "deputies-file.yaml"
    path.write_bytes(pack_bytes("deputies", 2))
    changed_after_the_check(monkeypatch, path, pack_bytes("deputies", 3, version="9"))
    result = runner.invoke(app, ["data", "import", str(path)])
    assert result.exit_code == 0, result.stdout + result.stderr
    installed = exchange.load_pack_file(paths.packs_dir() / "deputies.yaml")
    assert f"installed pack deputies {installed.pack.version} as" in result.stdout
    assert installed.pack.version == "1"
    assert "deputy.cost: 1 -> 2" in result.stdout and "-> 3" not in result.stdout

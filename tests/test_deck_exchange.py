"""Deck exchange: JSON decks in and out (the deck sites' `slots` shape), text lists with `//`
comments and Deck/Sideboard sections, headers named at the list's own line, and exports
that read back as the same deck whatever its name holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.cli import app
from deckbuilder.yamlio import load_yaml

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "decks"
RANGERS = FIXTURES / "rangers.yaml"
runner = CliRunner()


@pytest.fixture(autouse=True)
def synthetic_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "PACKAGED_SETS", FIXTURES / "sets")


def deck(*args: str | Path):
    result = runner.invoke(app, ["deck", *map(str, args)])
    assert "Traceback" not in result.stdout + result.stderr
    return result


def deck_data(path: Path) -> dict:
    document = load_yaml(path)
    return {key: document[key] for key in ("name", "faction", "cards")} | {
        "description": document.get("description"), "sets": document.get("sets")}


def yaml_quoted(text: str) -> str:
    """A YAML double-quoted scalar with every character but plain ASCII escaped."""
    return '"' + "".join(
        c if c.isascii() and c.isprintable() and c not in '"\\' else f"\\U{ord(c):08x}"
        for c in text) + '"'


def test_json_export_uses_the_slots_shape_and_imports_back(tmp_path: Path) -> None:
    result = deck("export", RANGERS, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["name"], data["faction"], data["game"]) == ("Rangers ride", "mcready", "revolver")
    assert data["slots"]["mini-texas-ranger"] == 2
    assert data["slots"]["mini-vantage-point"] == 1  # written by name, exported by id
    assert sum(data["slots"].values()) == 62
    exported = tmp_path / "rangers.json"
    exported.write_text(result.stdout)
    back = tmp_path / "back.yaml"
    assert deck("import", exported, "-o", back).exit_code == 0
    assert deck("diff", RANGERS, back).stdout.strip() == "the decks hold the same cards"


def test_a_deck_sites_json_deck_is_imported_and_its_side_slots_reported(tmp_path: Path) -> None:
    site = tmp_path / "from-a-site.json"
    site.write_text(json.dumps({
        "data": [{  # NetrunnerDB's envelope; ArkhamDB's `slots` with names as keys
            "name": "From the site", "faction_code": "mcready",
            "slots": {"mini-colonel-mcready": 1, "Representative of the Law": 20,
                      "Texs Ranger": 1},
            "sideSlots": {"Volcanic pistol": 1},
        }]}, indent=2))
    out = tmp_path / "site.yaml"
    result = deck("import", site, "-o", out, "--json")
    assert result.exit_code == 1  # the typo needs attention
    labels = {line["card"]: line for line in json.loads(result.stdout)["lines"] if line["card"]}
    assert labels["mini-volcanic-pistol"]["status"] == "sideboard"
    assert labels["Texs Ranger"]["status"] == "unknown"
    assert "Texas Ranger" in labels["Texs Ranger"]["message"]
    lines = site.read_text().splitlines()
    assert "Texs Ranger" in lines[labels["Texs Ranger"]["line"] - 1]  # the JSON file's line
    written = deck_data(out)
    assert written["name"] == "From the site" and written["faction"] == "mcready"
    assert "mini-volcanic-pistol" not in written["cards"]
    assert written["cards"]["mini-representative-of-the-law"] == 20


def test_a_json_count_must_be_a_whole_number(tmp_path: Path) -> None:
    site = tmp_path / "d.json"
    site.write_text('{"name": "n", "faction": "mcready",\n "slots": {"mini-sharps-rifle": true,'
                    '\n "mini-fire-at-will": "10", "mini-buffalo-stampede": 10}}')
    result = deck("import", site, "-o", tmp_path / "d.yaml", "--json")
    statuses = [line["status"] for line in json.loads(result.stdout)["lines"]]
    assert statuses.count("bad-count") == 2
    assert load_yaml(tmp_path / "d.yaml")["cards"] == {"mini-buffalo-stampede": 10}


def test_broken_json_is_one_line_with_the_lists_position(tmp_path: Path) -> None:
    site = tmp_path / "d.json"
    site.write_text('{"name": "n",\n "slots": {"a": 1,}}')
    result = deck("import", site, "-o", tmp_path / "d.yaml")
    assert result.exit_code == 2
    assert f"{site}:2" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_text_lists_with_double_slash_comments_and_a_sideboard(tmp_path: Path) -> None:
    listing = tmp_path / "site.txt"
    listing.write_text(
        "// exported by a deck site\n"
        "// faction: mcready\n"
        "Deck\n"
        "20 Representative of the Law // the lawmen\n"
        "1 Colonel McReady\n"
        "\n"
        "Sideboard\n"
        "2 Texas Ranger\n"
    )
    out = tmp_path / "d.yaml"
    result = deck("import", listing, "-o", out, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    statuses = [line["status"] for line in data["lines"]]
    assert statuses == ["comment", "header", "section", "ok", "ok", "blank", "section",
                        "sideboard"]
    assert data["sideboard"] == {"mini-texas-ranger": 2}
    assert load_yaml(out)["cards"] == {"mini-representative-of-the-law": 20,
                                       "mini-colonel-mcready": 1}


def test_a_bad_header_is_named_at_the_lists_own_line(tmp_path: Path) -> None:
    listing = tmp_path / "l.txt"
    listing.write_text("# faction: mcready\n# sets: Not An Id\n# name: " + "x" * 300
                       + "\n20x Sharps Rifle\n")
    out = tmp_path / "out.yaml"
    result = deck("import", listing, "-o", out)
    assert result.exit_code == 1  # written, with the headers to correct
    assert "l.txt:2    bad-header" in result.stdout and "l.txt:3    bad-header" in result.stdout
    # the problems are named at the list's lines, not at the file written (which only a note
    # about its editor schema names)
    assert not [line for line in result.stderr.splitlines()
                if str(out) in line and not line.startswith("note: ")]
    assert load_yaml(out)["name"] == "l"  # the file's name stands in
    missing = tmp_path / "m.txt"
    missing.write_text("// a comment\n# faction: nobody\n20x Sharps Rifle\n")
    result = deck("import", missing, "-o", tmp_path / "m.yaml", "--faction", "colty")
    assert result.exit_code == 1 and "m.txt:2" in result.stdout


@pytest.mark.parametrize("name", [
    "two\nlines", "line\u2028separator", "next\x85line", "form\x0cfeed", "tab\there",
    '"quoted"', "  spaced  ", "hash # inside", "slash // inside", "\x1b[31mred", "é and ü",
    "astral \U0001f600 and \U000e0001",
])
def test_export_round_trips_any_name_in_both_formats(tmp_path: Path, name: str) -> None:
    source = tmp_path / "odd.yaml"
    source.write_text(RANGERS.read_text()
                      .replace("name: Rangers ride", f"name: {yaml_quoted(name)}")
                      .replace("cards:\n", 'cards:\n  "odd\\nkey # x": 1\n'))
    for output_format in ("text", "json"):
        exported = tmp_path / f"odd.{'json' if output_format == 'json' else 'txt'}"
        assert deck("export", source, "--format", output_format, "-o", exported,
                    "--force").exit_code == 0
        text = exported.read_text()
        assert all(line.isprintable() for line in text.split("\n"))  # nothing raw
        back = tmp_path / "back.yaml"
        deck("import", exported, "-o", back, "--force")
        assert deck_data(back)["name"] == name
        assert deck_data(back)["cards"]["odd\nkey # x"] == 1  # an unknown card kept as written
        assert deck("diff", source, back).stdout.strip() == "the decks hold the same cards"


def test_export_of_a_faction_name_is_its_base_deck() -> None:
    result = deck("export", "McReady", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["faction"] == "mcready" and sum(data["slots"].values()) == 62
    assert data["slots"]["mini-sharps-rifle"] == 20
    unknown = deck("export", "nobody")
    assert unknown.exit_code == 2 and "faction" in unknown.stderr

"""Issue 21, section 5: what the results say and the words players use.

A player names a module as the rule sheet does (`--module A`, "saloon duel"), a set by its
name; the reports name every setting that changed the games; a deck whose card's set was
removed is told so; `sets check` exits as the docs say; the docs' homebrew example has a text;
the README's Quick start shows the main job first, then how to play and how to open the app.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import browser_support
import pytest
from typer.testing import CliRunner

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.switches import UnknownModuleError, read_modules
from deckbuilder.cli import app

ROOT = Path(__file__).resolve().parent.parent
SET_FIXTURES = Path(__file__).parent / "fixtures" / "sets"
FORMATS = ROOT / "docs" / "reference" / "formats.md"


def invoke(*args: object) -> object:
    return CliRunner().invoke(app, [str(arg) for arg in args])


def homebrew_example(folder: Path) -> Path:
    """The card-set example of the file-format page, as a player would copy it."""
    page = FORMATS.read_text(encoding="utf-8")
    found = re.search(r"## Card sets.*?```yaml\n(.*?)```", page, re.S)
    assert found, "the file-format page has no card-set example"
    path = folder / "dusty.yaml"
    path.write_text(found.group(1), encoding="utf-8")
    return path


# -- modules by letter, id or name ----------------------------------------------------------
@pytest.mark.parametrize("spelling", ["A", "a", "Module A", "saloon-duel", "saloon duel",
                                      "Saloon Duel", "Duel outside the Black Dog Saloon",
                                      "A. Duel outside the Black Dog Saloon"])
def test_a_module_is_found_by_letter_id_or_name(spelling: str) -> None:
    assert read_modules([spelling], project_catalog(), "revolver") == ("saloon-duel",)


def test_one_module_named_twice_is_played_once() -> None:
    chosen = read_modules(["A", "saloon duel", "ambushes"], project_catalog(), "revolver")
    assert chosen == ("saloon-duel", "ambushes")


def test_an_unknown_module_is_one_line_naming_the_choices() -> None:
    with pytest.raises(UnknownModuleError) as error:
        read_modules(["Z"], project_catalog(), "revolver")
    assert "'Z'" in error.value.message
    fix = error.value.fix or ""
    assert "A. Duel outside the Black Dog Saloon (saloon-duel)" in fix
    result = invoke("simulate", "colty", "--games", "1", "--module", "rodeo")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "rodeo" in line and "saloon-duel" in line


# -- the reports name every setting ---------------------------------------------------------
def test_simulate_names_its_modules_switches_and_turn_cap(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    options = ("simulate", "colty", "--games", "2", "--workers", "1", "--bot", "random",
               "--module", "saloon duel", "--switch", "skinny-token=true-grit",
               "--max-turns", "150", "--seed", "9")
    text = invoke(*options, "--report", page)
    assert text.exit_code == 0, text.output
    settings = text.stdout.splitlines()[1]
    assert "skinny-token=true-grit" in settings
    assert "A. Duel outside the Black Dog Saloon (saloon-duel)" in settings
    assert "at most 150 turns" in settings
    assert "seed 9" in text.stdout.splitlines()[0]

    html = page.read_text(encoding="utf-8")
    table = html[html.index('id="settings"'):]
    table = table[:table.index("</table>")]
    for shown in ("A. Duel outside the Black Dog Saloon (saloon-duel)",
                  "skinny-token=true-grit", "rulebook-en", "150 turns", ">9 ", "bot random"):
        assert shown in table, shown

    data = json.loads(invoke(*options, "--json").stdout)
    assert data["modules"] == ["saloon-duel"]
    assert data["module_names"] == {"saloon-duel": "A. Duel outside the Black Dog Saloon"}
    assert all(row["words"] and "_" not in row["words"] for row in data["endings"])


def test_simulate_without_modules_says_none() -> None:
    result = invoke("simulate", "colty", "--games", "1", "--workers", "1", "--bot", "random")
    assert result.exit_code == 0, result.output
    assert "modules: none" in result.stdout.splitlines()[1]
    assert "Rule switches: none" in result.stdout.splitlines()[1]


def test_the_endings_table_speaks_words() -> None:
    result = invoke("simulate", "colty", "--games", "3", "--workers", "1", "--bot", "random")
    data = json.loads(invoke("simulate", "colty", "--games", "3", "--workers", "1", "--bot",
                             "random", "--json").stdout)
    for row in data["endings"]:
        assert row["termination"] not in result.stdout
        assert row["words"] in result.stdout


def test_optimize_names_the_same_settings(tmp_path: Path) -> None:
    page = tmp_path / "search.html"
    result = invoke("optimize", "colty", "--budget", "20", "--workers", "1", "--bot", "random",
                    "--module", "A", "--max-turns", "120", "--report", page)
    assert result.exit_code == 0, result.output
    said = result.stdout.splitlines()[1]
    assert "A. Duel outside the Black Dog Saloon (saloon-duel)" in said
    assert "ruleset rulebook-en" in said and "at most 120 turns" in said
    assert "mcready base deck" in said
    html = page.read_text(encoding="utf-8")
    assert 'id="settings"' in html and "A. Duel outside the Black Dog Saloon" in html


# -- sets by name, and a removed set's cards -------------------------------------------------
def test_a_set_is_removed_by_its_name_and_its_cards_are_remembered(tmp_path: Path) -> None:
    example = homebrew_example(tmp_path)
    assert invoke("sets", "import", example).exit_code == 0
    deck = tmp_path / "deck.yaml"
    assert invoke("deck", "new", "mcready", "-o", deck).exit_code == 0
    assert invoke("deck", "swap", deck, "--out", "deputy", "--in", "Dusty Deputy",
                  "--count", "2").exit_code == 0
    assert invoke("validate", deck).exit_code == 0

    removed = invoke("sets", "remove", "DUSTY'S homebrew")
    assert removed.exit_code == 0, removed.output
    assert "removed dusty-homebrew" in removed.stdout

    checked = invoke("validate", deck)
    assert checked.exit_code == 1
    assert "dusty-homebrew (Dusty's homebrew), which is not installed any more" \
        in checked.stdout
    assert "did you mean" not in checked.stdout
    simulated = invoke("simulate", deck, "--games", "1")
    assert simulated.exit_code == 2 and "not installed any more" in simulated.stderr

    assert invoke("sets", "import", example).exit_code == 0  # back: the deck is legal again
    assert invoke("validate", deck).exit_code == 0


def test_a_card_never_installed_still_gets_suggestions(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    invoke("deck", "new", "mcready", "-o", deck)
    text = deck.read_text(encoding="utf-8").replace("deputy:", "deputi:", 1)
    deck.write_text(text, encoding="utf-8")
    checked = invoke("validate", deck)
    assert checked.exit_code == 1 and "did you mean Deputy?" in checked.stdout


def test_an_unknown_set_name_lists_the_installed_sets(tmp_path: Path) -> None:
    invoke("sets", "import", homebrew_example(tmp_path))
    result = invoke("sets", "remove", "Rodeo Days")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "'Rodeo Days'" in line and "dusty-homebrew (Dusty's homebrew)" in line


def test_a_packaged_set_by_name_is_refused_as_packaged() -> None:
    result = invoke("sets", "remove", "the tarnished star")
    assert result.exit_code == 1 and "'tarnished-star' is a packaged set" in result.stderr


# -- sets check exits as documented -----------------------------------------------------------
def test_sets_check_exit_codes_are_the_documented_ones(tmp_path: Path) -> None:
    example = homebrew_example(tmp_path)
    schema_problem = tmp_path / "schema.yaml"
    schema_problem.write_text(example.read_text(encoding="utf-8").replace(
        "side: opponent", "side: nobody"), encoding="utf-8")
    documented = (ROOT / "docs" / "players" / "card-data.md").read_text(encoding="utf-8")
    assert "0 the set can be imported" in documented
    assert "1 problems the import would refuse" in documented
    assert "2 a file that cannot be read as a card set" in documented
    assert invoke("sets", "check", example).exit_code == 0
    assert invoke("sets", "check", SET_FIXTURES / "every-problem.yaml").exit_code == 1
    assert invoke("sets", "check", schema_problem).exit_code == 2
    assert invoke("sets", "check", tmp_path / "missing.yaml").exit_code == 2
    assert invoke("sets", "check", example, SET_FIXTURES / "every-problem.yaml").exit_code == 1


# -- homebrew: the example's text, and cards show agreeing with itself ----------------------
def test_the_homebrew_example_has_a_text_that_cards_show_prints(tmp_path: Path) -> None:
    example = homebrew_example(tmp_path)
    assert re.search(r"^\s+text: \S", example.read_text(encoding="utf-8"), re.M)
    assert invoke("sets", "import", example).exit_code == 0
    shown = invoke("cards", "show", "dusty-deputy")
    assert shown.exit_code == 0
    assert "Kill one gang character" in shown.stdout


def test_cards_show_lists_as_unconfirmed_what_its_values_mark(tmp_path: Path) -> None:
    assert invoke("sets", "import", homebrew_example(tmp_path)).exit_code == 0
    for card in ("dusty-deputy", "deputy", "texas-ranger"):
        data = json.loads(invoke("cards", "show", card, "--json").stdout)
        details = data[0] if isinstance(data, list) else data
        marked = {row["field"] for row in details["values"] if row["unconfirmed"]}
        listed = set(details["unconfirmed"])
        assert marked <= listed, card
        assert listed - marked <= {"name", "set"}, card  # shown apart from the values


# -- the README's Quick start -----------------------------------------------------------------
def test_the_quick_start_shows_the_main_job_then_play_and_serve() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Quick start"):]
    section = section[:section.index("\n## ", 3)]
    block = re.search(r"```sh\n(.*?)\n```", section, re.S).group(1)  # type: ignore[union-attr]
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) == 2, lines  # each installs first (a fresh clone has nothing installed)
    (install, job), (test_install, tests) = (line.split(" && ") for line in lines)
    assert install.split()[:2] == ["pip", "install"] and '".[test]"' in test_install.split()
    assert tests.split()[:3] == ["python", "-m", "pytest"]  # the main job, then the tests
    command = job.split()
    assert command[:2] == ["deckbuilder", "simulate"]
    after = section[section.index("```", section.index("```sh") + 5):]
    assert "deckbuilder play --human" in after and "deckbuilder serve" in after
    assert after.index("deckbuilder play --human") < after.index("deckbuilder serve")
    games = command.index("--games")
    result = invoke(*command[1:games], "--games", "2", "--workers", "1")
    assert result.exit_code == 0, result.output


# -- the report page in a browser -------------------------------------------------------------
browser_page = browser_support.browser_page


def test_the_report_page_shows_its_settings_at_desktop_and_phone_width(
        tmp_path: Path, browser_page: object) -> None:
    page_file = tmp_path / "report.html"
    result = invoke("simulate", "colty", "--games", "3", "--workers", "1", "--bot", "random",
                    "--module", "A", "--switch", "skinny-token=true-grit",
                    "--report", page_file)
    assert result.exit_code == 0, result.output
    page: Any = browser_page
    page.goto(page_file.as_uri())
    settings = page.locator("table.settings")
    for width, name in ((1280, "report-settings-desktop"), (390, "report-settings-phone")):
        page.set_viewport_size({"width": width, "height": 900})
        assert settings.is_visible()
        text = settings.inner_text()
        assert "A. Duel outside the Black Dog Saloon (saloon-duel)" in text
        assert "skinny-token=true-grit" in text
        box = settings.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways
        browser_support.screenshot(page, name)

"""The documentation site builds with warnings as errors, its generated reference pages list
everything they claim to (every command of the app, every rule switch of the catalog), and the
README's links point at files that exist.

The site needs the `docs` extra (`pip install -e ".[docs]"`, which CI installs); without MkDocs
the build tests are skipped with that reason. The README link checks need nothing.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The repository as the project names it (pyproject's URLs): absolute links into it must
#: point at files of this checkout.
REPOSITORY = "revolver-deckbuilder/revolver-deckbuilder"

needs_mkdocs = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None,
    reason="the documentation site needs the docs extra: pip install -e '.[docs]'",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once, strictly, into a temporary folder, with a data folder and cache of
    its own (the generated pages must describe the packaged data, not a user's)."""
    work = tmp_path_factory.mktemp("docs-site")
    env = {**os.environ, "DECKBUILDER_HOME": str(work / "home"),
           "DECKBUILDER_CACHE": str(work / "cache")}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(work / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr}"
    assert "WARNING" not in built.stderr, built.stderr
    return work / "site"


def _commands(command: Any, path: str) -> Iterator[str]:
    yield path
    for name, child in (getattr(command, "commands", None) or {}).items():
        if not getattr(child, "hidden", False):
            yield from _commands(child, f"{path} {name}")


def app_commands() -> list[str]:
    """Every command and group of the typer app, as a user types it."""
    import typer.main

    from deckbuilder.cli import app

    return sorted(_commands(typer.main.get_command(app), "deckbuilder"))


@needs_mkdocs
def test_every_generated_marker_was_replaced(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert pages
    left = [page.relative_to(site) for page in pages
            if "<!-- generated:" in page.read_text(encoding="utf-8")]
    assert not left, f"pages whose generated part is missing: {left}"


@needs_mkdocs
def test_the_cli_reference_lists_every_command_of_the_app(site: Path) -> None:
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    commands = app_commands()
    assert "deckbuilder deck swap" in commands  # the walk reaches commands inside groups
    missing = [command for command in commands if f"<code>{command}</code>" not in page]
    assert not missing, f"commands missing from the CLI reference: {missing}"
    anchors = set(re.findall(r'id="(deckbuilder[a-z-]*)"', page))
    assert {command.replace(" ", "-") for command in commands} <= anchors


@needs_mkdocs
def test_the_cli_reference_lists_the_options_of_a_command(site: Path) -> None:
    import typer.main

    from deckbuilder.cli import app

    simulate = typer.main.get_command(app).commands["simulate"]  # type: ignore[attr-defined]
    options = [name for param in simulate.params for name in param.opts if name.startswith("--")]
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    section = page.split('id="deckbuilder-simulate"', 1)[1].split("<h2", 1)[0]
    assert "--baseline" in options
    missing = [option for option in options if option not in section]
    assert not missing, f"simulate options missing from its section: {missing}"


@needs_mkdocs
def test_the_switches_page_lists_every_switch_ruleset_and_module(site: Path) -> None:
    from deckbuilder.catalog import build_catalog

    catalog = build_catalog(use_user_data=False)
    page = (site / "reference" / "rule-switches" / "index.html").read_text(encoding="utf-8")
    card_sets = [loaded.card_set for loaded in catalog.sets.values()]
    switches = [switch for card_set in card_sets for switch in card_set.rule_switches]
    assert switches
    for switch in switches:
        assert f"<code>{switch.id}</code>" in page, f"switch {switch.id} missing"
        for variant in switch.variants:
            assert f"<code>{variant.value}</code>" in page, f"{switch.id}={variant.value} missing"
    rulesets = {ruleset.id for card_set in card_sets for ruleset in card_set.rulesets}
    modules = {module.id for card_set in card_sets for module in card_set.modules}
    missing = sorted(name for name in rulesets | modules if f"<code>{name}</code>" not in page)
    assert not missing, f"rulesets or modules missing from the switches page: {missing}"


@needs_mkdocs
def test_the_python_api_page_documents_the_public_api(site: Path) -> None:
    page = (site / "reference" / "python-api" / "index.html").read_text(encoding="utf-8")
    for target in ("deckbuilder.catalog.build_catalog", "deckbuilder.legality.validate_deck",
                   "deckbuilder.games.new_game", "deckbuilder.sim.simulate"):
        assert f'id="{target}"' in page, f"{target} is not documented"


# -- the scenario page keeps up with the format ----------------------------------------------
def test_the_scenarios_page_names_every_key_of_the_format() -> None:
    """Every key a scenario file may hold (position, sides, placed cards, expectations) is
    named on the players' page, so a new key cannot ship undocumented."""
    from deckbuilder.games.revolver.scenario_model import (
        Bandits,
        Expectations,
        Position,
        RevolverScenario,
    )
    from deckbuilder.games.revolver2.scenario_model import (
        Guardians,
        PokerPosition,
        Revolver2Expectations,
        Revolver2Position,
    )
    from deckbuilder.scenario_kit.parts import Offered, PlacedCard, Side

    page = (ROOT / "docs" / "players" / "scenarios.md").read_text(encoding="utf-8")
    models = (Expectations, Position, RevolverScenario, Bandits, PlacedCard, Side, Offered,
              Revolver2Position, Revolver2Expectations, Guardians, PokerPosition)
    keys = {key for model in models for key in model.model_fields}
    keys -= {"colty", "mcready", "esteban", "mapache", "name", "rule", "note", "game", "seed",
             "max_turns", "card", "battlefields", "actions", "position", "expect"}
    assert {"freed", "mcreadys_choice", "poker", "face_down"} <= keys  # the newest keys
    missing = sorted(key for key in keys
                     if not any(form.format(key=key) in page
                                for form in ("`{key}", " {key},", "{{{key}", ", {key}")))
    assert missing == []


# -- the README's links ------------------------------------------------------------------------
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:src|href)=\"([^\"]+)\"")
ABSOLUTE_INTO_REPOSITORY = re.compile(
    r"^https://(?:raw\.githubusercontent\.com/" + re.escape(REPOSITORY) + r"/[^/]+/"
    r"|github\.com/" + re.escape(REPOSITORY) + r"/(?:blob|tree|raw)/[^/]+/)(?P<path>[^#?]+)")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to `-`."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def readme_links(text: str) -> list[str]:
    without_code = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return [first or second for first, second in LINK.findall(without_code)]


def broken_links(readme: Path, root: Path | None = None) -> list[str]:
    """Links of a README that lead nowhere: a relative path (or an absolute link into this
    repository) whose file is missing under `root` (the README's folder by default), or an
    anchor no heading of the file has."""
    root = root if root is not None else readme.parent
    text = readme.read_text(encoding="utf-8")
    fence = re.compile(r"```.*?```", re.DOTALL)
    headings = {github_anchor(line.lstrip("#"))
                for line in fence.sub("", text).splitlines() if line.startswith("#")}
    broken = []
    for link in readme_links(text):
        into_repository = ABSOLUTE_INTO_REPOSITORY.match(link)
        if into_repository:
            target = into_repository.group("path")
        elif link.startswith("#"):
            if link[1:] not in headings:
                broken.append(link)
            continue
        elif re.match(r"^[a-z][a-z0-9+.-]*:", link):  # another site, mailto:
            continue
        else:
            target = link.split("#", 1)[0]
        if target and not (root / target).exists():
            broken.append(link)
    return broken


def test_every_relative_link_of_the_readme_points_to_a_file() -> None:
    assert readme_links(README.read_text(encoding="utf-8"))
    assert broken_links(README) == []


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("# here\n", encoding="utf-8")
    readme.write_text(
        "# Title\n\n## Quick start\n\n[ok](docs/here.md) [gone](docs/gone.md) "
        "[anchor](#quick-start) [no anchor](#nowhere) [web](https://example.org/x.md)\n"
        f"![shot](https://raw.githubusercontent.com/{REPOSITORY}/main/docs/missing.png)\n",
        encoding="utf-8")
    assert broken_links(readme) == [
        "docs/gone.md", "#nowhere",
        f"https://raw.githubusercontent.com/{REPOSITORY}/main/docs/missing.png"]

"""The example decks a player starts from: each is legal under Module D, plays whole games
with the modules it is built for, and at least two per Revolver faction use cards of the
Tarnished Star's modules or expansions (issue 9's "done means")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder.catalog import default_catalog
from deckbuilder.cli import app
from deckbuilder.decks import load_deck
from deckbuilder.legality import validate_deck

DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
EXAMPLES = sorted(DECKS.glob("example-*.yaml"))
#: The modules each example is built for (its comments say so); none: the plain game.
MODULES = {
    "example-mcready-prison-guard.yaml": ["san-manzanillo-prison-rules"],
    "example-colty-prison-break.yaml": ["san-manzanillo-prison-rules"],
}


def _expansion_cards(path: Path) -> set[str]:
    catalog = default_catalog()
    counts = load_deck(path, catalog).counts()
    base = ("revolver-base", "revolver2-base")
    return {card for card in counts
            if (entry := catalog.find(card)) is not None and entry.set_id not in base}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_deck_is_legal(path: Path) -> None:
    report = validate_deck(path, default_catalog())
    assert report.is_legal, [v.code for v in report.violations]


def test_two_examples_per_revolver_faction_use_expansion_cards() -> None:
    by_faction: dict[str, int] = {}
    for path in EXAMPLES:
        deck = load_deck(path, default_catalog()).deck
        if deck.game == "revolver" and _expansion_cards(path):
            by_faction[deck.faction] = by_faction.get(deck.faction, 0) + 1
    assert by_faction.get("mcready", 0) >= 2 and by_faction.get("colty", 0) >= 2, by_faction


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_deck_is_simulated_with_its_modules(path: Path) -> None:
    options = [arg for module in MODULES.get(path.name, []) for arg in ("--module", module)]
    result = CliRunner().invoke(app, ["simulate", str(path), "--games", "12", "--seed", "3",
                                      "--workers", "1", "--bot", "greedy", "--json", *options])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 12

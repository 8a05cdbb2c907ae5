"""`deckbuilder data status`: per set and per deck, values stated by a document, confirmed by a
player, or unconfirmed, counted as `cards --unconfirmed` counts them."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.answers import AS_SHOWN, save_answer
from deckbuilder.data_packs.exchange import import_pack

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.exit_code, result.stdout


def status(*args: str) -> dict:
    return json.loads(run("data", "status", *args, "--json")[1])


def unconfirmed_listed() -> tuple[int, int]:
    """(values listed by `cards --unconfirmed --json`, confirmed figure of its text)."""
    rows = json.loads(run("cards", "--unconfirmed", "--json")[1])
    text = " ".join(run("cards", "--unconfirmed")[1].split())
    confirmed = int(text.split("over the whole catalog ")[1].split(" values are confirmed")[0])
    return len(rows), confirmed


def test_the_counts_match_cards_unconfirmed_before_and_after_a_review(tmp_path: Path) -> None:
    found = status()
    listed, confirmed = unconfirmed_listed()
    assert found["catalog"]["unconfirmed"] == listed
    assert found["catalog"]["stated"] + found["catalog"]["player"] == confirmed
    assert found["catalog"]["player"] == 0
    per_set = {row["set"]: row for row in found["sets"]}
    rows = json.loads(run("cards", "--unconfirmed", "--json")[1])
    assert per_set["revolver-base"]["unconfirmed"] == sum(
        row["set"] == "revolver-base" for row in rows)
    save_answer("deputy", "cost", 2)
    save_answer("deputy", "icons", AS_SHOWN)
    pack = tmp_path / "p.yaml"
    pack.write_text(json.dumps({"format": 1, "id": "p", "version": "1",
                                "applies_to": {"revolver-base": "1.0"},
                                "values": {"cowboy": {"cost": {"value": 0, "source": "me"}}}}))
    import_pack(pack)
    after = status()
    listed_after, confirmed_after = unconfirmed_listed()
    assert after["catalog"]["unconfirmed"] == listed_after == listed - 3
    assert after["catalog"]["player"] == 3
    assert after["catalog"]["stated"] + after["catalog"]["player"] == confirmed_after
    assert after["packs"][0]["id"] == "p" and after["overlay"] is not None


def test_a_deck_names_the_cards_to_review_first() -> None:
    found = status("mcready")
    (deck,) = found["decks"]
    catalog = build_catalog()
    cards = catalog.base_deck("revolver", "mcready")
    unknown = {card: len(catalog.entries[card].record.provenance.unconfirmed)
               for card in cards}
    assert deck["unconfirmed"] == sum(unknown.values())
    first = deck["review_first"]
    assert len(first) == 5
    weights = [row["unconfirmed"] * row["copies"] for row in first]
    assert weights == sorted(weights, reverse=True)
    assert max(unknown[card] * cards[card] for card in cards) == weights[0]
    text = run("data", "status", "mcready")[1]
    assert "review first:" in text and first[0]["name"] in text


def test_every_packaged_deck_is_counted_without_a_deck_named() -> None:
    found = status()
    assert len(found["decks"]) >= 4
    assert all(deck["total"] == deck["stated"] + deck["player"] + deck["unconfirmed"]
               for deck in found["decks"])

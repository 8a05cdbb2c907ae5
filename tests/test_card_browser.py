"""The card browser a player expects: texts in the list, `cards show NAME`, `--search`,
characters and battlefields, and what `validate` / `simulate` say about the data."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.app.data_notes import deck_data_notes
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app

runner = CliRunner()
DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
PINKERTONS = DECKS / "example-mcready-pinkertons.yaml"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def test_the_card_list_carries_each_cards_text() -> None:
    code, out, _ = run("cards", "--faction", "mcready", "--json")
    assert code == 0
    ranger = next(row for row in json.loads(out) if row["id"] == "texas-ranger")
    assert ranger["text"] == build_catalog().card("texas-ranger").text
    assert "Sister Sarah" in ranger["text"]
    code, out, _ = run("cards", "--faction", "mcready")
    assert "Sister Sarah" in out  # the table shows the text too


def test_search_finds_words_in_texts_and_names_and_nothing_else() -> None:
    code, out, _ = run("cards", "--search", "sister sarah", "--json")
    assert code == 0
    found = {row["id"] for row in json.loads(out)}
    assert "texas-ranger" in found  # named only in its text
    catalog = build_catalog()
    for card_id in found:
        record = catalog.entries[card_id].record
        haystack = " ".join([record.name, *record.aliases, record.text or ""]).lower()
        assert "sister" in haystack and "sarah" in haystack
    code, out, _ = run("cards", "--search", "sister zebra", "--json")
    assert json.loads(out) == []  # every word must be found


def test_show_prints_text_values_sources_unconfirmed_and_engine_support() -> None:
    code, out, _ = run("cards", "show", "Texas Ranger", "--json")
    assert code == 0
    details = json.loads(out)
    record = build_catalog().card("texas-ranger")
    assert details["id"] == "texas-ranger" and details["text"] == record.text
    values = {row["field"]: row for row in details["values"]}
    assert values["copies"]["value"] == record.copies
    assert values["copies"]["source"] == record.provenance.sources["copies"]
    assert sorted(details["unconfirmed"]) == sorted(record.provenance.unconfirmed)
    for field in record.provenance.unconfirmed:
        if field in values:
            assert values[field]["unconfirmed"]
    assert details["engine"] == {"plays": True, "reasons": []}
    code, out, _ = run("cards", "show", "texas-ranger")
    assert code == 0 and "unconfirmed" in out and "engine: plays it" in out
    assert record.provenance.sources["copies"] in out


def test_show_says_why_the_engine_cannot_play_a_card() -> None:
    from deckbuilder.app.card_details import engine_support
    from deckbuilder.engine.support import unimplemented_reasons

    catalog = build_catalog()
    entry = catalog.entries["texas-ranger"]
    # Validated from data, as a card set's file would give it (a copy with a raw dict in
    # place of the step model would warn when serialised).
    manual = type(entry.record).model_validate(
        {**entry.record.model_dump(), "effect": [{"do": "manual", "text": "unclear"}]})
    from deckbuilder.catalog import Entry

    verdict = engine_support(Entry(manual, "card", entry.set_id, entry.game))
    assert not verdict["plays"]
    assert verdict["reasons"] == unimplemented_reasons(manual)


def test_show_forgives_a_typo_only_by_suggesting() -> None:
    code, _, err = run("cards", "show", "Texas Rangr")
    assert code == 2
    assert "did you mean Texas Ranger?" in err and "\n" not in err.strip()


def test_a_name_both_games_print_shows_both_records_unless_a_game_is_chosen() -> None:
    _, out, _ = run("cards", "show", "Gatling Gun", "--json")
    both = json.loads(out)
    assert {row["game"] for row in both} == {"revolver", "revolver2"}
    _, out, _ = run("cards", "show", "Gatling Gun", "--game", "revolver2", "--json")
    assert json.loads(out)["game"] == "revolver2"


def test_characters_list_survival_ratings_and_tokens() -> None:
    catalog = build_catalog()
    code, out, _ = run("characters", "--game", "revolver2", "--json")
    assert code == 0
    rows = json.loads(out)
    expected = {e.id for e in catalog.iter_kind("character") if e.game == "revolver2"}
    assert {row["id"] for row in rows} == expected
    for row in rows:
        record = catalog.entries[row["id"]].record
        assert (row["survival"], row["true_grit"]) == (record.survival, record.true_grit)
    code, guardians, _ = run("cards", "--kind", "guardians", "--json")
    assert {row["id"] for row in json.loads(guardians)} == expected
    code, table, _ = run("characters", "--game", "revolver2")
    assert "survival" in table and "true grit" in table


def test_battlefields_list_spaces_and_defence_in_order() -> None:
    catalog = build_catalog()
    _, out, _ = run("battlefields", "--game", "revolver", "--json")
    rows = json.loads(out)
    for row in rows:
        record = catalog.entries[row["id"]].record
        assert row["defence"] == record.defence
        assert [space["label"] for space in row["spaces"]] == [s.label for s in record.spaces]
    _, table, _ = run("cards", "--kind", "battlefield", "--game", "revolver")
    assert "defence" in table and "-, 1, 2" in table


def test_an_unknown_kind_names_the_choices() -> None:
    code, _, err = run("cards", "--kind", "wizard")
    assert code == 2 and "battlefield" in err and "guardian" in err


def test_validate_and_simulate_say_when_an_overlay_is_in_use_and_what_is_unconfirmed() -> None:
    _, out, _ = run("validate", PINKERTONS, "--json")
    notes = json.loads(out)["notes"]
    assert not any("overlay" in note for note in notes)  # none yet
    assert any("unconfirmed" in note for note in notes)
    assert run("overlay", "set", "Texas Ranger", "cost", "2", "--source", "my card")[0] == 0
    _, out, _ = run("validate", PINKERTONS)
    assert f"the overlay {paths.overlay_path()} is in use" in out
    assert "1 on this deck's cards" in out


def test_the_unconfirmed_count_is_the_decks_own() -> None:
    catalog = build_catalog()
    cards = {"texas-ranger": 2}
    guessed = len(catalog.card("texas-ranger").provenance.unconfirmed)
    notes = deck_data_notes(cards, catalog)
    assert notes and notes[-1].startswith(f"{guessed} values of this deck's cards are")
    assert "on 1 of its 1 cards: Texas Ranger" in notes[-1]


def test_overlay_set_and_unset_take_names() -> None:
    code, out, _ = run("overlay", "set", "Texas Ranger", "cost", "2", "--source", "my card")
    assert code == 0 and out.startswith("texas-ranger.cost")
    assert build_catalog().card("texas-ranger").cost == 2
    code, out, _ = run("overlay", "set", "texas-ranger", "firepower", "3", "--source", "errata")
    assert code == 0
    packaged = build_catalog(use_user_data=False).card("texas-ranger")
    code, out, _ = run("overlay", "unset", "Texas Ranger", "cost")
    assert code == 0
    ranger = build_catalog().card("texas-ranger")
    assert ranger.cost == packaged.cost and ranger.firepower == 3
    assert ranger.provenance.source_of("cost") == packaged.provenance.source_of("cost")
    assert ranger.provenance.source_of("firepower").endswith(": errata")  # its label dropped
    code, out, _ = run("overlay", "unset", "texas-ranger")
    assert code == 0 and build_catalog().card("texas-ranger") == packaged
    code, _, err = run("overlay", "unset", "texas-ranger")
    assert code == 2 and "does not correct" in err


def test_a_name_two_records_share_is_refused_with_both_ids() -> None:
    code, _, err = run("overlay", "set", "Gatling Gun", "cost", "2", "--source", "x")
    assert code == 2 and "gatling-gun" in err and "malpaso-gatling-gun" in err

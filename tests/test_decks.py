"""Deck files (load with lines, new, swap in place, diff) and text deck lists (import, export)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.decklists import (
    LineStatus,
    export_deck_list,
    parse_deck_list,
)
from deckbuilder.decks import (
    diff_decks,
    load_collection,
    load_deck,
    new_deck,
    resolve_deck,
    swap_cards,
)
from deckbuilder.errors import DataFileError, DeckbuilderError, DeckError
from deckbuilder.models import Deck
from deckbuilder.shared_lists import import_any_deck_list

SETS = Path(__file__).resolve().parent / "fixtures" / "decks" / "sets"
DECKS = Path(__file__).resolve().parent / "fixtures" / "decks"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(package_sets=sorted(SETS.glob("*.yaml")), use_user_data=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- loading --------------------------------------------------------------------------------
def test_load_deck_resolves_names_and_ids_and_remembers_lines(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", """\
name: mixed
game: revolver
faction: mcready
cards:
  mini-sharps-rifle: 20
  # names work too, in any case and punctuation
  REPRESENTATIVE of the law: 20
  Texs Ranger: 1
""")
    deck = load_deck(path, catalog)
    assert [(e.key, e.line) for e in deck.entries] == [
        ("mini-sharps-rifle", 5), ("REPRESENTATIVE of the law", 7), ("Texs Ranger", 8)
    ]
    assert deck.counts() == {"mini-sharps-rifle": 20, "mini-representative-of-the-law": 20}
    assert [e.key for e in deck.unknown()] == ["Texs Ranger"]
    assert deck.total() == 41
    assert deck.cards_line() == 4


def test_a_deck_file_that_is_not_a_deck_fails_with_its_line(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", "name: x\ngame: revolver\nfaction: colty\ncards:\n  a: zero\n")
    with pytest.raises(DataFileError) as caught:
        load_deck(path, catalog)
    assert caught.value.where.line == 5


def test_the_fixture_decks_load(catalog):
    assert load_deck(DECKS / "rangers.yaml", catalog).total() == 62
    assert load_deck(DECKS / "every-problem.yaml", catalog).total() == 66
    with pytest.raises(DataFileError, match="invalid YAML"):
        load_deck(DECKS / "broken.yaml", catalog)


# -- collections ----------------------------------------------------------------------------
def test_a_collection_owns_boxes_times_copies_plus_loose_cards(catalog, tmp_path):
    path = write(tmp_path, "c.yaml", "sets:\n  mini-star: 2\ncards:\n  Texas Ranger: 1\n")
    owned = load_collection(path, catalog)
    assert owned["mini-texas-ranger"] == 2 * 2 + 1
    assert owned["mini-clarence-stickley"] == 2
    assert "mini-sharps-rifle" not in owned


def test_a_collection_with_a_typo_says_where_and_suggests(catalog, tmp_path):
    path = write(tmp_path, "c.yaml", "sets:\n  mini-star: 1\ncards:\n  Texs Ranger: 1\n")
    with pytest.raises(DataFileError, match="unknown card 'Texs Ranger'") as caught:
        load_collection(path, catalog)
    assert caught.value.where.line == 4
    assert "Texas Ranger" in caught.value.fix


def test_a_collection_naming_a_set_that_is_not_installed_is_refused(catalog, tmp_path):
    path = write(tmp_path, "c.yaml", "sets:\n  mini-nowhere: 1\n")
    with pytest.raises(DataFileError, match="not installed"):
        load_collection(path, catalog)


# -- new ------------------------------------------------------------------------------------
def test_new_writes_the_base_deck_under_ids_with_names_beside(catalog, tmp_path):
    path = tmp_path / "colty.yaml"
    cards = new_deck(catalog, "colty", path)
    loaded = load_deck(path, catalog)
    assert loaded.counts() == catalog.base_deck("revolver", "colty") == cards
    assert loaded.faction == "colty" and loaded.game == "revolver"
    assert "mini-38-special: 20" in path.read_text()
    assert "# .38 Special" in path.read_text()


def test_new_refuses_to_overwrite_unless_forced(catalog, tmp_path):
    path = write(tmp_path, "mine.yaml", "my precious deck\n")
    with pytest.raises(DeckbuilderError, match="already exists"):
        new_deck(catalog, "mcready", path)
    assert path.read_text() == "my precious deck\n"
    new_deck(catalog, "mcready", path, force=True)
    assert load_deck(path, catalog).faction == "mcready"


def test_new_refuses_a_faction_without_a_base_deck(catalog, tmp_path):
    with pytest.raises(DeckError, match="no base deck"):
        new_deck(catalog, "frontier", tmp_path / "f.yaml")
    assert not (tmp_path / "f.yaml").exists()


# -- swap -----------------------------------------------------------------------------------
COMMENTED = """\
# My lawmen, tuned for the bank
name: rangers   # working title
game: revolver
faction: mcready
cards:
  # the boss stays
  mini-colonel-mcready: 1
  Representative of the Law: 20  # cheap

  # actions
  mini-buffalo-stampede: 10
  mini-fire-at-will: 10   # keep all ten
  mini-sister-sarah: 1
  mini-sharps-rifle: 20
# end of deck
"""


def test_swap_part_of_an_entry_keeps_comments_and_order(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED)
    result = swap_cards(path, catalog, "Representative of the Law", "Texas Ranger", count=2)
    assert (result.in_id, result.count) == ("mini-texas-ranger", 2)
    expected = COMMENTED.replace(
        "  Representative of the Law: 20  # cheap\n",
        "  Representative of the Law: 18  # cheap\n"
        "  mini-texas-ranger: 2                  # Texas Ranger\n",
    )
    assert path.read_text() == expected


def test_swap_a_whole_entry_puts_the_new_card_in_its_place(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED)
    swap_cards(path, catalog, "mini-fire-at-will", "mini-double-the-guard", count=10)
    # The removed line's own end-of-line comment goes with it; every other comment stays.
    expected = COMMENTED.replace(
        "  mini-fire-at-will: 10   # keep all ten\n",
        "  mini-double-the-guard: 10             # Double the guard\n",
    )
    assert path.read_text() == expected


def test_swap_keeps_the_comment_lines_below_a_removed_entry(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED)
    swap_cards(path, catalog, "Representative of the Law", "mini-sharps-rifle", count=20)
    expected = COMMENTED.replace("  Representative of the Law: 20  # cheap\n", "").replace(
        "mini-sharps-rifle: 20", "mini-sharps-rifle: 40")
    assert path.read_text() == expected


def test_swap_removing_the_first_entry_keeps_the_comments_around_it(catalog, tmp_path):
    text = COMMENTED.replace("  mini-colonel-mcready: 1\n", "  mini-colonel-mcready: 1\n  # law\n")
    path = write(tmp_path, "d.yaml", text)
    swap_cards(path, catalog, "mini-colonel-mcready", "mini-sister-sarah")
    expected = (text.replace("  mini-colonel-mcready: 1\n", "")
                .replace("mini-sister-sarah: 1", "mini-sister-sarah: 2"))
    assert path.read_text() == expected


def test_swap_into_a_card_already_in_the_deck_adds_to_its_entry(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED)
    swap_cards(path, catalog, "mini-buffalo-stampede", "Sharps Rifle", count=3)
    expected = COMMENTED.replace("mini-buffalo-stampede: 10", "mini-buffalo-stampede: 7").replace(
        "mini-sharps-rifle: 20", "mini-sharps-rifle: 23")
    assert path.read_text() == expected


def test_swap_refuses_more_copies_than_the_deck_has_and_leaves_the_file_alone(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED)
    with pytest.raises(DeckError, match="has 1 copy of Sister Sarah") as caught:
        swap_cards(path, catalog, "Sister Sarah", "mini-clarence-stickley", count=2)
    assert caught.value.where.line == 13
    assert path.read_text() == COMMENTED


@pytest.mark.parametrize(
    ("out_card", "in_card", "message"),
    [
        ("mini-sister-sarah", "Clarense Stickly", "in card 'Clarense Stickly' is not a known"),
        ("Sistr Sarah", "mini-texas-ranger", "out card 'Sistr Sarah' is not a known"),
        ("mini-texas-ranger", "mini-tracker", "no copy of Texas Ranger"),
        ("mini-sharps-rifle", "Sharps Rifle", "the same card"),
    ],
)
def test_swap_refuses_cards_it_cannot_find(catalog, tmp_path, out_card, in_card, message):
    path = write(tmp_path, "d.yaml", COMMENTED)
    with pytest.raises(DeckError, match=message):
        swap_cards(path, catalog, out_card, in_card)
    assert path.read_text() == COMMENTED


def test_swap_in_a_flow_style_mapping_stays_on_one_line(catalog, tmp_path):
    text = ("name: x\ngame: revolver\nfaction: mcready\n"
            "cards: {Sister Sarah: 1, mini-sharps-rifle: 2}\n")
    path = write(tmp_path, "d.yaml", text)
    swap_cards(path, catalog, "Sister Sarah", "mini-clarence-stickley")
    assert path.read_text() == text.replace("Sister Sarah", "mini-clarence-stickley")


def test_swap_can_take_out_an_entry_with_an_unknown_name(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED.replace("mini-sister-sarah", "Sistr Sarah"))
    swap_cards(path, catalog, "Sistr Sarah", "mini-sister-sarah")
    assert path.read_text() == COMMENTED.replace(
        "  mini-sister-sarah: 1\n", "  mini-sister-sarah: 1                  # Sister Sarah\n")


# -- diff -----------------------------------------------------------------------------------
def test_diff_lists_cards_out_and_in_by_copies(catalog):
    base = catalog.base_deck("revolver", "mcready")
    first = resolve_deck(Deck(name="a", game="revolver", faction="mcready", cards=base), catalog)
    cards = {**base, "mini-representative-of-the-law": 17, "Texas Ranger": 2, "Strongbx": 1}
    second = resolve_deck(Deck(name="b", game="revolver", faction="mcready", cards=cards), catalog)
    changes = diff_decks(first, second)
    assert [(c.card, c.count) for c in changes.out] == [("mini-representative-of-the-law", 3)]
    assert [(c.card, c.count) for c in changes.into] == [("mini-texas-ranger", 2), ("Strongbx", 1)]
    assert diff_decks(second, first).out == changes.into
    assert diff_decks(first, first).is_empty


# -- text deck lists ------------------------------------------------------------------------
LIST = """\
# faction: mcready
# name: Rangers from a forum post
1x Colonel McReady
17 Representative of the Law
Texs Ranger x2   # typo on purpose
1 Rock-strewn vantage point
10x Buffalo Stampede

5x Fire at will boys
5 x fire at will, boys
20x Sharps Rifle
0x Sharps Rifle
3x
Sister Sarah
"""


def labels(deck_list) -> dict[int, LineStatus]:
    return {line.number: line.status for line in deck_list.lines}


def test_text_import_labels_every_line(catalog):
    deck_list = parse_deck_list(LIST, catalog)
    assert labels(deck_list) == {
        1: "header", 2: "header", 3: "ok", 4: "ok", 5: "unknown", 6: "ok", 7: "ok", 8: "blank",
        9: "ok", 10: "merged", 11: "ok", 12: "bad-count", 13: "unreadable", 14: "ok",
    }
    assert deck_list.faction == "mcready" and deck_list.name == "Rangers from a forum post"
    assert [line.number for line in deck_list.problems] == [5, 12, 13]


def test_text_import_labels_a_typo_with_the_suggestion_and_keeps_it(catalog):
    typo = parse_deck_list(LIST, catalog).lines[4]
    assert "did you mean Texas Ranger" in typo.message
    assert (typo.card, typo.count) == ("Texs Ranger", 2)


def test_text_import_merges_duplicate_lines_before_counting(catalog):
    deck_list = parse_deck_list(LIST, catalog)
    assert deck_list.cards["mini-fire-at-will"] == 10
    assert "line 9" in deck_list.lines[9].message
    assert deck_list.cards["mini-sharps-rifle"] == 20  # the 0x line was skipped
    assert sum(deck_list.cards.values()) == 62


def test_text_import_warns_about_cards_validate_will_refuse(catalog):
    deck_list = parse_deck_list("# faction: colty\n1x Dynamite\n1x Cortez\n1 Strongbox\n", catalog)
    assert [line.status for line in deck_list.lines[1:]] == ["ok", "warning", "warning"]


def test_text_import_faction_comes_from_the_option_the_header_or_the_cards(catalog):
    assert parse_deck_list("# faction: colty\n", catalog, faction="mcready").faction == "mcready"
    assert parse_deck_list("3x .38 Special\n2 Dynamite\n", catalog).faction == "colty"
    bad = parse_deck_list("# faction: cowboys\n", catalog)
    assert bad.lines[0].status == "bad-header" and bad.faction is None


def test_importing_a_list_writes_a_deck_with_ids(catalog, tmp_path):
    source = write(tmp_path, "list.txt", LIST)
    out = tmp_path / "deck.yaml"
    import_any_deck_list(source, catalog, out)
    deck = load_deck(out, catalog)
    assert deck.name == "Rangers from a forum post"
    assert deck.counts()["mini-vantage-point"] == 1
    assert [e.key for e in deck.unknown()] == ["Texs Ranger"]
    assert "mini-representative-of-the-law: 17" in out.read_text()


def test_importing_a_list_without_a_faction_is_refused(catalog, tmp_path):
    source = write(tmp_path, "list.txt", "2x Texs Ranger\n")
    with pytest.raises(DeckError, match="whose deck"):
        import_any_deck_list(source, catalog, tmp_path / "deck.yaml")


def test_export_then_import_gives_back_the_same_deck(catalog, tmp_path):
    path = write(tmp_path, "d.yaml", COMMENTED.replace("game: revolver\n",
                                                        "game: revolver\nsets: [mini-star]\n"))
    loaded = load_deck(path, catalog)
    text = export_deck_list(loaded)
    assert text.splitlines()[:3] == ["# name: rangers", "# faction: mcready", "# sets: mini-star"]
    again = parse_deck_list(text, catalog)
    assert again.cards == loaded.counts()
    assert again.sets == ["mini-star"]
    assert not again.problems


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    counts=st.lists(st.integers(1, 99), min_size=1, max_size=6),
    style=st.sampled_from(["{n}x {name}", "{n} {name}", "{name} x{n}", "{name} x {n}"]),
)
def test_property_every_count_style_reads_the_same(catalog, counts, style):
    names = ["Sharps Rifle", "Texas Ranger", "Fire at will boys", ".38 Special", "Dynamite",
             "Buffalo Stampede"]
    text = "\n".join(style.format(n=n, name=name) for n, name in zip(counts, names, strict=False))
    deck_list = parse_deck_list(text, catalog, faction="mcready")
    assert list(deck_list.cards.values()) == counts
    assert all(line.status in ("ok", "warning") for line in deck_list.lines)


def test_a_card_name_that_starts_with_a_number_is_read_whole(catalog):
    deck_list = parse_deck_list("2x .38 Special\n.45 Long Colt\n60x Dynamite\n50 dynamite\n",
                                catalog, faction="colty")
    assert deck_list.cards == {"mini-38-special": 2, "mini-45-long-colt": 1, "mini-dynamite": 60}
    assert deck_list.lines[3].status == "bad-count"  # merging would pass 99 copies


def test_every_packaged_deck_exports_and_imports_back_unchanged():
    real = build_catalog(use_user_data=False)
    decks = sorted((Path(__file__).resolve().parents[1] / "deckbuilder/data/decks").glob("*.yaml"))
    assert decks
    for path in decks:
        loaded = load_deck(path, real)
        again = parse_deck_list(export_deck_list(loaded), real)
        assert again.cards == loaded.counts(), path.name
        assert not again.problems and again.faction == loaded.faction

"""The card face (deckbuilder.card_face): every packaged record reads as words in an
80-column terminal and as escaped HTML, with every value no document states marked; the
values shown are the record's own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from deckbuilder import paths
from deckbuilder.card_face import CardFace, face, face_html, face_text, one_line, stylesheet
from deckbuilder.card_face.text import LEGEND
from deckbuilder.catalog import Catalog, Entry, build_catalog

RAW_JSON = re.compile(r"""\{\s*["']do["']\s*:|["']do["']\s*:""")
VOID_ELEMENTS = {"br", "hr", "img", "input", "meta", "link"}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """The packaged sets only (no user data), built once for the module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(paths.HOME_VARIABLE, str(tmp_path_factory.mktemp("home")))
        patch.setenv(getattr(paths, "CACHE_VARIABLE", "DECKBUILDER_CACHE"),
                     str(tmp_path_factory.mktemp("cache")))
        yield build_catalog(use_user_data=False)


def marked_fields(shown: CardFace) -> set[str]:
    """The fields some part of the face shows as unconfirmed."""
    return {name for row in shown.rows() if row.unconfirmed for name in row.fields}


def flat(text: str) -> str:
    return " ".join(text.split())


def entries(catalog: Catalog, kind: str) -> list[Entry]:
    return [entry for entry in catalog.entries.values() if entry.kind == kind]


def fact_value(shown: Any, label: str) -> str:
    values = [fact.value for fact in shown.facts if fact.label == label]
    assert len(values) == 1, f"{shown.id}: {label} shown {len(values)} times"
    return values[0]


class Structure(HTMLParser):
    """Checks that tags nest and close, and collects the classes and the text."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: list[str] = []
        self.classes: set[str] = set()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append(tag)
        for name, value in attrs:
            if name == "class" and value:
                self.classes.update(value.split())
        if tag not in VOID_ELEMENTS:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


def parsed(fragment: str) -> Structure:
    structure = Structure()
    structure.feed(fragment)
    structure.close()
    return structure


# -- every packaged record ------------------------------------------------------------------
def test_every_packaged_record_has_a_face_in_80_columns_without_json(catalog: Catalog) -> None:
    assert len(catalog.entries) > 100
    problems = []
    for entry in catalog.entries.values():
        shown = face(entry, catalog)
        lines = face_text(shown)
        html = face_html(shown)
        summary = one_line(entry)
        problems += [f"{entry.id}: {len(line)} columns: {line!r}" for line in lines
                     if len(line) > 80]
        problems += [f"{entry.id}: raw JSON in {where}" for where, text in
                     (("text", "\n".join(lines)), ("html", html), ("one line", summary))
                     if RAW_JSON.search(text)]
        if "\n" in summary or not summary.startswith(entry.name):
            problems.append(f"{entry.id}: one line {summary!r}")
        structure = parsed(html)
        problems += [f"{entry.id}: {problem}" for problem in structure.problems]
        if structure.open or structure.seen[:2] != ["article", "h2"]:
            problems.append(f"{entry.id}: html not an article with a heading: {structure.seen}")
    assert problems == []


def test_every_unconfirmed_value_is_marked_in_text_and_html(catalog: Catalog) -> None:
    problems = []
    for entry in catalog.entries.values():
        provenance = entry.record.provenance
        shown = face(entry, catalog)
        text = flat(" ".join(face_text(shown)))
        html = face_html(shown)
        unmarked = set(provenance.unconfirmed) - marked_fields(shown)
        if unmarked:
            problems.append(f"{entry.id}: unconfirmed but not marked: {sorted(unmarked)}")
        for fact in shown.facts:
            if fact.unconfirmed and flat(f"{fact.value}?") not in text:
                problems.append(f"{entry.id}: {fact.label} has no ? in the text")
            if fact.unconfirmed and (f'<dd class="unconfirmed" title="unconfirmed: no document '
                                     f'states this value">{escape(fact.value)}<span '
                                     'class="card-face__flag"') not in html:
                problems.append(f"{entry.id}: {fact.label} is not marked in the html")
            if (fact.unconfirmed and fact.fields
                    and all(name in provenance.sources for name in fact.fields)):
                problems.append(f"{entry.id}: {fact.label} is sourced but marked")
        if shown.title_unconfirmed and not text.startswith(f"{entry.name}?"):
            problems.append(f"{entry.id}: the name's guess is not marked")
        if provenance.unconfirmed and (LEGEND not in text or ("?" not in one_line(entry)
                                       and _one_line_shows_a_guess(entry))):
            problems.append(f"{entry.id}: no legend (or no ? in the one line)")
    assert problems == []


def _one_line_shows_a_guess(entry: Entry) -> bool:
    """Whether a field the one-line summary shows is among the record's guesses."""
    shown = {"card": ("cost", "firepower", "chip", "name"), "character": ("survival", "name"),
             "battlefield": ("defence", "spaces", "name"), "token": ("count", "name")}
    fields = shown.get(entry.kind, ("name",))
    return any(name in entry.record.provenance.unconfirmed for name in fields)


def test_a_confirmed_record_has_no_marks(catalog: Catalog) -> None:
    confirmed = [entry for entry in catalog.entries.values()
                 if not entry.record.provenance.unconfirmed
                 and set(entry.record.model_fields_set) - {"id", "aliases", "text", "provenance"}
                 <= set(entry.record.provenance.sources)]
    assert confirmed, "the packaged data has fully sourced records"
    for entry in confirmed:
        shown = face(entry, catalog)
        assert marked_fields(shown) == set(), entry.id
        assert LEGEND not in face_text(shown)
        assert "unconfirmed" not in face_html(shown)


# -- the values are the record's --------------------------------------------------------------
def test_firepower_cards_show_their_cost_firepower_and_chip(catalog: Catalog) -> None:
    cards = [entry for entry in entries(catalog, "card")
             if entry.record.firepower is not None and entry.record.chip is not None]
    assert len(cards) > 10
    for entry in cards:
        card = entry.record
        shown = face(entry, catalog)
        assert fact_value(shown, "Firepower") == str(card.firepower)
        assert fact_value(shown, "Chip") == str(card.chip)
        assert fact_value(shown, "Category") == str(card.category).replace("-", " ")
        assert str(card.cost) in fact_value(shown, "Cost") or card.cost == 0
        summary = one_line(entry)
        cost = "free" if card.cost == 0 else rf"discard {card.cost} cards?"
        assert re.search(rf"cost {cost}\??,", summary), summary  # the face's own words
        assert re.search(rf"firepower {card.firepower}\?? \({card.chip}\??\)", summary), summary


def test_uniques_gunslingers_icons_and_revolver2_counters(catalog: Catalog) -> None:
    cards = [entry.record for entry in entries(catalog, "card")]
    gunslingers = [card for card in cards if card.gunslinger]
    with_icons = [card for card in cards if card.icons]
    counted = [card for card in cards if card.ammunition or card.powder_kegs]
    assert gunslingers and with_icons and counted
    for card in gunslingers:
        marks = [mark.label for mark in face(catalog.entries[card.id], catalog).marks]
        assert "unique gunslinger" in marks
    for card in with_icons:
        shown = fact_value(face(catalog.entries[card.id], catalog), "Icons")
        assert len(shown.split(", ")) == len(card.icons)
        assert all(icon.split("-")[0] in shown for icon in card.icons if "clock" not in icon)
    for card in counted:
        shown = face(catalog.entries[card.id], catalog)
        if card.ammunition:
            assert fact_value(shown, "Ammunition") == str(card.ammunition)
        if card.powder_kegs:
            assert fact_value(shown, "Powder kegs") == str(card.powder_kegs)


def test_characters_battlefields_poker_cards_and_pieces_show_their_numbers(
        catalog: Catalog) -> None:
    for entry in entries(catalog, "character"):
        shown = face(entry, catalog)
        assert fact_value(shown, "Survival rating") == str(entry.record.survival)
        assert re.search(rf"survival {entry.record.survival}\??$|survival "
                         rf"{entry.record.survival}\??,", one_line(entry))
        if entry.record.true_grit:
            assert fact_value(shown, "True grit").startswith(str(entry.record.true_grit))
    for entry in entries(catalog, "battlefield"):
        shown = face(entry, catalog)
        assert fact_value(shown, "Defence") == str(entry.record.defence)
        assert fact_value(shown, "Place in the row") == str(entry.record.order)
        labels = fact_value(shown, "Turn spaces")
        assert all(space.label in labels for space in entry.record.spaces)
        recruits = sum(space.recruit for space in entry.record.spaces)
        if recruits:
            figures = re.findall(r": (\d+) ", fact_value(shown, "Recruitment"))
            assert sum(map(int, figures)) == recruits
    poker = [entry for entry in entries(catalog, "special") if entry.record.poker is not None]
    assert poker
    for entry in poker:
        value = fact_value(face(entry, catalog), "Poker value")
        assert value == str(entry.record.poker.value) or entry.record.poker.cheat
    for entry in entries(catalog, "token"):
        assert fact_value(face(entry, catalog), "In the box") == str(entry.record.count)


def test_the_text_is_the_records_words_and_a_textless_effect_names_its_steps(
        catalog: Catalog) -> None:
    for entry in catalog.entries.values():
        shown = face(entry, catalog)
        if entry.record.text:
            assert flat(" ".join(shown.text)) == flat(entry.record.text)
            assert (shown.text_note == "") == ("text" in entry.record.provenance.sources)
    textless = [entry for entry in entries(catalog, "card")
                if not entry.record.text and entry.record.effect]
    assert textless
    for entry in textless:
        (paragraph,) = face(entry, catalog).text
        assert all(step.do in paragraph for step in entry.record.effect)


def test_narrow_terminals_get_lines_that_fit(catalog: Catalog) -> None:
    for width in (20, 33, 50):
        for entry in catalog.entries.values():
            assert max(map(len, face_text(face(entry, catalog), width))) <= width, entry.id


# -- hostile homebrew ----------------------------------------------------------------------
HOSTILE_SET = """\
id: hostile-homebrew
name: "Hostile <b>homebrew</b>"
version: "1.0"
game: revolver
kind: homebrew
cards:
  - id: hostile-card
    name: "<script>alert('x')</script>"
    aliases: ["\\x1b[2Jwiped"]
    faction: colty
    category: character
    play: firepower
    firepower: 3
    chip: red
    text: "Reads \\x1b[31mred\\x1b[0m & <img src=x onerror=alert(1)>"
    provenance:
      sources: {firepower: "my sheet \\"<i>\\""}
  - id: hostile-guess
    name: Guessed Aliases
    aliases: [Guess]
    faction: colty
    category: action
    play: one-shot
    provenance:
      sources: {name: "my sheet", faction: "my sheet", category: "my sheet", play: "my sheet"}
      unconfirmed: [aliases]
"""


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Entry, Catalog]:
    set_file = tmp_path / "hostile.yaml"
    set_file.write_text(HOSTILE_SET, encoding="utf-8")
    catalog = build_catalog(package_sets=[set_file], use_user_data=False)
    return catalog.entries["hostile-card"], catalog


def test_html_escapes_a_hostile_homebrew_card(hostile: tuple[Entry, Catalog]) -> None:
    entry, catalog = hostile
    html = face_html(face(entry, catalog))
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert parsed(html).problems == []


def test_terminal_text_shows_control_characters_as_escapes(
        hostile: tuple[Entry, Catalog]) -> None:
    entry, catalog = hostile
    lines = face_text(face(entry, catalog))
    assert not any("\x1b" in line for line in lines)
    assert "\\x1b[31mred" in flat(" ".join(lines))


def test_a_homebrew_value_without_a_source_is_marked(hostile: tuple[Entry, Catalog]) -> None:
    entry, catalog = hostile
    shown = face(entry, catalog)
    assert fact_value(shown, "Firepower") == "3"
    firepower = next(fact for fact in shown.facts if fact.label == "Firepower")
    chip = next(fact for fact in shown.facts if fact.label == "Chip")
    assert not firepower.unconfirmed  # the set names a source for it
    assert chip.unconfirmed and shown.title_unconfirmed  # set, but no source named
    assert "faction" in marked_fields(shown)


# -- the stylesheet and the outline ----------------------------------------------------------
def test_every_class_the_fragment_uses_is_styled(catalog: Catalog) -> None:
    css = stylesheet()
    used: set[str] = set()
    for entry in catalog.entries.values():
        used |= parsed(face_html(face(entry, catalog))).classes
    unstyled = sorted(name for name in used
                      if f".{name}" not in css and not name.startswith("card-face--"))
    assert unstyled == []
    assert "@media (max-width: 340px)" in css  # narrower than a phone (390 px)


def test_the_heading_level_fits_the_page(catalog: Catalog) -> None:
    shown = face(next(iter(catalog.entries.values())), catalog)
    assert parsed(face_html(shown, heading_level=1)).seen[1] == "h1"
    assert parsed(face_html(shown, heading_level=4)).seen[1] == "h4"


def test_a_guess_the_face_has_no_row_for_is_still_named(hostile: tuple[Entry, Catalog]) -> None:
    _, catalog = hostile
    shown = face(catalog.entries["hostile-guess"], catalog)
    assert marked_fields(shown) == {"aliases"}
    rows = [line.split() for line in face_text(shown) if line.startswith("  Also unconfirmed")]
    assert rows == [["Also", "unconfirmed", "aliases?"]]

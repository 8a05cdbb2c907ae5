"""A homebrew set's own sources on its cards' faces: "your set's notes", marked as the
player's (not a document's, not unconfirmed), and its text its own (not "a paraphrase"), in the
terminal and on the web."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckbuilder.card_face import face, face_text
from deckbuilder.card_face.html import face_html
from deckbuilder.catalog import Catalog, build_catalog

HOMEBREW = """\
id: dusty-homebrew
name: Dusty's homebrew
version: "1.0"
game: revolver
kind: homebrew
cards:
  - id: dusty-gun
    name: Dusty's Gun
    faction: colty
    category: firepower
    play: firepower
    cost: 1
    firepower: 3
    chip: black
    text: A big gun.
    provenance:
      sources: {name: design sheet, firepower: design sheet, text: design sheet}
      unconfirmed: [faction, category, play, cost, chip]
  - id: dusty-knife
    name: Dusty's Knife
    faction: colty
    category: firepower
    play: firepower
    firepower: 1
    chip: white
    text: A knife.
    provenance:
      sources: {name: design sheet, faction: design sheet, category: design sheet,
                play: design sheet, firepower: design sheet, chip: design sheet}
"""


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    set_file = tmp_path / "dusty.yaml"
    set_file.write_text(HOMEBREW, encoding="utf-8")
    return build_catalog(package_sets=[set_file], use_user_data=False)


def test_the_terminal_face_shows_the_sets_notes_as_the_players(catalog: Catalog) -> None:
    lines = face_text(face(catalog.entries["dusty-gun"], catalog), 80, encoding="utf-8")
    assert lines[0] == "Dusty's Gun\u2713"
    assert any(line.split() == ["Firepower", "3\u2713"] for line in lines)
    assert any(line.split() == ["Chip", "black?"] for line in lines)  # no source named
    assert "\u2713 confirmed by a player (your set's notes), not by a document" in lines
    assert not any("paraphrase" in line for line in lines)
    knife = face_text(face(catalog.entries["dusty-knife"], catalog), 80, encoding="utf-8")
    assert "  (your set's own text; it names no source for it)" in knife


def test_the_web_face_shows_the_sets_notes_with_their_source(catalog: Catalog) -> None:
    html = face_html(face(catalog.entries["dusty-gun"], catalog))
    assert '<dd class="player-confirmed" title="your set&#x27;s notes: design sheet">3' in html
    assert "stated by design sheet" not in html and "paraphrase" not in html
    assert "confirmed by a player, not by a document: your set&#x27;s notes" in html


def test_a_packaged_sets_sources_stay_a_documents() -> None:
    catalog = build_catalog(use_user_data=False)
    html = face_html(face(catalog.entries["whiskey-canyon"], catalog))
    assert "your set" not in html and 'title="stated by ' in html

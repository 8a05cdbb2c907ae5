"""The card face's third standing (issue 24, section 3): a value is stated by a document
(which), confirmed by a player (which pack, or the player's own overlay), or unconfirmed. The
face model carries it per row; the terminal face marks a player's value with `✓` (`+` where
the encoding has none) and a legend naming who confirmed; the HTML face gives it the class
`player-confirmed`, a title naming the pack and what the player said, and the stated values
a title naming their document."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from deckbuilder.card_face import CardFace, Fact, face, face_html, face_text
from deckbuilder.card_face.text import ASCII_PLAYER_MARK, LEGEND, PLAYER_MARK
from deckbuilder.catalog import build_catalog
from deckbuilder.data_packs.answers import AS_SHOWN, save_answer
from deckbuilder.data_packs.exchange import import_pack
from deckbuilder.data_packs.standing import Standing


def row(shown: CardFace, label: str) -> Fact:
    return next(each for each in shown.facts if each.label == label)


def line_of(lines: list[str], label: str) -> str:
    return next(line for line in lines if line.strip().startswith(label))


def test_a_value_from_the_packaged_data_has_no_players_mark() -> None:
    catalog = build_catalog()
    shown = face(catalog.entries["deputy"], catalog)
    cost, plays = row(shown, "Cost"), row(shown, "Plays as")
    assert cost.standing is Standing.UNCONFIRMED
    assert plays.standing is Standing.STATED and plays.confirmed_by == ""
    assert plays.source.startswith("stated by rulebook-en")
    lines = face_text(shown, encoding="utf-8")
    assert PLAYER_MARK not in "\n".join(lines)
    html = face_html(shown)
    assert "player-confirmed" not in html
    # a stated value names its document in its title
    assert f'title="{escape(plays.source, quote=True)}">firepower</dd>' in html


def test_the_players_own_answer_is_marked_in_the_text_and_the_html() -> None:
    save_answer("deputy", "cost", AS_SHOWN, "Ann")
    save_answer("deputy", "copies", 9, "Ann")
    catalog = build_catalog()
    shown = face(catalog.entries["deputy"], catalog)
    cost = row(shown, "Cost")
    assert cost.standing is Standing.PLAYER
    assert cost.confirmed_by == "your overlay"
    assert row(shown, "Firepower").standing is Standing.UNCONFIRMED
    assert shown.confirmed_by() == ("your overlay",)
    player_fields = {name for row in shown.rows() if row.standing is Standing.PLAYER
                     for name in row.fields}
    assert player_fields == {"cost", "silver_dollars", "cost_waived_at", "copies"}

    lines = face_text(shown, encoding="utf-8")
    assert line_of(lines, "Cost").endswith(f"discard 1 card{PLAYER_MARK}")
    assert line_of(lines, "Copies in its set").endswith(f"9{PLAYER_MARK}")
    assert line_of(lines, "Firepower").endswith("?")  # still our reading
    assert LEGEND in lines
    assert f"{PLAYER_MARK} confirmed by a player (your overlay), not by a document" in lines
    # a terminal that cannot write the tick gets an ASCII mark, in the legend too
    ascii_lines = face_text(shown, encoding="ascii")
    assert line_of(ascii_lines, "Cost").endswith(f"card{ASCII_PLAYER_MARK}")
    assert all(line.isascii() for line in ascii_lines)

    html = face_html(shown)
    assert '<dd class="player-confirmed" title="confirmed by a player (your overlay): read ' \
           'from the printed card, ' in html
    assert "by Ann\">discard 1 card<span class=\"card-face__flag card-face__flag--player\"" \
        in html
    assert "(confirmed by a player: your overlay)" in html  # for screen readers
    assert "confirmed by a player, not by a document: your overlay" in html


def test_a_packs_value_names_the_pack(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text(json.dumps({
        "format": 1, "id": "mcready-printed", "version": "2",
        "applies_to": {"revolver-base": "1.0"},
        "values": {"deputy": {"firepower": {"value": 2, "source": "read from my box"}},
                   "cactus-field": {"effect": {"value": [], "source": "as printed"}}}}),
        encoding="utf-8")
    import_pack(pack)
    catalog = build_catalog()
    deputy = face(catalog.entries["deputy"], catalog)
    firepower = row(deputy, "Firepower")
    assert firepower.confirmed_by == "pack mcready-printed 2"
    assert firepower.source == ("confirmed by a player (pack mcready-printed 2): "
                                "read from my box")
    html = face_html(deputy)
    assert ('<dd class="player-confirmed" title="confirmed by a player (pack mcready-printed '
            '2): read from my box">2<span') in html
    # engine data confirmed as it stands: the text's standing
    cactus = face(catalog.entries["cactus-field"], catalog)
    assert cactus.text_confirmed_by == "pack mcready-printed 2"
    assert 'class="card-face__text player-confirmed"' in face_html(cactus)
    assert "Text" + PLAYER_MARK in face_text(cactus, encoding="utf-8")


def test_a_pack_and_the_overlay_on_one_face_name_both(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text(json.dumps({
        "format": 1, "id": "box", "version": "1", "applies_to": {"revolver-base": "1.0"},
        "values": {"deputy": {"firepower": {"value": 2, "source": "read"}}}}),
        encoding="utf-8")
    import_pack(pack)
    save_answer("deputy", "icons", [], None)
    catalog = build_catalog()
    shown = face(catalog.entries["deputy"], catalog)
    assert shown.confirmed_by() == ("pack box 1", "your overlay")
    assert "confirmed by a player (pack box 1; your overlay), not by a document" in " ".join(
        face_text(shown, encoding="utf-8"))


def test_editors_sit_on_the_face_beside_their_rows() -> None:
    catalog = build_catalog()
    shown = face(catalog.entries["deputy"], catalog)
    html = face_html(shown, editors={"cost": "<form id=cost-form></form>",
                                     "no_row_shows_this": "<form id=extra></form>"})
    cost_at = html.index("discard 1 card")
    assert cost_at < html.index("<form id=cost-form>") < html.index("<dt>Firepower</dt>")
    assert html.count('<div class="card-face__edit">') == 2
    assert html.index("<form id=extra>") < html.index("</article>")  # never dropped


def test_the_one_line_summary_marks_a_players_value_too() -> None:
    """A hand card's or a button's summary (`one_line`) marks the value a player confirmed as
    the face does, the rest as before (`?` for a guess, nothing for a document's value)."""
    from deckbuilder.card_face import one_line

    before = one_line(build_catalog().entries["deputy"])
    assert "cost discard 1 card?" in before and PLAYER_MARK not in before
    save_answer("deputy", "cost", AS_SHOWN, "Ann")
    entry = build_catalog().entries["deputy"]
    after = one_line(entry)
    assert after.startswith("Deputy - cost discard 1 card\u2713,")
    assert "firepower" in after and after.split("firepower ", 1)[1].startswith(
        before.split("firepower ", 1)[1][:2])  # the firepower keeps its own mark
    assert one_line(entry, ASCII_PLAYER_MARK).startswith("Deputy - cost discard 1 card+,")

"""A card face as plain lines for a terminal: every line fits `width` columns, a value no
document states ends in `?` and a legend line says what `?` means.

The lines are plain text (no rich markup): print them with markup off. Characters that do
not print as themselves (ESC, bidi overrides, line separators ...) are shown as escapes, so
a card set cannot move the cursor or recolour the screen.
"""

from __future__ import annotations

from deckbuilder.card_face.model import CardFace, Fact
from deckbuilder.printable import columns, wrap_columns

UNCONFIRMED_MARK = "?"
LEGEND = f"{UNCONFIRMED_MARK} unconfirmed: no document states this value"
#: Narrower than this, labels go on their own lines above their values.
_MIN_VALUE_COLUMNS = 24
_MIN_WIDTH = 20


def _marked(value: str, unconfirmed: bool) -> str:
    return f"{value}{UNCONFIRMED_MARK}" if unconfirmed else value


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return wrap_columns(text, width, first, rest)


def face_text(face: CardFace, width: int = 80) -> list[str]:
    """The face as lines of at most `width` columns (at least 20), for `cards show` and the
    terminal game's `?NAME`.

    >>> from deckbuilder.card_face import face
    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> face_text(face(catalog.entries["whiskey-canyon"], catalog))[0]
    'Whiskey Canyon'
    """
    width = max(width, _MIN_WIDTH)
    lines = _wrap(_marked(face.title, face.title_unconfirmed), width)
    lines += _wrap(face.subtitle, width)
    lines += _facts(face.facts, width)
    marks = [_marked(mark.label, mark.unconfirmed) for mark in face.marks]
    if marks:
        lines += _wrap("; ".join(marks), width, "  Marks: ", "    ")
    if face.text:
        lines.append(_marked("Text", face.text_unconfirmed))
        for paragraph in face.text:
            lines += _wrap(paragraph, width, "  ", "  ")
        if face.text_note:
            lines += _wrap(f"({face.text_note})", width, "  ", "  ")
    if _has_marked(face):
        lines.append("")
        lines += _wrap(LEGEND, width)
    return lines


def _facts(facts: tuple[Fact, ...], width: int) -> list[str]:
    if not facts:
        return []
    label_width = max(columns(fact.label) for fact in facts)
    indent = 2 + label_width + 2
    lines: list[str] = []
    for fact in facts:
        value = _marked(fact.value, fact.unconfirmed)
        if width - indent >= _MIN_VALUE_COLUMNS:
            label = fact.label + " " * (label_width - columns(fact.label))
            lines += _wrap(value, width, f"  {label}  ", " " * indent)
        else:  # too narrow for two columns: the label above its value
            lines += _wrap(fact.label, width, "  ", "  ")
            lines += _wrap(value, width, "    ", "    ")
    return lines


def _has_marked(face: CardFace) -> bool:
    return face.title_unconfirmed or face.text_unconfirmed or any(
        row.unconfirmed for row in (*face.facts, *face.marks))

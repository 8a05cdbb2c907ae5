"""A card face as plain lines for a terminal (print them with markup off): an unconfirmed value
ends in `?`, a player's in `✓` (`+` where the encoding lacks it), and characters that do not
print as themselves are escaped, so a card set cannot move the cursor.
"""

from __future__ import annotations

import sys

from deckbuilder.card_face.model import CardFace, Fact
from deckbuilder.printable import columns, wrap_columns

UNCONFIRMED_MARK = "?"
LEGEND = f"{UNCONFIRMED_MARK} unconfirmed: no document states this value"
PLAYER_MARK = "\u2713"  # ✓
ASCII_PLAYER_MARK = "+"
PLAYER_LEGEND = "{mark} confirmed by a player ({who}), not by a document"
#: Narrower than this, labels go on their own lines above their values.
_MIN_VALUE_COLUMNS = 24
_MIN_WIDTH = 20


def player_mark(encoding: str | None = None) -> str:
    """`✓`, or `+` when `encoding` (default: standard output's) cannot write it.

    >>> player_mark("ascii"), player_mark("utf-8")
    ('+', '\u2713')
    """
    if encoding is None:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        PLAYER_MARK.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ASCII_PLAYER_MARK
    return PLAYER_MARK


def _marked(text: str, row: Fact, mark: str) -> str:
    """`text` (the row's value or label) with the sign of the row's standing."""
    if row.unconfirmed:
        return f"{text}{UNCONFIRMED_MARK}"
    return f"{text}{mark}" if row.confirmed_by else text


def face_text(face: CardFace, width: int = 80, encoding: str | None = None) -> list[str]:
    """The face as lines of at most `width` columns (at least 20); `encoding` chooses the
    player's mark (`player_mark`).

    >>> from deckbuilder.card_face import face
    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> face_text(face(catalog.entries["whiskey-canyon"], catalog))[0]
    'Whiskey Canyon'
    """
    width = max(width, _MIN_WIDTH)
    mark = player_mark(encoding)
    title, *_, text = face.rows()
    lines = wrap_columns(_marked(face.title, title, mark), width)
    lines += wrap_columns(face.subtitle, width)
    lines += _facts(face.facts, width, mark)
    marks = [_marked(row.label, row, mark) for row in face.marks]
    if marks:
        lines += wrap_columns("; ".join(marks), width, "  Marks: ", "    ")
    if face.text:
        lines.append(_marked("Text", text, mark))
        for paragraph in face.text:
            lines += wrap_columns(paragraph, width, "  ", "  ")
        if face.text_note:
            lines += wrap_columns(f"({face.text_note})", width, "  ", "  ")
    confirmed = face.confirmed_by()
    if face.has_unconfirmed() or confirmed:
        lines.append("")
    if face.has_unconfirmed():
        lines += wrap_columns(LEGEND, width)
    if confirmed:
        lines += wrap_columns(PLAYER_LEGEND.format(mark=mark, who="; ".join(confirmed)), width)
    return lines


def _facts(facts: tuple[Fact, ...], width: int, mark: str = PLAYER_MARK) -> list[str]:
    if not facts:
        return []
    label_width = max(columns(fact.label) for fact in facts)
    indent = 2 + label_width + 2
    lines: list[str] = []
    for fact in facts:
        value = _marked(fact.value, fact, mark)
        if width - indent >= _MIN_VALUE_COLUMNS:
            label = fact.label + " " * (label_width - columns(fact.label))
            lines += wrap_columns(value, width, f"  {label}  ", " " * indent)
        else:  # too narrow for two columns: the label above its value
            lines += wrap_columns(fact.label, width, "  ", "  ")
            lines += wrap_columns(value, width, "    ", "    ")
    return lines

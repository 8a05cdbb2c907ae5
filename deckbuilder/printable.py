"""Text from a file made fit to show: every character that does not print as itself is
written as its escape, so a card set cannot move a terminal's cursor or split a line."""

from __future__ import annotations

import unicodedata

_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(character: str) -> str:
    code = ord(character)
    if character in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[character]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _shown_raw(character: str) -> bool:
    """Printable, or a plain space of some width (no-break, ideographic): harmless on a
    terminal. Control, format (bidi overrides, zero-width), line/paragraph separators,
    surrogates, private-use and unassigned characters are not."""
    return character.isprintable() or unicodedata.category(character) == "Zs"


def printable(text: object) -> str:
    """`text` with every character that does not print as itself shown as its escape.

    ESC and the other control characters, bidi overrides, zero-width characters, line
    separators and lone surrogates become ``\\x1b``, ``\\u2028`` ...:

    >>> printable("Bad\\x1b[2JName")
    'Bad\\\\x1b[2JName'
    """
    text = str(text)
    if not text.isprintable():
        text = "".join(c if _shown_raw(c) else _escaped(c) for c in text)
    return text

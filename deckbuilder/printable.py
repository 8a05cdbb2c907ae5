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


def printable(text: object) -> str:
    """`text` with every character that does not print as itself shown as its escape:

    >>> printable("Bad\\x1b[2JName")
    'Bad\\\\x1b[2JName'
    """
    text = str(text)
    # a plain space of some width (no-break, ideographic) is harmless on a terminal, unlike
    # controls, bidi overrides, separators and unassigned characters
    return text if text.isprintable() else "".join(
        c if c.isprintable() or unicodedata.category(c) == "Zs" else _escaped(c) for c in text)


def columns(text: str) -> int:
    """How many terminal columns `text` takes (wide characters two, combining marks none).

    >>> columns("Deputy"), columns("保安官"), columns("e\\u0301")
    (6, 6, 1)
    """
    return sum(_character_columns(character) for character in text)


def _character_columns(character: str) -> int:
    if unicodedata.combining(character):
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def wrap_columns(text: object, width: int, first: str = "", rest: str = "", *,
                 break_long_words: bool = True) -> list[str]:
    """`text` made printable and wrapped at spaces into lines of at most `width` columns, the
    first starting with `first`, the others with `rest`. A word longer than a line is cut
    (never inside a wide character) unless `break_long_words` is False. At least one line.

    >>> wrap_columns("保安官 保安官 保安官", 10)
    ['保安官', '保安官', '保安官']
    """
    lines: list[str] = []
    line, used = first, columns(first)
    fresh = True  # nothing but the indent on the line yet
    for word in printable(text).split():
        size = columns(word)
        gap = 0 if fresh else 1
        if used + gap + size <= width:
            line, used, fresh = line + " " * gap + word, used + gap + size, False
            continue
        if not fresh or (used >= width and line.strip()):  # full, or an indent leaves no room
            lines.append(line if not fresh else line.rstrip())
            line, used = rest, columns(rest)
        room = width - used
        while break_long_words and size > room > 0:
            head, head_columns = _cut(word, room)
            if not head:  # not even one (wide) character fits beside what the line holds
                if not line.strip():
                    break
                lines.append(line.rstrip())
                line, used = rest, columns(rest)
                room = width - used
                continue
            lines.append(line + head)
            line, used = rest, columns(rest)
            word, size, room = word[len(head):], size - head_columns, width - columns(rest)
        line, used, fresh = line + word, used + size, False
    if not fresh or not lines:
        lines.append(line if not fresh else line.rstrip())
    return lines


def _cut(word: str, room: int) -> tuple[str, int]:
    """The longest start of `word` that fits `room` columns, and its columns."""
    used = 0
    for index, character in enumerate(word):
        size = _character_columns(character)
        if used + size > room:
            return word[:index], used
        used += size
    return word, used

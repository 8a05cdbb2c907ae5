"""A card face as an HTML fragment: an `<article>` with a heading, the marks, a `<dl>` of
facts and the text. Every value from the data is escaped; a value no document states has the
class `unconfirmed`, a title saying so, and a visible `?` with words for screen readers.

The layout is in `card_face.css` (shipped beside this module; `stylesheet()` reads it): one
column that reads at 390 px, long words broken rather than overflowing.
"""

from __future__ import annotations

from html import escape
from importlib.resources import files

from deckbuilder.card_face.model import CardFace, Fact

STYLESHEET = "card_face.css"
UNCONFIRMED_TITLE = "unconfirmed: no document states this value"
UNCONFIRMED_TEXT = "no document states this text or the effect it describes"


def stylesheet() -> str:
    """The CSS the fragment's classes expect (serve it, or inline it in a printed page)."""
    return files("deckbuilder.card_face").joinpath(STYLESHEET).read_text(encoding="utf-8")


def _flag(unconfirmed: bool) -> str:
    if not unconfirmed:
        return ""
    return ('<span class="card-face__flag" aria-hidden="true">?</span>'
            '<span class="visually-hidden"> (unconfirmed)</span>')


def _attributes(unconfirmed: bool, *classes: str) -> str:
    names = [*classes, "unconfirmed"] if unconfirmed else list(classes)
    shown = f' class="{" ".join(names)}"' if names else ""
    return shown + (f' title="{UNCONFIRMED_TITLE}"' if unconfirmed else "")


def _fact(fact: Fact) -> str:
    return (f"<div><dt>{escape(fact.label)}</dt>"
            f"<dd{_attributes(fact.unconfirmed)}>{escape(fact.value)}{_flag(fact.unconfirmed)}"
            "</dd></div>")


def _title(face: CardFace) -> str:
    if not face.title_unconfirmed:
        return escape(face.title)
    return f"<span{_attributes(True)}>{escape(face.title)}{_flag(True)}</span>"


def face_html(face: CardFace, heading_level: int = 2) -> str:
    """The face as an accessible fragment; `heading_level` (1-6) fits it into the page's
    outline (a card page's face is `h1`, a hover card's `h3` ...).

    >>> from deckbuilder.card_face.model import CardFace
    >>> bare = CardFace("x", "token", "revolver", "<b>", False, "token", (), (), (), False,
    ...                 "", ())
    >>> "<h2 class=\\"card-face__title\\">&lt;b&gt;</h2>" in face_html(bare)
    True
    """
    level = min(max(heading_level, 1), 6)
    kind = escape(face.kind, quote=True)
    parts = [
        f'<article class="card-face card-face--{kind}" data-card-id="'
        f'{escape(face.id, quote=True)}" data-game="{escape(face.game, quote=True)}">',
        f'<h{level} class="card-face__title">{_title(face)}</h{level}>',
        f'<p class="card-face__kind">{escape(face.subtitle)}</p>',
    ]
    if face.marks:
        parts.append('<ul class="card-face__marks">' + "".join(
            f"<li{_attributes(mark.unconfirmed)}>{escape(mark.label)}{_flag(mark.unconfirmed)}"
            "</li>" for mark in face.marks) + "</ul>")
    if face.facts:
        parts.append('<dl class="card-face__facts">' + "".join(map(_fact, face.facts))
                     + "</dl>")
    if face.text:
        parts.append(f"<div{_attributes(face.text_unconfirmed, 'card-face__text')}>"
                     + "".join(f"<p>{escape(paragraph)}</p>" for paragraph in face.text)
                     + (f'<p class="card-face__note">{escape(face.text_note)}</p>'
                        if face.text_note else "")
                     + (f'<p class="card-face__note">{UNCONFIRMED_TEXT}{_flag(True)}</p>'
                        if face.text_unconfirmed else "")
                     + "</div>")
    if face.title_unconfirmed or face.text_unconfirmed or any(
            row.unconfirmed for row in (*face.facts, *face.marks)):
        parts.append(f'<p class="card-face__legend"><span class="card-face__flag">?</span> '
                     f"{escape(UNCONFIRMED_TITLE)}</p>")
    parts.append("</article>")
    return "\n".join(parts)

"""A card face as an accessible HTML fragment. Every value from the data is escaped, and each
shows its standing: an unconfirmed value a visible `?`, a player's a `✓`, each with a title and
words for screen readers; a stated value names its document in its title.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from html import escape
from importlib.resources import files

from deckbuilder.card_face.model import STEP_FIELDS, CardFace, Fact

STYLESHEET = "card_face.css"
UNCONFIRMED_TITLE = "unconfirmed: no document states this value"
UNCONFIRMED_TEXT = "no document states this text or the effect it describes"
PLAYER_FLAG = "\u2713"  # ✓
PLAYER_LEGEND = "confirmed by a player, not by a document"


def stylesheet() -> str:
    """The CSS the fragment's classes expect (serve it, or inline it in a printed page)."""
    return files("deckbuilder.card_face").joinpath(STYLESHEET).read_text(encoding="utf-8")


def _flag(unconfirmed: bool, confirmed_by: str = "") -> str:
    if unconfirmed:
        return ('<span class="card-face__flag" aria-hidden="true">?</span>'
                '<span class="visually-hidden"> (unconfirmed)</span>')
    if confirmed_by:
        return (f'<span class="card-face__flag card-face__flag--player" aria-hidden="true">'
                f'{PLAYER_FLAG}</span><span class="visually-hidden"> (confirmed by a player: '
                f"{escape(confirmed_by)})</span>")
    return ""


def _row_attributes(row: Fact, *classes: str) -> str:
    names = list(classes)
    if row.unconfirmed:
        names.append("unconfirmed")
    elif row.confirmed_by:
        names.append("player-confirmed")
    shown = f' class="{" ".join(names)}"' if names else ""
    title = UNCONFIRMED_TITLE if row.unconfirmed else row.source
    return shown + (f' title="{escape(title, quote=True)}"' if title else "")


def _placer(editors: Mapping[str, str] | None) -> Callable[[Iterable[str] | None], str]:
    """Places the editing controls of the fields, each once (None: those left, at the end)."""
    left = dict(editors or {})

    def place(fields: Iterable[str] | None) -> str:
        found = [left.pop(name) for name in (list(left) if fields is None else fields)
                 if name in left]
        return f'<div class="card-face__edit">{"".join(found)}</div>' if found else ""

    return place


def _fact(fact: Fact, place: Callable[[Iterable[str]], str]) -> str:
    return (f"<div><dt>{escape(fact.label)}</dt>"
            f"<dd{_row_attributes(fact)}>{escape(fact.value)}"
            f"{_flag(fact.unconfirmed, fact.confirmed_by)}{place(fact.fields)}</dd></div>")


def _title(title: Fact) -> str:
    if not title.unconfirmed and not title.confirmed_by:
        return escape(title.value)
    return (f"<span{_row_attributes(title)}>{escape(title.value)}"
            f"{_flag(title.unconfirmed, title.confirmed_by)}</span>")


def face_html(face: CardFace, heading_level: int = 2,
              editors: Mapping[str, str] | None = None) -> str:
    """The face as a fragment; `heading_level` (1-6) fits it into the page's outline;
    `editors` (field -> the caller's escaped HTML) puts controls beside those fields' rows.

    >>> from deckbuilder.card_face.model import CardFace
    >>> bare = CardFace("x", "token", "revolver", "<b>", False, "token", (), (), (), False,
    ...                 "", ())
    >>> "<h2 class=\\"card-face__title\\">&lt;b&gt;</h2>" in face_html(bare)
    True
    """
    level = min(max(heading_level, 1), 6)
    kind = escape(face.kind, quote=True)
    place = _placer(editors)
    title, *_, text = face.rows()
    parts = [
        f'<article class="card-face card-face--{kind}" data-card-id="'
        f'{escape(face.id, quote=True)}" data-game="{escape(face.game, quote=True)}">',
        f'<h{level} class="card-face__title">{_title(title)}</h{level}>',
    ]
    parts.append(place(["name"]))
    parts.append(f'<p class="card-face__kind">{escape(face.subtitle)}</p>')
    if face.marks:
        parts.append('<ul class="card-face__marks">' + "".join(
            f"<li{_row_attributes(mark)}>{escape(mark.label)}"
            f"{_flag(mark.unconfirmed, mark.confirmed_by)}</li>" for mark in face.marks)
            + "</ul>")
        parts.append(place([name for mark in face.marks for name in mark.fields]))
    if face.facts:
        parts.append('<dl class="card-face__facts">'
                     + "".join(_fact(fact, place) for fact in face.facts) + "</dl>")
    if face.text:
        parts.append(f"<div{_row_attributes(text, 'card-face__text')}>"
                     + "".join(f"<p>{escape(paragraph)}</p>" for paragraph in face.text)
                     + (f'<p class="card-face__note">{escape(face.text_note)}</p>'
                        if face.text_note else "")
                     + (f'<p class="card-face__note">{UNCONFIRMED_TEXT}{_flag(True)}</p>'
                        if face.text_unconfirmed else "")
                     + (f'<p class="card-face__note">{escape(face.text_source)}'
                        f"{_flag(False, face.text_confirmed_by)}</p>"
                        if face.text_confirmed_by else "")
                     + "</div>")
    parts.append(place(["text", *STEP_FIELDS]))
    parts.append(place(None))  # a field no row shows: its controls still on the face
    if face.has_unconfirmed():
        parts.append(f'<p class="card-face__legend"><span class="card-face__flag">?</span> '
                     f"{escape(UNCONFIRMED_TITLE)}</p>")
    confirmed = face.confirmed_by()
    if confirmed:
        parts.append('<p class="card-face__legend"><span class="card-face__flag '
                     f'card-face__flag--player">{PLAYER_FLAG}</span> {PLAYER_LEGEND}: '
                     f"{escape('; '.join(confirmed))}</p>")
    parts.append("</article>")
    return "\n".join(part for part in parts if part)

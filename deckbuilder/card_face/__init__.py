"""The card face: one rendering of a record made from its data (`face`), for a terminal
(`face_text`), a web page (`face_html`), a hand card or an action button (`one_line`).
"""

from __future__ import annotations

from deckbuilder.card_face.html import face_html, stylesheet
from deckbuilder.card_face.model import CardFace, Fact, face, one_line, unconfirmed_fields
from deckbuilder.card_face.text import face_text

__all__ = ["CardFace", "Fact", "face", "face_html", "face_text", "one_line", "stylesheet",
           "unconfirmed_fields"]

"""The card face: one rendering of a card (or character, battlefield, poker card, table
piece) made from its data, for every place a player looks.

- `face(entry, catalog)` -> `CardFace`: the facts in words, each marked when no document
  states it;
- `face_text(face, width=80)`: lines for a terminal (`cards show`, `play --human`'s `?NAME`);
- `face_html(face)`: an escaped, accessible fragment (card pages, hover cards, the game
  table), styled by `stylesheet()`;
- `one_line(entry)`: the short summary a hand card or an action button shows.
"""

from __future__ import annotations

from deckbuilder.card_face.html import face_html, stylesheet
from deckbuilder.card_face.model import CardFace, Fact, face, one_line, unconfirmed_fields
from deckbuilder.card_face.text import face_text

__all__ = ["CardFace", "Fact", "face", "face_html", "face_text", "one_line", "stylesheet",
           "unconfirmed_fields"]

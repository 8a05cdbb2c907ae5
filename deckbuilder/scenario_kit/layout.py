"""Laying out a scenario's position, the parts every game shares: resolving the ids a file
writes (pointing at the line of a bad one), the turn marker and the cards no longer playable.
"""

from __future__ import annotations

from deckbuilder.card_face.words import characters_word
from deckbuilder.catalog import Catalog
from deckbuilder.engine.state import State
from deckbuilder.scenario_kit.parts import Marker, Offer, Source


class Ids:
    """Resolve the ids (or names) a scenario writes, pointing at the line of a bad one; once
    `in_play` is known, a battlefield not in play too (Revolver 2 plays six of its nine)."""

    def __init__(self, catalog: Catalog, source: Source, game: str) -> None:
        self.catalog = catalog
        self.source = source
        self.game = game
        self.in_play: dict[str, int] | None = None  # battlefield id -> index
        self.in_play_note = ""  # why these are in play ("with the crystal-river set")
        self.offers: list[Offer] = []  # the decisions met so far, for `offered`

    def word(self, kind: str) -> str:
        """What the messages call a card, battlefield or character (the game's word)."""
        return characters_word(self.game) if kind == "character" else kind

    def resolve(self, text: str, kind: str, loc: tuple) -> str:
        entry = self.catalog.find(str(text), game=self.game)
        what = self.word(kind)
        if entry is None or entry.kind != kind:
            hint = self.catalog.suggest(str(text), kind=kind, game=self.game)
            raise self.source.error(
                f"unknown {what} '{text}'", loc,
                f"did you mean {', '.join(hint)}?" if hint else f"use a {what} id of {self.game}")
        if entry.game != self.game:
            raise self.source.error(f"'{text}' is a {what} of {entry.game}, not of {self.game}",
                                    loc, f"use a {what} id of {self.game}")
        if kind == "battlefield" and self.in_play is not None and entry.id not in self.in_play:
            raise self.source.error(
                f"battlefield '{entry.id}' is not in play{self.in_play_note}", loc,
                f"use one of: {', '.join(self.in_play)}")
        return entry.id

    def battlefield(self, text: str, loc: tuple, open_range: bool = False) -> int:
        """The index of a battlefield in play; with `open_range`, `open-range` names the
        place beside the players where open-range cards lie (Strongbox, Mary Lou's shack)."""
        if self.in_play is None:
            raise RuntimeError("the battlefields in play are not known before the table is set")
        if open_range and text == OPEN_RANGE:
            return len(self.in_play)
        return self.in_play[self.resolve(text, "battlefield", loc)]

    def cards(self, texts: list[str], loc: tuple) -> list[str]:
        return [self.resolve(text, "card", (*loc, index)) for index, text in enumerate(texts)]


#: The key of the open range in a position's `battlefields` and in `at` expectations.
OPEN_RANGE = "open-range"


def set_marker(state: State, marker: Marker | None, source: Source, ids: Ids) -> None:
    """Put the turn marker where the position says (no battlefield is entered or left)."""
    if marker is None:
        return
    bf = ids.battlefield(marker.battlefield, ("position", "marker", "battlefield"))
    labels = state.spec.bfs[bf].labels
    label = str(marker.space)
    if label not in labels:
        raise source.error(f"{state.spec.bfs[bf].name} has no turn space '{label}'",
                           ("position", "marker", "space"),
                           f"use one of: {', '.join(dict.fromkeys(labels))}")
    state.marker_bf = bf
    state.marker_space = labels.index(label)


def set_forbidden(state: State, cards: list[str], ids: Ids) -> None:
    def_index = {card.id: card.idx for card in state.spec.defs}
    forbidden = frozenset(def_index[c] for c in ids.cards(cards, ("position", "forbidden")))
    state.forbidden = (forbidden, forbidden)

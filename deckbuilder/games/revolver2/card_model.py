"""Revolver 2's own effect steps as card data writes them, and its pieces on a card's face
(layer 1, like its declaration: it imports only the models; `declaration.card_model` names it,
`models.effects` adds `STEPS` to the vocabulary, `card_face` reads `FACE_SYMBOLS` and
`SPECIAL_FACES`, `deck_stats` its `DRAW_ASSUMPTIONS`). What they do on the table is `pieces.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, Protocol

from deckbuilder.models.common import Strict

if TYPE_CHECKING:
    from deckbuilder.models.cards import PokerCard


class GatlingGun(Strict):
    """Revolver 2's Gatling Gun: for each of his firepower cards at this battlefield the
    Mapache player may discard one card with ammunition from hand; for each ammunition symbol
    so discarded the Malpaso player loses a guardian (rule switches `gatling-casualty` and
    `gatling-true-grit` say which, and whether true grit saves him). These count as kills."""

    do: Literal["gatling-gun"]


#: Revolver 2's own steps, added to the vocabulary.
STEPS: tuple[type[Strict], ...] = (GatlingGun,)


class FaceRows(Protocol):
    """What a card face lends a game for rows of its own (`card_face.model`'s builder)."""

    def fact(self, label: str, value: object, *fields: str) -> None: ...

    def mark(self, words: str, *fields: str) -> None: ...

    def name_of(self, record_id: str) -> str: ...


def _count(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def poker_rows(poker: PokerCard, face: FaceRows) -> None:
    """A poker card's rows: its value, how it meets a cheat, what it adds at set-up."""
    face.fact("Poker value", "a cheat (not compared)" if poker.cheat else poker.value, "poker")
    if poker.cheat:
        face.mark("cheat: wins its round unless the other side calls cheats", "poker")
    if poker.calls_cheat:
        face.mark("calls cheats: beats a cheat", "poker")
    if poker.returns_to_hand:
        face.mark("returns to its owner's hand after its round", "poker")
    if poker.extra_cards:
        face.fact("Opening hand", f"+{_count(poker.extra_cards, 'card')}", "poker")
    for tokens in poker.battlefield_tokens:
        whose = "its owner's side" if tokens.side == "self" else "the opponent's side"
        face.fact("Power tokens", f"{tokens.count} on {face.name_of(tokens.battlefield)} "
                  f"({whose})", "poker")


def poker_summary(poker: PokerCard, shown: Callable[..., str]) -> list[str]:
    """A poker card in one line's parts, each value `shown` with its standing's mark."""
    parts = [f"poker value {shown('cheat' if poker.cheat else poker.value, 'poker')}"]
    if poker.extra_cards:
        parts.append(shown(f"+{_count(poker.extra_cards, 'opening card')}", "poker"))
    tokens = sum(each.count for each in poker.battlefield_tokens)
    if tokens:
        parts.append(shown(f"{_count(tokens, 'power token')} on battlefields", "poker"))
    return parts


#: The symbols a card may show, as its face names them: (field, the face's label, one, many).
FACE_SYMBOLS = (("powder_kegs", "Powder kegs", "powder keg", "powder kegs"),
                ("ammunition", "Ammunition", "ammunition", "ammunition"))
#: Special cards of a kind of their own: the field holding their data -> what a face calls
#: such a card, its rows, its one-line summary.
SPECIAL_FACES = {"poker": ("poker card", poker_rows, poker_summary)}
#: What a deck's draw odds leave out of this game's cards (`deck_stats.DrawRules`).
DRAW_ASSUMPTIONS = ("Revolver 2: no poker card adds to the opening hand (extra_opening = 0); "
                    "the tournament can add one or two cards",)

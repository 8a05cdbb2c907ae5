"""Revolver's own effect steps as card data writes them (layer 1, like its declaration: it
imports only the models; `declaration.card_model` names it, `models.effects` adds `STEPS` to
the vocabulary; `card_face` reads `FACE_COSTS` and `PLACEMENT_WORDS`). What they do on the
table is `frontier_steps.py` and `derail.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from deckbuilder.models.common import CardId, Strict

if TYPE_CHECKING:
    from deckbuilder.models.effects import Step


class Derail(Strict):
    """Destroy everything at the current battlefield; bandits survive only if paid for.

    Usable only while the marker is on the battlefield its card lies beside, once per game.
    Every card on both sides is discarded, impervious ones included (The Jackson Clan), and
    every living bandit dies; the bandit player may save bandits by discarding one card from
    hand per bandit saved. The lawmen player saves nothing. Saving no bandit loses the game.
    """

    do: Literal["derail"]


class HideUnder(Strict):
    """Put one card from your hand face down under this card (you choose it); only you may
    look at it (Strongbox). With an empty hand nothing is put there (FAQ Q2). An eagle token
    on this card empties the hidden card too."""

    do: Literal["hide-under"]


class TakeUnder(Strict):
    """Take the cards lying under this card into your hand (Strongbox: "if on your turn you
    take this card into your hand"). As an ability it is offered only while a card lies
    there, and never while an eagle token lies on this card (FAQ Q1)."""

    do: Literal["take-under"]


class ChangeSides(Strict):
    """This card moves to the opposite column: at the same battlefield, with its tokens, it
    becomes the other player's card (Reverend Henry Kane). Only a card both players have an
    instance of (the Frontier deck's) can change sides; others stay."""

    do: Literal["change-sides"]


class GuessHand(Strict):
    """This card's owner hides a token in one of his two hands; his opponent guesses which.
    A right guess runs `steps` (Reverend Henry Kane: this card moves to the opposite
    column); a wrong one does nothing."""

    do: Literal["guess-hand"]
    steps: list[Step] = Field(min_length=1)


class ForbidHere(Strict):
    """Static: while this card is in play at the current battlefield, the opponent may not
    play there the cards `cards` names, nor those whose names contain `name_contains`
    (any case) (Indian Burial ground: no bounty-hunter cards)."""

    do: Literal["forbid-here"]
    cards: list[CardId] = Field(default_factory=list)
    name_contains: str | None = Field(None, min_length=1, max_length=80)


#: Revolver's own steps, added to the vocabulary.
STEPS: tuple[type[Strict], ...] = (Derail, HideUnder, TakeUnder, ChangeSides, GuessHand,
                                   ForbidHere)

#: Costs a card may ask beside its discards, as its face names them: (field, unit).
FACE_COSTS = (("silver_dollars", "silver dollar"),)
#: Revolver's own placements as a player reads them (models/cards.py, `Placement`).
PLACEMENT_WORDS = {"prison": "only in the San Manzanillo Prison"}

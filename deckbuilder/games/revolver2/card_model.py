"""Revolver 2's own effect steps as card data writes them (layer 1, like its declaration: it
imports only the models; `declaration.card_model` names it, `models.effects` adds `STEPS` to
the vocabulary). What they do on the table is `pieces.py`.
"""

from __future__ import annotations

from typing import Literal

from deckbuilder.models.common import Strict


class GatlingGun(Strict):
    """Revolver 2's Gatling Gun: for each of his firepower cards at this battlefield the
    Mapache player may discard one card with ammunition from hand; for each ammunition symbol
    so discarded the Malpaso player loses a guardian (rule switches `gatling-casualty` and
    `gatling-true-grit` say which, and whether true grit saves him). These count as kills."""

    do: Literal["gatling-gun"]


#: Revolver 2's own steps, added to the vocabulary.
STEPS: tuple[type[Strict], ...] = (GatlingGun,)

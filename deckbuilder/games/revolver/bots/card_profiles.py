"""What each way of playing a card does, in the numbers the race model reads.

The scoring bot values an option without playing it, so it needs each card mode's effect as
plain counts (firepower here, casualties, marker moves, removals, draws, retrieves); this is
read once per game. A mode with a step the counts do not describe is marked not `known`,
and the bot plays that option out instead.
"""

from __future__ import annotations

from typing import Any, Final

from deckbuilder.bots import sort_ranks
from deckbuilder.engine import card_steps, effects
from deckbuilder.engine.card_records import ModeDef
from deckbuilder.engine.codes import FIREPOWER, SLOT_OWN
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.games.revolver.bots.quick import card_worths

__all__ = ["BOUNCE", "DESTROY", "KILL", "KNOWN_STEPS", "GameProfiles", "Profile", "profiles_for"]

#: Effect steps a profile reads; any other step sends the option to be played out.
KNOWN_STEPS: Final = frozenset({
    card_steps.run_casualty, card_steps.run_sacrifice, effects.run_move_marker,
    card_steps.run_kill, card_steps.run_destroy, card_steps.run_bounce, effects.run_draw,
    card_steps.run_retrieve, card_steps.run_move_card, effects.run_row_limit,
    effects.run_optional_cost, card_steps.run_add_token})

#: How a removal step takes a card out of play.
KILL, DESTROY, BOUNCE = range(3)
_REMOVALS: Final = {card_steps.run_kill: KILL, card_steps.run_destroy: DESTROY,
             card_steps.run_bounce: BOUNCE}


class Profile:
    """What one way of playing a card does, in the numbers the race reads."""

    __slots__ = ("casualties", "counts", "draws", "firepower", "known", "marker", "moves",
                 "removals", "retrieves", "row_limit", "sacrifices", "slot", "tokens")

    def __init__(self, mode: ModeDef) -> None:
        own_fire = mode.slot == SLOT_OWN and mode.play == FIREPOWER
        self.firepower: int = mode.firepower if own_fire else 0
        self.slot: int = mode.slot
        self.counts: bool = mode.counts
        self.row_limit: int = mode.row_limit
        self.casualties = self.sacrifices = self.marker = self.draws = 0
        self.removals: list[tuple[Any, int, int]] = []  # (params, count, KILL/DESTROY/BOUNCE)
        self.retrieves: list[tuple[int, str, int]] = []
        self.moves: list[Any] = []  # move-card params, to the current battlefield
        self.tokens: list[tuple] = []  # add-token params, power tokens only
        self.known = True
        for runner, params in mode.effect:
            if runner not in KNOWN_STEPS:
                self.known = False
            elif runner is card_steps.run_casualty:
                self.casualties += int(params)
            elif runner is card_steps.run_sacrifice:
                self.sacrifices += int(params)
            elif runner is effects.run_move_marker:
                self.marker += params[0]
            elif runner in _REMOVALS:
                self.removals.append((params, params[1], _REMOVALS[runner]))
            elif runner is effects.run_draw:
                self.draws += params[0] if params[1] == 0 else 0
            elif runner is card_steps.run_retrieve:
                self.retrieves.append(params)
            elif runner is card_steps.run_move_card:
                self.moves.append(params)
            elif runner is card_steps.run_add_token:
                if params[0] == "power":  # firepower; eagle, grit and silver are played out
                    self.tokens.append(params)
                else:
                    self.known = False


class GameProfiles:
    """Profiles of every mode of every card, and each card's worth in hand, for one game."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.modes = [[Profile(mode) for mode in card.modes] for card in spec.defs]
        self.worth = card_worths(spec)
        self.uid_worth = [self.worth[d] for d in spec.def_of]
        #: The order cards pay costs in: least worth first, then by card (reproducible), as
        #: each card's place in that order (equal keys, equal places).
        self.pay_rank: list[int] = sort_ranks(
            [(self.uid_worth[uid], d) for uid, d in enumerate(spec.def_of)])


_PROFILES: Final[SpecMemo[GameProfiles]] = SpecMemo(GameProfiles)


def profiles_for(spec: Any) -> GameProfiles:
    """The game's profiles, read once per spec."""
    return _PROFILES.of(spec)

"""A rule switch as a game's engine plays it, declared once by the game (or module plug-in)
that reads it: its `known_variants` table and its reading of the chosen variant both come from
that one line. What the switches are, their readings and rulesets, is the set files'."""

from __future__ import annotations

from typing import NamedTuple

from deckbuilder.rulesets import Rules


class PlayableSwitch(NamedTuple):
    id: str
    default: str  # the reading where no installed set declares the switch
    others: tuple[str, ...]  # the other readings this engine plays

    def chosen(self, rules: Rules) -> str:
        return rules.variant(self.id, self.default)


def known_variants(*switches: PlayableSwitch) -> dict[str, frozenset[str]]:
    """Switch id -> the readings this engine plays (`GameRules.known_variants`)."""
    return {switch.id: frozenset((switch.default, *switch.others)) for switch in switches}

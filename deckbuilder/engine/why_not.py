"""Why a card in hand is not offered now: the engine's own reason (`play.play_refusal`, the
check that makes the play phase's options, so it cannot disagree with them), in the game's
documents' words where they word it (`GameRules.rule_words`), else marked the engine's reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckbuilder.engine.play import play_refusal
from deckbuilder.engine.state import State

#: What every face says of a reason the game's documents do not word (a card's own text,
#: read by the engine: its face shows that text).
ENGINE_READING = "the engine's reading of the card: the rule documents state no general rule " \
                 "for it"


@dataclass(frozen=True)
class NotOffered:
    """A card in hand that cannot be played now: the engine's words, the rules' words with
    their documents, and whether some of it is only the engine's reading."""

    card: str
    name: str
    reason: str
    rules: tuple[tuple[str, str], ...]
    engine_reading: bool

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card, "name": self.name, "reason": self.reason,
                "rules": [{"words": words, "source": source} for words, source in self.rules],
                "engine_reading": self.engine_reading,
                "note": ENGINE_READING if self.engine_reading else ""}


def not_offered(state: State, player: int) -> list[NotOffered]:
    """The cards in `player`'s hand he cannot play now, once each, in hand order, and why."""
    if state.over:
        return []
    spec = state.spec
    worded = spec.game_rules.rule_words
    legal = set(state.legal)
    found: dict[int, NotOffered] = {}
    for uid in state.hands[player]:
        definition = spec.def_of[uid]
        if definition in found or spec.play_action[definition] in legal:
            continue
        refusal = play_refusal(state, player, definition)
        if refusal is None:  # offered: `play_refusal` and the options agree (tested)
            continue
        codes, words = refusal
        card = spec.defs[definition]
        found[definition] = NotOffered(str(card.id), card.name, words,
                                       tuple(worded[code] for code in codes if code in worded),
                                       any(code not in worded for code in codes))
    return list(found.values())

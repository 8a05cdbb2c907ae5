"""Which records the engine can play: a card whose effect it cannot perform is refused, loudly."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from deckbuilder.engine.effects import IMPLEMENTED_STEPS
from deckbuilder.models.effects import Manual


def _flatten(steps: list[object]) -> Iterator[object]:
    for step in steps:
        yield step
        yield from _flatten(getattr(step, "steps", []))


def _steps(record: object) -> Iterator[Any]:
    for attribute in ("effect", "on_death"):
        yield from _flatten(getattr(record, attribute, []))
    for trigger in getattr(record, "triggers", []):
        yield from _flatten(trigger.steps)
    for ability in getattr(record, "abilities", []):
        yield from _flatten(ability.steps)
    for mode in getattr(record, "modes", []):
        yield from _flatten(mode.effect)


def unimplemented_reasons(record: object,
                          game_steps: Mapping[str, object] | None = None) -> list[str]:
    """Why the engine cannot play this record (with the table's steps and `game_steps`, the
    record's game's own); empty when it can."""
    reasons: list[str] = []
    for step in _steps(record):
        if isinstance(step, Manual):
            reasons.append(f"effect not expressible in the vocabulary: {step.text}")
        elif step.do not in IMPLEMENTED_STEPS and step.do not in (game_steps or {}):
            reasons.append(f"engine does not implement step '{step.do}'")
    return reasons

"""Which records the engine can play: a card whose effect it cannot perform is refused, loudly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from deckbuilder.models.effects import Manual


def _flatten(steps: list[Any]) -> Iterator[Any]:
    for step in steps:
        yield step
        yield from _flatten(getattr(step, "steps", []))


def _steps(record: Any) -> Iterator[Any]:
    for attribute in ("effect", "on_death"):
        yield from _flatten(getattr(record, attribute, []))
    for trigger in getattr(record, "triggers", []):
        yield from _flatten(trigger.steps)
    for ability in getattr(record, "abilities", []):
        yield from _flatten(ability.steps)
    for mode in getattr(record, "modes", []):
        yield from _flatten(mode.effect)


def unimplemented_reasons(record: Any) -> list[str]:
    """Why the engine cannot play this record; empty when it can."""
    try:
        from deckbuilder.engine.effects import IMPLEMENTED_STEPS
    except ImportError:
        IMPLEMENTED_STEPS = frozenset()
    reasons: list[str] = []
    for step in _steps(record):
        if isinstance(step, Manual):
            reasons.append(f"effect not expressible in the vocabulary: {step.text}")
        elif step.do not in IMPLEMENTED_STEPS:
            reasons.append(f"engine does not implement step '{step.do}'")
    return reasons

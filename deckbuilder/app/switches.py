"""Rule switches chosen one by one (`--switch ID=VALUE`, or the web form's switches), checked
against the rule switches the game's installed sets declare, and how a choice is named in
headings and reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deckbuilder.rulesets import UnknownRulesetError


def parse_switches(texts: Sequence[str], catalog: Any, game: str) -> dict[str, str]:
    """`--switch ID=VALUE` options as switch id -> variant, checked against the rule switches
    of the game's installed sets, so that a typo is one line naming the choices.

    The engine checks the choice again (and refuses a variant it cannot play).
    """
    declared = {switch.id: switch for loaded in catalog.sets.values()
                if loaded.card_set.game == game for switch in loaded.card_set.rule_switches}
    example = next(iter(declared.values()), None)
    sample = f"{example.id}={example.variants[-1].value}" if example is not None else "ID=VALUE"
    chosen: dict[str, str] = {}
    for text in texts:
        key, equals, value = (part.strip() for part in text.partition("="))
        if not equals or not key or not value:
            raise UnknownRulesetError(f"--switch '{text}' is not ID=VALUE",
                                      fix=f"e.g. --switch {sample}")
        switch = declared.get(key)
        if switch is None:
            raise UnknownRulesetError(
                f"--switch {text}: {game} has no rule switch '{key}'",
                fix=f"choose one of: {', '.join(sorted(declared)) or 'none'} "
                    f"(see `deckbuilder rules --game {game}`)")
        values = [variant.value for variant in switch.variants]
        if value not in values:
            raise UnknownRulesetError(f"--switch {text}: '{value}' is not a reading of {key}",
                                      fix=f"choose one of: {', '.join(values)}")
        if chosen.get(key, value) != value:
            raise UnknownRulesetError(f"--switch {key} is given twice ({chosen[key]}, {value})",
                                      fix=f"give --switch {key}=... once")
        chosen[key] = value
    return chosen


def describe_rules(ruleset: str, switches: Mapping[str, str]) -> str:
    """`rulebook-es` or `rulebook-es with poker-tie=guardians` (for headings and reports)."""
    if not switches:
        return ruleset
    return f"{ruleset} with " + ", ".join(f"{key}={value}" for key, value in switches.items())

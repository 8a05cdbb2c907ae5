"""Rule variants as data: a ruleset picks one variant of every rule switch of the base set.

Where the rule documents disagree (rules README, "Where the documents disagree"), the card set
declares a `RuleSwitch` with its variants and named `Ruleset`s choosing among them. The engine
reads the choices here and nowhere else; the English rulebook (`rulebook-en`) is the default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import CardSet

DEFAULT_RULESET = "rulebook-en"

# Switch ids and the variants the Revolver engine knows how to play.
MCREADY_VICTORY = "mcready-victory"
TRAIN_VICTORY = "train-victory"
SKINNY_TOKEN = "skinny-token"
KNOWN_VARIANTS: dict[str, frozenset[str]] = {
    MCREADY_VICTORY: frozenset({"gang-wiped-out", "cortez-before-train", "jack-killed"}),
    TRAIN_VICTORY: frozenset({"jack-survives-space-4", "alive-end-of-round", "any-member"}),
    SKINNY_TOKEN: frozenset({"power", "true-grit"}),
}


class UnknownRulesetError(DeckbuilderError):
    """The ruleset (or one of its variants) is not declared by the card set or not playable."""


@dataclass(frozen=True)
class Rules:
    """The chosen variant of every rule switch (switch id -> variant value)."""

    ruleset: str
    choices: dict[str, str]
    params: dict[str, dict[str, Any]] = field(default_factory=dict)  # switch -> chosen params

    def variant(self, switch: str, default: str) -> str:
        return self.choices.get(switch, default)


def available_rulesets(card_set: CardSet) -> list[str]:
    """Ruleset ids a user may pass, the default first."""
    ids = [ruleset.id for ruleset in card_set.rulesets]
    if DEFAULT_RULESET not in ids:
        ids.insert(0, DEFAULT_RULESET)
    return ids


def read_rules(card_set: CardSet, ruleset: str = DEFAULT_RULESET) -> Rules:
    """Every switch's default, overridden by the named ruleset's choices.

    >>> # read_rules(base_set, "rulebook-nl").variant("mcready-victory", "gang-wiped-out")
    """
    choices = {switch.id: switch.default for switch in card_set.rule_switches}
    named = {candidate.id: candidate for candidate in card_set.rulesets}
    if ruleset in named:
        choices.update(named[ruleset].choices)
    elif ruleset != DEFAULT_RULESET:
        raise UnknownRulesetError(
            f"unknown ruleset '{ruleset}' for {card_set.name}",
            fix=f"choose one of: {', '.join(available_rulesets(card_set))}",
        )
    switches = {switch.id: switch for switch in card_set.rule_switches}
    for switch_id, value in choices.items():
        switch = switches.get(switch_id)
        declared = {variant.value for variant in switch.variants} if switch else set()
        if switch is None or value not in declared:
            raise UnknownRulesetError(
                f"ruleset '{ruleset}' chooses '{value}' for switch '{switch_id}', "
                "which the card set does not declare",
                fix="correct the ruleset's choices in the set file",
            )
        known = KNOWN_VARIANTS.get(switch_id)
        if known is not None and value not in known:
            raise UnknownRulesetError(
                f"the engine cannot play variant '{value}' of rule switch '{switch_id}'",
                fix=f"choose one of: {', '.join(sorted(known))}",
            )
    params = {
        switch_id: dict(variant.params)
        for switch_id, value in choices.items()
        for variant in switches[switch_id].variants
        if variant.value == value and variant.params
    }
    return Rules(ruleset, choices, params)

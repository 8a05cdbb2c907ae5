"""Rule variants as data: where the documents disagree, a ruleset chooses one reading of every
rule switch. The engine reads the chosen variants from `read_rules` and nowhere else; a
reading the game cannot play (`known_variants`) is refused by name, never played silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import CardSet, Ruleset, RuleSwitch

#: Each game's default ruleset: its own rulebook (from the games' declarations).
DEFAULT_RULESETS = {declaration.id: declaration.default_ruleset for declaration in DECLARATIONS}
#: The ruleset of a game no declaration names (the first game's).
DEFAULT_RULESET = DECLARATIONS[0].default_ruleset


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


def default_ruleset(game: str) -> str:
    return DEFAULT_RULESETS.get(game, DEFAULT_RULESET)


def available_rulesets(card_set: CardSet) -> list[str]:
    """Ruleset ids a user may pass, the default first."""
    ids = [ruleset.id for ruleset in card_set.rulesets]
    default = default_ruleset(card_set.game)
    return ids if default in ids else [default, *ids]


def read_rules(card_set: CardSet, ruleset: str | None = None,
               known_variants: Mapping[str, frozenset[str]] | None = None,
               overrides: Mapping[str, str] | None = None,
               expansions: Sequence[CardSet] = ()) -> Rules:
    """Every switch's default, overridden by the named ruleset's choices, then `overrides`;
    the installed `expansions`' switches and rulesets join the base set's.

    >>> from deckbuilder.catalog import build_catalog
    >>> base_set = build_catalog(use_user_data=False).sets["revolver-base"].card_set
    >>> read_rules(base_set, "rulebook-nl").variant("mcready-victory", "gang-wiped-out")
    'cortez-before-train'
    """
    ruleset = ruleset or default_ruleset(card_set.game)
    sets = (card_set, *expansions)
    switches = {switch.id: switch for each in sets for switch in each.rule_switches}
    choices = {switch_id: switch.default for switch_id, switch in switches.items()}
    named = {candidate.id: candidate for each in sets for candidate in each.rulesets}
    if ruleset in named:
        choices.update(named[ruleset].choices)
    elif ruleset != default_ruleset(card_set.game):
        raise UnknownRulesetError(
            f"unknown ruleset '{ruleset}' for {card_set.name}",
            fix=f"choose one of: {', '.join(available_rulesets(card_set))}",
        )
    for switch_id, value in (overrides or {}).items():
        if switch_id not in switches:
            raise UnknownRulesetError(
                f"unknown rule switch '{switch_id}' for {card_set.name}",
                fix=f"choose one of: {', '.join(sorted(switches))}")
        readings = [variant.value for variant in switches[switch_id].variants]
        if value not in readings:
            raise UnknownRulesetError(
                f"'{value}' is not a reading of rule switch '{switch_id}'",
                fix=f"choose one of: {', '.join(readings)}")
        choices[switch_id] = value
    known = known_variants or {}
    for switch_id, value in choices.items():
        switch = switches.get(switch_id)
        declared = {variant.value for variant in switch.variants} if switch else set()
        if switch is None or value not in declared:
            raise UnknownRulesetError(
                f"ruleset '{ruleset}' chooses '{value}' for switch '{switch_id}', "
                "which the card set does not declare",
                fix=(f"choose one of: {', '.join(sorted(declared))}" if declared
                     else "correct the ruleset's choices in the set file"),
            )
        playable = known.get(switch_id)
        if playable is not None and value not in playable:
            raise UnknownRulesetError(
                f"the engine cannot play variant '{value}' of rule switch '{switch_id}'",
                fix=f"choose one of: {', '.join(sorted(playable))}",
            )
    params = {
        switch_id: dict(variant.params)
        for switch_id, value in choices.items()
        for variant in switches[switch_id].variants
        if variant.value == value and variant.params
    }
    return Rules(ruleset, choices, params)


@dataclass(frozen=True)
class ResolvedRuleset:
    """A ruleset with every switch of its game set: the explicit choice or the default."""

    id: str
    name: str
    description: str
    game: str
    choices: dict[str, str]
    switches: dict[str, RuleSwitch]

    def changes(self) -> dict[str, str]:
        """The switches this ruleset sets differently from each switch's default."""
        return {key: value for key, value in self.choices.items()
                if value != self.switches[key].default}


def _game_data(catalog: Catalog, game: str) -> tuple[dict[str, RuleSwitch], list[Ruleset]]:
    sets = [loaded.card_set for loaded in catalog.sets.values() if loaded.card_set.game == game]
    return ({switch.id: switch for each in sets for switch in each.rule_switches},
            [ruleset for each in sets for ruleset in each.rulesets])


def list_rulesets(catalog: Catalog, game: str) -> list[ResolvedRuleset]:
    switches, rulesets = _game_data(catalog, game)
    resolved = []
    for ruleset in rulesets:
        for key, value in ruleset.choices.items():
            switch = switches.get(key)
            if switch is None or value not in {variant.value for variant in switch.variants}:
                raise DeckbuilderError(
                    f"ruleset '{ruleset.id}' sets unknown switch or value {key}={value}",
                    fix="correct the ruleset in the card data",
                )
        choices = {key: switch.default for key, switch in switches.items()} | ruleset.choices
        resolved.append(ResolvedRuleset(ruleset.id, ruleset.name, ruleset.description, game,
                                         choices, switches))
    return resolved


def reading_of(catalog: Catalog, game: str, ruleset_id: str | None, switch_id: str) -> str | None:
    """The reading one switch has under a ruleset (None: no set declares it), without
    resolving every ruleset."""
    switches, rulesets = _game_data(catalog, game)
    wanted = ruleset_id or default_ruleset(game)
    for ruleset in rulesets:
        if ruleset.id == wanted and switch_id in ruleset.choices:
            return ruleset.choices[switch_id]
    switch = switches.get(switch_id)
    return switch.default if switch is not None else None

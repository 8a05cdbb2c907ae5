"""Rule variants as data: where the documents disagree, a ruleset chooses one reading."""

from __future__ import annotations

from dataclasses import dataclass

from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import Ruleset, RuleSwitch

DEFAULT_RULESETS = {"revolver": "rulebook-en", "revolver2": "rulebook-es"}


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
    switches: dict[str, RuleSwitch] = {}
    rulesets: list[Ruleset] = []
    for loaded in catalog.sets.values():
        if loaded.card_set.game != game:
            continue
        switches.update({switch.id: switch for switch in loaded.card_set.rule_switches})
        rulesets.extend(loaded.card_set.rulesets)
    return switches, rulesets


def list_rulesets(catalog: Catalog, game: str) -> list[ResolvedRuleset]:
    switches, rulesets = _game_data(catalog, game)
    return [_resolve(ruleset, switches, game) for ruleset in rulesets]


def _resolve(ruleset: Ruleset, switches: dict[str, RuleSwitch], game: str) -> ResolvedRuleset:
    choices = {key: switch.default for key, switch in switches.items()}
    for key, value in ruleset.choices.items():
        switch = switches.get(key)
        if switch is None or value not in {variant.value for variant in switch.variants}:
            raise DeckbuilderError(
                f"ruleset '{ruleset.id}' sets unknown switch or value {key}={value}",
                fix="correct the ruleset in the card data",
            )
        choices[key] = value
    return ResolvedRuleset(ruleset.id, ruleset.name, ruleset.description, game, choices, switches)


def resolve_ruleset(catalog: Catalog, game: str, ruleset_id: str | None = None) -> ResolvedRuleset:
    """The named ruleset of a game (the game's default when None)."""
    wanted = ruleset_id or DEFAULT_RULESETS.get(game, "")
    for ruleset in list_rulesets(catalog, game):
        if ruleset.id == wanted:
            return ruleset
    known = ", ".join(r.id for r in list_rulesets(catalog, game)) or "none"
    raise DeckbuilderError(f"unknown ruleset '{wanted}' for {game}", fix=f"known rulesets: {known}")

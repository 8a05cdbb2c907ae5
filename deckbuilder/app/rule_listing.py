"""Each game's rule switches (with the documents behind every reading), its rulesets and its
modules, as plain data: `deckbuilder rules` prints it, the web simulator offers it."""

from __future__ import annotations

from deckbuilder.catalog import Catalog
from deckbuilder.games import get_game
from deckbuilder.rulesets import list_rulesets


def game_rules(catalog: Catalog, name: str) -> dict[str, object]:
    """One game's switches and rulesets as plain data: the `--json` output and the text."""
    game = get_game(name)
    game_sets = [loaded.card_set for loaded in catalog.sets.values()
                 if loaded.card_set.game == name]
    declared_by = {switch.id: card_set.id for card_set in game_sets
                   for switch in card_set.rule_switches}
    engine_reads = set(declared_by)  # every installed set's switches (`--switch` sets them)
    rulesets = list_rulesets(catalog, name)
    switches = rulesets[0].switches if rulesets else {}
    known = game.rules.known_variants
    return {
        "game": name,
        "title": game.title,
        "default_ruleset": game.default_ruleset,
        "switches": [
            {"id": switch.id, "description": switch.description, "default": switch.default,
             "set": declared_by.get(switch.id),
             # the engine reads its base set's switches only (`--switch` sets those)
             "switchable": switch.id in engine_reads,
             "variants": [
                 {"value": variant.value, "description": variant.description,
                  "source": variant.source, "default": variant.value == switch.default,
                  "playable": switch.id in engine_reads and (
                      switch.id not in known or variant.value in known[switch.id])}
                 for variant in switch.variants]}
            for switch in switches.values()
        ],
        "rulesets": [
            {"id": r.id, "name": r.name, "description": r.description,
             "default": r.id == game.default_ruleset, "choices": r.choices,
             "changes": r.changes()}
            for r in rulesets
        ],
        "modules": [
            {"id": module.id, "letter": module.letter, "name": module.name,
             "set": card_set.id, "requires": list(module.requires_modules),
             "description": module.description,
             "playable": module.id in game.rules.modules}
            for card_set in game_sets for module in card_set.modules
        ],
    }

"""The new bandits of Expansion 1.1, Ambush on Gunshot Trail, as a module plug-in
(`gunshot-trail-bandits`): Sister Sarah and her Mule joins the Colty gang, so the cards that
speak of her (the Texas Ranger's "if Sister Sarah is dead", 1.4) can happen. How she enters
is a READING (ambush-on-gunshot-trail.yaml, docs/players/rules.md). The table compiles a
module's characters with the bandits; this plug-in refuses a catalog that lacks them, so the
module never plays silently without them.
"""

from __future__ import annotations

from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.games.revolver.plugin import ModulePlugin
from deckbuilder.protocol import UnplayableDeckError

#: The module played here (its record names the bandits it brings).
NEW_BANDITS = "gunshot-trail-bandits"


class NewBanditsFacts:
    """Which bandits of this game the module brought (`spec.facts.plugin_facts[NEW_BANDITS]`)."""

    __slots__ = ("bandits",)

    bandits: tuple[int, ...]  # their bandit indexes, in the module record's order


def bind_new_bandits(spec: GameSpec, compiled: CompiledCatalog) -> NewBanditsFacts:
    """The module's bandits among the game's characters; one line naming any that is missing."""
    module = next((m for s in compiled.rule_sets for m in s.modules if m.id == NEW_BANDITS),
                  None)
    wanted = list(module.cards) if module is not None else []
    index = {character.id: character.idx for character in spec.characters}
    missing = [bandit for bandit in wanted if bandit not in index]
    if module is None or missing:
        raise UnplayableDeckError(
            f"module '{NEW_BANDITS}' needs the bandit "
            f"{', '.join(repr(b) for b in missing) or 'records'} of Expansion 1.1",
            fix="install Expansion 1.1's set (ambush-on-gunshot-trail.yaml)")
    facts = NewBanditsFacts()
    facts.bandits = tuple(index[bandit] for bandit in wanted)
    return facts


#: 1.1's bandits in the gang: compiled with the bandits, alive from set-up.
PLUGIN = ModulePlugin(ids=(NEW_BANDITS,), bind=bind_new_bandits)

"""Two modules with little to do at the table: `silver-dollars` (McReady starts with the
module's `mcready_starting_silver_dollars`, which Module B's later choice replaces; cards gain
and spend `state.silver`) and the Tarnished Star's Module D, `build-your-own-deck`: the
deck-building rules every deck meets anyway, so it changes nothing at the table and is
accepted rather than refused.
"""

from __future__ import annotations

from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.state import ATTACKER, State
from deckbuilder.games.revolver.plugin import ModulePlugin

SILVER_DOLLARS = "silver-dollars"
STARTING_DOLLARS = "mcready_starting_silver_dollars"
DECK_BUILDING = "build-your-own-deck"


def bind_dollars(spec: GameSpec, compiled: CompiledCatalog) -> int:
    """McReady's starting dollars, read from the module record (data, not code)."""
    module = next((m for card_set in compiled.rule_sets for m in card_set.modules
                   if m.id == SILVER_DOLLARS), None)
    value = module.switches.get(STARTING_DOLLARS, 1) if module is not None else 1
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 1


def set_up_dollars(state: State) -> None:
    """McReady starts with them (a staged position says its own dollars: no `restage`)."""
    dollars = state.spec.facts.plugin_facts[SILVER_DOLLARS]
    state.silver[ATTACKER] = dollars
    if state.verbose:
        state.note(f"McReady starts with {dollars} silver dollar{'s' if dollars != 1 else ''}")


SILVER_DOLLARS_PLUGIN = ModulePlugin(ids=(SILVER_DOLLARS,), bind=bind_dollars,
                                     set_up=set_up_dollars)
#: Module D at the table: nothing (its rules are the validator's).
DECK_BUILDING_PLUGIN = ModulePlugin(ids=(DECK_BUILDING,))

"""Two modules with little to do at the table: the silver dollars of the expansions, and the
Tarnished Star's Module D, which is the deck-building rules.

- `silver-dollars` (vengeance-on-the-frontier.yaml): McReady starts the game with the
  module's `mcready_starting_silver_dollars` (one: Module B's "two silver dollars instead
  of the usual one"); cards then gain and spend them (`state.silver`, the table's). Module B's
  choice, made later in the set-up, replaces the number.
- `build-your-own-deck` (Module D): the deck-building rules. `validate`, `play` and
  `simulate` apply them to every deck anyway, so choosing the module changes nothing at the
  table; it is accepted rather than refused, since a player who names it is right to.
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

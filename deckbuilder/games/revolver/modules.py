"""The expansion modules Revolver's engine plays, as plug-ins (`plugin.py`), one file each,
called by the game's rules at a few fixed moments in one order (`PLUGINS`): no module's code
reaches into another's, and a game without modules pays one empty loop per turn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec, renumber_game_actions
from deckbuilder.games.revolver import ambush, duel, frontier, new_bandits, prison, resources
from deckbuilder.games.revolver.plugin import ModulePlugin
from deckbuilder.protocol import UnplayableDeckError
from deckbuilder.rulesets import reading_of

#: Every plug-in, in the order the game calls them.
PLUGINS: tuple[ModulePlugin, ...] = (
    resources.SILVER_DOLLARS_PLUGIN, duel.PLUGIN, prison.PLUGIN, frontier.PLUGIN, ambush.PLUGIN,
    new_bandits.PLUGIN, resources.DECK_BUILDING_PLUGIN)
#: module id -> its plug-in
BY_ID: dict[str, ModulePlugin] = {module_id: plugin for plugin in PLUGINS
                                  for module_id in plugin.ids}
#: The modules this engine plays (the others are refused by name).
PLAYABLE_MODULES = frozenset(BY_ID)


def check_modules(catalog: Catalog, modules: Sequence[str]) -> tuple[str, ...]:
    """The modules in use, checked: each known to the catalog, played by this engine, with
    the modules it requires. Raises a one-line UnplayableDeckError naming the module."""
    known = {module.id: module for loaded in catalog.sets.values()
             if loaded.card_set.game == "revolver" for module in loaded.card_set.modules}
    chosen = tuple(dict.fromkeys(modules))
    for module_id in chosen:
        module = known.get(module_id)
        if module is None:
            raise UnplayableDeckError(
                f"unknown module '{module_id}'",
                fix=f"choose among: {', '.join(sorted(known)) or 'none installed'}")
        if module_id not in PLAYABLE_MODULES:
            raise UnplayableDeckError(
                f"the engine does not play module '{module_id}' ({module.name})",
                fix=f"leave it out; the engine plays: {', '.join(sorted(PLAYABLE_MODULES))}")
        missing = [needed for needed in module.requires_modules if needed not in chosen]
        if missing:
            raise UnplayableDeckError(
                f"module '{module_id}' ({module.name}) needs module "
                f"{', '.join(repr(m) for m in missing)}",
                fix=f"add {' '.join('--module ' + m for m in missing)}")
    return chosen


def in_use(modules: Collection[str]) -> tuple[ModulePlugin, ...]:
    """The plug-ins of these modules, each once, in `PLUGINS` order."""
    return tuple(plugin for plugin in PLUGINS if any(m in plugin.ids for m in modules))


def extra_cards(modules: Sequence[str], catalog: Catalog) -> list[tuple[int, str]]:
    return [card for plugin in in_use(modules) for card in plugin.extra_cards(modules, catalog)]


def layout_of(modules: Sequence[str], catalog: Catalog | None = None,
              ruleset: str | None = None,
              switches: Mapping[str, str] | None = None) -> str | None:
    """The battlefield layout a choice of modules names (None: the base row): the module ids,
    and `id=value` for each switch that shapes the row (`row_switches`) as chosen."""
    if not modules:
        return None
    items = sorted(modules)
    for switch in (s for plugin in in_use(modules) for s in plugin.row_switches):
        # an unknown ruleset is refused, by name, when the rules are read
        reading = (switches or {}).get(switch) or (
            reading_of(catalog, "revolver", ruleset, switch) if catalog is not None else None)
        if reading is not None:
            items.append(f"{switch}={reading}")
    return "modules:" + ",".join(items)


def select_battlefields(battlefields: list[Any], layout: str | None) -> list[Any]:
    row = sorted(battlefields, key=lambda battlefield: battlefield.order)
    if layout and layout.startswith("modules:"):
        for plugin in in_use(layout.removeprefix("modules:").split(",")):
            row = plugin.select_battlefields(row, layout)
    return row


# -- binding ------------------------------------------------------------------------------------
def bind(spec: GameSpec, compiled: CompiledCatalog
         ) -> tuple[tuple[ModulePlugin, ...], dict[str, Any], dict[str, int]]:
    """The plug-ins in use, their facts, and each one's offset in the piece range."""
    plugins = in_use(spec.modules)
    offsets: dict[str, int] = {}
    texts: list[str] = []
    for plugin in plugins:
        offsets[plugin.ids[0]] = len(texts)
        texts.extend(plugin.game_action_texts)
    spec.facts.game_action_offsets = offsets  # read by the plug-ins' binds (plugin.piece_action)
    if texts:
        all_texts = tuple(texts)
        renumber_game_actions(spec, len(all_texts), lambda state, index: all_texts[index]
                        if 0 <= index < len(all_texts) else f"piece {index}")
    facts = {plugin.ids[0]: plugin.bind(spec, compiled) for plugin in plugins}
    return plugins, facts, offsets




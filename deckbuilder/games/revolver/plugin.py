"""What a module plug-in is (`ModulePlugin`) and the little it shares with the game: its own
state in `state.game_data`, a sorted tuple of (module id, value) pairs (hashable and
immutable, as the table requires), and its decisions as actions of the game's piece range,
shared out by `modules.bind`. Each plug-in imports only this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.state import State


def _nothing(state: State, *args: object) -> None:
    """A moment the module takes no part in."""


@dataclass(frozen=True, kw_only=True)
class ModulePlugin:
    """One module's part in a game: the module ids it plays (one, or a module and its add-ons)
    and, for each moment it takes part in, the module's own function; every other moment is a
    no-op. Made once per module (`PLUGIN = ModulePlugin(...)` at the end of its file), so a
    moment is the module's function itself, never a method that forwards to it."""

    ids: tuple[str, ...]
    #: the texts of the module's own decisions (its share of the piece range)
    game_action_texts: tuple[str, ...] = ()
    #: rule switches whose reading changes the row of battlefields (the prison's position):
    #: their chosen readings travel in the layout the row is compiled for
    row_switches: tuple[str, ...] = ()
    #: the module's rule switches and the readings this engine plays
    known_variants: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: (player, card id) of card instances the module puts on the table outside decks
    extra_cards: Callable[[Sequence[str], Catalog], list[tuple[int, str]]] = (
        lambda modules, catalog: [])
    #: the row in play, given the row so far (a module may add its own battlefield)
    select_battlefields: Callable[[list[Any], str | None], list[Any]] = lambda row, layout: row
    #: the module's facts for this game (`spec.facts.plugin_facts[first id]`)
    bind: Callable[[GameSpec, CompiledCatalog], object] = lambda spec, compiled: None
    #: after the base set-up; tasks appended here run before the opening hands
    set_up: Callable[[State], None] = _nothing
    #: the turn marker may have moved (the gang's advance, or a card in the last turn)
    marker_moved: Callable[[State], None] = _nothing
    #: a turn begins, the marker has advanced, the draw phase comes next
    start_turn: Callable[[State, int], None] = _nothing
    #: the draw phase's draws are done; the play phase comes next
    after_draw: Callable[[State, int], None] = _nothing
    #: a turn ends, before the border countdown and the train
    end_turn: Callable[[State, int], None] = _nothing
    #: the module's table piece a player may use in his play phase now, or None; using it;
    #: its words
    piece_available: Callable[[State, int], str | None] = lambda state, player: None
    use_piece: Callable[[State, int], None] = _nothing
    describe_piece: Callable[[State], str] = lambda state: "use the table piece"
    #: re-deal the module's pieces a player cannot see (determinizing bots)
    resample: Callable[[State, int, random.Random], None] = _nothing
    #: the module's pieces as a player (None: everyone) may see them
    view: Callable[[State, int | None], dict[str, object]] = lambda state, player: {}
    #: a scenario staged a position by hand: put back what the module's set-up places
    restage: Callable[[State], None] = _nothing
    #: characters out of play that are not dead, and where they wait
    held_characters: Callable[[State], dict[int, str]] = lambda state: {}


def piece_action(state: State, plugin: ModulePlugin, index: int) -> int:
    """The action of the plug-in's `index`-th decision text."""
    spec = state.spec
    return int(spec.layout.game_base + spec.facts.game_action_offsets[plugin.ids[0]] + index)


def piece_index(state: State, plugin: ModulePlugin, action: int) -> int:
    """Which of the plug-in's decision texts `action` is (-1: none of them)."""
    spec = state.spec
    index = action - spec.layout.game_base - spec.facts.game_action_offsets[plugin.ids[0]]
    return index if 0 <= index < len(plugin.game_action_texts) else -1


# -- a module's own state ---------------------------------------------------------------------
def module_data(state: State, module_id: str, default: object = None) -> Any:
    for key, value in state.game_data or ():
        if key == module_id:
            return value
    return default


def set_module_data(state: State, module_id: str, value: object) -> None:
    """Replace a module's value (hashable and immutable: a NamedTuple of ints, strs, tuples)."""
    others = [(key, old) for key, old in state.game_data or () if key != module_id]
    state.game_data = tuple(sorted([*others, (module_id, value)]))

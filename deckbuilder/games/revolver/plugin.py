"""What a module plug-in is (`ModulePlugin`) and the little it shares with the game: its own
state in `state.game_data` and its share of the piece range. The registry of plug-ins is
`modules.py`; each plug-in lives in its own file and imports only this one.

A module's own small state lives in `state.game_data`, a sorted tuple of (module id, value)
pairs (hashable and immutable, as the table requires): `module_data` reads a module's value,
`set_module_data` replaces it. A module's own decisions (the duel's answers, McReady's dollars)
are actions of the game's piece range, shared out by `modules.bind` (`piece_action`,
`piece_index`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.state import State


class ModulePlugin:
    """One module's part in a game. A plug-in sets `ids` (the module ids it plays: one, or a
    module and its add-ons) and overrides the moments it takes part in."""

    ids: tuple[str, ...] = ()
    #: the texts of the module's own decisions (its share of the piece range)
    game_action_texts: tuple[str, ...] = ()
    #: rule switches whose reading changes the row of battlefields (the prison's position):
    #: their chosen readings travel in the layout the row is compiled for
    row_switches: tuple[str, ...] = ()
    #: the module's rule switches and the readings this engine plays
    known_variants: Mapping[str, frozenset[str]] = {}

    def extra_cards(self, modules: Sequence[str], catalog: Catalog) -> list[tuple[int, str]]:
        """(player, card id) of card instances the module puts on the table outside decks."""
        return []

    def select_battlefields(self, battlefields: list[Any], layout: str | None) -> list[Any]:
        """The row in play, given the row so far (a module may add its own battlefield)."""
        return battlefields

    def bind(self, spec: GameSpec, compiled: CompiledCatalog) -> Any:
        """The module's facts for this game (`spec.facts.plugin_facts[first id]`)."""
        return None

    def set_up(self, state: State) -> None:
        """After the base set-up; tasks appended here run before the opening hands."""

    def marker_moved(self, state: State) -> None:
        """The turn marker may have moved (the gang's advance, or a card in the last turn)."""

    def start_turn(self, state: State, player: int) -> None:
        """A turn begins, the marker has advanced, the draw phase comes next."""

    def after_draw(self, state: State, player: int) -> None:
        """The draw phase's draws are done; the play phase comes next."""

    def end_turn(self, state: State, player: int) -> None:
        """A turn ends, before the border countdown and the train."""

    def piece_available(self, state: State, player: int) -> str | None:
        """The module's table piece `player` may use in his play phase now, or None."""
        return None

    def use_piece(self, state: State, player: int) -> None:
        """Use it."""

    def describe_piece(self, state: State) -> str:
        return "use the table piece"

    def resample(self, state: State, player: int, rng: random.Random) -> None:
        """Re-deal the module's pieces `player` cannot see (determinizing bots)."""

    def view(self, state: State, player: int | None) -> dict[str, object]:
        """The module's pieces as `player` may see them."""
        return {}

    def restage(self, state: State) -> None:
        """A scenario staged a position by hand: put back what the module's set-up places."""

    def held_characters(self, state: State) -> dict[int, str]:
        """Characters out of play that are not dead, and where they wait."""
        return {}


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

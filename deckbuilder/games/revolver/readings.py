"""Card texts the rule documents let one read two ways, as this game's own data shapes: a rule
switch that changes what a card does gives one game's spec its own reshaped copy of that
card's compiled definition (`facts.bind` calls these). The shared compiled catalog is never
changed, and under the default readings nothing is copied.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import copy
from typing import Any

from deckbuilder.engine.actions import CHARACTER_BASE, K_SACRIFICE
from deckbuilder.engine.board import character_dies, hit_character
from deckbuilder.engine.card_records import CardDef, CharDef
from deckbuilder.engine.card_steps import run_bounce, run_casualty, run_kill, run_sacrifice
from deckbuilder.engine.compiled import CompiledCatalog, GameSpec
from deckbuilder.engine.effects import run_lose_game
from deckbuilder.engine.expansion_steps import run_only_if
from deckbuilder.engine.state import DEFENDER, State

Step = tuple[Callable[[State, tuple], None], Any]


# -- this spec's own copies ---------------------------------------------------------------------
def own_card(spec: GameSpec, compiled: CompiledCatalog, card_id: str) -> CardDef | None:
    """This spec's own copy of a card definition, in place of the shared one for every copy of
    the card in the decks (None: the catalog has no such card)."""
    definition = compiled.def_index.get(card_id)
    if definition is None:
        return None
    if spec.defs is compiled.defs:
        spec.defs = list(compiled.defs)
    card = copy(spec.defs[definition])
    spec.defs[definition] = card
    for uid, of in enumerate(spec.def_of):
        if of == definition:
            spec.card_def[uid] = card
    return card


def own_bandit(spec: GameSpec, compiled: CompiledCatalog, index: int) -> CharDef:
    """This spec's own copy of a character definition."""
    if spec.characters is compiled.characters:
        spec.characters = list(compiled.characters)
    bandit = copy(spec.characters[index])
    spec.characters[index] = bandit
    return bandit


def swap_steps(steps: tuple, runner: Callable[[State, tuple], None],
               make: Callable[[object], Step]) -> tuple:
    """The compiled steps with each `runner` step (also inside an only-if) `make(params)`."""
    swapped: list[Step] = []
    for step_runner, params in steps:
        if step_runner is runner:
            swapped.append(make(params))
            continue
        if step_runner is run_only_if:
            params = (params[0], swap_steps(params[1], runner, make), params[2])
        swapped.append((step_runner, params))
    return tuple(swapped)


def _reshape_modes(spec: GameSpec, compiled: CompiledCatalog, card_id: str,
                   runner: Callable[[State, tuple], None], make: Callable[[Any], Step]) -> None:
    """This spec's own copy of the card, each `runner` step of its modes `make(params)`."""
    card = own_card(spec, compiled, card_id)
    if card is None:
        return
    modes = []
    for mode in card.modes:
        mode = copy(mode)
        mode.effect = swap_steps(mode.effect, runner, make)
        modes.append(mode)
    card.modes = tuple(modes)


# -- quincey-rides: each-discard ----------------------------------------------------------------
def rides_for_each_discard(spec: GameSpec, compiled: CompiledCatalog, card_id: str) -> None:
    """Every ability of the card may be used as often as it is paid for in one play phase."""
    card = own_card(spec, compiled, card_id)
    if card is None:
        return
    abilities = []
    for ability in card.abilities:
        ability = copy(ability)
        ability.once_per_turn = False
        abilities.append(ability)
    card.abilities = tuple(abilities)


# -- saddlebags-gatling-gun: gang-gatling-allowed -------------------------------------------------
def bounce_without_exception(spec: GameSpec, compiled: CompiledCatalog, card_id: str,
                             allowed: str) -> None:
    """The card's return-to-hand steps no longer leave out the card `allowed`."""
    allowed_def = compiled.def_index.get(allowed, -1)

    def widened(params: tuple) -> Step:
        target = copy(params[0])  # a bounce step's params: (target filter, count)
        target.exclude = target.exclude - {allowed_def}
        return (run_bounce, (target, *params[1:]))

    _reshape_modes(spec, compiled, card_id, run_bounce, widened)


# -- along-fer-the-ride: any-members, casualties --------------------------------------------------
def sacrifice_as_casualties(spec: GameSpec, compiled: CompiledCatalog, card_id: str) -> None:
    """The gang's own losses are casualties: lowest survival rating first, tokens save."""
    _reshape_modes(spec, compiled, card_id, run_sacrifice, lambda count: (run_casualty, count))


def sacrifice_any_members(spec: GameSpec, compiled: CompiledCatalog, card_id: str) -> None:
    """The gang player removes whichever members he chooses; tokens save none."""
    _reshape_modes(spec, compiled, card_id, run_sacrifice,
                   lambda count: (run_remove_any_members, count))


def run_remove_any_members(state: State, task: tuple) -> None:
    _remove_next(state, task[1])


def _t_remove_more(state: State, task: tuple) -> None:
    _remove_next(state, task[1])


def _remove_next(state: State, count: int) -> None:
    if count <= 0 or state.over:
        return
    pool = [index for index, alive in enumerate(state.alive) if alive]
    if not pool:
        return
    if len(pool) == 1:
        _remove(state, pool[0], count)
        return
    state.decide(DEFENDER, [CHARACTER_BASE + index for index in pool], _resume_remove, count,
                 K_SACRIFICE)


def _resume_remove(state: State, action: int, count: int) -> None:
    _remove(state, action - CHARACTER_BASE, count)


def _remove(state: State, index: int, count: int) -> None:
    if count > 1:
        state.tasks.append((_t_remove_more, count - 1))
    hit_character(state, index, True)  # removed from play: his token saves him not


# -- lawmen-removal: true-grit-ignored ------------------------------------------------------------
def kill_ignoring_true_grit(spec: GameSpec, compiled: CompiledCatalog, card_id: str) -> None:
    """The card's removal of characters is no kill: a true grit token keeps none of them."""
    def regardless(params: tuple) -> Step:
        # a kill step's params: (target, count, up_to, max firepower, ignore grit, remove,
        # at least)
        return (run_kill, (*params[:4], True, *params[5:]))

    _reshape_modes(spec, compiled, card_id, run_kill, regardless)


# -- jack-death: gang-fights-on -------------------------------------------------------------------
def without_loss_on_death(spec: GameSpec, compiled: CompiledCatalog, index: int) -> None:
    """The character's death no longer says "you have lost" (its other effects stay)."""
    bandit = own_bandit(spec, compiled, index)
    bandit.on_death = tuple(step for step in bandit.on_death if step[0] is not run_lose_game)


# -- skinny-token: power-firepower-only -----------------------------------------------------------
def power_token_is_no_life(spec: GameSpec, compiled: CompiledCatalog, index: int) -> None:
    """The character's power token saves him from no kill: under this reading its loss first
    kills him (then his token-lost effects follow); a true grit token still saves him."""
    bandit = own_bandit(spec, compiled, index)
    bandit.on_token_lost = ((_t_power_token_saves_no_one, None), *bandit.on_token_lost)
    bandit.on_grit_lost = ((_t_true_grit_saved, None), *bandit.on_grit_lost)


def _t_power_token_saves_no_one(state: State, task: tuple) -> None:
    index = task[2][1] - state.spec.character_base
    if state.alive[index] and not state.over:
        if state.verbose:
            state.note(f"a power token is no extra life: {state.spec.characters[index].name} "
                       "dies all the same")
        character_dies(state, index)


def _t_true_grit_saved(state: State, task: tuple) -> None:
    """A true grit token was taken, not the power token: drop the death queued below (the
    table queues the token-lost steps first, then the true-grit-lost ones on top)."""
    tasks = state.tasks
    uid = task[2][1]
    for position in range(len(tasks) - 1, -1, -1):
        queued = tasks[position]
        if queued[0] is _t_power_token_saves_no_one and queued[2][1] == uid:
            del tasks[position]
            return

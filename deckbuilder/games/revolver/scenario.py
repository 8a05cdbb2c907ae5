"""Laying out a Revolver position (the game's `GameParts.scenario`): the bandits, the table's
pieces and, after `game_rules.restage`, what the modules add (Module B's choice, the bandits a
module holds). A held bandit is neither alive nor dead: a file naming him alive, dead or with
tokens without freeing him is refused (exit 2), as is Module B's choice without the module,
or the module without its choice.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from deckbuilder.engine.marker import activate_face_spaces
from deckbuilder.engine.state import ATTACKER, State
from deckbuilder.games.revolver import duel, prison
from deckbuilder.games.revolver.scenario_model import FORMAT, RevolverScenario
from deckbuilder.scenario_kit.layout import Ids
from deckbuilder.scenario_kit.parts import Source
from deckbuilder.scenario_kit.staging import (
    ScenarioParts,
    Staging,
    per_side_count,
    reading,
    set_alive,
    set_characters,
    set_generic_table,
    set_tokens,
)


def set_table(state: State, scenario: RevolverScenario, source: Source, ids: Ids) -> None:
    """The face spaces in use, the silver dollars and Derail the Train; then the generic."""
    spec = state.spec
    position = scenario.position
    faces = {face for battlefield in spec.bfs for face in battlefield.faces}
    for i, face in enumerate(position.face_spaces):
        if face not in faces:
            raise source.error(f"no battlefield has a '{face}' face space",
                               ("position", "face_spaces", i), "use kittens or skinny")
    for face, count in Counter(position.face_spaces).items():
        activate_face_spaces(state, face, count)
    if position.silver_dollars is not None:
        for player, name in enumerate(spec.game_rules.side_names):
            held = getattr(position.silver_dollars, name)
            if held is not None:
                state.silver[player] = held
    used = position.derail_used or spec.facts.derail_bf < 0
    state.pieces_used = frozenset({"derail"}) if used else frozenset()
    set_generic_table(state, scenario, source, ids)


def stage(state: State, scenario: RevolverScenario, source: Source, ids: Ids) -> None:
    _stage_choice(state, scenario, source)
    _stage_held(state, scenario, source, ids)


def _stage_choice(state: State, scenario: Any, source: Source) -> None:
    position = scenario.position
    in_use = duel.MCREADYS_CHOICE in state.spec.modules
    if position.mcreadys_choice is None:
        if in_use:
            raise source.error(f"module '{duel.MCREADYS_CHOICE}' is in use: McReady's choice "
                               "is part of the position", ("position",),
                               "add position.mcreadys_choice: 1 or 2 (silver dollars)")
        return
    if not in_use:
        raise source.error(f"McReady's choice is Module B's, and module "
                           f"'{duel.MCREADYS_CHOICE}' is not in use",
                           ("position", "mcreadys_choice"),
                           f"add {duel.MCREADYS_CHOICE} (and {duel.SALOON_DUEL}) to `modules`, "
                           "or leave mcreadys_choice out")
    duel.stage_choice(state, position.mcreadys_choice)
    held = position.silver_dollars.mcready if position.silver_dollars is not None else None
    if held is not None:  # the file's count wins over the choice's
        state.silver[ATTACKER] = held


def _named(scenario: RevolverScenario, ids: Ids) -> dict[str, list[tuple[str, tuple]]]:
    """Each bandit id the file names in `alive`, `dead`, `tokens` and `freed`, with where."""
    bandits = scenario.position.bandits
    loc = ("position", "bandits")
    named: dict[str, list[tuple[str, tuple]]] = {}
    for key in ("alive", "dead", "freed"):
        for i, text in enumerate(getattr(bandits, key) or []):
            bandit = ids.resolve(text, "character", (*loc, key, i))
            named.setdefault(bandit, []).append((key, (*loc, key, i)))
    for text in bandits.tokens:
        bandit = ids.resolve(text, "character", (*loc, "tokens", text))
        named.setdefault(bandit, []).append(("tokens", (*loc, "tokens", text)))
    return named


def _stage_held(state: State, scenario: RevolverScenario, source: Source, ids: Ids) -> None:
    spec = state.spec
    held = spec.game_rules.held_characters(state)
    bandits = scenario.position.bandits
    named = _named(scenario, ids)
    for bandit_id, places in named.items():
        index = next(c.idx for c in spec.characters if c.id == bandit_id)
        keys = {key for key, _ in places}
        if index in held and "freed" not in keys:
            key, loc = places[0]
            raise source.error(
                f"{spec.characters[index].name} is held {held[index]}: he is neither alive nor "
                f"dead in the gang, so `{key}` cannot name him", loc,
                "free him first (position.bandits.freed), or leave him out")
        if "freed" in keys and index not in held:
            loc = next(loc for key, loc in places if key == "freed")
            raise source.error(f"{spec.characters[index].name} is held by no module in use",
                               loc, "leave him out of `freed`")
        if "freed" in keys:
            tokens = next((value for text, value in bandits.tokens.items()
                           if ids.resolve(text, "character", ()) == bandit_id), None)
            _free(state, index, bandits, bandit_id, keys, tokens)


def _free(state: State, index: int, bandits: Any, bandit_id: str, keys: set[str],
          tokens: Any) -> None:
    """Free him as the game would (the Garrotte under him goes to the gang's hand), then give
    him the life and tokens the file says."""
    facts = prison.prison_facts(state)
    if index != facts.santiago:  # the prison is the one module that holds a bandit
        raise RuntimeError(f"no staging for bandit {bandit_id} held by a module")
    prison.free_santiago(state)
    living = bandit_id not in (bandits.dead or []) and (
        bandits.alive is None or "alive" in keys)
    set_alive(state, index, living)
    if tokens is not None and living:
        set_tokens(state, state.spec.character_base + index, tokens)


#: Revolver's scenarios, for the registry (`GameParts.scenario`).
SCENARIO = ScenarioParts(
    FORMAT, Staging(characters=partial(set_characters, field_name="bandits"), table=set_table,
                    modules=stage),
    {"derail_used": reading(lambda state: "derail" in state.pieces_used),
     "silver_dollars": per_side_count(lambda state, player: state.silver[player])})

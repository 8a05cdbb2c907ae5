"""The Revolver base game: set-up, the turn sequence, the attack, and victory at turn's end.

A game turn is one player's turn (the Colty gang player first). The gang's turn: advance the
turn marker (not on his first turn), draw two, play cards. McReady's turn: draw two, play
cards, attack, then the Mexican Border loses a token if no bandit died this turn, and the gang
wins on the train if Jack survived the turn on space 4 of the 3:15 Express.

The expansions' modules (the Tarnished Star's saloon duel and McReady's choice, ...) are
chosen here and played by their plug-ins (`modules.py`), which the turn sequence calls at
fixed moments; the table pieces are the modules' (the duel) and Derail the Train.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.actions import CHARACTER_BASE, PASS
from deckbuilder.engine.board import draw
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.compiled import GameSpec, game_spec
from deckbuilder.engine.game_rules import GameRules
from deckbuilder.engine.marker import advance_marker, first_space
from deckbuilder.engine.possible import COUNTDOWN, EAGLE, POWER, SILVER, TRUE_GRIT
from deckbuilder.engine.state import (
    ATTACKER,
    DEFENDER,
    PHASE_END,
    State,
)
from deckbuilder.engine.turn import BEGIN_PLAY, DRAW_PHASE, begin_turn
from deckbuilder.games.revolver import frontier_steps, why_not
from deckbuilder.games.revolver import modules as plugins_of
from deckbuilder.games.revolver.declaration import DECLARATION, K_SAVE
from deckbuilder.games.revolver.derail import (
    DERAIL,
    STEPS,
    derail_available,
    derail_impossibilities,
    describe_derail,
    use_derail,
)
from deckbuilder.games.revolver.endings import Termination, card_loss, character_died
from deckbuilder.games.revolver.facts import KNOWN_VARIANTS, RevolverFacts, bind
from deckbuilder.games.revolver.prison import PRISON

OPENING_HAND = 5


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, max_turns: int = 200, verbose: bool = False,
             switches: Mapping[str, str] | None = None, modules: Sequence[str] = (),
             orders: Sequence[Sequence[str] | None] = ()) -> State:
    """Set up a game: decks[0] is the gang's (Colty), decks[1] McReady's; card id -> copies.
    `switches` chooses single rule switches over the ruleset's readings; `modules` the
    Tarnished Star's modules in use (saloon-duel, mcreadys-choice), checked here; `orders`
    how each deck lies before the shuffle (`engine.compiled.deck_order`).

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> state = new_game([catalog.base_deck("revolver", "colty"),
    ...                   catalog.base_deck("revolver", "mcready")], seed=1, catalog=catalog)
    >>> state.current_player(), state.is_terminal(), len(state.legal_actions()) > 0
    (0, False, True)
    """
    catalog = catalog if catalog is not None else default_catalog()
    if not modules:
        spec = game_spec(catalog, RULES, decks, ruleset, switches=switches, orders=orders)
    else:
        chosen = plugins_of.check_modules(catalog, modules)
        layout = plugins_of.layout_of(chosen, catalog, ruleset, switches)
        spec = game_spec(catalog, RULES, decks, ruleset, layout=layout,
                         switches=switches, modules=chosen,
                         extra_cards=plugins_of.extra_cards(chosen, catalog), orders=orders)
    return setup(spec, seed, max_turns, verbose)



def setup(spec: GameSpec, seed: int, max_turns: int, verbose: bool = False) -> State:
    """Set-up: battlefields and marker, bandits and their tokens, the border, decks, hands."""
    state = State.blank(spec, seed, max_turns, verbose)
    state.marker_space = first_space(state, 0)
    rng = state.rng
    shuffle(rng, state.decks[0])
    shuffle(rng, state.decks[1])
    for character in spec.characters:
        uid = spec.character_base + character.idx
        state.own_grit()[uid] = character.true_grit
        state.own_power()[uid] = character.power
        if spec.facts.skinny_true_grit:  # rule switch skinny-token: his power token is true grit
            state.own_grit()[uid] += state.power[uid]
            state.own_power()[uid] = 0
    state.alive = [True] * len(spec.characters)
    if spec.facts.derail_bf < 0:
        state.pieces_used = frozenset({DERAIL})
    state.tasks.append((t_start_turn, DEFENDER))
    state.tasks.append((_t_opening_hands,))
    for plugin in spec.facts.plugins:  # tasks they queue run before the opening hands
        plugin.set_up(state)
    state.run()
    return state


def _t_opening_hands(state: State, task: tuple) -> None:
    draw(state, DEFENDER, OPENING_HAND)
    draw(state, ATTACKER, OPENING_HAND)


# -- the turn sequence --------------------------------------------------------------------------
def t_start_turn(state: State, task: tuple) -> None:
    player = task[1]
    if not begin_turn(state, player, Termination.TURN_CAP):
        return
    facts: RevolverFacts = state.spec.facts  # typed: read natively, compiled
    plugins = facts.plugins
    for plugin in plugins:
        plugin.marker_moved(state)  # a card may have moved the marker on
    tasks = state.tasks
    tasks.append(BEGIN_PLAY)
    if plugins:
        tasks.append((_t_after_draw, player))
    tasks.append((DRAW_PHASE, player))
    if plugins:
        tasks.append((_t_before_draw, player))
    if player == DEFENDER and state.turn > 1:  # not on the gang's first turn
        tasks.append(ADVANCE)


def _t_before_draw(state: State, task: tuple) -> None:
    facts: RevolverFacts = state.spec.facts
    for plugin in facts.plugins:
        plugin.start_turn(state, task[1])


def _t_after_draw(state: State, task: tuple) -> None:
    facts: RevolverFacts = state.spec.facts
    for plugin in facts.plugins:
        plugin.after_draw(state, task[1])


def t_advance(state: State, task: tuple) -> None:
    advance_marker(state)
    facts: RevolverFacts = state.spec.facts
    for plugin in facts.plugins:
        plugin.marker_moved(state)


ADVANCE: Final[tuple] = (t_advance,)  # made once, a static compiled (engine.turn's BEGIN_PLAY)


# -- the table pieces: the modules' (the saloon duel), Derail the Train (the 3:15 Express) ------
def _piece_owner(state: State, player: int) -> Any:
    return next((plugin for plugin in state.spec.facts.plugins
                 if plugin.piece_available(state, player) is not None), None)


class RevolverRules(GameRules[State]):
    """Revolver over the table: the border countdown, the train, Derail the Train, and the
    modules' plug-ins (`modules.py`) called at their moments."""

    def __init__(self) -> None:
        super().__init__(DECLARATION)
        self.steps = {**STEPS, **frontier_steps.STEPS}
        self.rule_words = why_not.RULE_WORDS
        self.hiding_steps = frontier_steps.HIDING_STEPS
        self.under_steps = frontier_steps.UNDER_STEPS
        self.forbidding_steps = frontier_steps.FORBIDDING_STEPS
        # Double the guard lies only in Expansion 1.2's prison, in the row only when its
        # module is in use; the prison's cards lose their text (FAQ Q6, `prison.py`)
        self.placement_battlefields = {"prison": (PRISON, "the San Manzanillo Prison")}
        self.silent_battlefield = PRISON
        self.known_variants = KNOWN_VARIANTS
        self.modules = plugins_of.PLAYABLE_MODULES
        self.attack_words = ("gang", "lawmen")
        self.countdown_name = "border"
        self.turn_task = t_start_turn
        self.countdown_ending = Termination.BORDER_EMPTIED
        self.piece_names = {DERAIL: "Derail the Train"}
        # the box's tokens (rulebook-en, Components; the Tarnished Star's eagle, 1.3's silver
        # dollars): the same supply serves both sides
        self.token_ids = {counter: (token, token) for counter, token in (
            (POWER, "power-token"), (TRUE_GRIT, "true-grit-token"), (EAGLE, "eagle-token"),
            (COUNTDOWN, "mexican-border-token"), (SILVER, "silver-dollar-token"))}

    def select_battlefields(self, battlefields: list[Any], layout: str | None) -> list[Any]:
        return plugins_of.select_battlefields(battlefields, layout)

    def bind(self, spec: Any, compiled: Any) -> None:
        bind(spec, compiled)

    def end_turn(self, state: State, task: tuple) -> None:
        """McReady's turn ends: the border countdown, then the train."""
        state.phase = PHASE_END
        facts: RevolverFacts = state.spec.facts
        for plugin in facts.plugins:
            plugin.end_turn(state, task[1])
            if state.over:
                return
        super().end_turn(state, task)
        if task[1] != ATTACKER or state.over:
            return
        spec = state.spec
        if state.marker_bf == facts.train_bf and state.marker_space == facts.train_space:
            if facts.train_any_member or spec.leader < 0:
                survived = any(state.alive)
            else:
                survived = state.alive[spec.leader]
            if survived:
                state.end_game(DEFENDER, Termination.TRAIN_REACHED)

    def character_died(self, state: State, index: int) -> None:
        character_died(state, index)

    def card_loss(self, state: State, loser: int, source_uid: int) -> None:
        card_loss(state, loser, source_uid)

    def piece_available(self, state: State, player: int) -> str | None:
        """One piece at a time: a module's (the duel at Rattlesnake Creek), else Derail."""
        facts: RevolverFacts = state.spec.facts
        for plugin in facts.plugins:
            piece = plugin.piece_available(state, player)
            if piece is not None:
                return piece
        return derail_available(state, player)

    def use_piece(self, state: State, player: int) -> None:
        plugin = _piece_owner(state, player)
        if plugin is not None:
            plugin.use_piece(state, player)
        else:
            use_derail(state, player)

    def describe_piece(self, state: State) -> str:
        plugin = _piece_owner(state, state.pending_player)
        return plugin.describe_piece(state) if plugin is not None else describe_derail(state)

    def describe_action(self, state: State, action: int) -> str | None:
        if state.pending_kind in frontier_steps.KINDS:
            return frontier_steps.describe(state, action)
        if state.pending_kind == K_SAVE:  # Derail the Train: save a bandit, or stop
            if action == PASS:
                return "stop saving bandits"
            index = action - CHARACTER_BASE
            if 0 <= index < len(state.spec.characters):
                return f"save {state.spec.characters[index].name}"
        return None

    def restage(self, state: State) -> None:
        """A staged position (a scenario) gets the modules' own pieces back (Module A's guard,
        duel card and hostage token), as at set-up (Module B's choice is not asked again)."""
        for plugin in state.spec.facts.plugins:
            plugin.restage(state)

    def resample(self, state: State, player: int, rng: random.Random) -> None:
        frontier_steps.resample_guess(state, player, rng)
        for plugin in state.spec.facts.plugins:
            plugin.resample(state, player, rng)

    def impossibilities(self, state: State) -> list[Any]:
        return derail_impossibilities(state)

    def held_characters(self, state: State) -> dict[int, str]:
        held: dict[int, str] = {}
        for plugin in state.spec.facts.plugins:
            held.update(plugin.held_characters(state))
        return held

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        shown: dict[str, Any] = {}
        for plugin in state.spec.facts.plugins:
            shown.update(plugin.view(state, player))
        return shown


#: Revolver's rules over the table, made once.
RULES = RevolverRules()

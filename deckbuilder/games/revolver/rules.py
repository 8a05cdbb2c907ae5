"""The Revolver base game: set-up, the turn sequence, the attack, and victory at turn's end.

A game turn is one player's turn (the Colty gang player first). The gang's turn: advance the
turn marker (not on his first turn), draw two, play cards. McReady's turn: draw two, play
cards, attack, then the Mexican Border loses a token if no bandit died this turn, and the gang
wins on the train if Jack survived the turn on space 4 of the 3:15 Express.

The Tarnished Star's modules A (the saloon duel) and B (McReady's choice) are chosen here and
played in `duel.py`; the table pieces are Derail the Train and, with Module A, the duel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.board import draw
from deckbuilder.engine.compiled import GameSpec, game_spec
from deckbuilder.engine.hooks import GameHooks
from deckbuilder.engine.marker import advance_marker, first_space
from deckbuilder.engine.state import (
    ATTACKER,
    DEFENDER,
    PHASE_END,
    State,
)
from deckbuilder.engine.turn import begin_turn, open_main, t_begin_play, t_draw_phase
from deckbuilder.games.revolver import duel
from deckbuilder.games.revolver.derail import (
    DERAIL,
    STEPS,
    derail_available,
    describe_derail,
    use_derail,
)
from deckbuilder.games.revolver.endings import (
    Termination,
    border_emptied,
    card_loss,
    character_died,
)
from deckbuilder.games.revolver.facts import KNOWN_VARIANTS, bind

OPENING_HAND = 5


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, max_turns: int = 200, verbose: bool = False,
             switches: Mapping[str, str] | None = None, modules: Sequence[str] = ()) -> State:
    """Set up a game: decks[0] is the gang's (Colty), decks[1] McReady's; card id -> copies.
    `switches` chooses single rule switches over the ruleset's readings; `modules` the
    Tarnished Star's modules in use (saloon-duel, mcreadys-choice), checked here.

    >>> # state = new_game([catalog.base_deck("revolver", "colty"),
    >>> #                   catalog.base_deck("revolver", "mcready")], seed=1)
    """
    catalog = catalog if catalog is not None else default_catalog()
    if not modules:
        spec = game_spec(catalog, HOOKS, decks, ruleset, switches=switches)
    else:
        chosen = duel.check_modules(catalog, modules)
        spec = game_spec(catalog, HOOKS, decks, ruleset, switches=switches, modules=chosen,
                         extra_cards=duel.extra_cards(chosen))
    return setup(spec, seed, max_turns, verbose)


def setup(spec: GameSpec, seed: int, max_turns: int, verbose: bool = False) -> State:
    """Set-up: battlefields and marker, bandits and their tokens, the border, decks, hands."""
    state = State.blank(spec, seed, max_turns, verbose)
    state.marker_space = first_space(state, 0)
    rng = state.rng
    rng.shuffle(state.decks[0])
    rng.shuffle(state.decks[1])
    for character in spec.bandits:
        uid = spec.bandit_base + character.idx
        state.grit[uid] = character.true_grit
        state.power[uid] = character.power
        if spec.facts.skinny_true_grit:  # rule switch skinny-token: his power token is true grit
            state.grit[uid] += state.power[uid]
            state.power[uid] = 0
    state.alive = [True] * len(spec.bandits)
    if spec.facts.derail_bf < 0:
        state.pieces_used = frozenset({DERAIL})
    duel_facts = spec.facts.duel
    if duel_facts is not None:
        duel.set_up(state)
        if duel_facts.choice:  # Module B: McReady chooses before the opening hands
            state.tasks.append((t_start_turn, DEFENDER))
            state.tasks.append((_t_opening_hands,))
            state.tasks.append((duel.t_mcready_choice,))
            state.run()
            return state
    draw(state, DEFENDER, OPENING_HAND)
    draw(state, ATTACKER, OPENING_HAND)
    state.tasks.append((t_start_turn, DEFENDER))
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
    if state.spec.facts.duel is not None:
        duel.marker_moved(state)  # a card may have moved the marker on
    tasks = state.tasks
    tasks.append((t_begin_play,))
    tasks.append((t_draw_phase, player))
    if player == DEFENDER and state.turn > 1:  # not on the gang's first turn
        tasks.append((t_advance,))


def queue_turn(state: State, player: int) -> None:
    state.tasks.append((t_start_turn, player))


def t_advance(state: State, task: tuple) -> None:
    advance_marker(state)
    if state.spec.facts.duel is not None:
        duel.marker_moved(state)


def t_end_turn(state: State, task: tuple) -> None:
    """McReady's turn ends: the border countdown, then the train."""
    state.phase = PHASE_END
    if task[1] != ATTACKER:
        return
    spec = state.spec
    if spec.countdown_tokens and not state.killed_this_turn:
        state.countdown -= 1
        if state.verbose:
            state.note("no bandit killed this turn: a border token goes "
                       f"({state.countdown} left)")
        if state.countdown <= 0:
            state.countdown = 0
            state.end_game(DEFENDER, Termination.BORDER_EMPTIED)
            return
    if state.marker_bf == spec.facts.train_bf and state.marker_space == spec.facts.train_space:
        if spec.facts.train_any_member or spec.leader < 0:
            survived = any(state.alive)
        else:
            survived = state.alive[spec.leader]
        if survived:
            state.end_game(DEFENDER, Termination.TRAIN_REACHED)



# -- the table pieces: Derail the Train (the 3:15 Express), the saloon duel (Module A) ------
def piece_available(state: State, player: int) -> str | None:
    """One piece per battlefield: the duel at Rattlesnake Creek, Derail at the train."""
    return duel.duel_available(state, player) or derail_available(state, player)


def use_piece(state: State, player: int) -> None:
    if duel.duel_available(state, player) is not None:
        duel.start_duel(state, player)
    else:
        use_derail(state, player)


def describe_piece(state: State) -> str:
    if duel.duel_available(state, state.pending_player) is not None:
        return duel.describe_duel(state)
    return describe_derail(state)


def restage(state: State) -> None:
    """A staged position (a scenario) gets the modules' own pieces back: Module A's guard,
    duel card and hostage token, as at set-up (Module B's choice is not asked again)."""
    if state.spec.facts.duel is not None:
        duel.set_up(state)


def _hooks() -> GameHooks:
    hooks = GameHooks("revolver", ("colty", "mcready"))
    hooks.steps = STEPS
    hooks.known_variants = KNOWN_VARIANTS
    hooks.modules = duel.PLAYABLE_MODULES
    hooks.idle = open_main
    hooks.start_turn = queue_turn
    hooks.end_turn = t_end_turn
    hooks.attack_words = ("gang", "lawmen")
    hooks.character_died = character_died
    hooks.countdown_empty = border_emptied
    hooks.countdown_name = "border"
    hooks.card_loss = card_loss
    hooks.piece_available = piece_available
    hooks.use_piece = use_piece
    hooks.describe_piece = describe_piece
    hooks.piece_names = {DERAIL: "Derail the Train"}
    hooks.resample = duel.resample
    hooks.restage = restage
    hooks.observe = duel.view
    hooks.bind = bind
    return hooks


#: Revolver's hooks into the table, bound once.
HOOKS = _hooks()

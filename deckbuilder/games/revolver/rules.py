"""The Revolver base game: set-up, the turn sequence, the attack, and victory at turn's end.

A game turn is one player's turn (the Colty gang player first). The gang's turn: advance the
turn marker (not on his first turn), draw two, play cards. McReady's turn: draw two, play
cards, attack, then the Mexican Border loses a token if no bandit died this turn, and the gang
wins on the train if Jack survived the turn on space 4 of the 3:15 Express.
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
    PHASE_START,
    State,
)
from deckbuilder.engine.turn import open_main, t_begin_play, t_draw_phase
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
             switches: Mapping[str, str] | None = None) -> State:
    """Set up a game: decks[0] is the gang's (Colty), decks[1] McReady's; card id -> copies.
    `switches` chooses single rule switches over the ruleset's readings.

    >>> # state = new_game([catalog.base_deck("revolver", "colty"),
    >>> #                   catalog.base_deck("revolver", "mcready")], seed=1)
    """
    spec = game_spec(catalog if catalog is not None else default_catalog(), HOOKS, decks,
                     ruleset, switches=switches)
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
    draw(state, DEFENDER, OPENING_HAND)
    draw(state, ATTACKER, OPENING_HAND)
    state.tasks.append((t_start_turn, DEFENDER))
    state.run()
    return state


# -- the turn sequence --------------------------------------------------------------------------
def t_start_turn(state: State, task: tuple) -> None:
    player = task[1]
    if state.turn >= state.max_turns:  # the safety net: no winner
        state.end_game(None, Termination.TURN_CAP)
        return
    state.turn += 1
    state.active = player
    state.phase = PHASE_START
    state.killed_this_turn = False
    state.attack_cancelled = False
    state.used_abilities = frozenset()
    if state.verbose:
        state.note(f"-- turn {state.turn}: {_name(state, player)}")
    tasks = state.tasks
    tasks.append((t_begin_play,))
    tasks.append((t_draw_phase, player))
    if player == DEFENDER and state.turn > 1:  # not on the gang's first turn
        tasks.append((t_advance,))


def queue_turn(state: State, player: int) -> None:
    state.tasks.append((t_start_turn, player))


def t_advance(state: State, task: tuple) -> None:
    advance_marker(state)


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


def _name(state: State, player: int) -> str:
    return state.spec.hooks.side_names[player]


def _hooks() -> GameHooks:
    hooks = GameHooks("revolver", ("colty", "mcready"))
    hooks.steps = STEPS
    hooks.known_variants = KNOWN_VARIANTS
    hooks.idle = open_main
    hooks.start_turn = queue_turn
    hooks.end_turn = t_end_turn
    hooks.attack_words = ("gang", "lawmen")
    hooks.character_died = character_died
    hooks.countdown_empty = border_emptied
    hooks.countdown_name = "border"
    hooks.card_loss = card_loss
    hooks.piece_available = derail_available
    hooks.use_piece = use_derail
    hooks.describe_piece = describe_derail
    hooks.bind = bind
    return hooks


#: Revolver's hooks into the table, bound once.
HOOKS = _hooks()

"""The Revolver base game: set-up, the turn sequence, the attack, and victory at turn's end.

A game turn is one player's turn (the Colty gang player first). The gang's turn: advance the
turn marker (not on his first turn), draw two, play cards. McReady's turn: draw two, play
cards, attack, then the Mexican Border loses a token if no bandit died this turn, and the gang
wins on the train if Jack survived the turn on space 4 of the 3:15 Express.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.actions import K_MAIN, K_REACT, MAX_ABILITIES, PASS, USE_PIECE
from deckbuilder.engine.board import casualty_next, draw, firepower
from deckbuilder.engine.compiled import GameSpec, game_spec
from deckbuilder.engine.hooks import GameHooks
from deckbuilder.engine.marker import advance_marker, draw_phase_triggers, first_space
from deckbuilder.engine.play import (
    discard_own,
    reaction_options,
    resume_reaction,
    start_play,
    use_ability,
)
from deckbuilder.engine.state import (
    ATTACKER,
    DEFENDER,
    PHASE_ATTACK,
    PHASE_END,
    PHASE_PLAY,
    PHASE_START,
    State,
)
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
DRAW_PER_TURN = 2


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


def t_draw_phase(state: State, task: tuple) -> None:
    draw(state, task[1], DRAW_PER_TURN)
    if state.spec.draw_watch:
        draw_phase_triggers(state, task[1])


def t_begin_play(state: State, task: tuple) -> None:
    state.phase = PHASE_PLAY


def open_main(state: State) -> None:
    """With nothing else to do, the active player decides in his play phase."""
    player = state.active
    state.decide(player, None, _resume_main, None, K_MAIN)  # options listed when asked


def _resume_main(state: State, action: int, data: None) -> None:
    player = state.active
    if action == PASS:
        end_play_phase(state)
        return
    layout = state.spec.layout
    if action >= layout.play_base:
        start_play(state, player, state.spec.action_def[action])
    elif action >= layout.ability_base:
        uid, index = divmod(action - layout.ability_base, MAX_ABILITIES)
        use_ability(state, player, uid, index)
    elif action >= layout.own_base:
        discard_own(state, player, action - layout.own_base)
    elif action == USE_PIECE:
        state.spec.hooks.use_piece(state, player)


def end_play_phase(state: State) -> None:
    player = state.active
    tasks = state.tasks
    tasks.append((t_start_turn, 1 - player))
    tasks.append((t_end_turn, player))
    if player == ATTACKER:
        tasks.append((t_attack,))
        state.phase = PHASE_ATTACK
    else:
        state.phase = PHASE_END


def t_attack(state: State, task: tuple) -> None:
    """McReady's firepower against the gang's plus the battlefield's defence."""
    bf = state.marker_bf
    lawmen = firepower(state, bf, ATTACKER)
    gang = firepower(state, bf, DEFENDER) + state.spec.bfs[bf].defence
    if state.verbose:
        state.note(f"attack at {state.spec.bfs[bf].name}: lawmen {lawmen} vs gang {gang}")
    if lawmen <= gang:
        return
    state.attack_cancelled = False
    state.tasks.append((t_attack_casualty,))
    options = reaction_options(state, DEFENDER, None) if state.hands[DEFENDER] else None
    if options:
        state.decide(DEFENDER, [PASS, *options], resume_reaction, (DEFENDER, True, -1), K_REACT)


def t_attack_casualty(state: State, task: tuple) -> None:
    if not state.attack_cancelled:
        casualty_next(state, 1, False)


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

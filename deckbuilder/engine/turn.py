"""The turn both games share once the marker has moved: draw two, the play phase (the active
player's main decision), and, for the attacking side, the attack at the marker's battlefield
with its defence; then the game's own end of turn (`game_rules.end_turn`) and the next turn
(`game_rules.start_turn`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from deckbuilder.engine.actions import K_MAIN, K_REACT, MAX_ABILITIES, PASS, USE_PIECE
from deckbuilder.engine.board import casualty_next, draw, firepower
from deckbuilder.engine.marker import draw_phase_triggers
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

DRAW_PER_TURN: Final = 2


def begin_turn(state: State, player: int, turn_cap: StrEnum) -> bool:
    """A turn begins: the turn count, the active player, and what lasts one turn reset; False
    when the safety net of `max_turns` ends the game instead (no winner, `turn_cap`)."""
    if state.turn >= state.max_turns:
        state.end_game(None, turn_cap)
        return False
    state.turn += 1
    state.active = player
    state.phase = PHASE_START
    state.killed_this_turn = False
    state.attack_cancelled = False
    state.used_abilities = frozenset()
    if state.verbose:
        state.note(f"-- turn {state.turn}: {state.spec.game_rules.side_names[player]}")
    return True


def t_draw_phase(state: State, task: tuple) -> None:
    draw(state, task[1], DRAW_PER_TURN)
    if state.spec.draw_watch:
        draw_phase_triggers(state, task[1])


def t_begin_play(state: State, task: tuple) -> None:
    state.phase = PHASE_PLAY


def open_main(state: State) -> None:
    """With nothing else to do, the active player decides in his play phase."""
    player = state.active
    state.decide(player, None, RESUME_MAIN, None, K_MAIN)  # options listed when asked


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
        state.spec.game_rules.use_piece(state, player)


def end_play_phase(state: State) -> None:
    player = state.active
    game_rules = state.spec.game_rules
    game_rules.start_turn(state, 1 - player)  # queued first: runs after the end of this turn
    tasks = state.tasks
    tasks.append((game_rules.end_turn, player))
    if player == ATTACKER:
        tasks.append(ATTACK)
        state.phase = PHASE_ATTACK
    else:
        state.phase = PHASE_END


def t_attack(state: State, task: tuple) -> None:
    """The attacker's firepower against the defender's plus the battlefield's defence (its
    printed value; tokens on the card count through `firepower`)."""
    bf = state.marker_bf
    attack = firepower(state, bf, ATTACKER)
    defence = firepower(state, bf, DEFENDER) + state.spec.bfs[bf].defence
    if state.verbose:
        defender, attacker = state.spec.game_rules.attack_words
        state.note(f"attack at {state.spec.bfs[bf].name}: {attacker} {attack} vs "
                   f"{defender} {defence}")
    if attack <= defence:
        return
    state.attack_cancelled = False
    state.tasks.append(ATTACK_CASUALTY)
    options = reaction_options(state, DEFENDER, None) if state.hands[DEFENDER] else None
    if options:
        state.decide(DEFENDER, [PASS, *options], resume_reaction, (DEFENDER, True, -1), K_REACT)


def t_attack_casualty(state: State, task: tuple) -> None:
    if not state.attack_cancelled:
        casualty_next(state, 1, False)


#: The turn's resumes and argumentless tasks as the compiled build's statics (a function read
#: by its name is a look-up in the module's dict at each use), the tasks made once.
RESUME_MAIN: Final = _resume_main
ATTACK: Final[tuple] = (t_attack,)
ATTACK_CASUALTY: Final[tuple] = (t_attack_casualty,)
BEGIN_PLAY: Final[tuple] = (t_begin_play,)
DRAW_PHASE: Final = t_draw_phase

"""Standoff: the sheriff's two deputies hold the row of two battlefields against the outlaws.

Set-up: the marker on the first space, both shuffle and draw four. Turns alternate, the
sheriff first (he advances the marker from his second turn on); both draw two and play
cards; the outlaws then attack at the marker's battlefield (the table's attack). The outlaws
win when both deputies are dead; the sheriff wins when the countdown card (the Dawn, five
tokens) is empty: a token goes at the end of every outlaw turn in which no deputy died. At
the start of each of his turns on the last space the sheriff chooses to call a truce (a draw)
or fight on: the game's own decision kind."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from deckbuilder.game_kit import (
    ATTACKER,
    DEFENDER,
    MODE_BASE,
    Catalog,
    GameRules,
    State,
    advance_marker,
    begin_turn,
    default_catalog,
    draw,
    first_space,
    game_spec,
    next_space,
    t_begin_play,
    t_draw_phase,
)
from third_game.declaration import DECLARATION, K_TRUCE

OPENING_HAND = 4
TRUCE, FIGHT_ON = MODE_BASE, MODE_BASE + 1


class Termination(StrEnum):
    DEPUTIES_DOWN = "deputies_down"
    DAWN = "dawn"
    TRUCE = "truce"
    CARD_EFFECT = "card_effect"
    TURN_CAP = "turn_cap"


def _compile_reload(step: Any, resolver: Any) -> int:
    return int(step.count)


def _run_reload(state: State, task: tuple) -> None:
    """Standoff's own step (`card_model.Reload`): the card's owner draws `count` cards."""
    draw(state, task[2][0], task[1])


class StandoffRules(GameRules[State]):
    """Standoff over the table: its turn, its victory and its truce (the countdown is the
    table's: `GameRules.end_turn`)."""

    def __init__(self) -> None:
        super().__init__(DECLARATION)
        self.attack_words = ("deputies", "outlaws")
        self.countdown_name = "Dawn"
        self.steps = {"reload": (_compile_reload, _run_reload)}
        self.turn_task = _t_start_turn
        self.countdown_ending = Termination.DAWN
        self.card_ending = Termination.CARD_EFFECT

    def character_died(self, state: State, index: int) -> None:
        if not any(state.alive):
            state.end_game(ATTACKER, Termination.DEPUTIES_DOWN)

    def describe_action(self, state: State, action: int) -> str | None:
        if state.pending_kind == K_TRUCE:
            return {TRUCE: "call a truce", FIGHT_ON: "fight on"}.get(action)
        return None

    def resample(self, state: State, player: int, rng: random.Random) -> None:
        """Nothing of its own is hidden: the table re-deals hands and decks."""

    # -- its table view: one piece of its own, drawn in the terminal and on the web board
    def observe(self, state: State, viewer: int | None) -> dict[str, Any]:
        return {"truce_possible": _truce_possible(state)}

    def pieces_lines(self, view: dict[str, Any], pieces: dict[str, Any],
                     named: Callable[[Any], str]) -> tuple[list[str], dict[str, Any]]:
        own = view["game_pieces"].get("truce_possible")
        lines = [f"truce: {view['players'][DEFENDER]} may call one at the start of his turn"]
        return (lines if own else []), {key: value for key, value in pieces.items()
                                        if key != "truce_possible"}

    def board_pieces(self, view: dict[str, Any], card: Callable[[str], dict[str, str]]
                     ) -> dict[str, Any] | None:
        """The truce panel (templates/board_panel.html) while a truce can be called."""
        if not view["game_pieces"].get("truce_possible"):
            return None
        return {"sheriff": view["players"][DEFENDER]}


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, max_turns: int = 200, verbose: bool = False,
             switches: Mapping[str, str] | None = None,
             orders: Sequence[Sequence[str] | None] = ()) -> State:
    """Set up a game: decks[0] is the sheriff's, decks[1] the outlaws'."""
    catalog = catalog if catalog is not None else default_catalog()
    spec = game_spec(catalog, RULES, decks, ruleset, switches=switches, orders=orders)
    state = State.blank(spec, seed, max_turns, verbose)
    state.marker_space = first_space(state, 0)
    state.rng.shuffle(state.decks[0])
    state.rng.shuffle(state.decks[1])
    for character in spec.characters:
        uid = spec.character_base + character.idx
        state.grit[uid] = character.true_grit
        state.power[uid] = character.power
    state.alive = [True] * len(spec.characters)
    draw(state, DEFENDER, OPENING_HAND)
    draw(state, ATTACKER, OPENING_HAND)
    state.tasks.append((_t_start_turn, DEFENDER))
    state.run()
    return state


def _t_start_turn(state: State, task: tuple) -> None:
    player = task[1]
    if not begin_turn(state, player, Termination.TURN_CAP):
        return
    state.tasks.append((t_begin_play,))
    state.tasks.append((t_draw_phase, player))
    if player == DEFENDER and state.turn > 1:
        state.tasks.append((_t_advance,))


def _truce_possible(state: State) -> bool:
    """The marker is on the row's last space: the sheriff's next turn offers a truce."""
    last_bf = state.spec.n_bf - 1
    return state.marker_bf == last_bf and next_space(state, last_bf, state.marker_space) < 0


def _t_advance(state: State, task: tuple) -> None:
    """On the last space of the row the sheriff may call a truce instead of moving on."""
    if _truce_possible(state):
        state.decide(DEFENDER, [TRUCE, FIGHT_ON], _resume_truce, None, K_TRUCE)
        return
    advance_marker(state)


def _resume_truce(state: State, action: int, data: Any) -> None:
    if action == TRUCE:
        state.end_game(None, Termination.TRUCE)


RULES = StandoffRules()

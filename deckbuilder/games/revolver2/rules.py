"""Revolver 2's set-up and turn on the shared table (malpaso-es: Preparar, Como se Juega).

Set-up: the three fixed battlefields, the seven starting guardians in front of the Malpaso
player and the other twelve shuffled face down as the guardian pile, twelve tokens on the
Arrival of the Mexican Army, then the poker tournament (`poker.py`), which brings in the
winner's three battlefields and ends with the opening hands.

The turn: the Malpaso player (who starts, placing the marker on the first space on his first
turn) advances the marker; where the next space is optional he chooses to stay on this
battlefield or move on to the next one's first space; on the first three battlefields he then
recruits as many guardians from the pile as the marker's space shows. Both draw two and play
cards (the guardians have the three-card limit, Mapache none); Mapache then attacks. A token
leaves the Arrival of the Mexican Army every Mapache turn in which no guardian died; Padre
Esteban surviving the showdown on space 4 of the mine wins for the guardians.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.actions import BF_BASE
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.codes import SPACE_OPTIONAL
from deckbuilder.engine.compiled import game_spec
from deckbuilder.engine.game_rules import RowChoice
from deckbuilder.engine.marker import advance_marker, first_space, next_space, set_marker
from deckbuilder.engine.possible import COUNTDOWN, POWER, TRUE_GRIT
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.engine.turn import BEGIN_PLAY, DRAW_PHASE, begin_turn
from deckbuilder.games.revolver2 import poker, view, why_not
from deckbuilder.games.revolver2.declaration import DECLARATION, K_KEGS, K_STAY
from deckbuilder.games.revolver2.endings import Termination, character_died, check_mine
from deckbuilder.games.revolver2.facts import KNOWN_VARIANTS, LAYOUT_OF_WINNER, bind
from deckbuilder.games.revolver2.facts import select_battlefields as _select
from deckbuilder.games.revolver2.pieces import BRIDGE, STEPS, KegPieces, redeal_open_payment

#: the first three battlefields recruit guardians (malpaso-es: 1a. Robar cartas de guardián)
RECRUITING_BATTLEFIELDS: Final = 3


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, max_turns: int = 200, verbose: bool = False,
             switches: Mapping[str, str] | None = None,
             orders: Sequence[Sequence[str] | None] = ()) -> State:
    """Set up a game: decks[0] is Padre Esteban's (the guardians), decks[1] General
    Mapache's; card id -> copies; `orders` how each lies before the shuffle
    (`engine.compiled.deck_order`). The first decisions are the poker tournament's."""
    catalog = catalog if catalog is not None else default_catalog()
    specs = {layout: game_spec(catalog, RULES, decks, ruleset, layout=layout, switches=switches,
                               orders=orders)
             for layout in LAYOUT_OF_WINNER}
    for spec in specs.values():
        spec.facts.layouts = specs
    return setup(specs[LAYOUT_OF_WINNER[0]], seed, max_turns, verbose)


def setup(spec: object, seed: int, max_turns: int, verbose: bool = False) -> State:
    state = State.blank(spec, seed, max_turns, verbose)
    state.marker_space = first_space(state, 0)
    for character in state.spec.characters:
        if character.starting:
            state.alive[character.idx] = True
            state.own_grit()[state.spec.character_base + character.idx] = character.true_grit
            state.own_power()[state.spec.character_base + character.idx] = character.power
        else:
            state.pile.append(character.idx)
    shuffle(state.rng, state.pile)
    state.tasks.append((poker.start,))
    state.run()
    return state


# -- the turn sequence --------------------------------------------------------------------------
def t_start_turn(state: State, task: tuple) -> None:
    player = task[1]
    if not begin_turn(state, player, Termination.TURN_CAP):
        return
    tasks = state.tasks
    tasks.append(BEGIN_PLAY)
    tasks.append((DRAW_PHASE, player))
    if player == DEFENDER:
        tasks.append(RECRUIT)
        if state.turn > 1:  # on his first turn the marker goes on the first space
            tasks.append(ADVANCE)


def t_advance(state: State, task: tuple) -> None:
    """One space on; before an optional space the guardians choose: stay or move on."""
    bf = state.marker_bf
    space = next_space(state, bf, state.marker_space)
    if space >= 0 and state.spec.bfs[bf].kinds[space] == SPACE_OPTIONAL \
            and bf + 1 < state.spec.n_bf:
        state.decide(DEFENDER, [BF_BASE + bf, BF_BASE + bf + 1], _resume_stay, space, K_STAY)
        return
    advance_marker(state)


def _resume_stay(state: State, action: int, space: int) -> None:
    bf = action - BF_BASE
    if bf == state.marker_bf:
        set_marker(state, bf, space)
    else:
        set_marker(state, bf, first_space(state, bf))


def t_recruit(state: State, task: tuple) -> None:
    """On the first three battlefields: guardians from the pile, as many as the space shows."""
    bf = state.marker_bf
    if bf >= RECRUITING_BATTLEFIELDS:
        return
    count = state.spec.bfs[bf].recruits[state.marker_space]
    spec = state.spec
    for _ in range(min(count, len(state.pile))):
        index = state.pile.pop()
        character = spec.characters[index]
        state.alive[index] = True
        state.own_grit()[spec.character_base + index] = character.true_grit
        state.own_power()[spec.character_base + index] = character.power
        if state.verbose:
            state.note(f"{character.name} joins the guardians")


#: Made once, statics compiled (engine.turn's BEGIN_PLAY).
ADVANCE: Final[tuple] = (t_advance,)
RECRUIT: Final[tuple] = (t_recruit,)


class Revolver2Rules(KegPieces):
    """Revolver 2 over the table: recruitment, the Mexican Army, the mine, the poker
    tournament's cards (hidden, re-dealt for bots) and the powder-keg pieces."""

    def __init__(self) -> None:
        super().__init__(DECLARATION)
        self.steps = STEPS
        self.rule_words = why_not.RULE_WORDS
        self.known_variants = KNOWN_VARIANTS
        self.attack_words = ("guardians", "raiders")
        self.countdown_name = "Mexican Army"
        self.turn_task = t_start_turn
        self.countdown_ending = Termination.ARMY_ARRIVED
        self.card_ending = Termination.CARD_EFFECT
        self.piece_names = {BRIDGE: "Los Quantos Bridge (blown)"}
        self.has_pile = True  # 12 of the 19 guardians wait face down to be recruited
        self.hand_symbols = (("kegs", "powder kegs"), ("ammunition", "ammunition"))
        # the box's tokens (malpaso-es, Componentes): each side has its own power tokens
        self.token_ids = {
            POWER: ("malpaso-guardian-power-token", "malpaso-mapache-power-token"),
            TRUE_GRIT: ("malpaso-true-grit-token", "malpaso-true-grit-token"),
            COUNTDOWN: ("malpaso-mexican-army-token", "malpaso-mexican-army-token")}

    def select_battlefields(self, battlefields: list[Any], layout: str | None) -> list[Any]:
        return _select(battlefields, layout)

    def bind(self, spec: Any, compiled: Any) -> None:
        bind(spec, compiled)

    def end_turn(self, state: State, task: tuple) -> None:
        """Mapache's turn ends: the Mexican Army comes a token nearer unless a guardian died
        (however he died); then the showdown at the mine."""
        super().end_turn(state, task)
        if task[1] == ATTACKER and not state.over:
            check_mine(state)

    def character_died(self, state: State, index: int) -> None:
        character_died(state, index)

    def describe_action(self, state: State, action: int) -> str | None:
        kind = state.pending_kind
        spec = state.spec
        if kind == K_STAY and BF_BASE <= action < BF_BASE + spec.n_bf:
            bf = action - BF_BASE
            return (f"stay at {spec.bf_name(bf)}" if bf == state.marker_bf
                    else f"move on to {spec.bf_name(bf)}")
        if kind == K_KEGS and spec.layout.pay_base <= action < spec.layout.card_base:
            return f"discard {spec.defs[spec.action_def[action]].name} for its symbols"
        return None

    def game_action_record(self, state: State, index: int) -> str | None:
        cards = state.spec.facts.poker
        return str(cards[index].id) if 0 <= index < len(cards) else None

    def resample(self, state: State, player: int, rng: random.Random) -> None:
        poker.resample(state, player, rng)
        redeal_open_payment(state, player, rng)

    def observe(self, state: State, viewer: int | None) -> dict[str, Any]:
        return view.pieces(state, viewer)

    def row_choices(self, state: State) -> tuple[RowChoice, ...]:
        return view.row_choices(state)

    def pieces_lines(self, view_data: dict[str, Any], pieces: dict[str, Any],
                     named: Callable[[Any], str]) -> tuple[list[str], dict[str, Any]]:
        return view.pieces_lines(view_data, pieces, named)

    def check_pieces(self, pieces: dict[str, Any]) -> None:
        view.check_pieces(pieces)

    def board_pieces(self, view_data: dict[str, Any], card: Callable[[str], dict[str, str]]
                     ) -> dict[str, Any] | None:
        return view.board_pieces(view_data, card)

    def record_names(self, state: State) -> dict[str, str]:
        return {piece.id: piece.name for piece in state.spec.facts.poker}


#: Revolver 2's rules over the table, made once.
RULES = Revolver2Rules()

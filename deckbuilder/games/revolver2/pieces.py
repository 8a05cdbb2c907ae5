"""Powder kegs and ammunition: Revolver 2's table pieces, used in one's own play phase
(malpaso-es: Barriles de pólvora / munición; docs/players/play.md tells their rules): Dynamite
the Bridge, Collapse the Tunnels and the Gatling Gun. Readings: collapsing the mine and the
Gatling Gun are once per turn ("cada turno").
"""

from __future__ import annotations

import random
from typing import Final

from deckbuilder.engine.actions import CHARACTER_BASE, K_CASUALTY, K_SACRIFICE, PASS
from deckbuilder.engine.board import (
    casualty_next,
    character_dies,
    discard_from_hand,
    hit_character,
    push_steps,
)
from deckbuilder.engine.chance import below
from deckbuilder.engine.codes import FIREPOWER, SLOT_OWN
from deckbuilder.engine.effects import no_params
from deckbuilder.engine.game_rules import GameRules
from deckbuilder.engine.state import ATTACKER, DEFENDER, State
from deckbuilder.games.revolver2.declaration import K_KEGS
from deckbuilder.games.revolver2.facts import Revolver2Facts

KEGS_NEEDED: Final = 2
BRIDGE, COLLAPSE, GATLING = "bridge", "collapse", "gatling"
#: `state.used_abilities` keys of the pieces used this turn (ints, like an ability's).
_USED: Final = {COLLAPSE: (-1, 0), GATLING: (-1, 1)}
_NAMES: Final = {BRIDGE: "blow up Los Quantos Bridge (discard two powder kegs)",
          COLLAPSE: "collapse the tunnels (discard two powder kegs)",
          GATLING: "fire the Gatling Gun (discard ammunition)"}


def _symbols(state: State, player: int, gatling: bool) -> int:
    card_def = state.spec.card_def
    if gatling:
        return sum(card_def[uid].ammunition for uid in state.hands[player])
    return sum(card_def[uid].kegs for uid in state.hands[player])


def _symbol_options(state: State, player: int, gatling: bool) -> list[int]:
    """The cards of `player`'s hand he may discard for their symbols (ammunition for the
    Gatling Gun, else powder kegs), as pay actions, sorted."""
    spec = state.spec
    card_def = spec.card_def
    pay_action = spec.pay_action
    return sorted({pay_action[spec.def_of[uid]] for uid in state.hands[player]
                   if (card_def[uid].ammunition if gatling else card_def[uid].kegs)})


def gatling_guns(state: State) -> int:
    """How many ammunition cards Mapache may discard: one per firepower card of his at the
    mine."""
    placed = state.placed
    facts: Revolver2Facts = state.spec.facts
    count = 0
    for uid in state.rows[2 * facts.mine_bf + ATTACKER]:
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        if mode.slot == SLOT_OWN and mode.play == FIREPOWER and not state.eagle[uid]:
            count += 1
    return count


class KegPieces(GameRules[State]):
    """Revolver 2's table pieces (the bridge, the mine's collapse, the Gatling Gun) as the
    rules' methods `Revolver2Rules` inherits."""

    def piece_available(self, state: State, player: int) -> str | None:
        facts: Revolver2Facts = state.spec.facts  # typed: read natively, compiled
        bf = state.marker_bf
        if player == DEFENDER:
            if bf == facts.bridge_bf and BRIDGE not in state.pieces_used:
                return BRIDGE if _symbols(state, player, False) >= KEGS_NEEDED else None
            if bf == facts.mine_bf and _USED[COLLAPSE] not in state.used_abilities:
                return COLLAPSE if _symbols(state, player, False) >= KEGS_NEEDED else None
            return None
        if bf == facts.mine_bf and _USED[GATLING] not in state.used_abilities and \
                _symbols(state, player, True) and gatling_guns(state):
            return GATLING
        return None

    def describe_piece(self, state: State) -> str:
        piece = self.piece_available(state, state.pending_player)
        return _NAMES.get(piece or "", "use the table piece here")

    def use_piece(self, state: State, player: int) -> None:
        piece = self.piece_available(state, player)
        facts = state.spec.facts
        if piece == BRIDGE:
            state.pieces_used = state.pieces_used | {BRIDGE}
            _pay_kegs(state, player, KEGS_NEEDED, (BRIDGE, facts.bridge_steps))
        elif piece == COLLAPSE:
            state.used_abilities = state.used_abilities | {_USED[COLLAPSE]}
            _pay_kegs(state, player, KEGS_NEEDED, (COLLAPSE, facts.collapse_steps))
        elif piece == GATLING:
            state.used_abilities = state.used_abilities | {_USED[GATLING]}
            if state.verbose:
                state.note("the Gatling Gun is wheeled out")
            _gatling_next(state, gatling_guns(state))


# -- paying with kegs ---------------------------------------------------------------------------
_DONE: Final = {BRIDGE: "Los Quantos Bridge is blown up!", COLLAPSE: "the tunnels collapse!"}


def _pay_kegs(state: State, player: int, needed: int, then: tuple[str, tuple]) -> None:
    """Discard cards with powder kegs until `needed` kegs are paid, then run the piece's
    effect from its card data (every Mapache card here is discarded)."""
    if needed <= 0:
        piece, steps = then
        if state.verbose:
            state.note(_DONE[piece])
        push_steps(state, steps, (player, -1, state.marker_bf))
        return
    state.decide(player, _symbol_options(state, player, False), _resume_kegs,
                 (player, needed, then), K_KEGS)


def _resume_kegs(state: State, action: int, data: tuple) -> None:
    player, needed, then = data
    definition = state.spec.action_def[action]
    discard_from_hand(state, player, definition)
    _pay_kegs(state, player, needed - state.spec.defs[definition].kegs, then)


def redeal_open_payment(state: State, player: int, rng: random.Random) -> None:
    """On a copy whose opponent's hand was just re-dealt (`player`'s view) while he discards
    for symbols: his options are the re-dealt hand's, and the hand is made to hold the kegs he
    is known to have, swapping in deck cards at random (the only use of `rng`)."""
    opponent = 1 - player
    if state.over or state.pending_player != opponent or state.pending_kind != K_KEGS:
        return
    card_def = state.spec.card_def
    hand, deck = state.hands[opponent], state.decks[opponent]
    if state.pending_resume is _resume_kegs:
        needed = state.pending_data[1]
        # Each swap gives the hand a card with more kegs: while it holds too few, such a pair
        # exists (the cards he really holds are all in the pool re-dealt).
        while _symbols(state, opponent, False) < needed:
            better = [(taker, donor) for taker, held in enumerate(hand)
                      for donor, offered in enumerate(deck)
                      if card_def[offered].kegs > card_def[held].kegs]
            if not better:
                break
            taker, donor = better[below(rng, len(better))]
            hand[taker], deck[donor] = deck[donor], hand[taker]
        state.legal = _symbol_options(state, opponent, False)
    elif state.pending_resume is _resume_gatling:
        state.legal = [PASS, *_symbol_options(state, opponent, True)]


# -- the Gatling Gun ----------------------------------------------------------------------------
def _gatling_next(state: State, left: int) -> None:
    """Mapache may discard one more ammunition card (or stop)."""
    if left <= 0 or state.over:
        return
    options = _symbol_options(state, ATTACKER, True)
    if options:
        state.decide(ATTACKER, [PASS, *options], _resume_gatling, left, K_KEGS)


def _resume_gatling(state: State, action: int, left: int) -> None:
    if action == PASS:
        return
    definition = state.spec.action_def[action]
    discard_from_hand(state, ATTACKER, definition)
    state.tasks.append((_t_gatling_more, left - 1))
    push_steps(state, state.spec.facts.gatling_steps * state.spec.defs[definition].ammunition,
               (ATTACKER, -1, state.marker_bf))


def _t_gatling_more(state: State, task: tuple) -> None:
    _gatling_next(state, task[1])


def run_gatling_hit(state: State, task: tuple) -> None:
    """One ammunition symbol: the guardians lose a guardian (which one, and whether true grit
    saves him, are rule switches)."""
    if state.over or not any(state.alive):
        return
    facts = state.spec.facts
    ignore_grit = not facts.gatling_grit_saves
    if facts.gatling_lowest:
        casualty_next(state, 1, ignore_grit)
        return
    pool = [index for index, alive in enumerate(state.alive) if alive]
    if len(pool) == 1:
        _hit(state, pool[0], ignore_grit)
        return
    # Where no token saves him the guardian is lost outright: a sacrifice, as casualty_next
    # names such a loss (the words the player reads, and how a bot weighs true grit).
    state.decide(DEFENDER, [CHARACTER_BASE + index for index in pool], _resume_hit, ignore_grit,
                 K_SACRIFICE if ignore_grit else K_CASUALTY)


def _resume_hit(state: State, action: int, ignore_grit: bool) -> None:
    _hit(state, action - CHARACTER_BASE, ignore_grit)


def _hit(state: State, index: int, ignore_grit: bool) -> None:
    if ignore_grit:
        character_dies(state, index)
    else:
        hit_character(state, index, False)


#: Revolver 2's own effect steps.
STEPS = {"gatling-gun": (no_params, run_gatling_hit)}

"""Steps the Frontier and Tarnished Star cards need: a card hidden under a card (the
Strongbox) and taking it back, a card changing sides (its twin instance takes its place),
the hidden-token guess (Reverend Henry Kane), plays forbidden here (Indian Burial ground),
and a card played the moment it is drawn (The Legend of Boggy Creek).

Runners follow the calling convention of `effects.py`: `runner(state, (runner, params,
ctx))` with ctx = (acting player, source card uid or -1, battlefield).
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.actions import K_GUESS_HAND, K_HIDE_CARD, K_HIDE_TOKEN, MODE_BASE
from deckbuilder.engine.addons import attached_to, is_hidden
from deckbuilder.engine.board import find_row, lift, push_steps, source_in_play, take_from_hand
from deckbuilder.engine.codes import SLOT_UNDER
from deckbuilder.engine.state import PLAYER_ZONES, State
from deckbuilder.engine.wording import text_applies

HANDS = (0, 1)  # the two hands of the hidden-token guess (MODE_BASE + hand)


# -- a card hidden under a card (Strongbox) -------------------------------------------------
def run_hide_under(state: State, task: tuple) -> None:
    """The acting player puts one card from his hand face down under the source card."""
    player, source, _bf = task[2]
    if source < 0 or state.placed[source] is None:
        return
    hand = state.hands[player]
    if not hand:
        if state.verbose:
            state.note(f"no card in hand to put under {state.spec.card_def[source].name}")
        return
    def_of = state.spec.def_of
    choices = sorted({def_of[uid] for uid in hand})
    if len(choices) == 1:
        state.resolved_alone(player, K_HIDE_CARD, state.spec.card_action[choices[0]])
        hide_under(state, source, take_from_hand(state, player, choices[0]))
        return
    card_action = state.spec.card_action
    state.decide(player, [card_action[d] for d in choices], _resume_hide, (source, player),
                 K_HIDE_CARD)


def _resume_hide(state: State, action: int, data: tuple) -> None:
    source, player = data
    hide_under(state, source, take_from_hand(state, player, state.spec.action_def[action]))


def hide_under(state: State, host: int, uid: int) -> None:
    """Card `uid` (out of every zone: just taken from a hand) lies face down under `host`."""
    state.add_to_row(find_row(state, host), uid)
    state.placed[uid] = state.spec.card_def[uid].modes[0].attached(host, hidden=True)
    state.eagle[uid] = state.eagle[host]
    if state.verbose:
        state.note(f"a card is put face down under {state.spec.card_def[host].name}")


def hidden_under(state: State, host: int) -> list[int]:
    """The cards lying face down under `host` (in play)."""
    index = find_row(state, host)
    return [uid for uid in attached_to(state, host, index) if is_hidden(state, uid)] \
        if index >= 0 else []


def run_take_under(state: State, task: tuple) -> None:
    """The cards hidden under the source card go to their owner's hand."""
    source = task[2][1]
    if source < 0 or state.placed[source] is None:
        return
    for uid in hidden_under(state, source):
        state.remove_from_row(find_row(state, uid), uid)
        state.placed[uid] = None
        state.eagle[uid] = 0
        state.hands[state.spec.owner[uid]].append(uid)
        if state.verbose:
            state.note(f"the card under {state.spec.card_def[source].name} is taken into hand")


def can_take_under(state: State, uid: int) -> bool:
    """May the owner take the card hidden under `uid` now? Only while one lies there and the
    host's text applies (FAQ Q1: not with an eagle token on it)."""
    return bool(hidden_under(state, uid)) and text_applies(state, uid)


# -- changing sides (Reverend Henry Kane) ---------------------------------------------------
def _zone_holding(state: State, uid: int) -> tuple[list[int], int] | None:
    """The list holding out-of-play card `uid` and its index there."""
    owner = state.spec.owner[uid]
    for field, _name, _seen in PLAYER_ZONES:
        zone = getattr(state, field)[owner]
        if uid in zone:
            return zone, zone.index(uid)
    if uid in state.limbo:
        return state.limbo, state.limbo.index(uid)
    return None


def change_sides(state: State, uid: int) -> bool:
    """Card `uid` in play moves to the opposite column: its twin (the other player's
    instance of the same card, `spec.twin`) takes its place at the same battlefield with its
    mode and tokens, and `uid` takes the twin's place out of play (the same zone, its own
    owner's: e.g. the twin's deck position becomes its own). Cards lying under it go to
    their owner's discard pile. False (nothing happens) when it has no twin out of play."""
    spec = state.spec
    twin = spec.twin[uid] if uid < len(spec.twin) else -1
    if twin < 0 or state.placed[uid] is None or state.placed[twin] is not None:
        if state.verbose:
            state.note(f"{spec.card_def[uid].name} cannot change sides (no other instance)")
        return False
    held = _zone_holding(state, twin)
    if held is None:
        return False
    zone, position = held
    if zone is state.limbo:
        zone[position] = uid
    else:
        field = next(f for f, _n, _s in PLAYER_ZONES if getattr(state, f)[spec.owner[twin]] is zone)
        zone.pop(position)
        getattr(state, field)[spec.owner[uid]].insert(position, uid)
    index = find_row(state, uid)
    for under in attached_to(state, uid, index) if spec.attaching else ():
        lift(state, under)
        state.discards[spec.owner[under]].append(under)
    state.remove_from_row(index, uid)
    state.add_to_row(index ^ 1, twin)
    state.placed[twin] = state.placed[uid]
    state.power[twin], state.grit[twin], state.eagle[twin] = \
        state.power[uid], state.grit[uid], state.eagle[uid]
    state.placed[uid] = None
    state.power[uid] = state.grit[uid] = state.eagle[uid] = 0
    if state.verbose:
        state.note(f"{spec.card_def[uid].name} moves to the opposite column "
                   f"({spec.hooks.side_names[spec.owner[twin]]}'s now)")
    return True


def run_change_sides(state: State, task: tuple) -> None:
    source = source_in_play(state, task)
    if source >= 0:
        change_sides(state, source)


# -- the hidden-token guess (Reverend Henry Kane) -------------------------------------------
def run_guess_hand(state: State, task: tuple) -> None:
    """The source card's owner hides a token in one hand; then his opponent guesses."""
    ctx = task[2]
    source = ctx[1]
    if source < 0 or state.placed[source] is None:
        return
    owner = state.spec.owner[source]
    state.decide(owner, [MODE_BASE + hand for hand in HANDS], _resume_hidden,
                 (task[1], ctx), K_HIDE_TOKEN)


def _resume_hidden(state: State, action: int, data: tuple) -> None:
    steps, ctx = data
    guesser = 1 - state.spec.owner[ctx[1]]
    # pending_data holds the hidden hand; observe() never shows it, and resample_hidden
    # re-deals it for the guesser (state.py)
    state.decide(guesser, [MODE_BASE + hand for hand in HANDS], _resume_guess,
                 (steps, ctx, action - MODE_BASE), K_GUESS_HAND)


def _resume_guess(state: State, action: int, data: tuple) -> None:
    steps, ctx, hidden = data
    right = action - MODE_BASE == hidden
    if state.verbose:
        state.note(f"the guess is {'right' if right else 'wrong'}")
    if right:
        push_steps(state, steps, ctx)


# -- plays forbidden here (Indian Burial ground) --------------------------------------------
def compile_forbid_here(step: Any, resolver: Any) -> frozenset[int]:
    """The card definitions the opponent may not play here (static; see `forbidden_here`)."""
    named = {resolver.card(card_id) for card_id in step.cards}
    if step.name_contains:
        word = step.name_contains.casefold()
        named |= {resolver.cards[card_id] for card_id, name in resolver.names.items()
                  if word in name.casefold() and card_id in resolver.cards}
    return frozenset(named - {-1})


def forbidden_here(state: State, player: int) -> frozenset[int]:
    """The card definitions `player` may not play now: those the opponent's cards at the
    current battlefield forbid there (their text applying)."""
    blockers = state.spec.play_blockers[1 - player]
    if not blockers:
        return frozenset()
    bf = state.marker_bf
    row = state.rows[2 * bf + 1 - player]
    card_def = state.spec.card_def
    found: frozenset[int] = frozenset()
    for uid in blockers:
        if uid in row and state.mode_of(uid).slot != SLOT_UNDER and text_applies(state, uid, bf):
            found = found | card_def[uid].forbids
    return found

"""The scoring bot's sub-decisions, answered by rule rather than by valuing each option.

Which card pays a cost, which bandit dies, whether to react, which card to target or where
to place it matter far less than which card to play, and valuing each of those options
would cost a play-out. So they follow fixed rules, read from the cards and the board; the
scoring of options (`scoring.py`) assumes the same rules, through `hand_after_paying` and
`removal_targets`.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine import actions as act
from deckbuilder.engine import card_steps
from deckbuilder.engine.board import card_firepower
from deckbuilder.engine.codes import ALL, SLOT_OPPONENT
from deckbuilder.engine.state import State
from deckbuilder.games.revolver.bots.card_profiles import BOUNCE, KILL, GameProfiles, profiles_for
from deckbuilder.games.revolver.bots.evaluate_tables import tables_for
from deckbuilder.games.revolver.bots.quick import quick_choice
from deckbuilder.games.revolver.declaration import K_SAVE

__all__ = ["hand_after_paying", "removal_rank", "removal_targets", "rule_choice",
           "token_target"]


def hand_after_paying(profiles: GameProfiles, hand: list[int], cost: int) -> list[int]:
    """The hand after paying `cost` discards: the cards of least worth (the `quick` rule)."""
    if cost <= 0:
        return hand
    if cost >= len(hand):  # the whole hand pays
        return []
    # The first `cost` cards of a stable sort by rank: one at a time, the first card of least
    # rank among those not yet paid (no sort with a called key; the cards left are the
    # hand's own objects, in its order).
    rank = profiles.pay_rank
    rest = hand[:]
    for _ in range(cost):
        cheapest = 0
        lowest = rank[rest[0]]
        for index in range(1, len(rest)):
            here = rank[rest[index]]
            if here < lowest:
                cheapest, lowest = index, here
        rest.pop(cheapest)
    return rest


def removal_rank(state: State, uid: int, player: int, bf: int,
                 bounce: bool = False) -> tuple[bool, bool, float]:
    """Which card to kill, destroy or send back first: the opponent's at the marker's
    battlefield, the strongest, then row-blockers; one's own only when the step leaves no
    choice, then one away from the marker's battlefield: sent back to hand the one most
    worth having again, killed or destroyed the weakest."""
    owner = state.spec.owner[uid]
    here = uid in state.rows[2 * bf + owner]
    if owner != player:
        mode = state.placed[uid]
        blocker = mode is not None and mode.slot == SLOT_OPPONENT
        return (True, here, card_firepower(state, uid) + 2 * (blocker and here))
    if bounce:
        return (False, not here, profiles_for(state.spec).uid_worth[uid])
    return (False, not here, -card_firepower(state, uid))


def removal_targets(state: State, player: int, bf: int, params: Any, count: int,
                    how: int) -> list[int]:
    """The cards a kill, destroy or bounce step takes when its targets are chosen by rule:
    the best by `removal_rank` first, within a kill's firepower budget; an own card only
    where the step cannot be declined (`up_to` lets the rule pass instead); "all" takes
    every card it can."""
    ctx = (player, -1, bf)
    if how == KILL:
        found = card_steps.kill_candidates(state, params, ctx, 0)
        budget = params[3]
    else:
        found = card_steps.removable(state, params[0], ctx, how == BOUNCE)
        budget = -1
    if not found:
        return []
    bounce = how == BOUNCE
    if count < ALL:
        found.sort(key=lambda uid: removal_rank(state, uid, player, bf, bounce), reverse=True)
    owner = state.spec.owner
    may_decline = not bounce and params[2]  # kill and destroy `up_to`
    taken: list[int] = []
    for uid in found:
        if len(taken) >= count:
            break
        if count < ALL and may_decline and owner[uid] == player:
            break
        if budget >= 0:
            fire = card_firepower(state, uid)
            if fire > budget:
                continue
            budget -= fire
        taken.append(uid)
    return taken


def token_target(state: State, found: list[int], player: int) -> int:
    """The card a token goes on when the player chooses: one of his cards at the marker's
    battlefield, the strongest (the lowest id on ties, as the actions are ordered)."""
    row = state.rows[2 * state.marker_bf + player]
    return max(sorted(found), key=lambda uid: (uid in row, card_firepower(state, uid)))


def _best_piece(state: State, actions: list[int], player: int) -> int:
    bf = state.marker_bf
    pieces = [a for a in actions if a >= act.IN_PLAY_BASE]
    if not pieces:
        return actions[0]
    bounce = state.pending_kind == act.K_BOUNCE
    best = max(pieces, key=lambda a: (removal_rank(state, a - act.IN_PLAY_BASE, player, bf, bounce),
                                      -a))
    if act.PASS in actions and state.spec.owner[best - act.IN_PLAY_BASE] == player:
        return act.PASS
    return best


def _casualty(state: State, actions: list[int]) -> int:
    """The bandit whose loss costs the gang least: one whose death or lost token gains
    turns, not one who would still gain a token or whose death forbids a card."""
    spec = state.spec
    tables = tables_for(spec)
    bf = state.marker_bf
    base = spec.character_base

    def score(action: int) -> float:
        index = action - act.CHARACTER_BASE
        uid = base + index
        tokens = state.grit[uid] + state.power[uid]
        total = 0.0
        for who, on_death, count, unless in tables.extra_turns:
            if who == index and (on_death == (tokens == 0)) and (unless < 0 or bf < unless):
                total += count
        for who, where, gains in tables.token_gains:
            if who == index and tokens == 0 and (where < 0 or bf < where):
                total -= gains
        if tokens == 0 and spec.characters[index].on_death:
            total -= 0.5
        return total

    return max(actions, key=lambda a: (score(a), -a))


def _react(state: State, actions: list[int]) -> int:
    """Cancel an attack that kills, always; cancel a card that changes the race (strong
    firepower, a kill, a casualty, a marker move), not a small one."""
    _, to_attack, played = state.pending_data
    if to_attack:
        return actions[1]
    profiles = profiles_for(state.spec)
    for profile in profiles.modes[played]:
        if profile.firepower >= 3 or profile.removals or profile.casualties or \
                profile.marker or profile.sacrifices:
            return actions[1]
    return act.PASS


def _optional_cost(state: State, player: int) -> int:
    """Pay an optional cost only for a kill that takes a card of firepower 2 or more from
    the opponent's column at the marker's battlefield."""
    ctx = (player, -1, state.marker_bf)
    for runner, params in state.pending_data[0][1][:1]:
        if runner is card_steps.run_kill:
            found = card_steps.kill_candidates(state, params, ctx, 0)
            row = state.rows[2 * state.marker_bf + 1 - player]
            if any(uid in row and card_firepower(state, uid) >= 2 for uid in found):
                return act.ACCEPT
    return act.PASS


def rule_choice(state: State, actions: list[int]) -> int | None:
    """A sub-decision answered by rule (None: no rule for it)."""
    kind = state.pending_kind
    player = state.pending_player
    if kind in (act.K_PAY, act.K_DISCARD):
        return quick_choice(state, actions)
    if kind in (act.K_CASUALTY, act.K_SACRIFICE):
        return _casualty(state, actions)
    if kind == act.K_REACT:
        return _react(state, actions)
    if kind in (act.K_KILL, act.K_DESTROY, act.K_BOUNCE):
        return _best_piece(state, actions, player)
    if kind == act.K_TOKEN:
        return act.IN_PLAY_BASE + token_target(state, [a - act.IN_PLAY_BASE for a in actions],
                                             player)
    if kind == act.K_MOVE_CARD:  # the strongest card from elsewhere
        row = state.rows[2 * state.marker_bf + player]
        return max(actions, key=lambda a: (a - act.IN_PLAY_BASE not in row,
                                           card_firepower(state, a - act.IN_PLAY_BASE)))
    if kind in (act.K_MOVE_TO, act.K_PLACE):
        here = act.BF_BASE + state.marker_bf
        return here if here in actions else min(actions, key=lambda a: abs(a - here))
    if kind == act.K_OPTIONAL:
        return _optional_cost(state, player)
    if kind == act.K_RETRIEVE:
        action_def = state.spec.action_def
        worth = profiles_for(state.spec).worth
        return max(actions, key=lambda a: (worth[action_def[a]], -a))
    if kind == K_SAVE:  # derailing: a bandit saved is a life for one card
        bandits = [a for a in actions if a >= act.CHARACTER_BASE]
        leader = act.CHARACTER_BASE + state.spec.leader
        return leader if leader in bandits else (bandits or actions)[0]
    if kind == act.K_MODE:
        return actions[0]
    return None

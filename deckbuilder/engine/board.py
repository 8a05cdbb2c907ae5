"""The table: zones, columns and limits, firepower, draws, kills, casualties.

Shared primitives for the turn sequence (`revolver.py`), card play (`play.py`) and the effect
steps (`effects.py`); the turn marker lives in `marker.py`. Everything takes the state first
and works on its plain lists. A card in play sits in `state.rows[2 * battlefield + owner]`
with its mode in `state.placed[uid]`; the mode's slot says whether it fills its owner's
column, the opponent's column (row-blocking) or no column (beside the battlefield).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from deckbuilder.engine.actions import CHARACTER_BASE, K_CASUALTY, K_PAY, K_SACRIFICE
from deckbuilder.engine.addons import WHERE_PREVIOUS, attached_to, host_of
from deckbuilder.engine.card_records import CardDef, ModeDef, TargetFields
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.codes import (
    SIDE_OPPONENT,
    SIDE_SELF,
    SLOT_OPPONENT,
    SLOT_OWN,
    SLOT_UNDER,
    WHERE_ADJACENT,
    WHERE_ANY,
    WHERE_CURRENT,
    WHERE_UPCOMING,
)
from deckbuilder.engine.log_lines import secret_draw
from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.engine.wording import text_applies

ROW_BLOCKING_LIMIT: Final = 2  # "maximum of 2 row-blocking cards per battlefield"


def push_steps(state: State, steps: tuple, ctx: tuple[int, int, int]) -> None:
    """Queue compiled steps to run in order; ctx = (acting player, source uid, battlefield)."""
    tasks = state.tasks
    for index in range(len(steps) - 1, -1, -1):
        function, params = steps[index]
        tasks.append((function, params, ctx))


# -- zones ----------------------------------------------------------------------------------
def act_on_source(state: State, task: tuple, act: Callable[[State, int], object]) -> None:
    """`act` on the card whose effect step `task` runs (its ctx's source) if it lies in play;
    the effect of a card already gone, or of no card, does nothing."""
    source = task[2][1]
    if 0 <= source < state.spec.n_cards and state.placed[source] is not None:
        act(state, source)


def take_from_hand(state: State, player: int, definition: int) -> int:
    hand = state.hands[player]
    def_of = state.spec.def_of
    for index in range(len(hand) - 1, -1, -1):
        if def_of[hand[index]] == definition:
            return hand.pop(index)
    raise ValueError(f"player {player} holds no card #{definition}")


def discard_from_hand(state: State, player: int, definition: int) -> None:
    uid = take_from_hand(state, player, definition)
    state.discards[player].append(uid)
    if state.verbose:
        state.note(f"{_who(state, player)} discards {state.spec.card_def[uid].name}")


def place(state: State, uid: int, owner: int, bf: int, mode: ModeDef) -> None:
    """Put a card into play (tokens printed on it come with it)."""
    state.add_to_row(2 * bf + owner, uid)
    state.own_placed()[uid] = mode
    card = state.spec.card_def[uid]
    if card.enter_grit:
        state.own_grit()[uid] += card.enter_grit
    if card.enter_power:
        state.own_power()[uid] += card.enter_power


def find_row(state: State, uid: int) -> int:
    for index, row in enumerate(state.rows):
        if uid in row:
            return index
    return -1


def lift(state: State, uid: int) -> int:
    """Take a card out of play (its tokens go back to the supply); returns its row index.
    Cards lying under it go to their owner's discard pile."""
    index = find_row(state, uid)
    state.remove_from_row(index, uid)
    state.own_placed()[uid] = None
    state.own_power()[uid] = 0
    state.own_grit()[uid] = 0
    state.own_eagle()[uid] = 0
    if state.spec.attaching:
        for under in attached_to(state, uid, index):
            lift_onto(state, under, state.discards, "goes with it to the discard pile")
    return index


def lift_onto(state: State, uid: int, piles: list[list[int]], words: str) -> None:
    """Take a card out of play onto its owner's pile of `piles` (`state.hands`,
    `state.discards`); `words` end the log line that says so."""
    lift(state, uid)
    piles[state.spec.owner[uid]].append(uid)
    if state.verbose:
        state.note(f"{state.spec.card_def[uid].name} {words}")


def relocate(state: State, uid: int, bf: int) -> None:
    """Move a card in play to another battlefield, keeping its tokens (and the cards lying
    under it)."""
    index = find_row(state, uid)
    state.remove_from_row(index, uid)
    target = 2 * bf + (index & 1)
    state.add_to_row(target, uid)
    if state.spec.attaching:
        for under in attached_to(state, uid, index):
            state.remove_from_row(index, under)
            state.add_to_row(target, under)


def remove_anywhere(state: State, uid: int) -> None:
    """Remove a card from the game from wherever it is."""
    owner = state.spec.owner[uid]
    if uid in state.limbo:
        state.limbo.remove(uid)
    elif state.placed[uid] is not None:
        lift(state, uid)
    else:
        for zones in (state.hands, state.discards, state.decks):
            if uid in zones[owner]:
                zones[owner].remove(uid)
                break
        else:
            return  # already removed
    state.removed[owner].append(uid)


# -- columns, limits, firepower -------------------------------------------------------------
def column_count(state: State, bf: int, side: int, exclude: int = -1) -> int:
    """Cards that count toward the card limit of `side`'s column at `bf`. A printed "not
    counted toward the card limit" is text (`wording.counts_toward_limit`, inlined: an
    emptied card, or any card at a silent battlefield, counts)."""
    rows = state.rows
    placed = state.placed
    eagle = state.eagle
    silent = bf == state.silent_bf
    card_def = state.spec.card_def
    count = 0
    for uid in rows[2 * bf + side]:
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        if mode.slot == SLOT_OWN and uid != exclude and (
                mode.counts or eagle[uid] or (silent and not card_def[uid].speaks_silenced)):
            count += 1
    for uid in rows[2 * bf + 1 - side]:
        mode = placed[uid]
        assert mode is not None
        if mode.slot == SLOT_OPPONENT and uid != exclude and (
                mode.counts or eagle[uid] or (silent and not card_def[uid].speaks_silenced)):
            count += 1
    return count


def column_has_room(state: State, bf: int, side: int, card: CardDef | None = None) -> bool:
    """May one more counting card (`card`, if given) go into `side`'s column at `bf`?
    (3-card and row limits; a card unaffected by a row limit neither counts toward it nor
    is stopped by it.)"""
    if bf >= state.spec.n_bf:
        return True  # the open range has no columns
    if column_count(state, bf, side) >= state.spec.column_limit[side]:
        return False
    placed = state.placed
    eagle = state.eagle
    immune = state.spec.immune
    silent = bf == state.silent_bf
    for uid in state.rows[2 * bf + 1 - side]:
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        limit = mode.row_limit
        if limit < 0 or eagle[uid]:  # wording.text_applies, inlined: an emptied card
            continue
        if silent and not state.spec.card_def[uid].speaks_silenced:
            continue  # texts are ignored there (wording.text_applies): no row limit
        if immune:  # some card in this game is unaffected by row limits (rare: look it up)
            if card is not None and card.immune is not None and \
                    unaffected(state, card, side, uid, bf):
                continue
            if limited_count(state, bf, side, uid) >= limit:
                return False
        elif column_count(state, bf, side, uid) >= limit:
            return False
    return True


def row_blocking_count(state: State, bf: int) -> int:
    placed = state.placed
    eagle = state.eagle
    silent = bf == state.silent_bf
    card_def = state.spec.card_def
    count = 0
    for row in (state.rows[2 * bf], state.rows[2 * bf + 1]):
        for uid in row:
            mode = placed[uid]
            assert mode is not None  # a card in a row is in play
            if mode.slot == SLOT_OPPONENT and (
                    mode.counts or eagle[uid] or (silent and not card_def[uid].speaks_silenced)):
                count += 1
    return count


def can_place(state: State, player: int, mode: ModeDef, bf: int,
              card: CardDef | None = None) -> bool:
    slot = mode.slot
    if not mode.counts or bf >= state.spec.n_bf:
        return True
    if slot == SLOT_OWN:
        return column_has_room(state, bf, player, card)
    if slot == SLOT_OPPONENT:
        return (row_blocking_count(state, bf) < ROW_BLOCKING_LIMIT
                and column_has_room(state, bf, 1 - player, card))
    return True


def firepower(state: State, bf: int, player: int) -> int:
    """`player`'s firepower at `bf` from cards in play (power tokens included) and the power
    tokens on his side of the battlefield card."""
    placed = state.placed
    power = state.power
    eagle = state.eagle
    row = 2 * bf + player
    total = state.bf_power[row]
    for uid in state.rows[row]:
        if not eagle[uid]:  # wording.has_value, inlined
            mode = placed[uid]
            assert mode is not None  # a card in a row is in play
            total += mode.firepower + power[uid]
    return total


def card_firepower(state: State, uid: int) -> int:
    if state.eagle[uid]:  # wording.has_value, inlined
        return 0
    mode = state.placed[uid]
    assert mode is not None, f"card {uid} is not in play"
    return mode.firepower + state.power[uid]


def is_protected(state: State, uid: int, actor: int) -> bool:
    """Impervious cards cannot be taken out by the opponent."""
    return state.spec.card_def[uid].impervious and state.spec.owner[uid] != actor and \
        not state.eagle[uid]  # an emptied card bears no icon


def targets(state: State, target: TargetFields, ctx: tuple[int, int, int]) -> list[int]:
    """Cards in play matching a compiled target filter, seen from the acting player.
    Cards lying under other cards are never targets (`host` targets the card under which
    the acting card lies)."""
    spec = state.spec
    if target.host:
        host = host_of(state, ctx[1])
        return [host] if host >= 0 else []
    player = ctx[0]
    side = target.side
    sides = [player] if side == SIDE_SELF else [1 - player] if side == SIDE_OPPONENT else [0, 1]
    where = target.where
    marker = state.marker_bf
    n_bf = spec.n_bf
    # Lists of ints, not ranges and tuples of either: the compiled build loops over them natively.
    if where == WHERE_CURRENT:
        bfs = [marker]
    elif where == WHERE_ANY:
        bfs = list(range(n_bf + 1))
    elif where == WHERE_ADJACENT:
        bfs = [bf for bf in (marker - 1, marker + 1) if 0 <= bf < n_bf]
    elif where == WHERE_UPCOMING:
        bfs = list(range(marker + 1, n_bf))
    elif where == WHERE_PREVIOUS:
        bfs = [marker - 1] if marker > 0 else []
    else:
        bfs = [ctx[2] if 0 <= ctx[2] <= n_bf else marker]
    rows = state.rows
    card_def = spec.card_def
    placed = state.placed
    categories, plays, cards, exclude, icons = target.categories, target.plays, target.cards, \
        target.exclude, target.icons
    attaching = spec.attaching
    eagle = state.eagle
    found = []
    for bf in bfs:
        for owner in sides:
            for uid in rows[2 * bf + owner]:
                card = card_def[uid]
                if categories and not card.cat_bit & categories:
                    continue
                mode = placed[uid]
                assert mode is not None  # a card in a row is in play
                if plays is not None and mode.play not in plays:
                    continue
                if cards is not None and card.idx not in cards:
                    continue
                if card.idx in exclude:
                    continue
                # an emptied card bears no icon
                if icons is not None and (eagle[uid] or not icons & card.icons):
                    continue
                if attaching and mode.slot == SLOT_UNDER:
                    continue
                found.append(uid)
    return found


# -- cards ----------------------------------------------------------------------------------
def draw(state: State, player: int, count: int) -> None:
    """Draw; an empty deck is refilled from the shuffled discard pile first."""
    deck = state.decks[player]
    hand = state.hands[player]
    drawn = state._drawn[player] if state._drawn is not None else None
    spec = state.spec
    def_of = spec.def_of
    for _ in range(count):
        if not deck and not reshuffle(state, player):
            return
        uid = deck.pop()
        hand.append(uid)
        if drawn is not None:
            drawn.append(def_of[uid])
        if state.verbose:
            state.log.append(secret_draw(player, _who(state, player),
                                         spec.card_def[uid].name))
        if spec.draw_plays and spec.card_def[uid].played_when_drawn:
            state.tasks.append((spec.play_drawn, player, uid))  # "play this card immediately"


def reshuffle(state: State, player: int) -> bool:
    """Empty deck: the discard pile becomes the deck (the Colonel McReady card is removed)."""
    pile = state.discards[player]
    if not pile:
        return False
    card_def = state.spec.card_def
    keep = []
    for uid in pile:
        if card_def[uid].reshuffles:
            keep.append(uid)
        else:
            state.removed[player].append(uid)
            if state.verbose:
                state.note(f"{card_def[uid].name} is removed instead of reshuffled")
    pile.clear()
    shuffle(state.rng, keep)
    state.decks[player].extend(keep)
    if state.verbose:
        state.note(f"{_who(state, player)} reshuffles the discard pile ({len(keep)} cards)")
    return bool(keep)


def kill_card(state: State, uid: int, ignore_grit: bool, remove: bool) -> bool:
    """Kill a character in play; a true grit token absorbs the kill. True if it died."""
    spec = state.spec
    owner = spec.owner[uid]
    card = spec.card_def[uid]
    if not ignore_grit and state.grit[uid] > 0:
        state.own_grit()[uid] -= 1
        if state.verbose:
            state.note(f"{card.name} loses a true grit token instead of dying")
        bf = find_row(state, uid) >> 1
        if (card.on_token_lost or card.on_grit_lost) and text_applies(state, uid, bf):
            if card.on_token_lost:
                push_steps(state, card.on_token_lost, (owner, uid, bf))
            if card.on_grit_lost:
                push_steps(state, card.on_grit_lost, (owner, uid, bf))
        return False
    _leave_play(state, uid, owner, "killed", card.on_death, remove)
    return True


def destroy_card(state: State, uid: int, remove: bool = False) -> None:
    """Destroy a card in play: onto the discard pile (out of the game with `remove`)."""
    spec = state.spec
    _leave_play(state, uid, spec.owner[uid], "destroyed", spec.card_def[uid].on_destroyed,
                remove)


def _leave_play(state: State, uid: int, owner: int, how: str, trigger: tuple,
                remove: bool) -> None:
    """A card goes from play to its owner's discard pile (out of the game with `remove`);
    its `trigger` (on death, on destroyed) follows if its text applied where it lay."""
    speaks = not trigger or text_applies(state, uid)  # read before it leaves play
    bf = lift(state, uid) >> 1
    (state.removed if remove else state.discards)[owner].append(uid)
    if state.verbose:
        name = state.spec.card_def[uid].name
        state.note(f"{name} is {how}{' and removed from the game' if remove else ''}")
    if trigger and speaks:
        push_steps(state, trigger, (owner, uid, bf))


# -- characters (bandits, guardians) ----------------------------------------------------------
def lowest_characters(state: State) -> list[int]:
    """The living bandits of the lowest survival rating (the casualty pool)."""
    alive = state.alive
    characters = state.spec.characters
    pool: list[int] = []
    rating = -1
    for index in state.spec.character_order:
        if alive[index]:
            survival = characters[index].survival
            if pool and survival != rating:
                break
            rating = survival
            pool.append(index)
    return pool


def t_casualty(state: State, task: tuple) -> None:
    casualty_next(state, task[1], task[2])


def casualty_next(state: State, count: int, sacrifice: bool) -> None:
    """The gang loses `count` members, lowest survival rating first; the gang player picks
    among ties. A sacrifice removes the member (his token does not save him)."""
    if count <= 0 or state.over:
        return
    pool = lowest_characters(state)
    if not pool:
        return
    if len(pool) == 1:
        state.resolved_alone(DEFENDER, K_SACRIFICE if sacrifice else K_CASUALTY,
                             CHARACTER_BASE + pool[0])
        if count > 1:
            state.tasks.append((t_casualty, count - 1, sacrifice))
        hit_character(state, pool[0], sacrifice)
        return
    state.decide(DEFENDER, [CHARACTER_BASE + index for index in pool], _resume_casualty,
                 (count, sacrifice), K_SACRIFICE if sacrifice else K_CASUALTY)


def _resume_casualty(state: State, action: int, data: tuple) -> None:
    count, sacrifice = data
    if count > 1:
        state.tasks.append((t_casualty, count - 1, sacrifice))
    hit_character(state, action - CHARACTER_BASE, sacrifice)


def hit_character(state: State, index: int, ignore_tokens: bool) -> None:
    """A bandit is killed: a true grit (or power) token on him is removed instead."""
    spec = state.spec
    uid = spec.character_base + index
    if not ignore_tokens and (state.grit[uid] or state.power[uid]):
        true_grit = state.grit[uid] > 0
        if true_grit:
            state.own_grit()[uid] -= 1
            if spec.grit_loss_kills:  # the game's reading: the token's loss is his first kill
                state.killed_this_turn = True
        else:
            state.own_power()[uid] -= 1
        character = spec.characters[index]
        if state.verbose:
            kind = "true grit" if true_grit else "power"
            state.note(f"{character.name} loses a {kind} token instead of dying")
        ctx = (DEFENDER, uid, state.marker_bf)
        if character.on_token_lost:
            push_steps(state, character.on_token_lost, ctx)
        if true_grit and character.on_grit_lost:
            push_steps(state, character.on_grit_lost, ctx)
        return
    character_dies(state, index)


def character_dies(state: State, index: int) -> None:
    spec = state.spec
    uid = spec.character_base + index
    character = spec.characters[index]
    held_token = state.power[uid] or state.grit[uid]
    state.alive[index] = False
    state.own_power()[uid] = 0
    state.own_grit()[uid] = 0
    state.killed_this_turn = True
    if state.verbose:
        state.note(f"{character.name} is killed")
    spec.game_rules.character_died(state, index)  # what the death means: the game's victory
    if state.over:
        return
    ctx = (DEFENDER, uid, state.marker_bf)
    if character.on_death:
        push_steps(state, character.on_death, ctx)
    if held_token and character.on_token_lost:
        # Removed from the game with his token still on him: the token is lost too (the
        # FAQ on Skinny: "even when he is removed from the game the extra turn is played").
        push_steps(state, character.on_token_lost, ctx)


# -- paying ---------------------------------------------------------------------------------
def t_pay(state: State, task: tuple) -> None:
    pay_next(state, task[1], task[2], task[3])


def pay_next(state: State, player: int, count: int, kind: int = K_PAY) -> None:
    """`player` discards `count` cards of his choice (no choice when it is forced)."""
    hand = state.hands[player]
    def_of = state.spec.def_of
    while count > 0 and hand:
        if len(hand) <= count:
            while hand:
                discard_from_hand(state, player, def_of[hand[-1]])
            return
        pay_action = state.spec.pay_action  # a card definition's own action
        choices = sorted({pay_action[def_of[uid]] for uid in hand})
        if len(choices) == 1:
            discard_from_hand(state, player, def_of[hand[0]])
            count -= 1
            continue
        state.decide(player, choices, RESUME_PAY, (player, count, kind), kind)
        return


def _resume_pay(state: State, action: int, data: tuple) -> None:
    player, count, kind = data
    discard_from_hand(state, player, state.spec.action_def[action])
    pay_next(state, player, count - 1, kind)


PAY: Final = t_pay  # statics compiled (engine.turn's RESUME_MAIN)
RESUME_PAY: Final = _resume_pay


def _who(state: State, player: int) -> str:
    return state.spec.game_rules.side_names[player]


# -- the expansions' pieces: row-limit exceptions, arrivals ------------------------------------
def unaffected(state: State, card: CardDef, owner: int, limiter: int, bf: int) -> bool:
    """Is `owner`'s `card` unaffected by the row limit of card `limiter` (unaffected-by)?"""
    return any(limiter in targets(state, target, (owner, -1, bf)) for target in card.immune)


def limited_count(state: State, bf: int, side: int, limiter: int) -> int:
    """`side`'s cards at `bf` that count toward the row limit of card `limiter`."""
    count = column_count(state, bf, side, limiter)
    card_def = state.spec.card_def
    placed = state.placed
    for uid in state.rows[2 * bf + side]:
        card = card_def[uid]
        mode = placed[uid]
        assert mode is not None  # a card in a row is in play
        if card.immune is not None and mode.slot == SLOT_OWN and mode.counts and \
                text_applies(state, uid, bf) and unaffected(state, card, side, limiter, bf):
            count -= 1
    return count


def arrived(state: State, uid: int, bf: int) -> None:
    """Card `uid` came into play at (or was moved to) `bf`: queue the card-arrives-here
    triggers of the cards at that battlefield that watch for it."""
    spec = state.spec
    watched = spec.arrival_defs
    if watched is None:
        return
    definition = spec.def_of[uid]
    if watched and definition not in watched:
        return
    placed = state.placed
    for watcher in spec.arrival_watchers:
        mode = placed[watcher]
        if watcher == uid or mode is None or \
                mode.slot == SLOT_UNDER or find_row(state, watcher) >> 1 != bf or \
                not text_applies(state, watcher, bf):
            continue
        for cards, steps in spec.card_def[watcher].arrivals:
            if cards is None or definition in cards:
                push_steps(state, steps, (spec.owner[watcher], watcher, bf))

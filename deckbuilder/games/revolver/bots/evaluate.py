"""A rule-aware heuristic: how good a position is for one player, in [-1, 1].

The game is a race, and the heuristic estimates it. McReady must make one kill for each of
the gang's lives (bandits, their tokens, Cortez's token to come) before the turn marker
reaches the train, failing fewer times than there are Mexican Border tokens. Each McReady
turn is one attack, so the value is the chance that enough of the remaining attacks kill (a
normal approximation of a sum of Bernoulli trials), rescaled to [-1, 1].

An attack's kill chance comes from the current battlefield: the lawmen's firepower in play
plus what McReady can bring from his hand (and the cards he draws first), against the
gang's firepower plus the battlefield's defence and what the gang can still add or take away
in its play phase (its answer). A kill that needs cards from McReady's hand costs him those
cards, so the gang gains by making him pay; he declines a kill that costs more than it is
worth. Attacks at battlefields not reached yet happen at a base rate. Cards that make
casualties count as kills to come, cards that move the turn marker as turns gained or lost,
cards in hand as a little of both.

Two rules keep the comparison between "end play phase" and any other action fair (a greedy
player compares positions on either side of a phase's end):
- every position is valued as it will stand at the start of the gang's next play phase: in
  the gang's play phase as it stands (what the gang can still play counting as played), in
  McReady's as if he ended it now (his hand counting only toward the attack at hand);
- only what the player judging can see counts as it is: the opponent's hand counts at the
  average for its size, and a draw phase changes nothing on average.
"""

from __future__ import annotations

import math
from typing import Final

from deckbuilder.engine.actions import K_MAIN, K_REACT, PASS
from deckbuilder.engine.board import column_count, column_has_room, firepower
from deckbuilder.engine.state import ATTACKER, DEFENDER, PHASE_ATTACK, State
from deckbuilder.games.revolver.bots.evaluate_tables import (
    ATTACK_SPREAD,
    CASUALTY_CARD_KILLS,
    DRAW_FIREPOWER,
    GANG_CARD_KILLS,
    MARKER_CARD_TURNS,
    MAX_EXPECTED_HAND,
    MCREADY_CARD_KILLS,
    SQRT2,
    TYPICAL_HAND,
    Tables,
    any_of,
    phi,
    tables_for,
)

__all__ = [
    "ATTACK_SPREAD",
    "CASUALTY_CARD_KILLS",
    "DECIDED",
    "DRAW_FIREPOWER",
    "EXTRA_TURN_SHARE",
    "GANG_CARD_KILLS",
    "MARGIN_TIE",
    "MARKER_CARD_TURNS",
    "MCREADY_CARD_KILLS",
    "PLAY_KILLS",
    "RACE_VARIANCE",
    "REACTION_CANCELS",
    "SPEND_FIREPOWER",
    "STANDING_SCALE",
    "TYPICAL_HAND",
    "attack_standing",
    "evaluate",
    "evaluate_spent",
    "gang_turn_standing",
    "mcready_value",
    "race_after",
    "read_race",
    "standing_before_attack",
    "track_after",
]

# The constants the per-game tables need (the hand values, the draw and spread of an attack
# to come) live in `evaluate_tables.py`; these are the race's own.
#: Firepower one card from McReady's hand brings, its cost included.
SPEND_FIREPOWER: Final = 1.2
#: Expected kills of a card in play beyond its firepower here (a lawman elsewhere may be
#: brought over; a gang card holds a place in the column).
PLAY_KILLS: Final = 0.05
#: Expected extra turns from a bandit whose death (or lost token) adds turns, while it can.
EXTRA_TURN_SHARE: Final = 0.5
#: Chance a reaction card in the gang's hand cancels an attack that would kill.
REACTION_CANCELS: Final = 1.0
#: Variance added to the race so that decided-looking positions still differ.
RACE_VARIANCE: Final = 0.6
#: The race score of a race already settled (no lives, or no border tokens, left).
DECIDED: Final = 100.0
#: Race score at which McReady's standing is tanh(1) (about 0.76) or -tanh(1).
STANDING_SCALE: Final = 2.5
#: Weight of the coming attack's firepower balance, which breaks near-ties.
MARGIN_TIE: Final = 0.003
_INSIDE: Final = 1.0 - 1e-9  # a position not yet won or lost values strictly inside (-1, 1)
_DRAW2: Final = 2 * DRAW_FIREPOWER  # McReady's two draws a turn

# The play-out greedy and the search bot call `evaluate` thousands of times a game (the
# greedy bot its race pieces), so the hot path below spells
# out `max`/`min` of two numbers as comparisons (with the same result, the same operand when
# they are equal) and the normal distribution function (`phi`) and the standing (tanh) in
# line. The arithmetic keeps the plain formulas' order of operations, so the values are the
# same to the last bit as before these shortcuts.
_erf: Final = math.erf
_tanh: Final = math.tanh
#: `race_after`'s last `phi` answers by a slot of the argument (nan: none): nine asks in ten
#: repeat one, and compiled, `math.erf` is a generic call (a float's hash, for a dict, costs
#: more still).
_PHI_SLOTS: Final = 1023
_phi_asked: Final[list[float]] = [math.nan] * (_PHI_SLOTS + 1)
_phi_answer: Final[list[float]] = [0.0] * (_PHI_SLOTS + 1)


# -- what the hands can do ----------------------------------------------------------------------
def _hand_power(state: State, tables: Tables, bf: int, viewer: int) -> float:
    """Firepower McReady could add at `bf` from his hand in one turn (none if his column
    there is closed); as the gang sees it, the average for a hand of that size."""
    hand = state.hands[ATTACKER]
    if viewer != ATTACKER:
        size = len(hand)
        power = tables.expected_power[MAX_EXPECTED_HAND if size > MAX_EXPECTED_HAND else size]
    else:
        power = tables.hand_firepower(hand, bf)
    if power and not column_has_room(state, bf, ATTACKER):
        return 0.0
    return power


def _gang_answers(state: State, tables: Tables, bf: int, viewer: int, gang: float,
                  here: int) -> tuple[float, list[float]]:
    """The gang's answer at `bf` (see `evaluate_tables.answer_of`) now, and `gang` plus its
    answer after each of McReady's `here` attacks to come at `bf` (two more cards drawn
    before each); what McReady cannot see of the gang's hand counts at the average for its
    size."""
    free = state.spec.column_limit[DEFENDER] - column_count(state, bf, DEFENDER)
    room = 0 if free <= 0 else (3 if free > 3 else free)  # max(0, min(3, free))
    now, later = tables.gang_answers(state.hands[DEFENDER], room, here, viewer == DEFENDER)
    return now, [gang + answer for answer in later]


def _reaction_ready(state: State, tables: Tables) -> bool:
    """Does the gang hold a card that cancels a killing attack (and its cost)? Read from
    the hand as it lies, whoever judges: ending McReady's play phase resolves the attack at
    once against that hand, so an average here would make ending it look better or worse
    than it turns out."""
    hand = state.hands[DEFENDER]
    if len(hand) <= tables.reaction_cost:
        return False
    return any_of(tables.uid_reacts, hand)


# -- the race ---------------------------------------------------------------------------------
def read_race(state: State, tables: Tables, viewer: int) -> tuple[float, float, float]:
    """(the gang's lives, kills to come from the cards, turns gained or lost by them): the
    numbers the race needs, read once from the state."""
    base = state.spec.character_base
    bf = state.marker_bf
    alive, grit, power = state.alive, state.grit, state.power
    # Dead bandits hold no tokens, and bandits are the last card instances.
    count = 0
    for living in alive:
        if living:
            count += 1
    for uid in range(base, len(grit)):
        count += grit[uid] + power[uid]
    lives = float(count)
    for index, where, tokens in tables.token_gains:
        if alive[index] and (where < 0 or bf < where):
            lives += tokens
    turn_bonus = 0.0
    for index, on_death, count, unless in tables.extra_turns:
        if alive[index] and (unless < 0 or bf < unless) and (
                on_death or power[base + index] or grit[base + index]):
            turn_bonus += EXTRA_TURN_SHARE * count
    # What the cards in hand are worth (kills to come, turns gained or lost), less what the
    # cards drawn in draw phases so far are worth on average: a draw phase changes nothing
    # on average, a card played costs what it was worth, a card drawn by an effect gains.
    # (Plain hand values would make every action that ends a phase, after which the opponent
    # draws, look better or worse than the others.) The hand the viewer cannot see counts at
    # the deck's average.
    bonus, drawn_turns = tables.draw_terms_at(state.turn)
    turn_bonus -= drawn_turns
    # McReady's hand, then the gang's (two calls, not a loop over a tuple of the sides,
    # which the compiled build would run through generic objects).
    kills, turns = _hand_terms(state.hands[ATTACKER], tables, ATTACKER, viewer)
    bonus += kills
    turn_bonus += turns
    kills, turns = _hand_terms(state.hands[DEFENDER], tables, DEFENDER, viewer)
    bonus += kills
    turn_bonus += turns
    # Cards in play keep some use: a lawman elsewhere may be brought over, a gang card here
    # holds a place. So no card is discarded from play for nothing.
    rows = state.rows
    lawmen_anywhere = 0
    for index in range(ATTACKER, len(rows), 2):
        lawmen_anywhere += len(rows[index])
    bonus += PLAY_KILLS * (lawmen_anywhere - len(rows[2 * bf + DEFENDER]))
    return lives, bonus, turn_bonus


def _hand_terms(hand: list[int], tables: Tables, side: int,
                viewer: int) -> tuple[float, float]:
    """(kills, turns) `side`'s hand is worth in `read_race`: its cards as they are if the
    viewer holds it, else its size at the deck's average."""
    if viewer == side:
        return tables.hand_values(hand)
    size = len(hand)
    return size * tables.drawn_kills[side], size * tables.drawn_turns[side]


def _turns_after(state: State, tables: Tables, turn_bonus: float) -> tuple[float, int]:
    """(McReady's attacks after the one on the marker's space, turns gained or lost
    counted; those of them at the marker's battlefield)."""
    turns, here = track_after(tables, state.face_on, state.marker_bf, state.marker_space)
    turns += turn_bonus
    return (0.0 if turns < 0.0 else turns), here  # max(turns, 0.0)


def track_after(tables: Tables, face_on: tuple[bool, ...], bf: int,
                space: int) -> tuple[float, int]:
    """(McReady's attacks the track holds after the marker's space at `bf`, the face spaces
    switched on counted; those of them at `bf`)."""
    turns = float(tables.after[bf][space])
    here = tables.here_after[bf][space]
    for flat, same_bf in tables.faces_after[bf][space]:
        if face_on[flat]:
            turns += 1
            if same_bf:
                here += 1
    return turns, here


def race_after(turns: float, here_gang: list[float], fresh_rate: float, base_bonus: float,
               lives: float, border: int, board: float, hand_power: float,
               cards_gone: float) -> float:
    """The race score after McReady's attack on the marker's space: the attacks left at this
    battlefield (`here_gang`: the gang's firepower at each once it has answered), where his
    `board` firepower stays and `hand_power` more can come from his hand (and the cards he
    draws by then); then the battlefields to come at the base rate (`fresh_rate`), `turns`
    attacks in all. `cards_gone`: cards from his hand the attack used. Raising his firepower
    here above the gang's costs cards once; he does it only if the kills it brings are worth
    them."""
    if lives <= 0.0:
        return DECIDED
    if border <= 0:
        return -DECIDED
    # The race as a normal score: can McReady make `lives` kills in `turns` attacks (the
    # first `here` of them at this battlefield, the rest at `fresh_rate`), failing fewer
    # than `border` times? Above 0: more likely than not. If the race ends (or is lost)
    # before this battlefield does, only its first `left` attacks count. Passive: he adds
    # nothing here, so those attacks are worth no kills.
    bonus = base_bonus - MCREADY_CARD_KILLS * cards_gone
    here = len(here_gang)
    # As floats: no int and float mixed below (the compiled build converts at each use).
    here_turns = float(here)
    borders = float(border)
    needed = lives - bonus
    left = (0.0 if needed < 0.0 else needed) + borders - 1.0  # max(needed, 0.0) + ...
    left = left if left < turns else turns  # min(turns, left)
    rest = left - (left if here_turns > left else here_turns)
    passive = (rest * fresh_rate - needed + 0.5) / math.sqrt(
        rest * fresh_rate * (1.0 - fresh_rate) + RACE_VARIANCE)
    if not here:
        return passive
    here_kills = here_variance = 0.0
    if hand_power < 0.0:  # max(hand_power, 0.0)
        hand_power = 0.0
    level = board + hand_power
    turn = 1.0
    for gang in here_gang:
        z = (level + _DRAW2 * turn - gang - 0.5) / ATTACK_SPREAD
        slot = int(z * 64.0) & _PHI_SLOTS
        if _phi_asked[slot] == z:  # 0.0 and -0.0 alike: phi is 0.5 at both
            rate = _phi_answer[slot]
        else:
            rate = _phi_answer[slot] = 0.5 * (1.0 + _erf(z / SQRT2))  # phi(z), in line
            _phi_asked[slot] = z
        here_kills += rate
        here_variance += rate * (1.0 - rate)
        turn += 1.0
    short = here_gang[0] + 1.0 - board
    cost = MCREADY_CARD_KILLS * (short if short > 0.0 else 0.0) / SPEND_FIREPOWER
    # Active: the same race, with the kills he makes here and the cards they cost.
    needed = lives - (bonus - cost * here_kills / here_turns)
    left = (0.0 if needed < 0.0 else needed) + borders - 1.0
    left = left if left < turns else turns
    if here_turns > left:
        share = left / here_turns
        here_kills *= share
        here_variance *= share
        here_turns = left
    rest = left - here_turns
    active = (here_kills + rest * fresh_rate - needed + 0.5) / math.sqrt(
        here_variance + rest * fresh_rate * (1.0 - fresh_rate) + RACE_VARIANCE)
    return passive if passive > active else active


def attack_standing(turns: float, here_gang: list[float], fresh_rate: float, bonus: float,
                    kill: float, lives: float, border: int, failed_border: int, lawmen: float,
                    hand_power: float, missing: float, kill_cards: float) -> float:
    """McReady's standing over the two outcomes of his attack on the marker's space: a kill
    (chance `kill`, paid with `missing` firepower, `kill_cards` cards from his hand) or a
    border token. He declines a kill not worth its cards. The first four arguments describe
    the race after it (see `race_after`). His standing, in [-1, 1], is tanh of the race
    score over `STANDING_SCALE`: a flatter curve than the normal one, so that a race far
    from even still tells better moves from worse (the bots would break ties at random)."""
    if_not = race_after(turns, here_gang, fresh_rate, bonus, lives, failed_border, lawmen,
                        hand_power, 0.0)
    if kill <= 0.0:
        return _tanh(if_not / STANDING_SCALE)
    if_kill = race_after(turns, here_gang, fresh_rate, bonus, lives - 1.0, border,
                         lawmen + missing, hand_power - missing, kill_cards)
    standing_if_not = _tanh(if_not / STANDING_SCALE)
    # tanh of max(if_kill, if_not), worked out once where both are the same
    best = _tanh(if_kill / STANDING_SCALE) if if_kill >= if_not else standing_if_not
    return kill * best + (1.0 - kill) * standing_if_not


def mcready_value(state: State, viewer: int = ATTACKER, spend: bool = False) -> float:
    """McReady's value of the position in (-1, 1), judged with what `viewer` can see.
    `spend`: the caller throws the state away afterwards, so it may be played on."""
    if state.active == ATTACKER and state.pending_kind == K_MAIN:
        extra = _hand_kill_share(state, viewer)
        return _ended_value(state if spend else state.clone(), viewer) + extra
    return _analytic_value(state, viewer)


def _ended_value(after: State, viewer: int) -> float:
    """In McReady's play phase: the position as it will be if he ends it now (so that
    ending it and playing a card are judged alike). Plays `after` on."""
    _end_play_phase(after)
    if after.over:
        return 0.0 if after.winner is None else (1.0 if after.winner == ATTACKER else -1.0)
    return _analytic_value(after, viewer)


def _hand_kill_share(state: State, viewer: int) -> float:
    """In McReady's play phase: part of the kill his hand can still bring about if the
    firepower in play falls short (so that he plays on until the attack kills)."""
    tables = tables_for(state.spec)
    bf = state.marker_bf
    lawmen = firepower(state, bf, ATTACKER)
    gang = firepower(state, bf, DEFENDER) + tables.defence[bf]
    missing = gang + 1 - lawmen
    if missing <= 0 or _reaction_ready(state, tables):
        return 0.0
    hand_power = _hand_power(state, tables, bf, viewer)
    lives, bonus, turn_bonus = read_race(state, tables, viewer)
    border = state.countdown
    turns, here = _turns_after(state, tables, turn_bonus)
    here_gang = _gang_answers(state, tables, bf, viewer, gang, here)[1] if here else []
    fresh_rate = tables.fresh_rate
    failed_border = border if state.killed_this_turn else border - 1
    if_kill = attack_standing(turns, here_gang, fresh_rate, bonus, 1.0, lives, border,
                              failed_border, lawmen, hand_power, missing,
                              missing / SPEND_FIREPOWER)
    if_not = attack_standing(turns, here_gang, fresh_rate, bonus, 0.0, lives, border,
                             failed_border, lawmen, hand_power, missing, 0.0)
    # The chance his hand makes up the difference, as the gang's play phase foresaw it.
    reach = phi((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD)
    gain = if_kill - if_not
    return reach * (gain if gain > 0.0 else 0.0)


def _end_play_phase(after: State) -> None:
    """Play McReady's play phase to its end now: his attack resolved (the gang cancelling a
    kill when it can, its casualty the first it may choose), up to the gang's next play
    phase or the end of the game."""
    after.apply(PASS)
    for _ in range(32):
        if after.over or after.pending_kind == K_MAIN:
            break
        legal = after.legal
        after.apply(legal[-1] if after.pending_kind == K_REACT else legal[0])


def _analytic_value(state: State, viewer: int) -> float:
    """McReady's value of the position from the race (see the module docstring)."""
    spec = state.spec
    tables = tables_for(spec)
    lives, bonus, turn_bonus = read_race(state, tables, viewer)
    border = state.countdown
    bf = state.marker_bf
    # The firepower in play on both sides (`board.firepower`, both rows read at once).
    rows, placed, power, eagle = state.rows, state.placed, state.power, state.eagle
    lawmen = 0
    for uid in rows[2 * bf + ATTACKER]:
        mode = placed[uid]
        if not eagle[uid] and mode is not None:  # in a row: always in play
            lawmen += mode.firepower + power[uid]
    gang: float = 0.0  # the gang's answer (a float) is added below
    for uid in rows[2 * bf + DEFENDER]:
        mode = placed[uid]
        if not eagle[uid] and mode is not None:
            gang += mode.firepower + power[uid]
    gang += tables.defence[bf]
    hand_power = _hand_power(state, tables, bf, viewer)
    failed_border = border if state.killed_this_turn else border - 1
    facts = spec.facts
    last = bf == facts.train_bf and state.marker_space >= facts.train_space  # the train next
    gang_turn = state.active == DEFENDER
    # The race after the coming attack: the attacks left, and for each attack left at this
    # battlefield the gang's firepower there once it has answered (with what its hand and
    # its draws by then can add).
    turns, here = _turns_after(state, tables, turn_bonus)
    if here or gang_turn:
        answer_now, here_gang = _gang_answers(state, tables, bf, viewer, gang, here)
        if gang_turn:  # what the gang can still play now counts as played
            gang += answer_now
    else:
        here_gang = []
    fresh_rate = tables.fresh_rate
    if not gang_turn and state.phase >= PHASE_ATTACK:
        # The attack is over, the border not yet settled; the train is checked next.
        if last and lives > 0.0:
            return -1.0 + 1e-6
        return _tanh(race_after(turns, here_gang, fresh_rate, bonus, lives, failed_border,
                                lawmen, hand_power, 0.0) / STANDING_SCALE)
    if gang_turn:
        return gang_turn_standing(turns, here_gang, fresh_rate, bonus, lives, border,
                                  failed_border, lawmen, gang, hand_power,
                                  len(state.hands[ATTACKER]), _reaction_ready(state, tables),
                                  last)
    short = gang + 1.0 - lawmen
    missing = short if short > 0.0 else 0.0  # max(0.0, short)
    if not missing:
        kill, kill_cards = 1.0, 0.0
    else:  # in the middle of McReady's play phase: what his hand can still bring
        kill = 0.5 * (1.0 + _erf(((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD) / SQRT2))
        cards = float(len(state.hands[ATTACKER]))
        kill_cards = missing / SPEND_FIREPOWER
        if cards < kill_cards:
            kill_cards = cards
    return standing_before_attack(turns, here_gang, fresh_rate, bonus, kill, lives, border,
                                  failed_border, lawmen, gang, hand_power, missing, kill_cards,
                                  _reaction_ready(state, tables), last)


def gang_turn_standing(turns: float, here_gang: list[float], fresh_rate: float, bonus: float,
                       lives: float, border: int, failed_border: int, lawmen: float,
                       gang: float, hand_power: float, mcready_cards: int, reaction: bool,
                       last: bool) -> float:
    """McReady's standing in the gang's play phase. His attack comes after his draw: what he
    has in play and can bring from his hand (`mcready_cards` cards before the draw), against
    the gang's cards (those it can still play included); `reaction`: the gang holds a card
    that cancels it."""
    short = gang + 1.0 - lawmen
    missing = short if short > 0.0 else 0.0  # max(0.0, short)
    hand_power += _DRAW2
    kill = 0.5 * (1.0 + _erf(((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD) / SQRT2))
    cards = mcready_cards + 2.0
    kill_cards = missing / SPEND_FIREPOWER
    if cards < kill_cards:
        kill_cards = cards
    return standing_before_attack(turns, here_gang, fresh_rate, bonus, kill, lives, border,
                                  failed_border, lawmen, gang, hand_power, missing, kill_cards,
                                  reaction, last)


def standing_before_attack(turns: float, here_gang: list[float], fresh_rate: float,
                           bonus: float, kill: float, lives: float, border: int,
                           failed_border: int, lawmen: float, gang: float, hand_power: float,
                           missing: float, kill_cards: float, reaction: bool,
                           last: bool) -> float:
    """`attack_standing` for an attack still to come (`kill`: its chance as the firepower
    stands), the gang cancelling it with a `reaction` card; `last`: the train is next."""
    if kill and reaction:
        kill *= 1.0 - REACTION_CANCELS
    # A little of the coming attack's firepower balance, so that where the race looks
    # settled either way the bots still prefer the stronger card to the weaker one.
    balance = MARGIN_TIE * _tanh((lawmen + hand_power - gang) / 4.0)
    if last and lives > 1.0:  # the last attack before the train: only a last kill would do
        return -1.0 + MARGIN_TIE + balance
    return attack_standing(turns, here_gang, fresh_rate, bonus, kill, lives, border,
                           failed_border, lawmen, hand_power, missing, kill_cards) + balance


def evaluate(state: State, player: int) -> float:
    """+1 won, -1 lost, 0 drawn (turn cap); otherwise the heuristic, inside (-1, 1), judged
    with what `player` can see."""
    return _value(state, player, False)


def evaluate_spent(state: State, player: int) -> float:
    """`evaluate` for a state its caller throws away afterwards (a bot's trial copy): it
    may be played on, which saves a copy of the game in McReady's play phase."""
    return _value(state, player, True)


def _value(state: State, player: int, spend: bool) -> float:
    if state.over:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0
    value = mcready_value(state, player, spend)
    # max(-_INSIDE, min(_INSIDE, value))
    value = value if value < _INSIDE else _INSIDE
    value = value if value > -_INSIDE else -_INSIDE
    return value if player == ATTACKER else -value

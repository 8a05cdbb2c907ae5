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
import random

from deckbuilder.engine import card_steps, effects
from deckbuilder.engine.actions import K_MAIN, K_REACT, PASS
from deckbuilder.engine.board import column_count, column_has_room, firepower
from deckbuilder.engine.codes import (
    FIREPOWER,
    SLOT_OWN,
    SPACE_FACE,
    SPACE_OPTIONAL,
    SPACE_REGULAR,
)
from deckbuilder.engine.compiled import CardDef, GameSpec
from deckbuilder.engine.state import ATTACKER, DEFENDER, PHASE_ATTACK, State

#: Cards in a typical hand, for the kill rate at battlefields not reached yet.
TYPICAL_HAND = 5
#: Firepower McReady adds, on average, per card he has still to draw before an attack.
DRAW_FIREPOWER = 0.9
#: How uncertain (in firepower) the balance of an attack still to be played is.
ATTACK_SPREAD = 1.8
#: Firepower one card from McReady's hand brings, its cost included.
SPEND_FIREPOWER = 1.2
#: Expected kills, over the rest of the game, of one more card in McReady's hand (and the
#: kills one card in the gang's hand prevents).
MCREADY_CARD_KILLS = 0.2
GANG_CARD_KILLS = 0.1
#: Expected kills of a card in play beyond its firepower here (a lawman elsewhere may be
#: brought over; a gang card holds a place in the column).
PLAY_KILLS = 0.05
#: Expected kills of a card in hand that makes a casualty; turns of a marker card in hand.
CASUALTY_CARD_KILLS = 0.7
MARKER_CARD_TURNS = 0.6
#: Expected extra turns from a bandit whose death (or lost token) adds turns, while it can.
EXTRA_TURN_SHARE = 0.5
#: Chance a reaction card in the gang's hand cancels an attack that would kill.
REACTION_CANCELS = 1.0
#: Variance added to the race so that decided-looking positions still differ.
RACE_VARIANCE = 0.6
#: The race score of a race already settled (no lives, or no border tokens, left).
DECIDED = 100.0
#: Race score at which McReady's standing is tanh(1) (about 0.76) or -tanh(1).
STANDING_SCALE = 2.5
#: Weight of the coming attack's firepower balance, which breaks near-ties.
MARGIN_TIE = 0.003
_SQRT2 = math.sqrt(2.0)
_REGULAR = (SPACE_REGULAR, SPACE_OPTIONAL)
_MAX_EXPECTED_HAND = 24
_INSIDE = 1.0 - 1e-9  # a position not yet won or lost values strictly inside (-1, 1)


class _Tables:
    """Per game: the track after each space, and what each card can do, read once."""

    __slots__ = (
        "after",
        "casualties",
        "cost",
        "counts",
        "def_of",
        "defence",
        "drawn_kills",
        "drawn_turns",
        "expected_answer",
        "expected_power",
        "extra_turns",
        "face_spaces",
        "firepower",
        "fresh_rate",
        "gang_fire",
        "here_after",
        "marker",
        "reaction_cost",
        "reacts",
        "token_gains",
        "uid_fire",
        "uid_kills",
        "uid_turns",
        "waived",
    )

    def __init__(self, spec: GameSpec) -> None:
        self.defence = [bf.defence for bf in spec.bfs]
        # Regular spaces strictly after (bf, space) up to the train's space; "here": on the
        # same battlefield.
        self.after: list[list[int]] = []
        self.here_after: list[list[int]] = []
        self.face_spaces: list[tuple[int, int, int]] = []  # (bf, space, flat index)
        for index, bf in enumerate(spec.bfs):
            row = [_regular_after(spec, index, space) for space in range(len(bf.kinds))]
            end = _regular_after(spec, index + 1, -1) if index + 1 < spec.n_bf else 0
            self.after.append(row)
            self.here_after.append([count - end for count in row])
            self.face_spaces.extend((index, space, bf.offset + space)
                                    for space, kind in enumerate(bf.kinds) if kind == SPACE_FACE)
        self._read_cards(spec)
        self._read_bandits(spec)

    def _read_cards(self, spec: GameSpec) -> None:
        self.firepower: list[int] = []
        self.counts: list[bool] = []
        self.cost: list[int] = []
        self.waived: list[frozenset[int]] = []
        self.casualties: list[int] = []
        self.marker: list[int] = []
        self.reacts: list[bool] = []
        for card in spec.defs:
            own = [m for m in card.modes if m.slot == SLOT_OWN and m.play == FIREPOWER]
            self.firepower.append(max((m.firepower for m in own), default=0))
            self.counts.append(all(m.counts for m in own) if own else True)
            self.cost.append(card.cost)
            self.waived.append(card.cost_waived)
            casualty, marker = _card_effects(card)
            self.casualties.append(casualty)
            self.marker.append(marker)
            self.reacts.append(card.react_attack is not None)
        # Per card in a player's hand: the kills it is worth to McReady (a card in the gang's
        # hand prevents some) and the turns it gains him (or the gang takes away); and the
        # average of both over the player's deck, for the cards drawn so far.
        hand_kills = ([-GANG_CARD_KILLS] * len(spec.defs),
                      [MCREADY_CARD_KILLS + CASUALTY_CARD_KILLS * c for c in self.casualties])
        hand_turns = ([-MARKER_CARD_TURNS if m > 0 else 0.0 for m in self.marker],
                      [MARKER_CARD_TURNS if m < 0 else 0.0 for m in self.marker])
        def_of, owner = spec.def_of, spec.owner
        self.def_of = def_of
        self.drawn_kills: list[float] = []
        self.drawn_turns: list[float] = []
        for player in (DEFENDER, ATTACKER):
            deck = [def_of[uid] for uid in spec.decks[player]] or [0]
            self.drawn_kills.append(sum(hand_kills[player][d] for d in deck) / len(deck))
            self.drawn_turns.append(sum(hand_turns[player][d] for d in deck) / len(deck))
        cards = range(spec.n_cards)
        self.uid_kills = [hand_kills[owner[uid]][def_of[uid]] for uid in cards]
        self.uid_turns = [hand_turns[owner[uid]][def_of[uid]] for uid in cards]
        # Firepower cards by instance: McReady's as (firepower, cost, battlefields where the
        # cost is waived), the gang's as (firepower, cost, counts toward the limit).
        self.uid_fire: list[tuple[int, int, frozenset[int]] | None] = [
            (self.firepower[d], self.cost[d], self.waived[d]) if self.firepower[d] else None
            for d in map(def_of.__getitem__, cards)]
        self.gang_fire: list[tuple[int, int, bool] | None] = [
            (self.firepower[d], self.cost[d], self.counts[d]) if self.firepower[d] else None
            for d in map(def_of.__getitem__, cards)]
        # What a player cannot see of the other's hand counts at its average over the deck:
        # McReady's hand firepower and the gang's answer by hand size.
        gang_deck = spec.decks[DEFENDER]
        self.expected_power = _expected_power(self.uid_fire, spec.decks[ATTACKER])
        self.expected_answer = [_expected_answer(self, gang_deck, room) for room in range(4)]
        self.reaction_cost = min((self.cost[def_of[uid]] for uid in gang_deck
                                  if self.reacts[def_of[uid]]), default=0)

    def _read_bandits(self, spec: GameSpec) -> None:
        # Bandits whose death or lost token adds turns; bandits who gain a token later.
        self.extra_turns: list[tuple[int, bool, int, int]] = []  # index, death?, turns, unless
        self.token_gains: list[tuple[int, int, int]] = []  # index, battlefield, tokens
        for character in spec.bandits:
            for steps, on_death in ((character.on_death, True),
                                    (character.on_token_lost, False)):
                for runner, params in steps:
                    if runner is effects.run_extra_turns:
                        self.extra_turns.append((character.idx, on_death, params[1], params[2]))
            for where, steps in character.marker_enters:
                for runner, params in steps:
                    if runner is card_steps.run_add_token and params[2] is None:
                        self.token_gains.append((character.idx, where, params[1]))
        self.fresh_rate = self._fresh_rate(spec)

    def _fresh_rate(self, spec: GameSpec) -> float:
        """The kill rate of an attack at a battlefield not reached yet: the average over
        the battlefields' attacks of the rate `_race_after` gives a battlefield reached
        with a typical hand on each side (as many cards as at set-up), McReady's draws
        piling up against the gang's answer."""
        power = self.expected_power[TYPICAL_HAND]
        total = count = 0.0
        for index in range(spec.n_bf):
            attacks = _regular_after(spec, index, -1) - (
                _regular_after(spec, index + 1, -1) if index + 1 < spec.n_bf else 0)
            for turn in range(attacks):
                gang = self.defence[index] + self.expected_answer[3][TYPICAL_HAND + 2 * turn]
                total += _phi((power + 2 * DRAW_FIREPOWER * turn - gang - 0.5) / ATTACK_SPREAD)
                count += 1
        return total / count if count else 0.5


def _regular_after(spec: GameSpec, bf: int, space: int) -> int:
    count = 0
    for index in range(bf, spec.n_bf):
        kinds = spec.bfs[index].kinds
        start = space + 1 if index == bf else 0
        stop = spec.train_space + 1 if index == spec.train_bf else len(kinds)
        count += sum(1 for s in range(start, stop) if kinds[s] in _REGULAR)
    return count


def _card_effects(card: CardDef) -> tuple[int, int]:
    """(casualties the card makes the gang take, marker spaces it moves)."""
    casualty, marker = 0, 0
    for mode in card.modes:
        for runner, params in mode.effect:
            if runner is card_steps.run_casualty:
                casualty = max(casualty, int(params))
            elif runner is effects.run_move_marker and abs(params[0]) > abs(marker):
                marker = params[0]
    return casualty, marker


_TABLES: dict[int, tuple[GameSpec, _Tables]] = {}


def _tables(spec: GameSpec) -> _Tables:
    cached = _TABLES.get(id(spec))
    if cached is None or cached[0] is not spec:
        cached = (spec, _Tables(spec))
        _TABLES[id(spec)] = cached
    return cached[1]


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / _SQRT2))


# -- what the hands can do ----------------------------------------------------------------------
def _firepower_of(fires: list[tuple[int, int, frozenset[int]]], hand_size: int,
                  bf: int) -> float:
    """Firepower these firepower cards of a hand of `hand_size` cards bring in one turn,
    costs paid from the hand, strongest cards first."""
    fires.sort(reverse=True)
    budget = hand_size
    total = 0.0
    for power, cost, waived in fires:
        if waived and bf in waived:
            cost = 0
        if cost < budget:
            total += power
            budget -= 1 + cost
    return total


def _expected_power(uid_fire: list, deck: list[int], hands: int = 120) -> list[float]:
    """Average `_firepower_of` a random hand of each size dealt from `deck` (a fixed sample,
    so the table is the same every time)."""
    rng = random.Random(0)
    table = [0.0]
    for size in range(1, _MAX_EXPECTED_HAND + 1):
        total = 0.0
        for _ in range(hands):
            hand = rng.sample(deck, min(size, len(deck)))
            total += _firepower_of([f for uid in hand if (f := uid_fire[uid]) is not None],
                                   len(hand), -1)
        table.append(total / hands)
    return table


def _hand_power(state: State, tables: _Tables, bf: int, viewer: int) -> float:
    """Firepower McReady could add at `bf` from his hand in one turn (none if his column
    there is closed); as the gang sees it, the average for a hand of that size."""
    hand = state.hands[ATTACKER]
    if viewer != ATTACKER:
        power = tables.expected_power[min(len(hand), _MAX_EXPECTED_HAND)]
    else:
        uid_fire = tables.uid_fire
        fires = [fire for uid in hand if (fire := uid_fire[uid]) is not None]
        power = _firepower_of(fires, len(hand), bf) if fires else 0.0
    if power and not column_has_room(state, bf, ATTACKER):
        return 0.0
    return power


def _answer_of(tables: _Tables, hand: list[int], room: int) -> float:
    """The firepower this gang hand can still add to its column in one play phase: its best
    cards into the `room` free places (and any that do not count toward the limit), costs
    paid from the hand. (Its kill cards count when played: they are one-shots, and counting
    them as a standing threat would count them again every turn.)"""
    gang_fire = tables.gang_fire
    fires = [fire for uid in hand if (fire := gang_fire[uid]) is not None]
    total = 0.0
    if fires:
        fires.sort(reverse=True)
        budget = len(hand)
        for power, cost, counts in fires:
            if cost < budget and (room > 0 or not counts):
                total += power
                budget -= 1 + cost
                room -= counts
    return total


def _expected_answer(tables: _Tables, deck: list[int], room: int,
                     hands: int = 120) -> list[float]:
    """Average `_answer_of` a random gang hand of each size dealt from `deck` (a fixed
    sample, so the table is the same every time)."""
    rng = random.Random(room)
    table = [0.0]
    for size in range(1, _MAX_EXPECTED_HAND + 1):
        total = 0.0
        for _ in range(hands):
            total += _answer_of(tables, rng.sample(deck, min(size, len(deck))), room)
        table.append(total / hands)
    return table


def _gang_answer(state: State, tables: _Tables, bf: int, viewer: int, draws: int = 0) -> float:
    """The gang's answer at `bf` (see `_answer_of`) after `draws` more cards drawn; what
    McReady cannot see of the gang's hand counts at the average for its size."""
    room = max(0, min(3, state.spec.column_limit[DEFENDER]
                      - column_count(state, bf, DEFENDER)))
    hand = state.hands[DEFENDER]
    size = min(len(hand), _MAX_EXPECTED_HAND - draws)
    expected = tables.expected_answer[room]
    if viewer != DEFENDER:
        return expected[size + draws]
    return _answer_of(tables, hand, room) + expected[size + draws] - expected[size]


def _reaction_ready(state: State, tables: _Tables) -> bool:
    """Does the gang hold a card that cancels a killing attack (and its cost)? Read from
    the hand as it lies, whoever judges: ending McReady's play phase resolves the attack at
    once against that hand, so an average here would make ending it look better or worse
    than it turns out."""
    hand = state.hands[DEFENDER]
    if len(hand) <= tables.reaction_cost:
        return False
    def_of = tables.def_of
    return any(tables.reacts[def_of[uid]] for uid in hand)


# -- the race ---------------------------------------------------------------------------------
def _race(lives: float, border: int, turns: float, here_turns: int, here_kills: float,
          here_variance: float, fresh_rate: float, bonus_kills: float) -> float:
    """McReady's race as a normal score: can he make `lives` kills in `turns` attacks (the
    first `here_turns` of them expected to make `here_kills`, the rest at `fresh_rate`),
    failing fewer than `border` times? Above 0: more likely than not."""
    needed = lives - bonus_kills
    left = min(turns, max(needed, 0.0) + border - 1)
    if here_turns > left:  # the race ends (or is lost) before this battlefield does
        share = left / here_turns
        here_kills *= share
        here_variance *= share
        here_turns = left
    rest = left - here_turns
    mean = here_kills + rest * fresh_rate
    variance = here_variance + rest * fresh_rate * (1.0 - fresh_rate) + RACE_VARIANCE
    return (mean - needed + 0.5) / math.sqrt(variance)


class _Position:
    """The numbers the race needs, read once from the state."""

    __slots__ = ("bonus", "border", "lives", "mcready_hand", "turn_bonus")


def _read(state: State, tables: _Tables, viewer: int) -> _Position:
    spec = state.spec
    base = spec.bandit_base
    bf = state.marker_bf
    position = _Position()
    # Dead bandits hold no tokens, and bandits are the last card instances.
    lives = float(sum(state.alive) + sum(state.grit[base:]) + sum(state.power[base:]))
    for index, where, tokens in tables.token_gains:
        if state.alive[index] and (where < 0 or bf < where):
            lives += tokens
    position.lives = lives
    turn_bonus = 0.0
    for index, on_death, count, unless in tables.extra_turns:
        if state.alive[index] and (unless < 0 or bf < unless) and (
                on_death or state.power[base + index] or state.grit[base + index]):
            turn_bonus += EXTRA_TURN_SHARE * count
    # What the cards in hand are worth (kills to come, turns gained or lost), less what the
    # cards drawn in draw phases so far are worth on average: a draw phase changes nothing
    # on average, a card played costs what it was worth, a card drawn by an effect gains.
    # (Plain hand values would make every action that ends a phase, after which the opponent
    # draws, look better or worse than the others.) The hand the viewer cannot see counts at
    # the deck's average.
    mcready_hand = state.hands[ATTACKER]
    mcready_draws = 2 * (state.turn // 2)
    gang_draws = 2 * ((state.turn + 1) // 2)
    bonus = -(mcready_draws * tables.drawn_kills[ATTACKER]
              + gang_draws * tables.drawn_kills[DEFENDER])
    turn_bonus -= (mcready_draws * tables.drawn_turns[ATTACKER]
                   + gang_draws * tables.drawn_turns[DEFENDER])
    for player, hand in ((ATTACKER, mcready_hand), (DEFENDER, state.hands[DEFENDER])):
        if player == viewer:
            bonus += sum(map(tables.uid_kills.__getitem__, hand))
            turn_bonus += sum(map(tables.uid_turns.__getitem__, hand))
        else:
            bonus += len(hand) * tables.drawn_kills[player]
            turn_bonus += len(hand) * tables.drawn_turns[player]
    # Cards in play keep some use: a lawman elsewhere may be brought over, a gang card here
    # holds a place. So no card is discarded from play for nothing.
    lawmen_anywhere = sum(len(row) for row in state.rows[ATTACKER::2])
    bonus += PLAY_KILLS * (lawmen_anywhere - len(state.rows[2 * bf + DEFENDER]))
    position.mcready_hand = len(mcready_hand)
    position.bonus = bonus
    position.turn_bonus = turn_bonus
    position.border = state.border
    return position


def _turns_after(state: State, tables: _Tables, bf: int, space: int) -> tuple[float, float]:
    """(McReady's attacks after the one at (bf, space), those of them at `bf`)."""
    turns = float(tables.after[bf][space])
    here = float(tables.here_after[bf][space])
    face_on = state.face_on
    for face_bf, face_space, flat in tables.face_spaces:
        if face_on[flat] and (face_bf > bf or (face_bf == bf and face_space > space)):
            turns += 1
            if face_bf == bf:
                here += 1
    return turns, here


class _Track:
    """What the race after the coming attack looks at: the attacks left, and for each
    attack left at this battlefield the gang's firepower there once it has answered (with
    what its hand and its draws by then can add)."""

    __slots__ = ("fresh_rate", "here_gang", "turns")

    def __init__(self, state: State, tables: _Tables, position: _Position, gang: float,
                 viewer: int) -> None:
        bf = state.marker_bf
        turns, here_turns = _turns_after(state, tables, bf, state.marker_space)
        self.turns = max(turns + position.turn_bonus, 0.0)
        self.fresh_rate = tables.fresh_rate
        self.here_gang = [gang + _gang_answer(state, tables, bf, viewer, 2 * turn)
                          for turn in range(1, int(here_turns) + 1)]


def _race_after(track: _Track, position: _Position, lives: float, border: int, board: float,
                hand_power: float, cards_gone: float) -> float:
    """The race score after McReady's attack on the marker's space: the attacks left at this
    battlefield, where his `board` firepower stays and `hand_power` more can come from his
    hand (and the cards he draws by then), against the gang's firepower once it has
    answered; then the battlefields to come at the base rate. `cards_gone`: cards from his
    hand the attack used. Raising his firepower here above the gang's costs cards once; he
    does it only if the kills it brings are worth them."""
    if lives <= 0:
        return DECIDED
    if border <= 0:
        return -DECIDED
    bonus = position.bonus - MCREADY_CARD_KILLS * cards_gone
    here_gang = track.here_gang
    here = len(here_gang)
    passive = _race(lives, border, track.turns, here, 0.0, 0.0, track.fresh_rate, bonus)
    if not here:
        return passive
    here_kills = here_variance = 0.0
    hand_power = max(hand_power, 0.0)
    for turn, gang in enumerate(here_gang, start=1):
        rate = _phi((board + hand_power + 2 * DRAW_FIREPOWER * turn - gang - 0.5)
                    / ATTACK_SPREAD)
        here_kills += rate
        here_variance += rate * (1.0 - rate)
    cost = MCREADY_CARD_KILLS * max(0.0, here_gang[0] + 1 - board) / SPEND_FIREPOWER
    active = _race(lives, border, track.turns, here, here_kills, here_variance,
                   track.fresh_rate, bonus - cost * here_kills / here)
    return max(active, passive)


def _attack(track: _Track, position: _Position, kill: float, lives: float, border: int,
            failed_border: int, lawmen: float, hand_power: float, missing: float,
            kill_cards: float) -> float:
    """McReady's standing (see `_standing`) over the two outcomes of his attack on the
    marker's space: a kill (chance `kill`, paid with `missing` firepower, `kill_cards` cards
    from his hand) or a border token. He declines a kill not worth its cards."""
    if_not = _race_after(track, position, lives, failed_border, lawmen, hand_power, 0.0)
    if kill <= 0.0:
        return _standing(if_not)
    if_kill = _race_after(track, position, lives - 1, border, lawmen + missing,
                          hand_power - missing, kill_cards)
    return kill * _standing(max(if_kill, if_not)) + (1.0 - kill) * _standing(if_not)


def _standing(score: float) -> float:
    """McReady's standing in [-1, 1] from a race score: a flatter curve than the normal
    one, so that a race far from even still tells better moves from worse (the bots would
    break ties at random)."""
    return math.tanh(score / STANDING_SCALE)


def mcready_value(state: State, viewer: int = ATTACKER) -> float:
    """McReady's value of the position in (-1, 1), judged with what `viewer` can see."""
    if state.active == ATTACKER and state.pending_kind == K_MAIN:
        return _mcready_play_phase(state, viewer)
    return _analytic_value(state, viewer)


def _mcready_play_phase(state: State, viewer: int) -> float:
    """In McReady's play phase: the position as it will be if he ends it now (so that
    ending it and playing a card are judged alike), plus part of the kill his hand can
    still bring about if the firepower in play falls short (so that he plays on until the
    attack kills)."""
    after = _after_ending(state)
    if after.over:
        value = 0.0 if after.winner is None else (1.0 if after.winner == ATTACKER else -1.0)
    else:
        value = _analytic_value(after, viewer)
    tables = _tables(state.spec)
    bf = state.marker_bf
    lawmen = firepower(state, bf, ATTACKER)
    gang = firepower(state, bf, DEFENDER) + tables.defence[bf]
    missing = gang + 1 - lawmen
    if missing <= 0 or _reaction_ready(state, tables):
        return value
    hand_power = _hand_power(state, tables, bf, viewer)
    position = _read(state, tables, viewer)
    track = _Track(state, tables, position, gang, viewer)
    failed_border = position.border if state.killed_this_turn else position.border - 1
    if_kill = _attack(track, position, 1.0, position.lives, position.border, failed_border,
                      lawmen, hand_power, missing, missing / SPEND_FIREPOWER)
    if_not = _attack(track, position, 0.0, position.lives, position.border, failed_border,
                     lawmen, hand_power, missing, 0.0)
    # The chance his hand makes up the difference, as the gang's play phase foresaw it.
    reach = _phi((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD)
    return value + reach * max(0.0, if_kill - if_not)


def _after_ending(state: State) -> State:
    """A copy of the state once McReady ends his play phase now: his attack resolved (the
    gang cancelling a kill when it can, its casualty the first it may choose), up to the
    gang's next play phase or the end of the game."""
    after = state.clone()
    after.apply(PASS)
    for _ in range(32):
        if after.over or after.pending_kind == K_MAIN:
            break
        legal = after.legal
        after.apply(legal[-1] if after.pending_kind == K_REACT else legal[0])
    return after


def _analytic_value(state: State, viewer: int) -> float:
    """McReady's value of the position from the race (see the module docstring)."""
    tables = _tables(state.spec)
    position = _read(state, tables, viewer)
    lives, border = position.lives, position.border
    bf = state.marker_bf
    lawmen = firepower(state, bf, ATTACKER)
    gang = firepower(state, bf, DEFENDER) + tables.defence[bf]
    hand_power = _hand_power(state, tables, bf, viewer)
    failed_border = border if state.killed_this_turn else border - 1
    spec = state.spec
    last = bf == spec.train_bf and state.marker_space >= spec.train_space  # the train next
    gang_turn = state.active == DEFENDER
    track = _Track(state, tables, position, gang, viewer)
    if gang_turn:  # what the gang can still play now counts as played
        gang += _gang_answer(state, tables, bf, viewer)
    if not gang_turn and state.phase >= PHASE_ATTACK:
        # The attack is over, the border not yet settled; the train is checked next.
        if last and lives > 0:
            return -1.0 + 1e-6
        return _standing(_race_after(track, position, lives, failed_border, lawmen,
                                     hand_power, 0.0))
    missing = max(0.0, gang + 1 - lawmen)
    if gang_turn:
        # McReady's attack comes after his draw: what he has in play and can bring from his
        # hand, against the gang's cards (those it can still play included).
        hand_power += 2 * DRAW_FIREPOWER
        kill = _phi((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD)
        kill_cards = min(missing / SPEND_FIREPOWER, position.mcready_hand + 2.0)
    elif not missing:
        kill, kill_cards = 1.0, 0.0
    else:  # in the middle of McReady's play phase: what his hand can still bring
        kill = _phi((lawmen + hand_power - gang - 0.5) / ATTACK_SPREAD)
        kill_cards = min(missing / SPEND_FIREPOWER, float(position.mcready_hand))
    if kill and _reaction_ready(state, tables):
        kill *= 1.0 - REACTION_CANCELS
    # A little of the coming attack's firepower balance, so that where the race looks
    # settled either way the bots still prefer the stronger card to the weaker one.
    balance = MARGIN_TIE * math.tanh((lawmen + hand_power - gang) / 4.0)
    if last and lives > 1:  # the last attack before the train: only a last kill would do
        return -1.0 + MARGIN_TIE + balance
    return _attack(track, position, kill, lives, border, failed_border, lawmen, hand_power,
                   missing, kill_cards) + balance


def evaluate(state: State, player: int) -> float:
    """+1 won, -1 lost, 0 drawn (turn cap); otherwise the heuristic, inside (-1, 1), judged
    with what `player` can see."""
    if state.over:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0
    value = max(-_INSIDE, min(_INSIDE, mcready_value(state, player)))
    return value if player == ATTACKER else -value

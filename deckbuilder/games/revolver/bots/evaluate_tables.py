"""What the position heuristic (`evaluate.py`) reads once per game, and what hands can do.

The heuristic runs thousands of times a game (the greedy bot values every action with its
race pieces, the play-out greedy and the search bot call it on copies), so everything that
depends only on the game's spec is worked out here once: the attacks left after each space
of the track, what each card instance is worth in hand, the firepower a random hand of each
size brings (the average the opponent's hidden hand counts at), and the kill rate at
battlefields not reached yet. What depends on one hand (its firepower, the gang's answer) is
worked out afresh from each card's place in the strength order (`fire_ranks`): sorting a few
small ints is cheaper than remembering hands by tuple keys (half the asks missed anyway).
"""

from __future__ import annotations

import functools
import math
import random
from typing import Final, TypeVar

from deckbuilder.engine import card_steps, effects
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.codes import (
    FIREPOWER,
    SLOT_OWN,
    SPACE_FACE,
    SPACE_OPTIONAL,
    SPACE_REGULAR,
)
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import ATTACKER, DEFENDER

#: Cards in a typical hand, for the kill rate at battlefields not reached yet.
TYPICAL_HAND: Final = 5
#: Firepower McReady adds, on average, per card he has still to draw before an attack.
DRAW_FIREPOWER: Final = 0.9
#: How uncertain (in firepower) the balance of an attack still to be played is.
ATTACK_SPREAD: Final = 1.8
#: Expected kills, over the rest of the game, of one more card in McReady's hand (and the
#: kills one card in the gang's hand prevents).
MCREADY_CARD_KILLS: Final = 0.2
GANG_CARD_KILLS: Final = 0.1
#: Expected kills of a card in hand that makes a casualty; turns of a marker card in hand.
CASUALTY_CARD_KILLS: Final = 0.7
MARKER_CARD_TURNS: Final = 0.6
#: Hand sizes the expected-firepower tables cover (larger hands count as this size).
MAX_EXPECTED_HAND: Final = 24
SQRT2: Final = math.sqrt(2.0)
_ERF: Final = math.erf
_REGULAR: Final = (SPACE_REGULAR, SPACE_OPTIONAL)

#: A McReady firepower card: (firepower, cost, battlefields where its cost is waived).
LawmanFire = tuple[int, int, frozenset[int]]
#: A gang firepower card: (firepower, cost, counts toward the column limit).
GangFire = tuple[int, int, bool]
FireT = TypeVar("FireT", LawmanFire, GangFire)


class Tables:
    """Per game: the track after each space, and what each card can do, read once."""

    __slots__ = (
        "after",
        "casualties",
        "cost",
        "counts",
        "deck_reacting",
        "def_of",
        "defence",
        "draw_terms",
        "drawn_kills",
        "drawn_turns",
        "expected_answer",
        "expected_power",
        "extra_turns",
        "face_spaces",
        "faces_after",
        "firepower",
        "fresh_rate",
        "gang_fire",
        "gang_rank",
        "gang_ranked",
        "here_after",
        "lawman_rank",
        "lawman_ranked",
        "lawman_waives",
        "marker",
        "reaction_cost",
        "reacts",
        "token_gains",
        "train_bf",
        "train_space",
        "uid_fire",
        "uid_kills",
        "uid_reacts",
        "uid_turns",
        "waived",
    )

    def __init__(self, spec: SpecFields) -> None:
        self.defence: list[int] = [bf.defence for bf in spec.bfs]
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
        # Per (bf, space): the face spaces after it, as (flat index, on the same battlefield).
        self.faces_after: list[list[tuple[tuple[int, bool], ...]]] = [
            [tuple((flat, face_bf == index) for face_bf, face_space, flat in self.face_spaces
                   if face_bf > index or (face_bf == index and face_space > space))
             for space in range(len(bf.kinds))]
            for index, bf in enumerate(spec.bfs)]
        self.draw_terms: dict[int, tuple[float, float]] = {}
        # The train's place, read once (the game's facts are an untyped record).
        self.train_bf: int = spec.facts.train_bf
        self.train_space: int = spec.facts.train_space
        self._read_cards(spec)
        self._read_bandits(spec)

    def _read_cards(self, spec: SpecFields) -> None:
        self.firepower: list[int] = []
        self.counts: list[bool] = []
        self.cost: list[int] = []
        self.waived: list[frozenset[int]] = []
        self.casualties: list[int] = []
        self.marker: list[int] = []
        self.reacts: list[bool] = []
        for card in spec.defs:
            own = firepower_modes(card)
            self.firepower.append(max((m.firepower for m in own), default=0))
            self.counts.append(all(m.counts for m in own) if own else True)
            self.cost.append(card.cost)
            self.waived.append(card.cost_waived)
            casualty, marker = card_effects(card)
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
        self.uid_reacts = [self.reacts[def_of[uid]] for uid in cards]
        # Firepower cards by instance: McReady's as (firepower, cost, battlefields where the
        # cost is waived), the gang's as (firepower, cost, counts toward the limit).
        self.uid_fire: list[LawmanFire | None] = [
            (self.firepower[d], self.cost[d], self.waived[d]) if self.firepower[d] else None
            for d in map(def_of.__getitem__, cards)]
        self.gang_fire: list[GangFire | None] = [
            (self.firepower[d], self.cost[d], self.counts[d]) if self.firepower[d] else None
            for d in map(def_of.__getitem__, cards)]
        # Each card's place among the firepower cards, strongest first (None: no such order).
        self.lawman_rank, self.lawman_ranked = fire_ranks(self.uid_fire)
        self.lawman_waives = [bool(waived) for _power, _cost, waived in self.lawman_ranked]
        self.gang_rank, self.gang_ranked = fire_ranks(self.gang_fire)
        # What a player cannot see of the other's hand counts at its average over the deck:
        # McReady's hand firepower and the gang's answer by hand size.
        gang_deck = spec.decks[DEFENDER]
        self.expected_power = expected_power(self.uid_fire, spec.decks[ATTACKER])
        fires = tuple(self.gang_fire[uid] for uid in gang_deck)
        answers = _ANSWERS.get(fires)
        if answers is None:  # the same gang deck (all an optimiser's McReady decks face)
            answers = [expected_answer(self, gang_deck, room) for room in range(4)]
            if len(_ANSWERS) >= 64:
                _ANSWERS.clear()
            _ANSWERS[fires] = answers
        self.expected_answer = answers
        self.reaction_cost = min((self.cost[def_of[uid]] for uid in gang_deck
                                  if self.reacts[def_of[uid]]), default=0)
        #: The gang's cards that cancel an attack, in its whole deck (`_reaction_chance`).
        self.deck_reacting = counted(self.uid_reacts, list(gang_deck))

    def _read_bandits(self, spec: SpecFields) -> None:
        # Bandits whose death or lost token adds turns; bandits who gain a token later.
        self.extra_turns: list[tuple[int, bool, int, int]] = []  # index, death?, turns, unless
        self.token_gains: list[tuple[int, int, int]] = []  # index, battlefield, tokens
        for character in spec.characters:
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

    def _fresh_rate(self, spec: SpecFields) -> float:
        """The kill rate of an attack at a battlefield not reached yet: the average over
        the battlefields' attacks of the rate the race gives a battlefield reached with a
        typical hand on each side (as many cards as at set-up), McReady's draws piling up
        against the gang's answer."""
        power = self.expected_power[TYPICAL_HAND]
        total = count = 0.0
        for index in range(spec.n_bf):
            attacks = _regular_after(spec, index, -1) - (
                _regular_after(spec, index + 1, -1) if index + 1 < spec.n_bf else 0)
            for turn in range(attacks):
                gang = self.defence[index] + self.expected_answer[3][TYPICAL_HAND + 2 * turn]
                total += phi((power + 2 * DRAW_FIREPOWER * turn - gang - 0.5) / ATTACK_SPREAD)
                count += 1
        return total / count if count else 0.5

    def draw_terms_at(self, turn: int) -> tuple[float, float]:
        """(kills, turns) that the cards both players have drawn in draw phases before
        `turn` are worth on average, with the sign they enter the heuristic with."""
        terms = self.draw_terms.get(turn)
        if terms is None:
            mcready_draws = 2 * (turn // 2)
            gang_draws = 2 * ((turn + 1) // 2)
            terms = (-(mcready_draws * self.drawn_kills[ATTACKER]
                       + gang_draws * self.drawn_kills[DEFENDER]),
                     mcready_draws * self.drawn_turns[ATTACKER]
                     + gang_draws * self.drawn_turns[DEFENDER])
            self.draw_terms[turn] = terms
        return terms

    def hand_values(self, hand: list[int]) -> tuple[float, float]:
        """(kills, turns) the cards of `hand` are worth in hand (see `uid_kills`,
        `uid_turns`), summed in the hand's order. (Asked once per position: a memory of
        hands would only grow.)"""
        return summed(self.uid_kills, hand), summed(self.uid_turns, hand)

    def hand_firepower(self, hand: list[int], bf: int) -> float:
        """`firepower_of` McReady's `hand` at `bf` (0.0 without firepower cards): the same
        sum, the cards taken in the same order (by their `fire_ranks` place)."""
        ranks = self.lawman_rank
        if ranks is None:
            uid_fire = self.uid_fire
            fires = [fire for uid in hand if (fire := uid_fire[uid]) is not None]
            return firepower_of(fires, len(hand), bf) if fires else 0.0
        order = ranks_in_order(ranks, hand)
        if not order:
            return 0.0
        ranked = self.lawman_ranked
        waives = self.lawman_waives
        budget = len(hand)
        total = 0.0
        for rank in order:
            power, cost, waived = ranked[rank]
            if waives[rank] and bf in waived:
                cost = 0
            if cost < budget:
                total += power
                budget -= 1 + cost
        return total

    def gang_answers(self, hand: list[int], room: int, here: int,
                     seen: bool) -> tuple[float, tuple[float, ...]]:
        """The firepower the gang's `hand` can add with `room` free places (`answer_of`) now,
        and after each of `here` more attacks (two more cards drawn before each); as
        McReady sees it (not `seen`), the average for a hand of that size."""
        now, later = self.gang_here(hand, room, here, seen, 0.0, False)
        return now, tuple(later)

    def gang_here(self, hand: list[int], room: int, here: int, seen: bool, gang: float,
                  added: bool = True) -> tuple[float, list[float]]:
        """`gang_answers`, with `gang` added to each later answer (`added`): the gang's
        firepower at each of the `here` attacks to come, built in one list."""
        count = len(hand)
        expected = self.expected_answer[room]
        size = MAX_EXPECTED_HAND if count > MAX_EXPECTED_HAND else count  # min(count, MAX)
        if not seen:
            return expected[size], self.unseen_here(count, room, here, gang, added)
        later: list[float] = []
        answer = answer_of(self, hand, room)
        now = answer + expected[size] - expected[size]
        for draws in range(2, 2 * here + 1, 2):
            limit = MAX_EXPECTED_HAND - draws
            size = limit if limit < count else count
            one = answer + expected[size + draws] - expected[size]
            later.append(gang + one if added else one)
        return now, later

    def unseen_here(self, count: int, room: int, here: int, gang: float,
                    added: bool = True) -> list[float]:
        """`gang_here`'s later answers for a hand of `count` cards McReady cannot see: the
        average answer for its size after each attack's draws."""
        expected = self.expected_answer[room]
        later: list[float] = []
        for draws in range(2, 2 * here + 1, 2):
            limit = MAX_EXPECTED_HAND - draws
            one = expected[(limit if limit < count else count) + draws]
            later.append(gang + one if added else one)
        return later


def _regular_after(spec: SpecFields, bf: int, space: int) -> int:
    count = 0
    for index in range(bf, spec.n_bf):
        kinds = spec.bfs[index].kinds
        start = space + 1 if index == bf else 0
        stop = spec.facts.train_space + 1 if index == spec.facts.train_bf else len(kinds)
        count += sum(1 for s in range(start, stop) if kinds[s] in _REGULAR)
    return count


def firepower_modes(card: CardDef) -> list:
    """The ways to play the card as firepower in its owner's own column."""
    return [mode for mode in card.modes if mode.slot == SLOT_OWN and mode.play == FIREPOWER]


def card_effects(card: CardDef) -> tuple[int, int]:
    """(casualties the card makes the gang take, marker spaces it moves)."""
    casualty, marker = 0, 0
    for mode in card.modes:
        for runner, params in mode.effect:
            if runner is card_steps.run_casualty:
                casualty = max(casualty, int(params))
            elif runner is effects.run_move_marker and abs(params[0]) > abs(marker):
                marker = params[0]
    return casualty, marker


_TABLES: Final[SpecMemo[Tables]] = SpecMemo(Tables)
#: `expected_answer` tables by the gang deck's firepower cards in deck order (all they read)
_ANSWERS: Final[dict[tuple[GangFire | None, ...], list[list[float]]]] = {}


def tables_for(spec: SpecFields) -> Tables:
    """The tables of this game's spec, built on first use."""
    return _TABLES.of(spec)


def summed(values: list[float], cards: list[int]) -> float:
    """The cards' values added up in the cards' order (as `sum` would: the same float). A
    loop, not `sum(map(values.__getitem__, cards))`, which the compiled build (setup.py)
    runs through generic calls."""
    total = 0.0
    for card in cards:
        total += values[card]
    return total


def counted(flags: list[bool], cards: list[int]) -> int:
    """How many of the cards have their flag set (`sum` of bools, as a loop: see `summed`)."""
    count = 0
    for card in cards:
        if flags[card]:
            count += 1
    return count


def any_of(flags: list[bool], cards: list[int]) -> bool:
    """Does any of the cards have its flag set? (mypyc makes a loop of `any` over a
    generator, not of `any(map(...))`: see `summed`.)"""
    return any(flags[card] for card in cards)


def phi(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + _ERF(z / SQRT2))


# -- what the hands can do ----------------------------------------------------------------------
def fire_ranks(fires: list[FireT | None]) -> tuple[list[int] | None, list[FireT]]:
    """Each card's place (0: strongest) among the distinct firepower cards `fires` holds, in
    the order `firepower_of` and `answer_of` sort them (descending tuples), and those cards
    by place; -1 for a card without firepower. Sorting a hand's places then takes its cards
    in the order sorting its tuples would (equal tuples are alike). (None, []) where the
    tuples are not totally ordered (two sets of battlefields where neither holds the
    other): there the order of a hand's cards is left to the sort of their tuples."""
    ranked = sorted({fire for fire in fires if fire is not None}, reverse=True)
    for index, stronger in enumerate(ranked):
        for weaker in ranked[index + 1:]:
            if not weaker < stronger:
                return None, []
    place = {fire: index for index, fire in enumerate(ranked)}
    return [-1 if fire is None else place[fire] for fire in fires], ranked


def firepower_of(fires: list[LawmanFire], hand_size: int, bf: int) -> float:
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


@functools.lru_cache(maxsize=16)
def sampled_hands(deck_size: int, seed: int, hands: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each hand size from 1 to MAX_EXPECTED_HAND, `hands` random hands as positions in a
    deck of `deck_size` cards: `random.Random(seed)` drawing `sample`s in turn. Which
    positions a sample picks depends only on the deck's size, so the hands are drawn once
    and reused for every deck of that size (the optimiser builds tables for a hundred decks
    that differ in a card or two): the same hands `rng.sample(deck, size)` would deal."""
    rng = random.Random(seed)
    positions = range(deck_size)
    return tuple(tuple(tuple(rng.sample(positions, min(size, deck_size)))
                       for _ in range(hands))
                 for size in range(1, MAX_EXPECTED_HAND + 1))


def expected_power(uid_fire: list[LawmanFire | None], deck: list[int],
                   hands: int = 120) -> list[float]:
    """Average `firepower_of` a random hand of each size dealt from `deck` (a fixed sample,
    so the table is the same every time)."""
    fires = [uid_fire[uid] for uid in deck]
    table = [0.0]
    for sized in sampled_hands(len(deck), 0, hands):
        total = 0.0
        for hand in sized:
            total += firepower_of([f for i in hand if (f := fires[i]) is not None],
                                  len(hand), -1)
        table.append(total / hands)
    return table


def ranks_in_order(ranks: list[int], hand: list[int]) -> list[int]:
    """The places (`Tables.fire_ranks`) of the hand's firepower cards, best first: the order
    the sorted firepower tuples had, as small ints."""
    order: list[int] = []
    for uid in hand:
        rank = ranks[uid]
        if rank >= 0:
            order.append(rank)
    order.sort()
    return order


def answer_of(tables: Tables, hand: list[int], room: int) -> float:
    """The firepower this gang hand can still add to its column in one play phase: its best
    cards into the `room` free places (and any that do not count toward the limit), costs
    paid from the hand. (Its kill cards count when played: they are one-shots, and counting
    them as a standing threat would count them again every turn.)"""
    ranks = tables.gang_rank
    if ranks is not None:
        order = ranks_in_order(ranks, hand)
        if not order:
            return 0.0
        ranked = tables.gang_ranked
        budget = len(hand)
        total = 0.0
        for rank in order:
            power, cost, counts = ranked[rank]
            if cost < budget and (room > 0 or not counts):
                total += power
                budget -= 1 + cost
                room -= counts
        return total
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


def expected_answer(tables: Tables, deck: list[int], room: int,
                    hands: int = 120) -> list[float]:
    """Average `answer_of` a random gang hand of each size dealt from `deck` (a fixed
    sample, so the table is the same every time)."""
    table = [0.0]
    for sized in sampled_hands(len(deck), room, hands):
        total = 0.0
        for hand in sized:
            total += answer_of(tables, [deck[i] for i in hand], room)
        table.append(total / hands)
    return table

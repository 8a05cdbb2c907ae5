"""The All Rivers Poker tournament, played before the game (malpaso-es: Torneo de póquer;
docs/players/play.md tells its rules).

The choices are simultaneous; the table's decisions are not, so the guardians choose first and
their card stays hidden from Mapache (and from bots playing him) until both have chosen.
Readings no document states: a tied round follows the `poker-tie` switch; if a player runs out
of cards before anyone has won two, the one with more rounds won wins, the guardians on a tie.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from deckbuilder.engine.board import draw
from deckbuilder.engine.chance import choice, shuffle
from deckbuilder.engine.state import ATTACKER, DEFENDER, State, with_item
from deckbuilder.games.revolver2.declaration import K_POKER
from deckbuilder.games.revolver2.facts import Revolver2Facts

WINS_NEEDED: Final = 2
OPENING_HAND: Final = 5


class Tournament(NamedTuple):
    """The tournament as it stands (immutable: each step makes a new one)."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]  # poker card indices (facts.poker)
    set_aside: tuple[int, int]  # the card each player put back in the box unseen
    face_down: int  # the guardians' hidden card this round, -1 before they chose
    wins: tuple[int, int]
    played: tuple[tuple[int, ...], tuple[int, ...]]  # every card played, in order
    winner: int  # -1 while the tournament goes on


def start(state: State, task: tuple) -> None:
    """Deal each player his tournament cards, less one put back unseen; open round one."""
    poker_of = state.spec.facts.poker_of
    hands: list[tuple[int, ...]] = []
    aside: list[int] = []
    for player in (DEFENDER, ATTACKER):
        cards = list(poker_of[player])
        shuffle(state.rng, cards)
        aside.append(cards.pop())
        hands.append(tuple(sorted(cards)))
    state.game_data = Tournament((hands[0], hands[1]), (aside[0], aside[1]), -1, (0, 0),
                                 ((), ()), -1)
    if state.verbose:
        state.note("the All Rivers Poker tournament begins (each side puts one card back "
                   "unseen)")
    _ask(state)


def stage(state: State, tournament: Tournament) -> None:
    """A tournament under way laid out by hand (a scenario's position): its state, and the
    choice now due opened (the guardians', or Mapache's once their card lies face down)."""
    state.game_data = tournament
    _ask(state)


def in_progress(state: State) -> bool:
    data = state.game_data
    return isinstance(data, Tournament) and data.winner < 0


def _options(state: State, player: int, tournament: Tournament) -> list[int]:
    base = state.spec.layout.game_base
    return [base + index for index in tournament.hands[player]]


def _ask(state: State) -> None:
    tournament: Tournament = state.game_data
    player = DEFENDER if tournament.face_down < 0 else ATTACKER
    state.decide(player, _options(state, player, tournament), _resume, player, K_POKER)


def _resume(state: State, action: int, player: int) -> None:
    tournament: Tournament = state.game_data
    index = action - state.spec.layout.game_base
    if player == DEFENDER:
        state.game_data = tournament._replace(face_down=index)
        _ask(state)
        return
    _reveal(state, tournament, tournament.face_down, index)


def decide_round(first: Any, second: Any) -> tuple[int | None, str]:
    """Which of two poker cards (anything with `cheat`, `calls_cheat`, `value`) wins a round,
    0 or 1 (None: a tie), and the rule that decides it: calls-cheat, cheat, higher or tie."""
    if first.cheat != second.cheat:
        cheater = 0 if first.cheat else 1
        other = second if first.cheat else first
        return (1 - cheater, "calls-cheat") if other.calls_cheat else (cheater, "cheat")
    if first.value != second.value:
        return (0 if first.value > second.value else 1), "higher"
    return None, "tie"


def round_reason(first: Any, second: Any, names: Sequence[str]) -> tuple[int | None, str]:
    """`decide_round` and why, in words, for the side names `names` (the first card's side
    first): "esteban's 6 beats 3", "mapache cheats and esteban calls it ..."; a tie says
    only "both show 8: a tie" (the `poker-tie` switch settles it)."""
    winner, rule = decide_round(first, second)
    if winner is None:
        return None, f"both show {first.value}: a tie"
    if rule == "calls-cheat":
        return winner, (f"{names[1 - winner]} cheats and {names[winner]} calls it: a card "
                        "that calls cheats beats a cheat")
    if rule == "cheat":
        return winner, f"{names[winner]} cheats: a cheat beats any card that does not call cheats"
    high, low = (first.value, second.value) if winner == 0 else (second.value, first.value)
    return winner, f"{names[winner]}'s {high} beats {low}"


def shown_value(card: Any) -> str:
    """A poker card's value as the round reads it: "cheat" for a cheat (never compared)."""
    return "cheat" if card.cheat else f"value {card.value}"


def round_winner(state: State, first: int, second: int) -> int | None:
    """Who wins a round of the guardians' card `first` against Mapache's `second` (None:
    a tie to be replayed)."""
    facts: Revolver2Facts = state.spec.facts
    a, b = facts.poker[first], facts.poker[second]
    winner, rule = decide_round(a, b)
    if winner is None:
        return DEFENDER if facts.poker_tie_to_guardians else None
    if rule == "higher":  # the guardians' card is the first
        return DEFENDER if winner == 0 else ATTACKER
    return int((a, b)[winner].owner)  # a cheat, or the card that calls it: its owner


def round_told(state: State, first: int, second: int) -> tuple[int | None, str]:
    """`round_winner` and why, in words, the `poker-tie` rule's part included: what the log
    says of a round and what every view shows of it."""
    facts: Revolver2Facts = state.spec.facts
    names = state.spec.game_rules.side_names
    a, b = facts.poker[first], facts.poker[second]
    winner = round_winner(state, first, second)
    _, reason = round_reason(a, b, names)
    if winner is None:
        reason += ", replayed (the poker-tie rule)"
    elif decide_round(a, b)[0] is None:
        reason += f" goes to {names[winner]} (the poker-tie rule)"
    return winner, reason


def _reveal(state: State, tournament: Tournament, first: int, second: int) -> None:
    facts: Revolver2Facts = state.spec.facts
    winner = round_winner(state, first, second)
    wins = list(tournament.wins)
    if winner is not None:
        wins[winner] += 1
    hands = list(tournament.hands)
    played = list(tournament.played)
    for player, card in ((DEFENDER, first), (ATTACKER, second)):
        played[player] = (*played[player], card)
        if not facts.poker[card].returns_to_hand:
            hands[player] = tuple(c for c in hands[player] if c != card)
    if state.verbose:
        names = state.spec.game_rules.side_names
        a, b = facts.poker[first], facts.poker[second]
        _, reason = round_told(state, first, second)
        outcome = "nobody" if winner is None else names[winner]
        state.note(f"poker: {names[0]} shows {a.name} ({shown_value(a)}), {names[1]} shows "
                   f"{b.name} ({shown_value(b)}): {reason}; {outcome} wins the round "
                   f"({wins[0]}-{wins[1]})")
    tournament = Tournament((hands[0], hands[1]), tournament.set_aside, -1,
                            (wins[0], wins[1]), (played[0], played[1]), -1)
    state.game_data = tournament
    if max(wins) >= WINS_NEEDED or not hands[0] or not hands[1]:
        _finish(state, tournament, ATTACKER if wins[1] > wins[0] else DEFENDER)
    else:
        _ask(state)


def _finish(state: State, tournament: Tournament, winner: int) -> None:
    """The winner's battlefields and every played card's set-up effect, then the game."""
    facts: Revolver2Facts = state.spec.facts
    layout = ("crystal-river", "buffalo-falls")[winner]
    state.spec = spec = facts.layouts[layout]
    facts = spec.facts  # the chosen battlefields' own (battlefield indices may differ)
    spaces = sum(len(battlefield.kinds) for battlefield in spec.bfs)
    if len(state.face_on) != spaces:  # the two sets need not have as many spaces
        state.face_on = (False,) * spaces
    state.game_data = tournament._replace(winner=winner)
    extra = [0, 0]
    effects: list[str] = []
    names = state.spec.game_rules.side_names
    for player in (DEFENDER, ATTACKER):
        for card in tournament.played[player]:
            poker = facts.poker[card]
            extra[player] += poker.extra_cards
            if poker.extra_cards and state.verbose:
                effects.append(f"{names[player]} draws {poker.extra_cards} more in the opening "
                               f"hand ({poker.name})")
            for bf, side, count in poker.tokens:
                if bf >= 0:
                    row = 2 * bf + (player if side == 0 else 1 - player)
                    state.bf_power = with_item(state.bf_power, row, state.bf_power[row] + count)
                    if state.verbose:
                        owner = names[player if side == 0 else 1 - player]
                        effects.append(f"{count} power token{'s' if count != 1 else ''} on "
                                       f"{owner}'s side of {spec.bfs[bf].name} ({poker.name})")
    if state.verbose:
        state.note(f"{names[winner]} wins the poker tournament: "
                   f"{state.spec.bfs[0].name}, {state.spec.bfs[1].name} and "
                   f"{state.spec.bfs[2].name} are in play")
        if effects:
            state.note("the poker cards' set-up: " + "; ".join(effects))
    rng = state.rng
    shuffle(rng, state.decks[0])
    shuffle(rng, state.decks[1])
    draw(state, DEFENDER, OPENING_HAND + extra[0])
    draw(state, ATTACKER, OPENING_HAND + extra[1])
    state.spec.game_rules.start_turn(state, DEFENDER)


def resample(state: State, player: int, rng: random.Random) -> None:
    """Re-deal what `player` cannot see of the tournament: the opponent's hand and the card he
    put back unseen (a played card back in hand is known) and, for Mapache, which card of the
    guardians' hand lies face down."""
    tournament = state.game_data
    if not isinstance(tournament, Tournament) or tournament.winner >= 0:
        return
    opponent = 1 - player
    hand = tournament.hands[opponent]
    known = tuple(card for card in hand if card in tournament.played[opponent])
    pool = [card for card in hand if card not in known] + [tournament.set_aside[opponent]]
    shuffle(rng, pool)
    aside = list(tournament.set_aside)
    aside[opponent] = pool.pop()
    hands = list(tournament.hands)
    hands[opponent] = tuple(sorted((*known, *pool)))
    face_down = tournament.face_down
    if opponent == DEFENDER and face_down >= 0:
        face_down = choice(rng, hands[opponent])
    tournament = tournament._replace(hands=(hands[0], hands[1]), set_aside=(aside[0], aside[1]),
                                     face_down=face_down)
    state.game_data = tournament
    if not state.over and state.pending_kind == K_POKER and state.pending_player == opponent:
        state.legal = _options(state, opponent, tournament)

"""A Revolver 2 position during the All Rivers Poker tournament (`position.poker`): before the
game, so no card is in play or in hand and the decks are whole. The rounds won follow from the
rounds played (a `wins` that disagrees is an impossible position); its end is played as after
a played tournament.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.games.revolver2 import poker
from deckbuilder.games.revolver2.poker import WINS_NEEDED, Tournament
from deckbuilder.games.revolver2.scenario_model import MALPASO_PLAYERS as SIDES
from deckbuilder.scenario_kit.layout import Ids
from deckbuilder.scenario_kit.parts import Source

#: The only part of a position that means something during the tournament.
TOURNAMENT_FIELDS = frozenset({"poker", "phase", "turn_number"})


def _refuse_the_table(scenario: Any, source: Source) -> None:
    """During the tournament nothing else of a position exists yet: a field that describes
    the table is an impossible position."""
    position = scenario.position
    for key in sorted(position.model_fields_set - TOURNAMENT_FIELDS):
        default = type(position).model_fields[key].get_default(call_default_factory=True)
        if getattr(position, key) != default:
            written = source.as_written(("position",), position, key)
            raise source.error(
                f"`{written}` cannot be set during the poker tournament (the game has not "
                "begun)", ("position", written),
                "leave it out, or stage the game after the tournament (without `poker`)")


def _poker_card(state: State, text: str, player: int, source: Source, loc: tuple) -> int:
    cards = state.spec.facts.poker
    wanted = " ".join(str(text).split()).casefold()
    for index, card in enumerate(cards):
        if wanted in (card.id.casefold(), card.name.casefold()):
            if card.owner != player:
                raise source.error(f"{card.name} is a poker card of {SIDES[card.owner]}, not "
                                   f"of {SIDES[player]}", loc,
                                   f"list it under {SIDES[card.owner]}")
            return index
    own = [card.id for card in cards if card.owner == player]
    raise source.error(f"unknown poker card '{text}' of {SIDES[player]}", loc,
                       f"use one of: {', '.join(own)}")


def _cards(state: State, cards: object, key: str, source: Source) -> list[list[int]]:
    return [[_poker_card(state, text, player, source, ("position", "poker", key, side, i))
             for i, text in enumerate(getattr(cards, side))]
            for player, side in enumerate(SIDES)]


def stage_tournament(state: State, scenario: Any, source: Source, ids: Ids) -> None:
    """Lay out the tournament as the file says (its decision is opened once the rest of the
    position is dealt); every battlefield of either set may be named, as either may come in."""
    _refuse_the_table(scenario, source)
    staged = scenario.position.poker
    facts = state.spec.facts
    hands = _cards(state, staged.hands, "hands", source)
    played = _cards(state, staged.played, "played", source)
    loc = ("position", "poker")
    if len(played[0]) != len(played[1]):
        raise source.error(f"esteban has played {len(played[0])} poker card(s) and mapache "
                           f"{len(played[1])}: each round both play one", (*loc, "played"),
                           "list as many played cards for each side")
    aside = [-1, -1]
    for player, side in enumerate(SIDES):
        own = [index for index, card in enumerate(facts.poker) if card.owner == player]
        counted = Counter(hands[player])
        if any(n > 1 for n in counted.values()):
            raise source.error(f"{side} holds a poker card twice", (*loc, "hands", side),
                               "each poker card is one card")
        returning = {i for i in own if facts.poker[i].returns_to_hand}
        gone = [i for i in played[player] if i not in returning]
        if len(set(gone)) != len(gone) or set(gone) & set(hands[player]):
            raise source.error(f"a poker card of {side} is played twice, or played and still "
                               "held (only You cheat Dawg! goes back to the hand)",
                               (*loc, "played", side), "list each card once")
        left = [i for i in own if i not in hands[player] and i not in gone]
        if staged.set_aside is not None:
            named = _cards(state, staged.set_aside, "set_aside", source)[player]
            if len(named) != 1 or named[0] not in left:
                raise source.error(f"{side} puts back exactly one card, one neither held nor "
                                   "played", (*loc, "set_aside", side),
                                   f"name one of: {', '.join(facts.poker[i].id for i in left)}")
            aside[player] = named[0]
        elif len(left) == 1:
            aside[player] = left[0]
        if aside[player] < 0 or len(left) != 1:
            raise source.error(
                f"{side}'s poker cards do not add up: of its {len(own)}, one is put back "
                f"unseen and the others are held or played ({len(left)} are neither)",
                (*loc, "hands", side), "list every card held and played")
    wins = [0, 0]
    for first, second in zip(played[0], played[1], strict=True):
        winner = poker.round_winner(state, first, second)
        if winner is not None:
            wins[winner] += 1
    if staged.wins is not None and (staged.wins.esteban, staged.wins.mapache) != tuple(wins):
        raise source.error(f"the rounds played give {wins[0]}-{wins[1]}, not "
                           f"{staged.wins.esteban}-{staged.wins.mapache}", (*loc, "wins"),
                           "correct `wins` or the cards played")
    if max(wins) >= WINS_NEEDED or not hands[0] or not hands[1]:
        raise source.error("the tournament is already over in this position "
                           f"({wins[0]}-{wins[1]}, or a side holds no card)", loc,
                           "stage the game after it instead (without `poker`)")
    face_down = -1
    if staged.face_down is not None:
        face_down = _poker_card(state, staged.face_down, DEFENDER, source, (*loc, "face_down"))
        if face_down not in hands[DEFENDER]:
            raise source.error("the guardians' face-down card must be one they hold",
                               (*loc, "face_down"), "add it to hands.esteban")
    state.game_data = Tournament((tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
                                 (aside[0], aside[1]), face_down, (wins[0], wins[1]),
                                 (tuple(played[0]), tuple(played[1])), -1)
    state.tasks.clear()
    state.pending_resume = None
    ids.in_play = {bf.id: bf.idx for layout in facts.layouts.values() for bf in layout.bfs}
    ids.in_play_note = " in either battlefield set"

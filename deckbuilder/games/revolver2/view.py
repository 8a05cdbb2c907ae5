"""Revolver 2's own pieces of a view (the poker tournament as a viewer sees it, the battlefield
sets it still chooses between), as the table asks for them through the rules
(`Revolver2Rules.observe`, `row_choices`, `pieces_lines`, `board_pieces`): no face imports
this game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from deckbuilder.engine.game_rules import RowChoice
from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.games.revolver2.facts import LAYOUT_OF_WINNER
from deckbuilder.games.revolver2.poker import Tournament, in_progress, round_told


def pieces(state: State, viewer: int | None) -> dict[str, object]:
    """The tournament as `viewer` sees it: his own cards, the cards played, each round's
    winner and why (`poker_rounds`), the score; of the opponent's only how many cards he
    holds and whether the guardians have chosen (None sees the guardians' side)."""
    tournament = state.game_data
    if not isinstance(tournament, Tournament):
        return {}
    poker = state.spec.facts.poker
    seat = viewer if viewer is not None and viewer >= 0 else DEFENDER
    sees_face_down = viewer is None or viewer == DEFENDER
    rounds = [[poker[first].id, poker[second].id, *round_told(state, first, second)]
              for first, second in zip(*tournament.played, strict=False)]
    return {
        "poker_hand": (tuple(poker[c].id for c in tournament.hands[seat])
                       if viewer is None or viewer >= 0 else ()),
        "poker_opponent_cards": len(tournament.hands[1 - seat]),
        "poker_played": tuple(tuple(poker[c].id for c in side) for side in tournament.played),
        "poker_rounds": tuple(tuple(each) for each in rounds),
        "poker_wins": tournament.wins,
        "poker_face_down": (poker[tournament.face_down].id if sees_face_down
                            and tournament.face_down >= 0 else
                            ("chosen" if tournament.face_down >= 0 else None)),
        "poker_winner": tournament.winner,
    }


def row_choices(state: State) -> tuple[RowChoice, ...]:
    """While the tournament is played: the two battlefield sets its winner brings in (the
    guardians' win Crystal River, Mapache's Buffalo Falls)."""
    if not in_progress(state):
        return ()
    layouts = state.spec.facts.layouts
    fixed = set.intersection(*({bf.id for bf in spec.bfs} for spec in layouts.values()))
    choices = []
    for side, layout in enumerate(LAYOUT_OF_WINNER):
        chosen = [bf for bf in layouts[layout].bfs if bf.id not in fixed]
        choices.append(RowChoice(layout.replace("-", " ").title(), side,
                                 tuple(bf.name for bf in chosen), tuple(bf.id for bf in chosen)))
    return tuple(choices)


def check_pieces(pieces: Mapping[str, object]) -> None:
    """The poker tournament's pieces as `pieces_lines` reads them, or a ValueError."""
    if "poker_wins" not in pieces:
        return
    wins, winner = pieces["poker_wins"], pieces.get("poker_winner", -1)
    played = pieces.get("poker_played", [[], []])
    if not (isinstance(wins, list) and len(wins) == 2
            and all(type(count) is int for count in wins)):
        raise ValueError("poker_wins is not two numbers")
    if winner is not None and winner not in (-1, 0, 1):
        raise ValueError("poker_winner is not a side")
    if not (isinstance(played, list) and len(played) == 2
            and all(isinstance(cards, list) for cards in played)):
        raise ValueError("poker_played is not two lists")


def pieces_lines(view: dict[str, Any], pieces: dict[str, Any], named: Callable[[Any], str]
                 ) -> tuple[list[str], dict[str, object]]:
    """The tournament in text while it is played (then only who won it), and the `pieces`
    left for the table's line."""
    own = view["game_pieces"]
    if "poker_wins" not in own:
        return [], pieces
    names = view["players"]
    wins, winner = own["poker_wins"], own.get("poker_winner", -1)
    score = f"{names[0]} {wins[0]}, {names[1]} {wins[1]}"
    if winner is not None and winner >= 0:
        lines = [f"poker tournament: won by {names[winner]} ({score})"]
    else:
        played = own.get("poker_played", [[], []])
        lines = [f"poker tournament: rounds won {score}; played: "
                 + "; ".join(f"{names[p]} {named(played[p])}" for p in (0, 1))]
        whose = f"{view['player']}'s" if view.get("everything") else "your"
        lines += [f"{whose} poker cards: {named(pieces.get('poker_hand', []))}; "
                  f"{names[1 - names.index(view['player'])]} holds "
                  f"{own.get('poker_opponent_cards', 0)}"
                  + ("; the guardians' card lies face down"
                     if own.get("poker_face_down") == "chosen" else "")
                  ] if view["player"] else []
    return lines, {key: value for key, value in pieces.items() if not key.startswith("poker_")}


def board_pieces(view: dict[str, Any], card: Callable[[str], dict[str, str]]
                 ) -> dict[str, object] | None:
    """The tournament for the web board, or None before a view has one: the rounds (who won
    each and why, as the game says) with each card as `card` gives it."""
    pieces = view.get("game_pieces") or {}
    if "poker_wins" not in pieces:
        return None
    players = view["players"]
    wins = list(pieces.get("poker_wins") or [0, 0])
    rounds = [{"number": number, "reason": reason, "winner": winner,
               "cards": [card(first), card(second)],
               "result": (f"{players[winner]} wins the round" if winner is not None
                          else "nobody wins the round")}
              for number, (first, second, winner, reason)
              in enumerate(pieces.get("poker_rounds") or (), 1)]
    winner = pieces.get("poker_winner", -1)
    me = view["player"] or players[0]
    face_down = pieces.get("poker_face_down")
    return {
        "hand": [card(each) for each in pieces.get("poker_hand") or ()],
        "opponent": players[1 - players.index(me)],
        "opponent_cards": pieces.get("poker_opponent_cards", 0),
        "face_down": card(face_down) if face_down and face_down != "chosen" else face_down,
        "rounds": rounds,
        "score": {players[0]: wins[0], players[1]: wins[1]},
        "winner": players[winner] if winner is not None and winner >= 0 else None,
    }

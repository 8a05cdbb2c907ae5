"""Revolver 2's own pieces of a view, as the table's `observe` asks for them through the rules
(`Revolver2Rules.observe`, `row_choices`, `card_symbols`): every face reads them from the
view, none imports this game.

The poker tournament as a viewer sees it (his own cards, each round's cards with who won it
and why, the score); the battlefield sets the tournament still chooses between; the powder
kegs and ammunition a card in hand shows.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.engine.game_rules import RowChoice
from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.games.revolver2.facts import LAYOUT_OF_WINNER
from deckbuilder.games.revolver2.poker import Tournament, in_progress, round_told


def pieces(state: State, viewer: int | None) -> dict[str, object]:
    """The tournament as `viewer` sees it: a seat his own cards, the cards played, each
    round's winner and why (`poker_rounds`: first card, second card, winner, reason), the
    score; of the opponent's only how many cards he holds, and whether the guardians have
    chosen. A spectator holds no cards; everything (None) sees the guardians' side."""
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


def card_symbols(card: Any) -> dict[str, int]:
    """The powder kegs and ammunition a card shows (the bridge, the mine, the Gatling Gun)."""
    return {symbol: getattr(card, symbol) for symbol in ("kegs", "ammunition")
            if getattr(card, symbol, 0)}


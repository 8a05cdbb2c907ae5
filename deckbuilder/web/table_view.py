"""The game table in a player's words: what `play_board.html` draws beside the session's view.

`GameSession.view` (sim/records/session_view.py) says what a seat may see; this module adds what a
person needs to read it like the real table, from the catalog alone:

- each card's one-line summary (cost, firepower, poker value ...), the face on hover being
  faces.js's;
- the characters as the table shows them: in play, face down in the pile (a count: which one
  comes next is hidden), and dead, struck through;
- the battlefield row as the view has it: before Revolver 2's poker tournament has chosen
  it, the fixed battlefields and the two sets the tournament chooses between;
- the poker tournament: the person's cards by value and effect, and after each round what
  each side showed and why the round went as it did (the game's own words, from the view);
- the ending in words.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.card_face import one_line
from deckbuilder.catalog import Catalog
from deckbuilder.sim.records.session_view import pieces_lines
from deckbuilder.web.pages import fragment

UNCONFIRMED_NOTE = "values as the data states them; ? marks a value no document states"


def summary_of(catalog: Catalog, record_id: str) -> str:
    """What a card name's summary says after the name (`cost 1 discard, firepower 2`)."""
    entry = catalog.entries.get(record_id) if record_id else None
    if entry is None:
        return ""
    line = one_line(entry)
    _, separator, rest = line.partition(" - ")
    return rest if separator else ""


def name_of(catalog: Catalog, record_id: str) -> str:
    entry = catalog.entries.get(record_id)
    return entry.name if entry is not None else record_id.replace("-", " ")


def characters_of(view: dict[str, Any]) -> dict[str, Any]:
    """In play, in the pile (the view names who: the order is hidden), dead, as the view
    tells them apart."""
    characters = view["characters"]
    listed = characters["list"]
    in_pile, dead = set(characters.get("in_pile") or ()), set(characters.get("dead") or ())
    return {"word": characters["name"], "pile": characters.get("pile"),
            "in_play": [character for character in listed if character["alive"]],
            "in_pile": [character for character in listed if character["id"] in in_pile],
            "dead": [character for character in listed if character["id"] in dead]}


def board_fragment(view: dict[str, Any], catalog: Catalog, watching: bool, outcome: str) -> str:
    """The board (play_board.html) for a view, as the tables and the replay viewer draw it:
    every card name a face trigger, every name escaped."""
    return fragment("play_board.html", view=view, watching=watching,
                    pieces=pieces_lines({**view, "game_pieces": {  # the page draws the poker
                        key: value for key, value in (view.get("game_pieces") or {}).items()
                        if not key.startswith("poker_")}}), characters=characters_of(view),
                    poker=poker_of(view, catalog), outcome=outcome,
                    summary=lambda record_id: summary_of(catalog, record_id),
                    name_of=lambda record_id: name_of(catalog, record_id))


def _poker_card(catalog: Catalog, card_id: str) -> dict[str, Any]:
    return {"id": card_id, "name": name_of(catalog, card_id),
            "summary": summary_of(catalog, card_id)}


def poker_of(view: dict[str, Any], catalog: Catalog) -> dict[str, Any] | None:
    """The poker tournament for the page, or None for a game without one: the view's
    rounds (who won each and why, as the game says) with the cards' names and summaries."""
    pieces = view.get("game_pieces") or {}
    if "poker_wins" not in pieces:
        return None
    players = view["players"]
    wins = list(pieces.get("poker_wins") or [0, 0])
    rounds = [{"number": number, "reason": reason, "winner": winner,
               "cards": [_poker_card(catalog, first), _poker_card(catalog, second)],
               "result": (f"{players[winner]} wins the round" if winner is not None
                          else "nobody wins the round")}
              for number, (first, second, winner, reason)
              in enumerate(pieces.get("poker_rounds") or (), 1)]
    winner = pieces.get("poker_winner", -1)
    me = view["player"] or players[0]
    face_down = pieces.get("poker_face_down")
    return {
        "hand": [_poker_card(catalog, card) for card in pieces.get("poker_hand") or ()],
        "opponent": players[1 - players.index(me)],
        "opponent_cards": pieces.get("poker_opponent_cards", 0),
        "face_down": (_poker_card(catalog, face_down)
                      if face_down and face_down != "chosen" else face_down),
        "rounds": rounds,
        "score": {players[0]: wins[0], players[1]: wins[1]},
        "winner": players[winner] if winner is not None and winner >= 0 else None,
        "note": UNCONFIRMED_NOTE,
    }

"""The game table in a player's words: what `play_board.html` draws beside the session's
view, from the catalog alone (card summaries, characters, the game's own panel pieces).
"""

from __future__ import annotations

from typing import Any

from deckbuilder.app.table_words import card_summary
from deckbuilder.card_face.text import PLAYER_MARK
from deckbuilder.catalog import Catalog
from deckbuilder.games import game_of_view
from deckbuilder.sim.records.session import Choice
from deckbuilder.sim.records.session_view import pieces_lines
from deckbuilder.web.pages import fragment

UNCONFIRMED_NOTE = "values as the data states them; ? marks a value no document states"


def summary_of(catalog: Catalog, record_id: str) -> str:
    """What a card name's summary says after the name (`cost 1 discard, firepower 2`), a
    player's confirmation marked as a page can write it."""
    return card_summary(catalog, record_id, PLAYER_MARK)


def choice_row(choice: Choice, catalog: Catalog) -> dict[str, object]:
    """A legal action as both tables' buttons show it: the session's `Choice`, the id of the
    card it names ("" for none; the button shows its face, static/faces.js) and what that
    card costs and fires, as the terminal's `play --human` says it."""
    card = choice.record if choice.record in catalog.entries else ""
    return {**choice.to_dict(), "record": card, "summary": summary_of(catalog, card)}


def name_of(catalog: Catalog, record_id: str) -> str:
    entry = catalog.entries.get(record_id)
    return entry.name if entry is not None else record_id.replace("-", " ")


def characters_of(view: dict[str, Any]) -> dict[str, object]:
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
    """The board (play_board.html) for a view, as the tables and the replay viewer draw it;
    the game's own panel pieces (`board_pieces`) are not repeated in the table's line."""
    game = game_of_view(view)
    panel = None if game is None else game.rules.board_pieces(view, lambda card_id: {
        "id": card_id, "name": name_of(catalog, card_id),
        "summary": summary_of(catalog, card_id)})
    if panel is not None:
        panel["note"] = UNCONFIRMED_NOTE
    return fragment("play_board.html", view=view, watching=watching,
                    pieces=pieces_lines(view, game_lines=False), characters=characters_of(view),
                    game_panel=panel, outcome=outcome,
                    game_panel_template=None if game is None else f"{game.name}/board_panel.html",
                    summary=lambda record_id: summary_of(catalog, record_id),
                    name_of=lambda record_id: name_of(catalog, record_id))

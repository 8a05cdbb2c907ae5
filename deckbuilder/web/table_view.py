"""The game table in a player's words: what `play_board.html` draws beside the session's view.

`GameSession.view` (sim/session_view.py) says what a seat may see; this module adds what a
person needs to read it like the real table, from the catalog alone:

- each card's one-line summary (cost, firepower, poker value ...), the face on hover being
  faces.js's;
- the characters as the table shows them: in play, face down in the pile (a count: which one
  comes next is hidden), and dead, struck through;
- the battlefield row as it is: before Revolver 2's poker tournament has chosen it, the fixed
  battlefields and the two sets the tournament chooses between, not a provisional row;
- the poker tournament: the person's cards by value and effect, and after each round what
  each side showed and why the round went as it did (the values as the data states them, a
  `?` where no document does);
- the ending in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckbuilder.app.endings import outcome_sentence
from deckbuilder.card_face import one_line
from deckbuilder.games.revolver2.poker import round_reason

#: Revolver 2's battlefield sets, by who brings them in (games/revolver2/facts.py).
_LAYOUT_OWNERS = {"crystal-river": 0, "buffalo-falls": 1}
UNCONFIRMED_NOTE = "values as the data states them; ? marks a value no document states"


def summary_of(catalog: Any, record_id: str) -> str:
    """What a card name's summary says after the name (`cost 1 discard, firepower 2`)."""
    entry = catalog.entries.get(record_id) if record_id else None
    if entry is None:
        return ""
    line = one_line(entry)
    _, separator, rest = line.partition(" - ")
    return rest if separator else ""


def name_of(catalog: Any, record_id: str) -> str:
    entry = catalog.entries.get(record_id)
    return entry.name if entry is not None else record_id.replace("-", " ")


@dataclass
class Characters:
    """The characters as the table shows them (see `characters_of`)."""

    word: str
    in_play: list[dict[str, Any]] = field(default_factory=list)
    in_pile: list[dict[str, Any]] = field(default_factory=list)
    pile: int | None = None
    dead: list[dict[str, Any]] = field(default_factory=list)


def characters_of(view: dict[str, Any]) -> Characters:
    """In play, in the pile, dead. A character face down in the pile is not dead: the view
    names the pile's members (`in_pile`), or, when it does not, every character out of play
    is counted in the pile while the pile holds them all."""
    characters = view["characters"]
    listed = characters["list"]
    pile = characters.get("pile")
    in_pile_ids = set(characters.get("in_pile") or ())
    out = [character for character in listed if not character["alive"]]
    if not in_pile_ids and pile and pile >= len(out):
        in_pile_ids = {character["id"] for character in out}
    return Characters(
        word=characters["name"],
        in_play=[character for character in listed if character["alive"]],
        in_pile=[character for character in out if character["id"] in in_pile_ids],
        pile=pile,
        dead=[character for character in out if character["id"] not in in_pile_ids],
    )


def row_of(view: dict[str, Any], catalog: Any) -> dict[str, Any]:
    """The battlefield row as it is: all of it once known; before Revolver 2's poker
    tournament has chosen it, the fixed battlefields and the sets it chooses between."""
    fields = view["battlefields"]
    if view.get("row_known", True):
        return {"known": True, "battlefields": fields, "choices": []}

    def group(battlefield_id: str) -> str:
        entry = catalog.entries.get(battlefield_id)
        return str(getattr(entry.record, "group", "fixed")) if entry is not None else "fixed"

    choosable: dict[str, list[str]] = {}
    for entry in catalog.entries.values():
        if entry.kind == "battlefield" and entry.game == view["game"]:
            kind = str(entry.record.group)
            if kind != "fixed":
                choosable.setdefault(kind, []).append(entry.record.name)
    if not choosable:  # nothing left to choose: the row is the row
        return {"known": True, "battlefields": fields, "choices": []}
    players = view["players"]
    choices = [{"name": kind.replace("-", " ").title(), "battlefields": names,
                "side": players[_LAYOUT_OWNERS[kind]] if kind in _LAYOUT_OWNERS else ""}
               for kind, names in choosable.items()]
    return {"known": False, "battlefields": [f for f in fields if group(f["id"]) == "fixed"],
            "choices": choices}


def _poker_card(catalog: Any, card_id: str) -> dict[str, Any]:
    entry = catalog.entries.get(card_id)
    poker = getattr(entry.record, "poker", None) if entry is not None else None
    return {"id": card_id, "name": name_of(catalog, card_id),
            "summary": summary_of(catalog, card_id), "poker": poker}


def _round_reason(first: dict[str, Any], second: dict[str, Any], players: list[str]
                  ) -> tuple[int | None, str]:
    """Who wins a round of the guardians' card `first` against the other side's `second`,
    and why, by the engine's own rule (games/revolver2/poker.decide_round) on the cards' data;
    None: a tie, which the `poker-tie` switch settles."""
    a, b = first["poker"], second["poker"]
    if a is None or b is None:
        return None, "the data gives no poker value for these cards"
    return round_reason(a, b, players)


def poker_of(view: dict[str, Any], catalog: Any) -> dict[str, Any] | None:
    """The poker tournament for the page, or None for a game without one."""
    pieces = view.get("game_pieces") or {}
    if "poker_wins" not in pieces:
        return None
    players = view["players"]
    played = pieces.get("poker_played") or [[], []]
    wins = list(pieces.get("poker_wins") or [0, 0])
    rounds: list[dict[str, Any]] = []
    for number, (first_id, second_id) in enumerate(zip(played[0], played[1], strict=False), 1):
        first, second = _poker_card(catalog, first_id), _poker_card(catalog, second_id)
        winner, reason = _round_reason(first, second, players)
        rounds.append({"number": number, "cards": [first, second], "winner": winner,
                       "reason": reason})
    decided = [0, 0]
    for each in rounds:
        if each["winner"] is not None:
            decided[each["winner"]] += 1
    ties_to_guardians = wins[0] > decided[0]
    for each in rounds:
        if each["winner"] is None:
            if ties_to_guardians:
                each["winner"] = 0
                each["reason"] += f" goes to {players[0]} (the poker-tie rule)"
            else:
                each["reason"] += ", replayed (the poker-tie rule)"
        won = each["winner"]
        each["result"] = (f"{players[won]} wins the round" if won is not None
                          else "nobody wins the round")
    winner = pieces.get("poker_winner", -1)
    me = view["player"]
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


def without_poker(view: dict[str, Any]) -> dict[str, Any]:
    """The view with the poker pieces taken out (the page draws them itself)."""
    pieces = {key: value for key, value in (view.get("game_pieces") or {}).items()
              if not key.startswith("poker_")}
    return {**view, "game_pieces": pieces}


def outcome_of(view: dict[str, Any], turns: int | None = None) -> str:
    """The ending in words, "" while the game goes on."""
    outcome = view.get("outcome")
    if not outcome:
        return ""
    return outcome_sentence(outcome.get("winner"), outcome.get("termination"), turns)

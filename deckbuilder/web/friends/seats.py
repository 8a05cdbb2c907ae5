"""What each link of a friend table is shown, from the one place (`_viewer`) a table names whose
eyes the game answers for: `GameSession.view` and `events` keep the other side's hand, the deck
order and face-down cards out; a spectator sees what both seats see alike.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.log_lines import SPECTATOR as SPECTATOR_VIEW
from deckbuilder.sim.records.session import Event, GameSession
from deckbuilder.web.faces import linked_lines
from deckbuilder.web.friends.tables import SPECTATOR, FriendTable, ended_record
from deckbuilder.web.pages import fragment
from deckbuilder.web.table_view import board_fragment, choice_row

#: What a hidden card is called in the spectator's picture of a hand.
FACE_DOWN = "face-down card"


def _viewer(role: str) -> int | str:
    return SPECTATOR_VIEW if role == SPECTATOR else role


def seat_view(session: GameSession, role: str) -> dict[str, object]:
    """The position as `role` may see it (a spectator: the hands as counts in `hand_sizes`):
    the friend table's one view, which tests/test_one_view.py holds to the other faces'."""
    return dict(session.view(_viewer(role)))


def board_picture(view: dict[str, Any]) -> dict[str, object]:
    """The view as the board draws it: for a spectator, both hands as face-down cards."""
    if view["player"] is not None:
        return view
    names = view["players"]
    sizes = view["hand_sizes"]
    return {**view, "player": names[0], "opponent_hand": sizes[names[1]],
            "hand": [{"id": "", "name": FACE_DOWN}] * int(sizes[names[0]])}


def outcome_of(table: FriendTable) -> str:
    """The end in words ("" while the game goes on), as `deckbuilder replay` words it; a
    table abandoned for another reason than both seats leaving says why."""
    from deckbuilder.app.endings import outcome_sentence

    record = ended_record(table)
    if record is None or table.ended is None:
        return ""
    why = table.ended.get("why") if record.termination == "abandoned" else None
    if why:
        return f"the table ended: {why}"
    return outcome_sentence(record.winner, record.termination, record.turns)


def seat_state(table: FriendTable, role: str, since: int, now: float, api_path: str,
               html: bool, catalog: Catalog) -> dict[str, Any]:
    """The table from `role`'s eyes, with the log from event `since` on; `api_path`: the
    link's API address."""
    session = table.session
    view = seat_view(session, role)
    count = session.event_count()
    since = max(0, min(since, count))
    new_events = session.events(_viewer(role), since)
    over = table.ended is not None
    mover = session.to_move()
    to_move = None if mover is None or over else str(session.names[mover])
    mine = to_move is not None and to_move == role
    state: dict[str, object] = {
        "table": table.id,
        "role": role,
        "seat": None if role == SPECTATOR else role,
        "game": session.game,
        "players": list(session.names),
        "heading": table.header.get("heading", ""),
        "step": table.step,
        "to_move": to_move,
        "your_turn": mine,
        "decision": session.decision() if not over else "",
        "choices": [choice_row(choice, catalog) for choice in session.choices()] if mine else [],
        "view": view,
        "log": [event.to_dict() for event in new_events],
        "log_start": since,
        "log_next": count,
        "seats": {side: {"joined": side in table.joined,
                         "present": table.present(side, now)} for side in table.sides},
        "over": over,
        "ended": table.ended,
        "outcome": outcome_of(table) or None,
        "record": f"{api_path}/record.jsonl" if over else None,
        "commitment": (table.deal or {}).get("commitment"),
        "notices": list(table.notices),
        "version": table.version,
    }
    if over:  # the deal can be checked now: the seed and the salt of its commitment
        state.update(table.revealed())
    if html:
        state["html"] = _html(table, role, state, view, new_events, catalog)
    return state


def _html(table: FriendTable, role: str, state: dict[str, Any], view: dict[str, Any],
          events: list[Event], catalog: Catalog) -> dict[str, object]:
    """The board, the actions and the new log lines, drawn as the bot table draws them."""
    per_event = [event.text_lines() for event in events]
    lines = [line for own in per_event for line in own]
    groups: dict[str, list[dict[str, object]]] = {}
    for choice in state["choices"]:
        groups.setdefault(choice["group"], []).append(choice)
    actions = fragment("friend_actions.html", groups=groups, state=state, role=role,
                       spectator=role == SPECTATOR, game=table.session.game)
    segments = linked_lines(catalog, table.session.game, lines)
    cut = iter(segments)  # the same lines, event by event (the page skips what it has)
    by_event = [{"lines": own, "segments": [next(cut) for _ in own]} for own in per_event]
    # the table's own ending (a resignation, both seats away), which the session never saw
    outcome = str(state["outcome"] or "")
    board = board_fragment(board_picture(view), catalog, role == SPECTATOR, outcome)
    return {"board": board, "actions": actions,
            "log_lines": lines, "log_segments": segments, "log_events": by_event}

"""Take back a move against a bot: nothing is undone inside the engine; a new session is set
up from the record and the person's earlier answers given again, and the bots, drawing from
the same seeded streams, make the same moves. Refused between two people (it would undo the
other's moves too) and when a bot does not play the same way again (a time limit).
"""

from __future__ import annotations

from deckbuilder.catalog import Catalog
from deckbuilder.sim.records.session import GameSession, SessionError


class TakeBackError(SessionError):
    """A take-back the game refuses (two people, nothing to take back, a bot that varies)."""


def last_decision(session: GameSession) -> int | None:
    humans = {session.names[player] for player in session.humans}
    return next((step.index for step in reversed(session.record.steps)
                 if step.player in humans), None)


def can_take_back(session: GameSession) -> bool:
    return len(session.humans) == 1 and last_decision(session) is not None


def take_back(session: GameSession, catalog: Catalog | None = None) -> str:
    """Play `session` again in place without the person's last decision; that decision."""
    if len(session.humans) != 1:
        raise TakeBackError(
            "a move is taken back only in a game against a bot"
            + (", not between two people" if len(session.humans) == 2 else ""),
            fix="play on")
    index = last_decision(session)
    if index is None:
        raise TakeBackError("there is no decision of yours to take back yet",
                            fix="choose one of the actions")
    record = session.record
    taken = record.steps[index]
    kept = record.steps[:index]
    rebuilt = GameSession.of_record(record, catalog, [seat.spec for seat in session.seats],
                                    session.viewer)
    person = session.humans[0]
    try:
        rebuilt.advance()
        for step in kept:
            if step.player == session.names[person] and step.index == len(rebuilt.record.steps):
                rebuilt.act(step.action, person)
    except SessionError:
        pass  # the replayed game went another way: refused below
    replayed = [(step.player, step.action) for step in rebuilt.record.steps]
    if replayed != [(step.player, step.action) for step in kept] or \
            rebuilt.waiting_for() != person:
        raise TakeBackError("the bot does not make the same moves when the game is played "
                            "again (a bot with a time limit?), so this move cannot be taken "
                            "back", fix="play on")
    vars(session).clear()
    vars(session).update(vars(rebuilt))
    return f"{taken.player} {taken.text}"

"""Take back a move against a bot: the game played again without the person's last decision.

`deckbuilder play --human` (answer `u`) and the web table's "take back" button call
`take_back(session)`. Nothing is undone inside the engine: a new session is set up from the
record (seed, decks, ruleset, switches, modules, the same seats) and the person's earlier
answers are given again; the bots, drawing from the same seeded streams, make the same moves,
so the game stands where it stood when he took the decision he takes back, with the same
choices and the same hand. The record then holds only the moves kept.

It is refused in a game between two people (taking back would undo the other's moves too,
and he did not ask for it), and in a game whose bot does not play the same way again (a bot
with a time limit thinks as far as the machine's load lets it): the game is left as it was.
"""

from __future__ import annotations

from deckbuilder.catalog import Catalog
from deckbuilder.sim.records.session import GameSession, SessionError


class TakeBackError(SessionError):
    """A take-back the game refuses (two people, nothing to take back, a bot that varies)."""


def last_decision(session: GameSession) -> int | None:
    """The index (in the record) of the last decision a person took; None if none yet."""
    humans = {session.names[player] for player in session.humans}
    return next((step.index for step in reversed(session.record.steps)
                 if step.player in humans), None)


def can_take_back(session: GameSession) -> bool:
    """Whether `take_back` has something to take back here (one person, a decision taken)."""
    return len(session.humans) == 1 and last_decision(session) is not None


def take_back(session: GameSession, catalog: Catalog | None = None) -> str:
    """Play the game again without the person's last decision and the bots' moves after it;
    `session` becomes that game (in place, so every holder of it sees it). The decision taken
    back, as the record has it. `catalog`: the one the game was set up from (None: the
    packaged and installed sets, as `new_game` reads them)."""
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

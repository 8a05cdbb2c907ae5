"""A recorded game as positions to step through, for the replay viewers (web and `replay
--watch`): the record is played again into a session whose two seats are people, so a viewer
shows exactly what the live `GameSession` showed at that step.

Position k is the game after its first k actions (0: the set-up). A long game has thousands,
so the state is cloned every `CHECKPOINT_EVERY` steps and a position rebuilt from the nearest
one before it, the few looked at last kept (`RECENT_POSITIONS`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import asdict, dataclass

from pydantic import JsonValue

from deckbuilder.catalog import Catalog
from deckbuilder.engine.state import State
from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.records.session import Event, GameSession
from deckbuilder.sim.records.session_view import position_view
from deckbuilder.sim.records.transcript import (
    GameRecord,
    RecordError,
    Step,
    play_back,
    record_errors_at,
    record_line,
)

#: A clone of the state is kept every this many steps.
CHECKPOINT_EVERY = 32
#: Positions rebuilt lately, kept for the next request (stepping back and forth).
RECENT_POSITIONS = 8
#: The viewer who sees everything (both hands, cards face down): `view(k, EVERYTHING)`.
EVERYTHING = None
#: What the viewers call the view with every card open.
EVERYTHING_NAME = "everything"


@dataclass(frozen=True)
class ReplayPosition:
    """One step as every replay viewer gives it (`done`: how it was reached, as seen)."""

    step: int
    last: int
    turn: int
    viewer: str
    view: dict[str, JsonValue]
    done: dict[str, JsonValue] | None

    def to_json(self) -> dict[str, JsonValue]:
        return asdict(self)


class ReplaySteps:
    """A finished game's positions and logs, step by step; a `RecordError` naming the line
    where the record and the game part (a rules change since, or an edited file)."""

    def __init__(self, record: GameRecord, catalog: Catalog | None = None) -> None:
        self.record = record
        with record_errors_at(record.source):  # both seats people: no bot thinks
            self.session = GameSession.of_record(record, catalog)
        self.names: tuple[str, str] = self.session.names
        self.game: str = self.session.game
        state = self.session.state
        self._checkpoints: dict[int, State] = {0: _quiet_copy(state)}
        #: the turn at each position (0 .. len(steps))
        self.turns: list[int] = [int(state.turn)]
        result = play_back(record, lambda: self.session.state, self._play)
        if result.mismatch is not None:
            raise RecordError(result.mismatch, record_line(record, result.step or 0),
                              "replay it with the version that recorded it "
                              f"({record.version or 'unknown'})")
        self._recent: OrderedDict[int, State] = OrderedDict()
        self._logs: dict[int | None, list[Event]] = {}

    def _play(self, step: Step) -> None:
        self.session.act(step.action, step.player)
        state = self.session.state
        if len(self.turns) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.turns)] = _quiet_copy(state)
        self.turns.append(int(state.turn))

    @property
    def last(self) -> int:
        return len(self.record.steps)

    def checked(self, position: int) -> int:
        if type(position) is not int or not 0 <= position <= self.last:
            raise ReplayStepError(f"no step {position!r} in this game",
                                  fix=f"a step from 0 to {self.last}")
        return position

    def state(self, position: int) -> State:
        """The engine's state at `position` (read it; do not keep it)."""
        position = self.checked(position)
        if position == self.last:
            return self.session.state
        cached = self._recent.get(position)
        if cached is not None:
            self._recent.move_to_end(position)
            return cached
        start = max(k for k in (*self._checkpoints, *self._recent) if k <= position)
        source = self._recent[start] if start in self._recent else self._checkpoints[start]
        state = source.clone()
        state.verbose = False
        for step in self.record.steps[start:position]:
            state.apply(step.action)
        self._recent[position] = state
        while len(self._recent) > RECENT_POSITIONS:
            self._recent.popitem(last=False)
        return state

    def view(self, position: int, viewer: int | None) -> dict[str, JsonValue]:
        """What `viewer` (0, 1; EVERYTHING: None) saw at `position`, as `GameSession.view`."""
        state = self.state(position)
        return position_view(state, None if viewer is None else self.session.player_index(viewer))

    def at(self, position: int, viewer: int | None) -> ReplayPosition:
        position = self.checked(position)
        done = next((event for event in self.log(viewer) if event.index == position - 1),
                    None) if position else None
        return ReplayPosition(
            position, self.last, self.turns[position],
            EVERYTHING_NAME if viewer is None else self.names[viewer], self.view(position, viewer),
            None if done is None else {"index": done.index, "player": done.player,
                                       "action": done.action})

    def viewer_named(self, text: str | None) -> int | None:
        """A side's name (or 0/1) or "everything"; by default the only person at the table."""
        names = self.names
        if text is None or not text.strip():
            people = [p for p in (0, 1) if self.record.bots.get(names[p]) == "human"]
            return people[0] if len(people) == 1 else EVERYTHING
        chosen = text.strip().lower()
        if chosen == EVERYTHING_NAME:
            return EVERYTHING
        if chosen in names:
            return names.index(chosen)
        if chosen in ("0", "1"):
            return int(chosen)
        raise ReplayStepError(f"no viewer '{text[:40]}' in this game",
                              fix=f"one of: {', '.join(names)}, {EVERYTHING_NAME}")

    def log(self, viewer: int | None) -> list[Event]:
        """Every event of the game as `viewer` may read it (`GameSession.events`)."""
        key = None if viewer is None else self.session.player_index(viewer)
        if key not in self._logs:
            self._logs[key] = self.session.events(key)
        return self._logs[key]

    def turn_numbers(self) -> list[int]:
        return sorted(set(self.turns))

    def position_of_turn(self, turn: int) -> int:
        """The first position of `turn` (or of the next turn there is; else the last)."""
        return next((k for k, seen in enumerate(self.turns) if seen >= turn), self.last)

    def mover(self, position: int) -> str | None:
        position = self.checked(position)
        return None if position == 0 else self.record.steps[position - 1].player


class ReplayStepError(DeckbuilderError):
    """A step or turn that is not in the replayed game."""


def _quiet_copy(state: State) -> State:
    copy = state.clone()
    copy.verbose = False
    copy.log.clear()
    return copy

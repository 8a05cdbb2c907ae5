"""A game played step by step, in which any seat may be a person: `GameSession`, the one game
loop (`play --human`, the web table, `play_game` with every seat a bot, `replay_record`). It
stops at every decision a person must take (`advance`, then `act`). Bots draw from the same
seeded streams as `simulate`. What a person is shown keeps the opponent's secrets hidden; the
record is the whole game, for replaying once it is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from pydantic import JsonValue

from deckbuilder.bots import make_bot
from deckbuilder.catalog import Catalog
from deckbuilder.engine.actions import kind_name
from deckbuilder.engine.log_lines import SPECTATOR, visible_log
from deckbuilder.engine.position import render, snapshot
from deckbuilder.engine.state import State
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game, new_game
from deckbuilder.protocol import Bot
from deckbuilder.sim.records.choices import (
    action_card_id,
    action_group,
    choice_keys,
    in_kind_order,
)
from deckbuilder.sim.records.session_view import position_view, public_action_text
from deckbuilder.sim.records.transcript import (
    GameRecord,
    Narrator,
    ReplayResult,
    Step,
    TextNarrator,
    drain_log,
    game_outcome,
    new_record,
    outcome_text,
    play_back,
    record_errors_at,
)
from deckbuilder.sim.runs.seeds import bot_seed

#: The seat spec of a person (the rest are bot specs, as `make_bot` reads them).
HUMAN = "human"


class SessionError(DeckbuilderError):
    """A move the session refuses: out of turn, not legal now, or after the game is over."""


class OutOfTurnError(SessionError):
    """A human answered when a bot (or the other human) must decide."""


class IllegalChoiceError(SessionError):
    """An action that is not among the legal ones of the open decision."""


class GameOverError(SessionError):
    """An action after the game has ended."""


@dataclass(frozen=True)
class Choice:
    """One legal action of the open decision (`action`: the int to pass to `act`)."""

    action: int
    text: str
    group: str
    record: str = ""
    key: str = ""

    def to_dict(self) -> dict[str, JsonValue]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """What one viewer is told of step `index` (None: the set-up; `action` None: nothing)."""

    index: int | None
    player: str | None
    action: str | None
    lines: tuple[str, ...]
    turn: int

    def to_dict(self) -> dict[str, JsonValue]:
        return {**asdict(self), "lines": list(self.lines)}

    def text_lines(self) -> list[str]:
        """As `deckbuilder play` prints a game: the action, then its events indented."""
        out = []
        if self.action is not None and self.index is not None:
            out.append(f"{self.index:>5} {self.player or '':<8} {self.action}")
        out += [line if line.startswith("--") else f"{'':>6}{line}" for line in self.lines]
        return out


@dataclass(frozen=True)
class _Happened:
    """One step as it happened, with what the acting side's opponent may read of it."""

    index: int | None
    player: int | None
    text: str | None
    public_text: str | None
    lines: tuple[str, ...]
    turn: int


@dataclass
class _Seat:
    """A side's player: a bot with its own seeded stream, or a human (no bot)."""

    spec: str
    bot: Bot | None
    rng: random.Random = field(repr=False)


class GameSession:
    """One game, advanced step by step. `viewer`: whose eyes the events are redacted for (by
    default the only human seat); `narrate` is told every step as it happens, unredacted."""

    def __init__(self, decks: Sequence[Mapping[str, int]], seed: int, seats: Sequence[str],
                 ruleset: str | None = None, catalog: Catalog | None = None, game: str = "revolver",
                 max_turns: int = 200, switches: Mapping[str, str] | None = None,
                 modules: Sequence[str] = (), viewer: int | str | None = "auto",
                 narrate: Narrator | None = None,
                 orders: Sequence[Sequence[str] | None] = ()) -> None:
        if len(seats) != 2:
            raise SessionError(f"a game has two seats, not {len(seats)}",
                               fix="give one bot spec or 'human' per side")
        entry = get_game(game)
        self.game = game
        self.title = entry.title
        self.names: tuple[str, str] = entry.side_names
        chosen = dict(sorted((switches or {}).items()))
        self.state = new_game(decks, seed, ruleset=ruleset, catalog=catalog, game=game,
                              max_turns=max_turns, verbose=True, switches=chosen or None,
                              modules=tuple(sorted(modules)), orders=orders)
        self.seats = [  # each side's bot draws from the stream `simulate` gives that side
            _Seat(HUMAN, None, random.Random(bot_seed(seed, player)))
            if spec.strip().lower() == HUMAN else
            _Seat(spec, make_bot(spec, entry.heuristics), random.Random(bot_seed(seed, player)))
            for player, spec in enumerate(seats)]
        self.humans = tuple(p for p in (0, 1) if self.seats[p].bot is None)
        if viewer == "auto":
            self.viewer = self.humans[0] if len(self.humans) == 1 else None
        else:
            self.viewer = None if viewer is None else self.player_index(viewer)
        self.record = new_record(self.state, decks, seed,
                                 [HUMAN if seat.bot is None else seat.bot.name
                                  for seat in self.seats], max_turns, chosen, modules,
                                 catalog)
        self._history: list[_Happened] = []
        self._setup_shown = False
        self.narrate = narrate
        self._happened(None, None, None)  # the set-up's events (the opening hands)

    @classmethod
    def of_record(cls, record: GameRecord, catalog: Catalog | None = None,
                  seats: Sequence[str] = (HUMAN, HUMAN), viewer: int | str | None = None,
                  switches: Mapping[str, str] | None = None,
                  narrate: Narrator | None = None) -> GameSession:
        """A new session of `record`'s game, not played yet."""
        return cls([record.decks[side] for side in record.sides], record.seed, seats,
                   record.ruleset, catalog, game=record.game, max_turns=record.max_turns,
                   switches=record.switches if switches is None else switches,
                   modules=record.modules, viewer=viewer, narrate=narrate)

    def player_index(self, player: int | str) -> int:
        if isinstance(player, int) and not isinstance(player, bool) and player in (0, 1):
            return player
        if isinstance(player, str) and player.strip().lower() in self.names:
            return self.names.index(player.strip().lower())
        raise SessionError(f"no player '{player}' in {self.title}",
                           fix=f"one of: {', '.join(self.names)}")

    def is_over(self) -> bool:
        return bool(self.state.is_terminal())

    def to_move(self) -> int | None:
        """The player who must decide now, bot or human; None once the game is over."""
        return None if self.is_over() else int(self.state.current_player())

    def waiting_for(self) -> int | None:
        """The human who must decide now; None when the game is over or a bot is to move."""
        player = self.to_move()
        return player if player is not None and self.seats[player].bot is None else None

    def decision(self) -> str:
        """The open decision in words ("play phase", "pay: discard a card"); "" once over."""
        return "" if self.is_over() else kind_name(self.state.pending_kind, self.state.spec)

    def choices(self) -> list[Choice]:
        """The legal actions of the open decision, in the order every face lists them."""
        if self.is_over():
            return []
        state = self.state
        actions = state.legal_actions()
        groups = [action_group(state, action) for action in actions]
        order = in_kind_order(groups)
        cards = [action_card_id(state, actions[at]) for at in order]
        keys = choice_keys([(groups[at], card) for at, card in zip(order, cards, strict=True)])
        return [Choice(actions[at], state.action_to_string(actions[at]), groups[at], card or "",
                       key) for at, card, key in zip(order, cards, keys, strict=True)]

    def advance(self, max_steps: int | None = None) -> list[Event]:
        """Let the bots act until a human must decide (or `max_steps`); the events, for `viewer`."""
        start = len(self._history)
        taken = 0
        while not self.is_over() and (max_steps is None or taken < max_steps):
            player = int(self.state.current_player())
            seat = self.seats[player]
            if seat.bot is None:
                break
            state = self.state
            state.verbose = False  # bots choose on the quiet state: nothing is logged
            action = seat.bot.choose(state, seat.rng)
            state.verbose = True
            self._apply(player, action)
            taken += 1
        return self._pending_events(start)

    def act(self, action: int, player: int | str | None = None) -> list[Event]:
        """A human's answer (of `player`, when given), then the bots' moves; the events."""
        if self.is_over():
            raise GameOverError("the game is over: no more actions",
                                fix="start a new game")
        mover = int(self.state.current_player())
        if player is not None and self.player_index(player) != mover:
            raise OutOfTurnError(f"it is {self.names[mover]}'s decision, not "
                                 f"{self.names[self.player_index(player)]}'s")
        if self.seats[mover].bot is not None:
            raise OutOfTurnError(f"{self.names[mover]} is a bot and is to move",
                                 fix="call advance() to let the bots move")
        legal = self.state.legal_actions()
        if type(action) is not int or action not in legal:
            raise IllegalChoiceError(
                f"action {action!r} is not legal now ({self.decision()}); legal: "
                + ", ".join(str(a) for a in legal), fix="choose one of choices()")
        start = len(self._history)
        self._apply(mover, action)
        self.advance()
        return self._pending_events(start)

    def _apply(self, player: int, action: int) -> None:
        state = self.state
        kind = state.pending_kind
        text = state.action_to_string(action)
        state.apply(action)
        step = Step(len(self.record.steps), self.names[player], action, text)
        self.record.steps.append(step)
        self._happened(step, player, public_action_text(state.spec, kind, action, text))
        if state.is_terminal():
            self.record.winner, self.record.termination, self.record.turns = \
                game_outcome(state)

    def _happened(self, step: Step | None, player: int | None, public: str | None) -> None:
        lines = drain_log(self.state)  # the log is emptied: clones stay cheap
        if self.narrate is not None:
            self.narrate(step, lines, self.state)
        self._history.append(_Happened(None if step is None else step.index, player,
                                       None if step is None else step.text, public,
                                       tuple(lines), self.state.turn))

    def _pending_events(self, start: int) -> list[Event]:
        """The events from `start` on, plus the set-up's the first time anything is asked."""
        if not self._setup_shown:
            self._setup_shown = True
            start = 0
        return [self._event(happened, self.viewer) for happened in self._history[start:]]

    def _event(self, happened: _Happened, viewer: int | None) -> Event:
        player = None if happened.player is None else self.names[happened.player]
        text = happened.text
        if viewer is not None and happened.player is not None and happened.player != viewer:
            text = happened.public_text
        return Event(happened.index, player, text,
                     tuple(visible_log(happened.lines, viewer)), happened.turn)

    def events(self, viewer: int | str | None = None, start: int = 0) -> list[Event]:
        """Every event so far (from the `start`-th on) as `viewer` may read them (None:
        everything; `SPECTATOR`: as the acting side's opponent reads them, draws unnamed)."""
        who = (None if viewer is None else SPECTATOR if viewer == SPECTATOR
               else self.player_index(viewer))
        return [self._event(happened, who) for happened in self._history[max(0, start):]]

    def event_count(self) -> int:
        return len(self._history)

    def view(self, player: int | str | None) -> dict[str, JsonValue]:
        """What `player` (a seat, `SPECTATOR` or None: everything) may see, as JSON-ready data
        (`session_view.position_view`; a seat's fields: `app.table_answers.SeatView`)."""
        if player is None or player == SPECTATOR:
            return position_view(self.state, player)
        return position_view(self.state, self.player_index(player))

    def outcome_text(self) -> str:
        """"colty wins (...) after N turns" once over; where the game stands before."""
        if not self.is_over():
            return f"the game goes on (turn {self.state.turn})"
        return outcome_text(self.record)

    def record_jsonl(self) -> str:
        """The game as `play --record` writes it: secrets included, offer it once it is over."""
        return self.record.to_jsonl()


def play_game(decks: Sequence[Mapping[str, int]], seed: int, bots: Sequence[str],
              ruleset: str | None = None, catalog: Catalog | None = None, game: str = "revolver",
              max_turns: int = 200, narrate: Narrator | None = None,
              switches: Mapping[str, str] | None = None,
              modules: Sequence[str] = (),
              orders: Sequence[Sequence[str] | None] = ()) -> tuple[State, GameRecord]:
    """Play one game with bots (the streams `simulate` gives them), narrating as it goes."""
    for spec in bots:  # every seat a bot: "human" is refused as `make_bot` refuses it
        if spec.strip().lower() == HUMAN:
            make_bot(spec, get_game(game).heuristics)
    session = GameSession(decks, seed, bots, ruleset, catalog, game, max_turns, switches,
                          modules, viewer=None, narrate=narrate, orders=orders)
    session.advance()
    return session.state, session.record


def replay_record(record: GameRecord, catalog: Catalog | None = None,
                  narrate: Narrator | None = None,
                  switches: Mapping[str, str] | None = None) -> ReplayResult:
    """Apply the recorded actions to a new game; report the first step that differs.
    `switches` replaces the record's (would the game go the same under another reading?)."""
    with record_errors_at(record.source):
        session = GameSession.of_record(record, catalog, switches=switches, narrate=narrate)
    return play_back(record, lambda: session.state, lambda step: session.act(step.action))


def golden_text(decks: Sequence[Mapping[str, int]], seed: int, bots: Sequence[str],
                ruleset: str = "rulebook-en", catalog: Catalog | None = None,
                max_turns: int = 200) -> str:
    """A seeded game as text: the setup, every action with its events, the final position."""
    lines = [f"# golden transcript: seed {seed}, bots {' vs '.join(bots)}, ruleset {ruleset}"]
    state, record = play_game(decks, seed, bots, ruleset, catalog, max_turns=max_turns,
                              narrate=TextNarrator(lines.append))
    lines.append(f"# {outcome_text(record)}, {len(record.steps)} actions")
    lines.append("# final position")
    lines.extend(render(snapshot(state)))
    return "\n".join(lines) + "\n"

"""One game written down: the readable account, JSON-lines records (docs/reference/formats.md,
"Game records"), and `play_back`, the one walk of a replay, which stops at the first step
whose text, player or legality differs, so a rules change that alters a recorded game is
caught at the exact step.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn, TypeGuard, TypeVar

from deckbuilder.catalog import Catalog
from deckbuilder.engine.position import player_names
from deckbuilder.engine.state import State
from deckbuilder.errors import DataFileError, DeckbuilderError, Location
from deckbuilder.games import get_game
from deckbuilder.models.decks import MAX_DECK_ENTRIES
from deckbuilder.reading import read_bounded
from deckbuilder.version import __version__
from deckbuilder.yamlio import MAX_DIGITS

RECORD_KIND = "deckbuilder-game"
#: 2: card actions are numbered among the decks' own cards, so a record no longer depends on
#: what else is installed (format 1 records numbered them across the whole catalog).
RECORD_FORMAT = 2

#: How a table ends a game the engine did not end: a seat resigned, or both seats left (the
#: record's termination, the game not over; it is judged as that ending, not a mismatch).
TABLE_ENDINGS = ("resigned", "abandoned")


class RecordError(DataFileError):
    """A game record that cannot be read (not JSON lines, or not the expected shape)."""


@dataclass(frozen=True)
class Step:
    index: int
    player: str
    action: int
    text: str


@dataclass
class GameRecord:
    """A played game: enough to replay it (decks, seed, ruleset) and every action taken."""

    decks: dict[str, dict[str, int]]
    seed: int
    ruleset: str
    bots: dict[str, str]
    game: str = "revolver"
    max_turns: int = 200
    version: str = ""
    steps: list[Step] = field(default_factory=list)
    winner: str | None = None
    termination: str | None = None
    turns: int = 0
    #: single rule switches chosen over the ruleset (switch id -> variant), sorted by id
    switches: dict[str, str] = field(default_factory=dict)
    #: the modules in use (sorted ids); the header names them only when there are some
    modules: list[str] = field(default_factory=list)
    #: the card data played with (`data_packs.exchange.data_hash`); None in older records
    data: dict[str, object] | None = None
    #: a friend table's commitment to its seed (`sim.records.seed_commitment`)
    deal: dict[str, str] | None = None
    #: its header line, so that a game that cannot be set up here is an error naming the
    #: file; not written
    source: Location | None = field(default=None, compare=False)

    @property
    def sides(self) -> tuple[str, str]:
        return get_game(self.game).side_names

    @property
    def ended_by_table(self) -> bool:
        return self.termination in TABLE_ENDINGS

    def header(self) -> dict[str, object]:
        header = {"record": RECORD_KIND, "format": RECORD_FORMAT, "game": self.game,
                  "seed": self.seed, "ruleset": self.ruleset, "switches": self.switches,
                  "max_turns": self.max_turns, "bots": self.bots, "decks": self.decks,
                  "deckbuilder": self.version}
        optional = (("modules", self.modules or None), ("data", self.data), ("deal", self.deal))
        return header | {key: value for key, value in optional if value is not None}

    def to_jsonl(self) -> str:
        lines = [json.dumps(self.header(), sort_keys=False)]
        lines += [json.dumps({"i": s.index, "player": s.player, "action": s.action,
                              "text": s.text}, ensure_ascii=False) for s in self.steps]
        lines.append(json.dumps({"outcome": {"winner": self.winner,
                                             "termination": self.termination},
                                 "turns": self.turns, "actions": len(self.steps)}))
        return "\n".join(lines) + "\n"


#: Called with (step or None for the events before the first action, events logged since).
Narrator = Callable[[Step | None, list[str], State], None]


def drain_log(state: State) -> list[str]:
    """The events logged since the last call (the log is emptied: clones stay cheap)."""
    lines = list(state.log)
    state.log.clear()
    return lines


def game_outcome(state: State) -> tuple[str | None, str, int]:
    """The ended game's winner (None: nobody), termination and turns, as a record keeps them."""
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    winner = None if outcome.winner is None else player_names(state)[outcome.winner]
    return winner, outcome.termination.value, state.turn


def new_record(state: State, decks: Sequence[Mapping[str, int]], seed: int,
               bots: Sequence[str], max_turns: int, switches: Mapping[str, str],
               modules: Sequence[str], catalog: Catalog | None = None) -> GameRecord:
    """The record of a game just set up, with the card data of `catalog` (None: the default)."""
    from deckbuilder.catalog import default_catalog
    from deckbuilder.data_packs.exchange import data_hash

    names = player_names(state)
    return GameRecord({names[p]: dict(sorted(decks[p].items())) for p in (0, 1)}, seed,
                      state.spec.ruleset, {names[p]: bots[p] for p in (0, 1)}, state.spec.game,
                      max_turns, __version__, switches=dict(switches),
                      modules=sorted(modules),
                      data=data_hash(catalog if catalog is not None else default_catalog()))


_Value = TypeVar("_Value")


def _field(data: object, key: str, kind: type[_Value], where: Location) -> _Value:
    if not isinstance(data, dict) or key not in data:
        raise RecordError(f"missing '{key}'", where, "the record was not written by "
                                                     "`deckbuilder play --record`, or was cut")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"'{key}' has the wrong type ({type(value).__name__})", where,
                          "restore the line as `deckbuilder play --record` wrote it")
    return value


#: A record of the longest game is well under 1 MB; the limit leaves room and bounds the read.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: The most copies of one card a recorded deck may hold (as in a deck file).
MAX_COPIES = 99


class _BadNumber(ValueError):
    pass


def _bounded_int(text: str) -> int:
    """JSON integers, refused beyond MAX_DIGITS (Python raises deep inside for 4,300+)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _BadNumber(f"a number with {digits} digits; the limit is {MAX_DIGITS}")
    return int(text)


def _no_constant(text: str) -> NoReturn:
    raise _BadNumber(f"'{text}' is not a JSON number")


def read_record(path: Path | str) -> GameRecord:
    """Parse a record file; any broken line is a RecordError at file:line(:col)."""
    try:
        raw = read_bounded(Path(path), MAX_RECORD_BYTES, "game record (.jsonl)")
    except DataFileError as error:
        raise RecordError(error.message, error.where, error.fix) from None
    return parse_record(raw, path)


def parse_record(raw: bytes, path: Path | str) -> GameRecord:
    """A record's bytes (a file, an upload, a friend table's); errors name `path` and line."""
    rows = _json_rows(raw, Path(path))
    number, header = rows[0]
    at = Location(Path(path), number)
    record = _header_record(header, at)
    for number, row in rows[1:-1]:
        add_step(record.steps, row, Location(Path(path), number))
    number, final = rows[-1]
    at = Location(Path(path), number)
    outcome = _field(final, "outcome", dict, at)
    record.winner = outcome.get("winner")
    record.termination = _field(outcome, "termination", str, at)
    record.turns = _field(final, "turns", int, at)
    counted = _field(final, "actions", int, at)
    if counted != len(record.steps):
        raise RecordError(f"the final line counts {counted} actions, but the record has "
                          f"{len(record.steps)}", at,
                          "steps were removed or added: restore the record as "
                          "`deckbuilder play --record` wrote it")
    return record


def add_step(steps: list[Step], row: object, at: Location) -> None:
    """The step a record's line holds, checked, put after `steps`."""
    index = _field(row, "i", int, at)
    if index != len(steps):
        raise RecordError(f"step {index} where step {len(steps)} was expected", at,
                          "the record's lines are out of order or some are missing")
    steps.append(Step(index, _field(row, "player", str, at), _field(row, "action", int, at),
                      _field(row, "text", str, at)))


def _json_rows(raw: bytes, path: Path) -> list[tuple[int, object]]:
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", Location(path), "give a .jsonl record") from None
    rows: list[tuple[int, object]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line, parse_int=_bounded_int,
                                            parse_constant=_no_constant)))
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON: {error.msg}", Location(path, number, error.colno),
                              "each line of a record is one JSON object") from None
        except _BadNumber as error:
            raise RecordError(str(error), Location(path, number),
                              "restore the line as `deckbuilder play --record` wrote it") from None
        except RecursionError:
            raise RecordError("nested too deeply", Location(path, number),
                              "each line of a record is one flat JSON object") from None
    if len(rows) < 2:
        raise RecordError("a record needs a header line and a final line",
                          Location(path, rows[0][0] if rows else 1), "record a whole game")
    return rows


def _header_record(header: object, at: Location) -> GameRecord:
    if not isinstance(header, dict) or header.get("record") != RECORD_KIND:
        raise RecordError("the first line is not a deckbuilder game header", at,
                          "give a file written by `deckbuilder play --record`")
    if _field(header, "format", int, at) != RECORD_FORMAT:
        raise RecordError(f"record format {header['format']} is not {RECORD_FORMAT}: its action "
                          "numbers are read differently by this version", at,
                          "record the game again with this version")
    decks = _field(header, "decks", dict, at)
    for name, deck in decks.items():
        if not isinstance(deck, dict) or not all(
                isinstance(k, str) and type(v) is int and 0 <= v <= MAX_COPIES
                for k, v in deck.items()):
            raise RecordError(f"deck '{name}' is not card id -> copies (0 to {MAX_COPIES})", at,
                              "restore the header line")
        if len(deck) > MAX_DECK_ENTRIES:
            raise RecordError(f"deck '{name}' has {len(deck)} entries; the limit is "
                              f"{MAX_DECK_ENTRIES}", at, "restore the header line")
    switches = header.get("switches", {})  # records of games without switches may lack it
    if not isinstance(switches, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in switches.items()):
        raise RecordError("'switches' is not switch id -> variant", at,
                          "restore the header line")
    if not all(isinstance(k, str) and isinstance(v, str)
               for k, v in _field(header, "bots", dict, at).items()):
        raise RecordError("'bots' is not side -> bot", at, "restore the header line")
    modules = header.get("modules", [])
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise RecordError("'modules' is not a list of module ids", at, "restore the header line")
    record = GameRecord(decks, _field(header, "seed", int, at), _field(header, "ruleset", str, at),
                        _field(header, "bots", dict, at), _field(header, "game", str, at),
                        _field(header, "max_turns", int, at), str(header.get("deckbuilder", "")),
                        switches=dict(switches), modules=list(modules),
                        data=_data_of(header, at), deal=_deal_of(header, at), source=at)
    with record_errors_at(at):
        get_game(record.game)
    if set(decks) != set(record.sides):
        raise RecordError(f"the header's decks are {', '.join(sorted(decks))}, not "
                          f"{', '.join(record.sides)}", at, "restore the header line")
    return record


def _is_hash(value: object, shortest: int = 64) -> TypeGuard[str]:
    """A SHA-256 in hex (with `shortest`, a salt: that many to 64 hex digits)."""
    return isinstance(value, str) and shortest <= len(value) <= 64 and all(
        char in "0123456789abcdef" for char in value)


def _part(header: Mapping[str, object], key: str) -> dict[str, object] | None:
    """The header's optional `key` part (None: none; not a mapping: {}, which is refused)."""
    if key not in header:
        return None
    part = header[key]
    return part if isinstance(part, dict) else {}


def _data_of(header: Mapping[str, object], at: Location) -> dict[str, object] | None:
    data = _part(header, "data")
    if data is None:
        return None
    packs = data.get("packs")
    if not (_is_hash(data.get("sha256")) and isinstance(packs, dict)
            and len(packs) <= MAX_DECK_ENTRIES
            and all(isinstance(k, str) and _is_hash(v) for k, v in packs.items())
            and (data.get("overlay") is None or _is_hash(data.get("overlay")))):
        raise RecordError("'data' is not the card data's hashes (sha256, packs, overlay)", at,
                          "restore the header line")
    return {"packs": dict(packs), "overlay": data.get("overlay"), "sha256": data["sha256"]}


def _deal_of(header: Mapping[str, object], at: Location) -> dict[str, str] | None:
    deal = _part(header, "deal")
    if deal is None:
        return None
    commitment, salt = deal.get("commitment"), deal.get("salt")
    if not (_is_hash(commitment) and _is_hash(salt, shortest=1)):
        raise RecordError("'deal' is not a seed commitment (commitment, salt)", at,
                          "restore the header line")
    return {"commitment": commitment, "salt": salt}


@contextlib.contextmanager
def record_errors_at(where: Location | None) -> Iterator[None]:
    """Errors without a place of their own (an unknown card ...) are `RecordError`s at `where`."""
    try:
        yield
    except DeckbuilderError as error:
        if where is None or error.where is not None:
            raise
        raise RecordError(error.message, where, error.fix) from None


@dataclass
class ReplayResult:
    state: State
    steps: int
    mismatch: str | None = None  # the first difference, None when the game is reproduced
    step: int | None = None  # where: a step index (the final line is index len(steps))


def play_back(record: GameRecord, state: Callable[[], State],
              apply: Callable[[Step], object]) -> ReplayResult:
    """The one replay of a record, whatever session plays it: each step is checked against
    the game as `state()` stands before `apply` plays it, then the ending is judged."""
    stopped = play_steps(record.steps, record.sides, state, apply)
    if stopped is not None:
        return stopped
    problem = ending_problem(record, state())
    return ReplayResult(state(), len(record.steps), problem,
                        None if problem is None else len(record.steps))


def play_steps(steps: Sequence[Step], names: tuple[str, str], state: Callable[[], State],
               apply: Callable[[Step], object]) -> ReplayResult | None:
    """`play_back` without judging an ending (a friend table restored while still open)."""
    for step in steps:
        problem = step_problem(state(), step, names)
        if problem is not None:
            return ReplayResult(state(), step.index, problem, step.index)
        apply(step)
    return None


def ending_problem(record: GameRecord, state: State) -> str | None:
    """How the record's ending differs from the game after its last step (None: it does not);
    a game a table ended must still be going at the recorded turn."""
    names = player_names(state)
    if record.ended_by_table:
        if state.is_terminal():
            return (f"the record says the table ended ({record.termination}) with the game "
                    "going on, but after its last action the game is over: "
                    f"{_outcome_text(*game_outcome(state))}")
        if record.turns != state.turn:
            return (f"the record says the table ended at turn {record.turns}; replayed, its "
                    f"last action leaves the game at turn {state.turn}")
        wanted = names if record.termination == "resigned" else (None,)
        if record.winner not in wanted:
            return (f"a table that ended '{record.termination}' cannot have "
                    f"{record.winner or 'nobody'} as its winner")
        return None
    if not state.is_terminal():
        return ("after the last recorded action the game is not over "
                f"({names[state.current_player()]} must still decide)")
    expected = (record.winner, record.termination, record.turns)
    actual = game_outcome(state)
    if expected != actual:
        return (f"the outcome differs: recorded {_outcome_text(*expected)}, "
                f"replayed {_outcome_text(*actual)}")
    return None


def record_line(record: GameRecord, index: int) -> Location | None:
    """The record file's line of step `index` (`len(record.steps)`: its final line)."""
    source = record.source
    if source is None:
        return None
    return Location(source.path, (source.line or 1) + index + 1)


def step_problem(state: State, step: Step, names: tuple[str, str]) -> str | None:
    """How a recorded step differs from what the game offers now (None: it does not)."""
    if state.is_terminal():
        return f"step {step.index}: the game is already over, but the record goes on " \
               f"('{step.text}')"
    player = names[state.current_player()]
    if player != step.player:
        return f"step {step.index}: the record has {step.player} '{step.text}', but now " \
               f"{player} must decide"
    if step.action not in state.legal_actions():
        return f"step {step.index}: the recorded action '{step.text}' ({step.action}) is not " \
               f"legal now (legal: {'; '.join(map(state.action_to_string, state.legal_actions()))})"
    text = state.action_to_string(step.action)
    if text != step.text:
        return f"step {step.index}: the record says '{step.text}', the engine now reads " \
               f"action {step.action} as '{text}'"
    return None


def _outcome_text(winner: str | None, termination: str | None, turns: int) -> str:
    return f"{winner or 'nobody'} wins ({termination}) after {turns} turns"


def outcome_text(record: GameRecord) -> str:
    return _outcome_text(record.winner, record.termination, record.turns)


def _characters_status(state: State) -> str:
    word = state.spec.game_rules.attack_words[0]  # "gang", "guardians"
    alive = sum(state.alive)
    if not state.spec.game_rules.has_pile:
        return f"{word} alive: {alive}/{len(state.alive)}"
    waiting = len(state.pile)
    return (f"{word}: {alive} in play, {waiting} in the pile, "
            f"{len(state.alive) - alive - waiting} dead")


def _symbols_in_hand(state: State) -> list[str]:
    """The symbols in hand the game counts, for the sides whose decks have any."""
    spec = state.spec
    names = spec.game_rules.side_names
    parts = []
    for symbol, words in spec.game_rules.hand_symbols:
        counts = [f"{names[p]} {sum(getattr(spec.card_def[u], symbol) for u in state.hands[p])}"
                  for p in (0, 1)
                  if any(getattr(spec.card_def[u], symbol) for u in spec.decks[p])]
        if counts:
            parts.append(f"{words} in hand: {', '.join(counts)}")
    return parts


def status_line(state: State) -> str:
    """Where the game stands, in its own words, in one line."""
    spec = state.spec
    marker = spec.bfs[state.marker_bf]
    names = spec.game_rules.side_names
    parts = [f"marker: {marker.name} space {marker.labels[state.marker_space]}",
             f"{spec.game_rules.countdown_name}: {state.countdown}", _characters_status(state),
             "hands: " + ", ".join(f"{names[p]} {len(state.hands[p])}" for p in (0, 1)),
             "decks: " + ", ".join(f"{names[p]} {len(state.decks[p])}" for p in (0, 1)),
             *_symbols_in_hand(state)]
    return " | ".join(parts)


class TextNarrator:
    """Collects the readable account: a heading with the first events (a game that cannot be set
    up prints nothing), the actions, their events, and a status line at each new turn."""

    def __init__(self, emit: Callable[[str], None], actions: bool = True,
                 heading: str | None = None) -> None:
        self.emit = emit
        self.actions = actions
        self.heading = heading
        self.turn = -1

    def __call__(self, step: Step | None, events: list[str], state: State) -> None:
        if self.heading is not None:
            self.emit(self.heading)
            self.heading = None
        if step is not None and self.actions:
            self.emit(f"{step.index:>5} {step.player:<8} {step.text}")
        for event in events:
            self.emit(event if event.startswith("--") else f"{'':>6}{event}")
        if state.turn != self.turn and state.turn > 0 and not state.is_terminal():
            self.turn = state.turn
            self.emit(f"{'':>6}[{status_line(state)}]")

"""The game state: zones, battlefields, tokens, turn marker, the open decision; clone().

The state is plain mutable Python (lists of ints, `__slots__`), owns its `random.Random`, and
is driven by a small task stack: game flow and card effects push tasks; a task that needs a
player's choice opens a decision (`decide`) and the loop stops until `apply` answers it. The
table's rules live in `play.py`, `board.py` and `effects.py`; each game's own (set-up, the
turn, victory) in its package under `deckbuilder/games/`, reached through `spec.game_rules`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Final, TypeVar

from deckbuilder.engine.actions import K_MAIN, PASS, action_to_string
from deckbuilder.engine.card_records import CardDef, CharDef, ModeDef
from deckbuilder.engine.chance import sort_at_random
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.protocol import TERMINAL, IllegalActionError, InvariantError, Outcome

#: The side that moves first and has the characters (and the three-card limit), and the side
#: that attacks: the gang and the lawmen in Revolver, the guardians and Mapache in Revolver 2.
DEFENDER: Final = 0
ATTACKER: Final = 1

#: Who may see a zone's cards: nobody (a deck's order, the character pile), its owner (a hand),
#: everyone (discard piles, removed cards, cards in play).
NOBODY: Final = "nobody"
OWNER: Final = "owner"
EVERYONE: Final = "everyone"
#: Each player's card zones, named once: where a card is, the invariants and the re-dealing of
#: hidden cards loop over this list (`clone` copies the same fields by hand, for speed;
#: tests/test_state_fields.py checks that it copies every field).
PLAYER_ZONES: Final[tuple[tuple[str, str, str], ...]] = (
    ("decks", "deck", NOBODY), ("hands", "hand", OWNER), ("discards", "discard", EVERYONE),
    ("removed", "removed", EVERYONE),
)
#: The zones of a player that the other cannot see (his hand first), and those nobody sees.
_HIDDEN_ZONES: Final = tuple(sorted((name for name, _, seen_by in PLAYER_ZONES
                                     if seen_by != EVERYONE), key=lambda name: name != "hands"))
_UNSEEN_ZONES: Final = tuple(name for name, _, seen_by in PLAYER_ZONES if seen_by == NOBODY)
if _HIDDEN_ZONES != ("hands", "decks") or _UNSEEN_ZONES != ("decks",):
    # `State.resample_hidden` re-deals these zones by their fields: change it with the list.
    raise ImportError(f"resample_hidden re-deals hands and decks, not {_HIDDEN_ZONES}")

PHASE_START: Final = 0
PHASE_PLAY: Final = 1
PHASE_ATTACK: Final = 2
PHASE_END: Final = 3
PHASE_NAMES: Final = ("start", "play", "attack", "end")


class PlayerStats:
    """What one player drew and played, by card id."""

    __slots__ = ("drawn", "played")

    def __init__(self, drawn: Counter[str], played: Counter[str]) -> None:
        self.drawn = drawn
        self.played = played


T = TypeVar("T")


def with_item(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`values` with the item at `index` replaced: a zone kept as a tuple changes this way,
    so clones can share it."""
    return (*values[:index], value, *values[index + 1:])


#: The state's fields, named once: its `__slots__`, and what `snapshot()`, the invariants and the
#: tests loop over. Each is typed (and explained) by its annotation in `State`; `blank` and
#: `clone` set each by hand, for speed (a clone is the search bots' inner loop, and a loop of
#: `getattr`/`setattr` by name is several times slower, compiled or not); tests/test_state_fields.py
#: ties the annotations, `blank`, `clone` and `snapshot()` to this list.
STATE_FIELDS: Final = (
    "_drawn", "_legal", "_played", "_rng", "_rng_snapshot", "_shared", "active", "alive",
    "alone_log", "attack_cancelled", "bf_power", "cancelled", "countdown", "decks", "discards",
    "eagle", "face_on", "forbidden", "game_data", "grit", "hands", "history",
    "killed_this_turn", "limbo", "log", "marker_bf", "marker_space", "max_turns", "over",
    "pending_data", "pending_kind", "pending_player", "pending_resume", "phase", "pieces_used",
    "pile", "placed", "power", "removed", "rows", "seed", "silent_bf", "silver", "spec",
    "tasks", "termination", "turn", "under_characters", "used_abilities", "verbose", "winner",
)
#: The fields that are not the position `snapshot()` compares, and why: the game's fixed spec;
#: the record of the game beside `history` (the log, the cards drawn and played, a scenario's
#: record of choices taken alone) and whether it is written; and caches compared through
#: what they cache (`_legal` as `legal`, the generator as `rng_state()`); and which per-card
#: lists are shared with a copy (`_shared`), which changes no value.
NOT_IN_SNAPSHOT: Final = frozenset({
    "spec", "log", "_drawn", "_played", "alone_log", "verbose", "_legal", "_rng",
    "_rng_snapshot", "_shared",
})
#: The per-card lists (one item a card uid), as bits of `State._shared`: a clone shares them
#: with its original, and whichever writes first copies the list (`State.own_power()` ...).
#: They are four lists of every card in the game, and most copies (a bot's look-ahead) change
#: few of them or none: copying them at every clone was a tenth of a Revolver 2 greedy game.
PLACED: Final = 1
POWER: Final = 2
GRIT: Final = 4
EAGLE: Final = 8
CARD_LISTS: Final = PLACED | POWER | GRIT | EAGLE
SNAPSHOT_FIELDS: Final = tuple(name for name in STATE_FIELDS if name not in NOT_IN_SNAPSHOT)


def comparable(value: Any) -> Any:
    """`value` as plain data that compares by content: a card's mode as where it lies (mode
    index, host, face down), a function (a task's runner, a decision's resume) by its name,
    a compiled record (a target filter in a task's parameters, part of the fixed spec) by its
    fields where it lists them, containers item by item. Two states of two builds of the same
    game (a replay) compare equal."""
    if value is None or isinstance(value, (bool, int, str, float, StrEnum)):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(comparable(item) for item in value)
    if isinstance(value, (frozenset, set)):
        return tuple(sorted((comparable(item) for item in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted(((comparable(k), comparable(v)) for k, v in value.items()), key=repr))
    if isinstance(value, ModeDef):
        return ("mode", value.index, value.host, value.hidden)
    if isinstance(value, (CardDef, CharDef)):
        return (type(value).__name__, value.idx)
    if callable(value):
        return getattr(value, "__qualname__", repr(value))
    slots = getattr(type(value), "__slots__", None)
    if slots is not None:
        return (type(value).__name__,
                *(comparable(getattr(value, name, None)) for name in slots))
    return type(value).__name__  # a fixed part of the spec (the compiled build lists no slots)


class State:
    """One game in progress on the table (either game). See `deckbuilder.protocol`."""

    __slots__ = STATE_FIELDS

    _drawn: list[list[int]] | None  # None: not recorded (a look-ahead copy)
    _legal: list[int] | None
    _played: list[list[int]] | None
    _rng: random.Random | None
    _rng_snapshot: Any
    _shared: int  # the per-card lists (bits: CARD_LISTS) this state may share with a copy
    active: int
    alive: list[bool]
    attack_cancelled: bool
    #: power tokens lying on a side of a battlefield card, by row (replaced, never mutated)
    bf_power: tuple[int, ...]
    cancelled: bool
    countdown: int  # tokens left on the countdown card (the border, the Mexican Army)
    decks: list[list[int]]
    discards: list[list[int]]
    #: The four per-card lists (`placed`, `power`, `grit`, `eagle`) are read as lists but
    #: written only through `own_placed()`, `own_power()`, `own_grit()`, `own_eagle()`, which
    #: copy a list shared with a clone first (tests/test_state_fields.py checks every write).
    eagle: list[int]
    face_on: tuple[bool, ...]  # the face spaces in use (replaced, never mutated)
    #: A player's each, replaced, never mutated. Declared of any length, as the spec's
    #: per-player tuples are: the compiled build keeps a fixed-length tuple unboxed and builds a
    #: new one each time it is indexed by a player.
    forbidden: tuple[frozenset[int], ...]
    game_data: Any  # a game's own small state (immutable: tuples; replaced, never mutated)
    grit: list[int]
    hands: list[list[int]]
    history: list[int]
    killed_this_turn: bool
    limbo: list[int]
    log: list[str]
    marker_bf: int
    marker_space: int
    max_turns: int
    over: bool
    pending_data: Any
    pending_kind: int
    pending_player: int
    pending_resume: Any
    phase: int
    pieces_used: frozenset[str]  # table pieces used for good (Derail the Train, the bridge)
    pile: list[int]  # characters not yet in play, face down, drawn from the end (Revolver 2)
    placed: list[ModeDef | None]  # uid -> the mode it lies in play in, None: not in play
    power: list[int]
    removed: list[list[int]]
    #: the cards in play, a row per side of each battlefield (and of the open range); each row
    #: a tuple, replaced, never mutated (`add_to_row`, `remove_from_row`), so clones share them
    rows: list[tuple[int, ...]]
    seed: int
    silent_bf: int  # a battlefield whose cards have no text (the prison, FAQ Q6); -1 = none
    alone_log: list[tuple[int, int, str]] | None  # see resolved_alone
    silver: list[int]
    spec: SpecFields  # the GameSpec (compiled.py, which builds on this module)
    tasks: list[tuple]
    termination: StrEnum | None
    turn: int
    #: cards lying under a character card (not in play): ((character index, card uid), ...);
    #: immutable, replaced, never mutated (see `addons.put_under_character`)
    under_characters: tuple[tuple[int, int], ...]
    used_abilities: frozenset[Any]
    verbose: bool
    winner: int | None

    @classmethod
    def blank(cls, spec: Any, seed: int, max_turns: int, verbose: bool) -> State:
        """A state with every zone empty but the decks (in deck order, not shuffled), no
        character in play, the marker on the first battlefield's first space and the
        countdown card full: each game's set-up goes on from here."""
        state = cls()
        state.spec = spec
        state.seed = seed
        state.rng = random.Random(seed)
        state.max_turns = max_turns
        state.verbose = verbose
        state.history = []
        state.log = []
        state.turn = 0
        state.active = DEFENDER
        state.phase = PHASE_START
        state.face_on = (False,) * sum(len(bf.kinds) for bf in spec.bfs)
        state.marker_bf = 0
        state.marker_space = 0
        state.decks = [list(spec.decks[0]), list(spec.decks[1])]
        state.hands = [[], []]
        state.discards = [[], []]
        state.removed = [[], []]
        rows = 2 * spec.n_bf + 2  # the last pair: the open range
        state.rows = [()] * rows
        state.bf_power = (0,) * rows
        state.pile = []
        state.game_data = None
        state.limbo = []
        n_uids = spec.n_uids
        state.placed = [None] * n_uids
        state.power = [0] * n_uids
        state.grit = [0] * n_uids
        state.eagle = [0] * n_uids
        state._shared = 0
        state.alive = [False] * len(spec.characters)
        state.countdown = spec.countdown_tokens
        state.pieces_used = frozenset()
        state.killed_this_turn = False
        state.attack_cancelled = False
        state.cancelled = False
        state.forbidden = (frozenset(), frozenset())
        state.used_abilities = frozenset()
        state.silver = [0, 0]
        state.silent_bf = -1
        state.alone_log = None
        state.under_characters = ()
        state.tasks = []
        state.pending_player = DEFENDER
        state.pending_kind = K_MAIN
        state.pending_resume = None
        state.pending_data = None
        state.legal = []
        state.over = False
        state.winner = None
        state.termination = None
        state._drawn = [[], []]
        state._played = [[], []]
        return state

    # -- protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.over else self.pending_player

    def legal_actions(self) -> list[int]:
        return self.legal[:]

    def is_terminal(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        termination = self.termination  # set exactly when the game ends (`end_game`)
        return None if termination is None else Outcome(self.winner, termination)

    @property
    def legal(self) -> list[int]:
        """The open decision's options (sorted). A play phase lists its options only when
        asked: a bot trying moves on copies judges most positions without ever asking."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.spec.main_options(self, self.pending_player)
        return legal

    @legal.setter
    def legal(self, options: list[int]) -> None:
        self._legal = options

    def apply(self, action: object) -> None:
        # Typed object, not int: the compiled build checks an argument's declared type itself
        # and would raise a TypeError, where the protocol promises an IllegalActionError.
        # `given` keeps the caller's int object: the compiled build would make a new one for
        # each use of the narrowed `action` below (an action number is past the small ints).
        given: object = action
        if type(action) is not int:  # not a bool, a str, None or a float that equals one
            raise IllegalActionError(
                f"an action is one of legal_actions() (an int), not {type(action).__name__} "
                f"{action!r}")
        # Ending a play phase is always legal: no need to list the phase's options for it.
        if (action != PASS or self._legal is not None) and given not in self.legal:
            raise IllegalActionError(self.spec.explain_illegal(self, action))
        self.history.append(given)  # type: ignore[arg-type]  # an int, checked above
        resume = self.pending_resume
        self.pending_resume = None
        resume(self, given, self.pending_data)
        self.run()

    def action_to_string(self, action: int) -> str:
        return action_to_string(self, action)

    def is_mid_move(self) -> bool:
        """True while an action is still being resolved (a cost, a target, a casualty)."""
        return self.pending_kind != K_MAIN and not self.over

    @property
    def stats(self) -> list[PlayerStats]:
        """The cards each player drew and played (none counted in a look-ahead copy)."""
        defs = self.spec.defs
        drawn = self._drawn or [[], []]
        played = self._played or [[], []]
        return [
            PlayerStats(Counter(defs[d].id for d in drawn[p]),
                        Counter(defs[d].id for d in played[p]))
            for p in (0, 1)
        ]

    # -- the driver --------------------------------------------------------------------------
    def run(self) -> None:
        """Run tasks until a player must decide or the game is over."""
        tasks = self.tasks
        idle = self.spec.idle
        while self.pending_resume is None and not self.over:
            if tasks:
                # The last by clear(): a list pop() empties keeps a C buffer each push reallocates.
                if len(tasks) > 1:
                    task = tasks.pop()
                else:
                    task = tasks[0]
                    tasks.clear()
                task[0](self, task)
            else:
                idle(self)

    def decide(self, player: int, options: list[int] | None, resume: Any, data: Any,
               kind: int) -> None:
        """Open a decision: `player` picks one of `options` (sorted; None: a play phase, whose
        options are listed when first asked for); `resume` continues."""
        self.pending_player = player
        self._legal = options
        self.pending_resume = resume
        self.pending_data = data
        self.pending_kind = kind

    def resolved_alone(self, player: int, kind: int, action: int) -> None:
        """A decision with one option, which the engine takes without asking: recorded (who,
        what, the option's text) only while `alone_log` is a list (a scenario asks whether a
        choice was offered); a game pays one attribute test."""
        log = self.alone_log
        if log is None:
            return
        asked = self.pending_kind
        self.pending_kind = kind  # an action reads by the decision it answers
        try:
            log.append((player, kind, self.action_to_string(action)))
        finally:
            self.pending_kind = asked

    def end_game(self, winner: int | None, termination: StrEnum) -> None:
        if self.over:
            return
        self.over = True
        self.winner = winner
        self.termination = termination
        self.tasks.clear()
        self.pending_resume = None
        self.legal = []
        if self.verbose:
            who = "nobody" if winner is None else self.spec.game_rules.side_names[winner]
            self.log.append(f"game over: {who} wins ({termination.value})")

    def note(self, text: str) -> None:
        """Append to the log (callers build strings only when `verbose`)."""
        self.log.append(text)

    # -- copies ------------------------------------------------------------------------------
    def clone(self, records: bool = True, redealt: int = -1) -> State:
        """An independent copy (hand-written: deepcopy is ~40x slower).

        `records=False`: a look-ahead copy, as a bot plays on (`resample_hidden`), without
        the game's record: the actions so far, the cards drawn and played (`stats`) and the
        log. The record grows with the game, the rules never read it, and nobody reads it of
        a look-ahead; a copy of a look-ahead keeps only what was added to it.
        `redealt`: a player whose hand and deck the caller replaces at once
        (`resample_hidden`): the copy gets empty ones instead of copies.
        """
        other = State()
        other.spec = self.spec
        other.seed = self.seed
        self._share_rng(other)
        other.max_turns = self.max_turns
        self._copy_record(other, records)
        other.turn = self.turn
        other.active = self.active
        other.phase = self.phase
        other.marker_bf = self.marker_bf
        other.marker_space = self.marker_space
        other.face_on = self.face_on  # tuples: immutable
        decks, hands = self.decks, self.hands
        if redealt < 0:
            other.decks = [decks[0][:], decks[1][:]]
            other.hands = [hands[0][:], hands[1][:]]
        elif redealt == 0:
            other.decks = [[], decks[1][:]]
            other.hands = [[], hands[1][:]]
        else:
            other.decks = [decks[0][:], []]
            other.hands = [hands[0][:], []]
        other.discards = [self.discards[0][:], self.discards[1][:]]
        other.removed = [self.removed[0][:], self.removed[1][:]]
        other.rows = self.rows[:]  # tuples: immutable
        other.limbo = self.limbo[:]
        other.placed = self.placed  # copied on write (CARD_LISTS), by either of the two
        other.power = self.power
        other.grit = self.grit
        other.eagle = self.eagle
        self._shared = other._shared = CARD_LISTS
        other.alive = self.alive[:]
        other.countdown = self.countdown
        other.bf_power = self.bf_power
        other.pile = self.pile[:]
        other.game_data = self.game_data  # immutable
        other.pieces_used = self.pieces_used  # frozenset
        other.killed_this_turn = self.killed_this_turn
        other.attack_cancelled = self.attack_cancelled
        other.cancelled = self.cancelled
        other.forbidden = self.forbidden
        other.used_abilities = self.used_abilities  # frozenset
        other.silver = self.silver[:]
        other.silent_bf = self.silent_bf
        other.alone_log = None  # a copy (a bot's look-ahead) records nothing
        other.under_characters = self.under_characters  # a tuple of pairs: immutable
        other.tasks = self.tasks[:]  # tuples: immutable
        other.pending_player = self.pending_player
        other.pending_kind = self.pending_kind
        other.pending_resume = self.pending_resume
        other.pending_data = self.pending_data  # tuples: immutable
        other._legal = self._legal  # replaced, never mutated (None: not listed yet)
        other.over = self.over
        other.winner = self.winner
        other.termination = self.termination
        return other

    def _share_rng(self, other: State) -> None:
        """The RNG is copied lazily: both share an immutable snapshot of its state, and each
        rebuilds a Random from it only when it next draws (most clones never do)."""
        snapshot = self._rng_snapshot
        if snapshot is None:  # no snapshot: the live generator holds the state
            generator = self._rng
            assert generator is not None
            snapshot = self._rng_snapshot = generator.getstate()
        other._rng = None
        other._rng_snapshot = snapshot

    def _copy_record(self, other: State, records: bool) -> None:
        """The game's record (actions, log, cards drawn and played) for `clone`: copied, or
        left empty in a look-ahead copy (`records=False`)."""
        if records:
            other.verbose = self.verbose
            other.history = self.history[:]
            other.log = self.log[:]
            drawn, played = self._drawn, self._played
            other._drawn = None if drawn is None else [drawn[0][:], drawn[1][:]]
            other._played = None if played is None else [played[0][:], played[1][:]]
        else:
            other.verbose = False
            other.history = []
            other.log = []
            other._drawn = None
            other._played = None

    def adopt(self, other: State) -> None:
        """Become `other`: take over every field (its lists too, not copies), for a caller
        that drops `other` at once. A bot that tried an option on a copy keeps that copy's
        position instead of applying the option again (`bots.settle_move`). The sharing marks
        come along: a list `other` shared with a copy of its own stays marked as shared."""
        self._drawn = other._drawn
        self._legal = other._legal
        self._played = other._played
        self._rng = other._rng
        self._rng_snapshot = other._rng_snapshot
        self._shared = other._shared
        self.active = other.active
        self.alive = other.alive
        self.alone_log = other.alone_log
        self.attack_cancelled = other.attack_cancelled
        self.bf_power = other.bf_power
        self.cancelled = other.cancelled
        self.countdown = other.countdown
        self.decks = other.decks
        self.discards = other.discards
        self.eagle = other.eagle
        self.face_on = other.face_on
        self.forbidden = other.forbidden
        self.game_data = other.game_data
        self.grit = other.grit
        self.hands = other.hands
        self.history = other.history
        self.killed_this_turn = other.killed_this_turn
        self.limbo = other.limbo
        self.log = other.log
        self.marker_bf = other.marker_bf
        self.marker_space = other.marker_space
        self.max_turns = other.max_turns
        self.over = other.over
        self.pending_data = other.pending_data
        self.pending_kind = other.pending_kind
        self.pending_player = other.pending_player
        self.pending_resume = other.pending_resume
        self.phase = other.phase
        self.pieces_used = other.pieces_used
        self.pile = other.pile
        self.placed = other.placed
        self.power = other.power
        self.removed = other.removed
        self.rows = other.rows
        self.seed = other.seed
        self.silent_bf = other.silent_bf
        self.silver = other.silver
        self.spec = other.spec
        self.tasks = other.tasks
        self.termination = other.termination
        self.turn = other.turn
        self.under_characters = other.under_characters
        self.used_abilities = other.used_abilities
        self.verbose = other.verbose
        self.winner = other.winner

    def resample_hidden(self, player: int, rng: random.Random) -> State:
        """A clone where what `player` cannot see is re-dealt at random.

        The opponent's hand and deck are pooled and re-dealt (same hand size), `player`'s own
        deck is reshuffled, and the clone gets a fresh RNG drawn from `rng`, so a search bot
        can neither read hidden cards nor foresee future shuffles. It is a look-ahead copy,
        without the game's record (`clone(records=False)`).
        """
        opponent = 1 - player
        other = self.clone(records=False, redealt=opponent)
        # Sorting by random keys is a uniform shuffle, and ~2.5x faster than random.shuffle.
        # The opponent's zones that `player` cannot see are pooled and dealt back, each to
        # its own size (his hand first); `player`'s own hidden zones (his deck) reshuffled.
        # The zones by their fields, not by name (`_HIDDEN_ZONES` == ("hands", "decks"),
        # `_UNSEEN_ZONES` == ("decks",), checked where they are defined): a look-up by
        # name is slow compiled.
        hands, decks = other.hands, other.decks  # the opponent's left empty by `clone`
        hand_size = len(self.hands[opponent])
        pool = self.hands[opponent] + self.decks[opponent]
        face_down = other._face_down(opponent) if other.spec.attaching else []  # Strongbox
        if face_down:
            pool.extend(uid for _, _, uid in face_down)
        sort_at_random(pool, rng)
        start = hand_size + len(self.decks[opponent])
        hands[opponent] = pool[:hand_size]
        decks[opponent] = pool[hand_size:start]
        if face_down:
            other._redeal_face_down(face_down, pool[start:])
        sort_at_random(decks[player], rng)
        if other.pile:  # face down: nobody knows its order
            sort_at_random(other.pile, rng)
        other.spec.game_rules.resample(other, player, rng)
        other._rng = None  # a fresh generator, seeded from `rng` when first needed
        other._rng_snapshot = rng.getrandbits(64)
        if not other.over and other.pending_player == opponent:
            other.spec.refresh_hidden(other)
        return other

    def _face_down(self, player: int) -> list[tuple[int, int, Any]]:
        """`player`'s cards lying face down under a card: (row, position, uid)."""
        placed = self.placed
        found = []
        for index, row in enumerate(self.rows):
            if index & 1 == player:
                for position, uid in enumerate(row):
                    mode = placed[uid]
                    if mode is not None and mode.hidden:
                        found.append((index, position, uid))
        return found

    def _redeal_face_down(self, face_down: list[tuple[int, int, Any]], dealt: list[int]) -> None:
        """Put the re-dealt cards `dealt` face down where `face_down` lay (resample_hidden)."""
        modes = {uid: self.placed[uid] for _, _, uid in face_down}
        for uid in modes:
            self.own_placed()[uid] = None
            self.own_eagle()[uid] = 0
        card_def = self.spec.card_def
        for (index, position, old), new in zip(face_down, dealt, strict=True):
            mode = modes[old]
            self.rows[index] = with_item(self.rows[index], position, new)
            self.own_placed()[new] = card_def[new].modes[0].attached(mode.host, True)
            self.own_eagle()[new] = self.eagle[mode.host]

    # -- the per-card lists, copied on write ---------------------------------------------------
    def own_placed(self) -> list[ModeDef | None]:
        """`placed`, to write to: copied first if a clone may share it."""
        if self._shared & PLACED:
            self.placed = self.placed[:]
            self._shared &= ~PLACED
        return self.placed

    def own_power(self) -> list[int]:
        """`power`, to write to: copied first if a clone may share it."""
        if self._shared & POWER:
            self.power = self.power[:]
            self._shared &= ~POWER
        return self.power

    def own_grit(self) -> list[int]:
        """`grit`, to write to: copied first if a clone may share it."""
        if self._shared & GRIT:
            self.grit = self.grit[:]
            self._shared &= ~GRIT
        return self.grit

    def own_eagle(self) -> list[int]:
        """`eagle`, to write to: copied first if a clone may share it."""
        if self._shared & EAGLE:
            self.eagle = self.eagle[:]
            self._shared &= ~EAGLE
        return self.eagle

    # -- reading -----------------------------------------------------------------------------
    def snapshot(self) -> tuple:
        """Everything that makes this state what it is, as one comparable tuple (replays and
        clones are checked with it): every field but those `NOT_IN_SNAPSHOT` names, in
        `SNAPSHOT_FIELDS` order, as plain values (`comparable`), then the open decision's
        options and the generator's state."""
        return (*(comparable(getattr(self, name)) for name in SNAPSHOT_FIELDS),
                tuple(self.legal), self.rng_state())

    @property
    def rng(self) -> random.Random:
        """The game's own random generator (never the global one)."""
        generator = self._rng
        if generator is None:  # rebuilt from the snapshot (a seed or a generator state)
            snapshot = self._rng_snapshot
            if isinstance(snapshot, int):  # a seed (resample_hidden)
                generator = random.Random(snapshot)
            else:
                generator = random.Random.__new__(random.Random)
                generator.setstate(snapshot)
            self._rng = generator
        self._rng_snapshot = None  # the caller may draw: the snapshot would go stale
        return generator

    @rng.setter
    def rng(self, generator: random.Random) -> None:
        self._rng = generator
        self._rng_snapshot = None

    def rng_state(self) -> tuple:
        """The generator's state, without disturbing a shared snapshot."""
        if self._rng is None and isinstance(self._rng_snapshot, int):
            self.rng  # noqa: B018 - materialise the seeded generator
        if self._rng_snapshot is not None:
            return self._rng_snapshot
        generator = self._rng
        assert generator is not None  # no snapshot: the live generator holds the state
        return generator.getstate()

    def record_play(self, player: int, definition: int) -> None:
        """Count a card `player` played, for the game's statistics (not in a look-ahead)."""
        if self._played is not None:
            self._played[player].append(definition)

    def add_to_row(self, index: int, uid: int) -> None:
        """Card `uid` joins the end of row `index`."""
        self.rows[index] = self.rows[index] + (uid,)

    def remove_from_row(self, index: int, uid: int) -> None:
        """Card `uid` leaves row `index` (ValueError if it is not there)."""
        row = self.rows[index]
        at = row.index(uid)
        self.rows[index] = row[:at] + row[at + 1:]

    def mode_of(self, uid: int) -> ModeDef:
        """The mode card `uid`, which is in play, lies in."""
        mode = self.placed[uid]
        if mode is None:
            raise InvariantError(f"{self.spec.uid_name(uid)} (card {uid}) is not in play")
        return mode

    def where_text(self, uid: int) -> str:
        spec = self.spec
        for index, row in enumerate(self.rows):
            if uid in row:
                return f" at {spec.bf_name(index >> 1)}"
        return ""

    def card_zone(self, uid: int) -> str:
        """Where a card instance is: deck, hand, discard, removed, limbo, or play@<bf>."""
        owner = self.spec.owner[uid]
        for field, name, _ in PLAYER_ZONES:
            if uid in getattr(self, field)[owner]:
                return name
        if uid in self.limbo:
            return "limbo"
        if any(under == uid for _, under in self.under_characters):
            return "under-character"
        for index, row in enumerate(self.rows):
            if uid in row:
                return f"play@{index >> 1}"
        return "nowhere"

    # -- invariants --------------------------------------------------------------------------
    def check_invariants(self) -> None:
        """Raise InvariantError if any card is in no place or two places, or counts are off."""
        spec = self.spec
        seen = [0] * spec.n_cards
        where: list[str] = [""] * spec.n_cards

        def count(uids: Sequence[int], zone: str, owner: int | None) -> None:
            for uid in uids:
                if not 0 <= uid < spec.n_cards:
                    raise InvariantError(f"{zone} holds a non-card id {uid}")
                if owner is not None and spec.owner[uid] != owner:
                    raise InvariantError(f"{spec.uid_name(uid)} of player {spec.owner[uid]} "
                                         f"is in player {owner}'s {zone}")
                seen[uid] += 1
                where[uid] += f" {zone}"

        for p in (0, 1):
            for field, name, _ in PLAYER_ZONES:
                count(getattr(self, field)[p], name, p)
        count(self.limbo, "limbo", None)
        count([uid for _, uid in self.under_characters], "under-character", None)
        for index, row in enumerate(self.rows):
            count(row, f"play@{index >> 1}", index & 1)
            for uid in row:
                if self.placed[uid] is None:
                    raise InvariantError(f"{spec.uid_name(uid)} is in play without a mode")
        for uid, times in enumerate(seen):
            if times != 1:
                raise InvariantError(
                    f"{spec.uid_name(uid)} (#{uid}) is in {times} places:{where[uid] or ' none'}")
            in_play = where[uid].startswith(" play@")
            if not in_play and (self.placed[uid] is not None or self.power[uid]
                                or self.grit[uid] or self.eagle[uid]):
                raise InvariantError(f"{spec.uid_name(uid)} holds play state in{where[uid]}")
        for i, alive in enumerate(self.alive):
            uid = spec.character_base + i
            if not alive and (self.power[uid] or self.grit[uid]):
                raise InvariantError(f"dead {spec.characters[i].name} still holds tokens")
        if len(set(self.pile)) != len(self.pile) or any(self.alive[i] for i in self.pile):
            raise InvariantError(f"a character in the pile twice or in play: {self.pile}")
        if self.countdown < 0:
            raise InvariantError(f"countdown tokens below zero: {self.countdown}")
        if not 0 <= self.marker_bf < spec.n_bf:
            raise InvariantError(f"marker on battlefield {self.marker_bf}")
        if not 0 <= self.marker_space < len(spec.bfs[self.marker_bf].kinds):
            raise InvariantError(f"marker on space {self.marker_space}")
        if min(self.power + self.grit) < 0:
            raise InvariantError("a negative token count")
        if self.over != (self.termination is not None):
            raise InvariantError("terminal flag and termination disagree")
        if not self.over:
            if not self.legal or self.legal != sorted(set(self.legal)):
                raise InvariantError(f"legal actions not sorted and unique: {self.legal}")
            if self.pending_resume is None:
                raise InvariantError("no open decision in a running game")

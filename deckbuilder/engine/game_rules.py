"""What a game tells the table: `GameRules`, the base class every game subclasses.

The table (state, zones, columns, playing cards, effects, casualties, the marker) knows no
faction and no victory. Where it must ask the game (what a character's death means, what
happens when the countdown card's last token goes, what a card's "you have lost" ends the game
as, which of the game's table pieces the player may use now) it calls a method of the game's
`GameRules`. Each method below carries the default (what a game without that rule gets) and
its contract; a game overrides only where it differs, and mypy checks every override's
signature. python-chess's `chess/variant.py` is the model: a variant is a class overriding a
few methods, its static facts are attributes.

One instance per game, made once at import and held by every spec of that game
(`spec.game_rules`): the table reads its methods there, and binds the one it calls per decision
(`idle`) onto the spec, so the hot loop pays no lookup. The rules sit below the state
(`state.py` builds on them, never the other way round), so the class is generic in the state it
is given: the defaults ask only what `TableState` names, and a game subclasses
`GameRules[State]` with the table's `engine.state.State`, so mypy checks every override's
argument types, not only their number.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Generic, Protocol, TypeVar

from deckbuilder.declaration import GameDeclaration
from deckbuilder.protocol import Heuristics

try:  # the marker matters only to the compiled build (mypyc), which has mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - plain Python without mypy installed

    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


class CountdownSpec(Protocol):
    """What the default countdown reads of a game's spec."""

    @property
    def countdown_tokens(self) -> int: ...


class TableState(Protocol):
    """What the rules' defaults read and write of the table's state (the end of a turn, the
    countdown); `engine.state.State` has all of it."""

    phase: int
    countdown: int
    killed_this_turn: bool
    verbose: bool
    tasks: list[tuple[Any, ...]]

    @property
    def spec(self) -> CountdownSpec: ...

    def note(self, text: str) -> None: ...

    def end_game(self, winner: int | None, termination: StrEnum) -> None: ...


#: The state a game's rules are given: the table's `engine.state.State` for every game.
StateT = TypeVar("StateT", bound=TableState)
#: `engine.state`'s DEFENDER, ATTACKER and PHASE_END, which the defaults read (the state sits
#: above the rules, so they cannot be imported; tests/test_game_rules_countdown.py holds them equal)
_DEFENDER: Final = 0
_ATTACKER: Final = 1
_PHASE_END: Final = 3
#: A step of the effect vocabulary: (compile(step model, resolver) -> params, run(state, task)).
#: (The table's state is above this module: `Any` stands for it.)
StepEntry = tuple[Callable[[Any, Any], Any], Callable[[Any, tuple[Any, ...]], None]]


@dataclass(frozen=True)
class RowChoice:
    """A set of battlefields the game may still bring into the row: its name, the side whose
    win brings it in (None: no side's), its battlefields' names."""

    name: str
    side: int | None
    battlefields: tuple[str, ...]
    ids: tuple[str, ...]


@mypyc_attr(allow_interpreted_subclasses=True)  # a game may be plain Python (a plug-in's)
class GameRules(Generic[StateT]):
    """One game's rules over the table. Every method has a harmless default, so a game
    overrides only its own moments. Its static facts are instance attributes set in
    `__init__` (not class attributes: a plain-Python subclass of the compiled class could not
    override those)."""

    #: the game's static facts, declared once (id, sides, words, decision kinds)
    declaration: GameDeclaration
    #: the game's id ("revolver")
    game: str
    #: the two sides' names, player 0 first (the side that moves first and has characters)
    side_names: tuple[str, str]
    #: the game's own effect steps, added to the table's vocabulary for its cards
    steps: Mapping[str, StepEntry]
    #: rule switch id -> the variants this game's engine plays
    known_variants: Mapping[str, frozenset[str]]
    #: the module ids this game's engine plays (the others are refused by name)
    modules: frozenset[str]
    #: how the log names the two sides in an attack (defender, attacker)
    attack_words: tuple[str, str]
    #: what the countdown card's tokens are called in the log ("border", "Mexican Army")
    countdown_name: str
    #: a table piece used for good (`state.pieces_used`) -> its name in a position's text
    piece_names: Mapping[str, str]
    #: some characters start face down in a pile to be recruited (Revolver 2's guardians)
    has_pile: bool
    #: a placement word card data may use beyond the table's own (current, any, beside ...)
    #: -> (the battlefield id it names, its words in a reason): Revolver's "prison"; such a
    #: card is played only there, and only while that battlefield is in the row
    placement_battlefields: Mapping[str, tuple[str, str]]
    #: the battlefield whose cards may lose their text (`state.silent_bf` when the game sets
    #: it: Revolver's prison); a card whose own text names it keeps its text there. "": none
    silent_battlefield: str
    #: the game's steps that put a card face down under their card (the table then tracks
    #: attachments, `spec.attaching`)
    hiding_steps: frozenset[str]
    #: the game's steps acting on the cards hidden under their card: an ability starting with
    #: one is offered only while one lies there (`expansion_steps.can_reach_hidden`)
    under_steps: frozenset[str]
    #: the game's static steps whose params are the card definitions the opponent may not play
    #: where the card lies (`CardDef.forbids`, `expansion_steps.forbidden_here`)
    forbidding_steps: frozenset[str]
    #: the table's token counters (`engine.possible.TOKEN_COUNTERS`: power, true_grit, eagle,
    #: countdown, silver) -> the box's token each uses, for player 0's pieces and player 1's
    #: (the supply a staged position may not exceed; a counter left out is not checked)
    token_ids: Mapping[str, tuple[str, str]]
    #: the symbols of a card definition the game counts in a hand (its attribute) and their
    #: words in a status line (Revolver 2's ("kegs", "powder kegs"), ("ammunition", ...))
    hand_symbols: tuple[tuple[str, str], ...]
    #: why a card cannot be played (`engine.play.play_refusal`'s codes: card-limit, cost ...)
    #: -> the rules' words and the document that says them (the game's `why_not` module); a
    #: code left out is answered as the engine's reading
    rule_words: Mapping[str, tuple[str, str]]
    #: the task that begins a side's turn, queued as `(turn_task, player)` (`start_turn`)
    turn_task: Callable[[Any, tuple[Any, ...]], None] | None
    #: the ending when the countdown card's last token goes (player 0 has held out) and the
    #: ending of a card's "you have lost" (`countdown_empty`, `card_loss`); None: no ending
    countdown_ending: StrEnum | None
    card_ending: StrEnum | None
    overrides_idle: bool

    def __init__(self, declaration: GameDeclaration) -> None:
        self.declaration = declaration
        self.game = declaration.id
        self.side_names = declaration.side_ids
        self.steps = {}
        self.known_variants = {}
        self.modules = frozenset()
        self.attack_words = ("defenders", "attackers")
        self.countdown_name = "countdown"
        self.piece_names = {}
        self.has_pile = False
        self.placement_battlefields = {}
        self.silent_battlefield = ""
        self.hiding_steps = frozenset()
        self.under_steps = frozenset()
        self.forbidding_steps = frozenset()
        self.token_ids = {}
        self.hand_symbols = ()
        self.rule_words = {}
        self.turn_task = None
        self.countdown_ending = None
        self.card_ending = None
        #: whether the game opens its own decisions when idle (see `idle`)
        self.overrides_idle = type(self).idle is not GameRules.idle

    # -- building a game's spec ----------------------------------------------------------------
    def select_battlefields(self, battlefields: list[Any], layout: str | None) -> list[Any]:
        """The row in play, left to right, from the base set's battlefields (and those of the
        modules `layout` names). Default: all of them, by their `order`. Revolver 2: the poker
        winner's three after the fixed three."""
        return sorted(battlefields, key=lambda battlefield: battlefield.order)

    def bind(self, spec: Any, compiled: Any) -> None:
        """Put the game's own facts on the spec once it is built (`spec.facts`, rule switches
        read into fields, a range of piece actions). Called once per spec."""

    # -- the turn ------------------------------------------------------------------------------
    def idle(self, state: StateT) -> None:
        """With no task left and the game not over: open the active player's decision.

        Default: the table's play phase (`engine.turn.open_main`), which the spec binds
        directly (`spec.idle`, called once per decision, pays no extra call); a game that
        overrides this method gets its own bound instead (`overrides_idle`)."""

    def start_turn(self, state: StateT, player: int) -> None:
        """Queue the start of `player`'s turn (scenarios set up a position and then let the
        game's own turn begin; the table queues the next turn when one ends): the game's
        `turn_task`."""
        if self.turn_task is not None:
            state.tasks.append((self.turn_task, player))

    def end_turn(self, state: StateT, task: tuple[Any, ...]) -> None:
        """The task that ends a turn, `(rules.end_turn, player)`, queued by the table after the
        turn's play and attack. Default: the turn's phase ends, and at the end of the
        attacker's turn the countdown card counts down (`count_down`); a game adds its own
        moments (Revolver's train, Revolver 2's mine) around a call of this one."""
        state.phase = _PHASE_END
        if task[1] == _ATTACKER:
            self.count_down(state)

    def count_down(self, state: StateT) -> None:
        """A countdown token goes at the end of an attacker's turn in which no character died;
        when the last one goes, `countdown_empty`. Nothing when the game has no countdown
        card (`spec.countdown_tokens` 0)."""
        if not state.spec.countdown_tokens or state.killed_this_turn:
            return
        state.countdown -= 1
        if state.verbose:
            state.note(f"no {self.declaration.character_word} killed this turn: a "
                       f"{self.countdown_name} token goes ({state.countdown} left)")
        if state.countdown <= 0:
            state.countdown = 0
            self.countdown_empty(state)

    # -- what the table asks when something happens ---------------------------------------------
    def character_died(self, state: StateT, index: int) -> None:
        """Character `index` (of `spec.characters`) just died: the game's victory checks."""

    def countdown_empty(self, state: StateT) -> None:
        """The countdown card's last token went (the Mexican Border, the Arrival of the
        Mexican Army): player 0 wins (`countdown_ending`)."""
        if self.countdown_ending is not None:
            state.end_game(_DEFENDER, self.countdown_ending)

    def card_loss(self, state: StateT, loser: int, source_uid: int) -> None:
        """A card or character `source_uid` says "you have lost": end the game for `loser`
        (`card_ending`)."""
        if self.card_ending is not None:
            state.end_game(1 - loser, self.card_ending)

    # -- the game's table pieces (Derail the Train, the bridge, a module's duel) ----------------
    def piece_available(self, state: StateT, player: int) -> str | None:
        """The table piece `player` may use in his play phase now (one at most at a time),
        offered as the action `USE_PIECE`; None: no piece."""
        return None

    def use_piece(self, state: StateT, player: int) -> None:
        """Use the piece `piece_available` named."""

    def describe_piece(self, state: StateT) -> str:
        """The text of `USE_PIECE` in the open decision."""
        return "use the table piece"

    def describe_action(self, state: StateT, action: int) -> str | None:
        """The text of `action` in one of the game's own decisions (its declaration's
        `decision_kinds`, open as `state.pending_kind`); None: the table's reading of the
        action's range ("place at ...", "choose ..."). OpenSpiel's `_action_to_string`."""
        return None

    def game_action_record(self, state: StateT, index: int) -> str | None:
        """The id of the record (a card of the game's own, such as a poker card) the game's
        own action `index` (counted from the layout's `game_base`) names, for the table to
        show its face; None: it names none."""
        return None

    # -- hidden information, staging and views --------------------------------------------------
    def resample(self, state: StateT, player: int, rng: random.Random) -> None:
        """Re-deal, on a copy, the game's own pieces `player` cannot see (after the table
        re-dealt hands and decks), for determinizing bots. Draws from `rng` only."""

    def restage(self, state: StateT) -> None:
        """A scenario staged a position by hand: put back what the game's own set-up places
        (a module's cards), as at the start of a game."""

    def observe(self, state: StateT, viewer: int | None) -> dict[str, Any]:
        """The game's own pieces as `viewer` may see them (added to `observe`'s view): a seat
        (0, 1), `log_lines.SPECTATOR` (what both seats see alike) or None (everything)."""
        return {}

    def row_choices(self, state: StateT) -> tuple[RowChoice, ...]:
        """The battlefield sets the game still chooses between (Revolver 2's, before its poker
        tournament); empty: the row in play is the row."""
        return ()

    def record_names(self, state: StateT) -> dict[str, str]:
        """The names of the game's own records its view pieces name by id (Revolver 2's
        poker cards)."""
        return {}

    def card_symbols(self, card: Any) -> dict[str, int]:
        """The symbols of a card definition the game counts in a hand (`hand_symbols`), only
        those it has."""
        return {symbol: getattr(card, symbol) for symbol, _ in self.hand_symbols
                if getattr(card, symbol, 0)}

    def pieces_lines(self, view: dict[str, Any], pieces: dict[str, Any],
                     named: Callable[[Any], str]) -> tuple[list[str], dict[str, Any]]:
        """The game's own pieces of a view (`session_view.position_view`) as text lines, each
        piece `named`; and the `pieces` left for the table's line of name-value pairs."""
        return [], pieces

    def check_pieces(self, pieces: dict[str, Any]) -> None:
        """A view's game pieces from an untrusted table (`app.table_answers`): a ValueError
        saying what is wrong when the game's own pieces would not draw (`pieces_lines`)."""

    def board_pieces(self, view: dict[str, Any], card: Callable[[str], dict[str, str]]
                     ) -> dict[str, Any] | None:
        """The game's own pieces of a view for the web board's panel (Revolver 2's poker
        tournament), each record as `card` gives it; None: no panel."""
        return None

    def impossibilities(self, state: StateT) -> list[Any]:
        """What the game's own rules rule out in a position laid out by hand
        (`engine.possible.Impossible` each); the table's own checks are `engine.possible`'s."""
        return []

    def held_characters(self, state: StateT) -> Mapping[int, str]:
        """Characters out of play that are neither dead nor in a pile, and where they wait
        (Santiago in the San Manzanillo Prison): {index: where}."""
        return {}


@dataclass(frozen=True)
class GameParts:
    """What the registry needs of a game besides its declaration: its rules, how a game is set
    up, its bots' heuristics, its enum of endings, and how a scenario stages its position.
    A game's `entry.py` makes one; its declaration's `entry` names it."""

    rules: GameRules[Any]
    #: `new_game(decks, seed, ruleset, catalog, max_turns=, verbose=, switches=, ...)`
    new_game: Callable[..., Any]
    heuristics: Heuristics
    terminations: type[StrEnum]
    #: where the game's scenario format and staging are: "package.module:attribute" of its
    #: `scenario_kit.staging.ScenarioParts`, imported when a scenario is first read; "": the
    #: generic format built from its declaration
    scenario: str = ""

"""What a game tells the table: its sides, its own effect steps and the moments where its
rules differ (bound once per game onto the spec, so the hot loop pays no lookup).

The table (state, zones, columns, playing cards, effects, casualties, the marker) knows no
faction and no victory. A game fills one `GameHooks` and hands it to `game_spec`; the table
calls the hooks where it must ask the game: what a character's death means, what happens
when the countdown card's last token goes, what a card's "you have lost" ends the game as,
and which of the game's table pieces (Derail the Train, the bridge, the mine ...) the player
may use in his play phase. Python-chess's variants are the model: a few overridden methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: The state (hooks sit below it: `state.py` builds on them, never the other way round).
State = Any
#: A step of the effect vocabulary: (compile(step model, resolver) -> params, run(state, task)).
StepEntry = tuple[Callable[[Any, Any], Any], Callable[[State, tuple], None]]


def _nothing(*_args: Any) -> None:
    return None


def _no_pieces(state: State, player: int) -> str | None:
    return None


class GameHooks:
    """One game's hooks. Every hook has a harmless default, so a game sets only its own."""

    __slots__ = ("attack_words", "bind", "card_loss", "character_died", "countdown_empty",
                 "countdown_name", "describe_piece", "end_turn", "game", "has_pile",
                 "held_characters", "idle", "known_variants", "modules", "observe",
                 "piece_available", "piece_names", "resample", "restage",
                 "select_battlefields", "side_names", "start_turn", "steps", "use_piece")

    game: str
    #: the two sides' names, player 0 first (the side that moves first and has characters)
    side_names: tuple[str, str]
    #: the game's own effect steps, added to the table's vocabulary for its cards
    steps: Mapping[str, StepEntry]
    #: rule switch id -> the variants this game's engine plays
    known_variants: Mapping[str, frozenset[str]]
    #: the module ids this game's engine plays (the others are refused by name)
    modules: frozenset[str]
    #: with nothing else to do: open the active player's decision
    idle: Callable[[State], None]
    #: `start_turn(state, player)`: queue the start of `player`'s turn (scenarios set up a
    #: position and then let the game's own turn begin)
    start_turn: Callable[[State, int], None]
    #: the task that ends a turn (`(end_turn, player)`): countdowns, victory at turn's end
    end_turn: Callable[[State, tuple], None]
    #: how the log names the two sides in an attack (defender, attacker)
    attack_words: tuple[str, str]
    #: `resample(state, player, rng)`: re-deal the game's own hidden pieces on a copy
    #: (after the table has re-dealt hands and decks), for determinizing bots
    resample: Callable[[State, int, Any], None]
    #: `restage(state)`: after a scenario has staged a position by hand, put back what the
    #: game's own set-up places (a module's cards), as at the start of a game
    restage: Callable[[State], None]
    #: `observe(state, player) -> dict`: the game's own pieces as `player` may see them
    observe: Callable[[State, int], dict[str, Any]]
    #: `character_died(state, index)`: after a character died (victory checks)
    character_died: Callable[[State, int], None]
    #: the countdown card (the Mexican Border, the Arrival of the Mexican Army) is empty
    countdown_empty: Callable[[State], None]
    #: what its tokens are called in the log ("border", "Mexican Army")
    countdown_name: str
    #: `card_loss(state, loser, source_uid)`: a card or character says "you have lost"
    card_loss: Callable[[State, int, int], None]
    #: `piece_available(state, player) -> name or None`: the table piece `player` may use in
    #: his play phase now (one at most at a time), offered as the action `USE_PIECE`
    piece_available: Callable[[State, int], str | None]
    #: `use_piece(state, player)`: use it
    use_piece: Callable[[State, int], None]
    #: `describe_piece(state) -> str`: the text of `USE_PIECE` in the open decision
    describe_piece: Callable[[State], str]
    #: a table piece used for good (`state.pieces_used`) -> its name in a position's text
    piece_names: Mapping[str, str]
    #: some characters start face down in a pile to be recruited (Revolver 2's guardians)
    has_pile: bool
    #: `held_characters(state) -> {index: where}`: characters out of play that are neither
    #: dead nor in a pile, and where they wait (Santiago in the San Manzanillo Prison)
    held_characters: Callable[[State], Mapping[int, str]]
    #: `bind(spec, compiled)`: put the game's own facts on the spec once it is built
    bind: Callable[[Any, Any], None]
    #: `select_battlefields(battlefields, layout) -> the row in play, left to right`: which of
    #: the base set's battlefields a game uses (Revolver 2: the poker winner's three + three)
    select_battlefields: Callable[[list[Any], str | None], list[Any]]

    def __init__(self, game: str, side_names: tuple[str, str]) -> None:
        self.game = game
        self.side_names = side_names
        self.steps = {}
        self.known_variants = {}
        self.modules = frozenset()
        self.idle = _nothing
        self.start_turn = _nothing
        self.end_turn = _nothing
        self.attack_words = ("defenders", "attackers")
        self.resample = _nothing
        self.restage = _nothing
        self.observe = lambda state, player: {}
        self.character_died = _nothing
        self.countdown_empty = _nothing
        self.countdown_name = "countdown"
        self.card_loss = _nothing
        self.piece_available = _no_pieces
        self.use_piece = _nothing
        self.describe_piece = lambda state: "use the table piece"
        self.piece_names = {}
        self.bind = _nothing
        self.select_battlefields = _by_order
        self.has_pile = False
        self.held_characters = lambda state: {}


def _by_order(battlefields: list[Any], layout: str | None) -> list[Any]:
    return sorted(battlefields, key=lambda battlefield: battlefield.order)

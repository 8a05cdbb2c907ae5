"""The fields of a game's spec, declared below the state: `GameSpec` (compiled.py) lives above
the modules that play a game, which read it as `state.spec`; declared here, its fields are
typed for them, for mypy and for the compiled build (a typed field is read at once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckbuilder.declaration import DecisionKind
from deckbuilder.engine.actions import ActionLayout
from deckbuilder.engine.card_records import BattlefieldDef, CardDef, CharDef
from deckbuilder.engine.game_rules import GameRules
from deckbuilder.rulesets import Rules


class SpecFields:
    """One game's fixed facts (see `compiled.GameSpec`, which fills them)."""

    __slots__ = (
        "ability_uids", "action_def", "arrival_defs", "arrival_watchers", "attaching", "bfs",
        "card_action", "card_def", "character_base", "character_order", "characters",
        "column_limit",
        "countdown_name", "countdown_tokens", "deck_defs", "decks", "def_of", "defs",
        "discounters", "draw_plays", "draw_watch", "explain_illegal", "extra_uids", "facts",
        "game", "game_action_text", "game_kinds", "game_rules", "grit_loss_kills", "idle",
        "immune", "kinds", "layout", "leader", "main_options", "modules", "n_bf", "n_cards",
        "n_uids", "name_defs", "owned_defs", "owner", "pay_action", "play_action", "play_blockers",
        "play_drawn", "play_reactions", "play_watch_defs", "play_watchers", "refresh_hidden",
        "rules", "ruleset", "silences_plays", "twin", "watch_uids",
    )


    ability_uids: tuple[tuple[int, ...], ...]
    action_def: list[int]  # action -> card definition, for the play/pay/card ranges
    silences_plays: bool  # at the silent battlefield the cards played there lose their text
    arrival_defs: frozenset[int] | None
    arrival_watchers: tuple[int, ...]
    attaching: bool
    character_base: int
    character_order: tuple[int, ...]
    characters: list[CharDef]
    bfs: list[BattlefieldDef]
    card_action: list[int]  # card definition -> its "choose the card" action (-1: none)
    card_def: list[CardDef]
    column_limit: tuple[int, ...]  # a side's each (any length: see State.forbidden)
    countdown_name: str
    countdown_tokens: int
    deck_defs: tuple[tuple[int, ...], ...]
    decks: tuple[list[int], ...]  # a player's each (any length: see State.forbidden)
    def_of: list[int]
    defs: list[CardDef]
    discounters: Any
    draw_plays: bool  # some card is played the moment it is drawn (played_when_drawn)
    draw_watch: bool
    explain_illegal: Callable[[Any, int], str]
    extra_uids: tuple[int, ...]  # card instances in no deck (a module's cards), set up by the game
    facts: Any  # the game's own facts (see its package)
    game: str
    #: the codes of the game's own decision kinds (read by `GameRules.describe_action`)
    game_kinds: frozenset[int]
    grit_loss_kills: bool  # a true grit token taken instead of a death is a kill this turn
    game_rules: GameRules
    idle: Callable[[Any], None]
    immune: Any
    #: every decision kind of this game by code: the table's and the game's own records
    kinds: dict[int, DecisionKind]
    layout: ActionLayout
    leader: int
    main_options: Callable[[Any, int], list[int]]
    modules: frozenset[str]  # the modules in use (Tarnished Star A, B ...)
    n_bf: int
    n_cards: int
    n_uids: int
    owned_defs: tuple[tuple[int, ...], ...]  # each player's card definitions (any instance)
    #: per player, the cards the other may name when a card has him name one (in the action
    #: table's card range; () where no card in the game does: compiled._names_to_say)
    name_defs: tuple[tuple[int, ...], ...]
    owner: list[int]
    pay_action: list[int]
    game_action_text: Callable[[Any, int], str]
    play_action: list[int]
    play_blockers: tuple[tuple[int, ...], ...]  # each player's cards with forbid-here
    play_drawn: Callable[[Any, tuple], None]  # the task that plays a card when drawn
    play_reactions: tuple[frozenset[int] | None, ...]
    play_watch_defs: Any
    play_watchers: Any
    refresh_hidden: Callable[[Any], None]
    rules: Rules
    ruleset: str
    #: uid -> the other player's instance of the same card, -1 if none: the cards a module
    #: gives both players (`extra_cards`, one each: the Frontier deck's), so a card can
    #: change sides (Revolver's `frontier_steps.change_sides`)
    twin: tuple[int, ...]
    watch_uids: tuple[int, ...]

    def bf_name(self, bf: int) -> str:
        return self.bfs[bf].name if bf < self.n_bf else "the open range"

    def uid_name(self, uid: int) -> str:
        if uid >= self.n_cards:
            return self.characters[uid - self.n_cards].name
        return self.card_def[uid].name

    def uid_id(self, uid: int) -> str:
        if uid >= self.n_cards:
            return self.characters[uid - self.n_cards].id
        return self.card_def[uid].id

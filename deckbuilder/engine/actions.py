"""The action table: every decision is one small int, read in the context of the open decision.

A game's table is fixed once its decks are known (`ActionLayout`): a few fixed actions, then
ranges for battlefields, modes, characters, card instances, abilities, card definitions and
the game's own pieces. The numbering depends only on the game and the decks in play, never on
what else the catalog holds; `action_to_string` reads an action in its decision's context.
"""

from __future__ import annotations

from typing import Any, Final

from deckbuilder.declaration import DecisionKind
from deckbuilder.protocol import IllegalActionError

PASS: Final = 0  # end the play phase / decline / done choosing
USE_PIECE: Final = 1  # use the game's table piece here (Derail the Train, the bridge ...)
ACCEPT: Final = 2  # pay an optional cost
BF_BASE: Final = 3  # + battlefield index (the open range is the last "battlefield")
MODE_BASE: Final = 32  # + mode index (0 = the card as printed)
CHARACTER_BASE: Final = 40  # + character index (Revolver's bandits, Revolver 2's guardians)
IN_PLAY_BASE: Final = 100  # + card instance id: a card in play chosen as a target
MAX_BATTLEFIELDS: Final = MODE_BASE - BF_BASE - 1
MAX_CHARACTERS: Final = IN_PLAY_BASE - CHARACTER_BASE
MAX_ABILITIES: Final = 4

# Kinds of open decisions (they say how to read the action ints): the table's own. A game's
# own kinds are records of its declaration (`GameDeclaration.decision_kinds`: Revolver's
# Derail the Train, duel, Frontier draw, the Tarnished Star's hidden card and token; Revolver
# 2's optional space, kegs and poker), with codes no table kind uses; the game reads its
# actions in `GameRules.describe_action`.
K_MAIN: Final = 0  # play phase: play a card, use an ability, discard own card, derail, or pass
K_MODE: Final = 1
K_PLACE: Final = 2
K_PAY: Final = 3  # discard a card from hand to pay a cost
K_DISCARD: Final = 4  # discard a card from hand because an effect says so
K_REACT: Final = 5  # play a reaction card (or pass)
K_KILL: Final = 6
K_DESTROY: Final = 7
K_BOUNCE: Final = 8
K_MOVE_CARD: Final = 9
K_MOVE_TO: Final = 10
K_TOKEN: Final = 11
K_CASUALTY: Final = 12
K_SACRIFICE: Final = 13
K_OPTIONAL: Final = 15
K_RETRIEVE: Final = 16
K_SEARCH: Final = 17
K_NAME: Final = 18
K_SACRIFICE_CARD: Final = 19
K_ATTACH: Final = 20  # choose the card in play to put an attachment under

#: The table's decision kinds, one record each (code, name, words, secrecy).
TABLE_KINDS: Final = (
    DecisionKind(K_MAIN, "main", "play phase"),
    DecisionKind(K_MODE, "mode", "choose how to play"),
    DecisionKind(K_PLACE, "place", "choose a battlefield"),
    DecisionKind(K_PAY, "pay", "pay: discard a card"),
    DecisionKind(K_DISCARD, "discard", "discard a card"),
    DecisionKind(K_REACT, "react", "react"),
    DecisionKind(K_KILL, "kill", "choose a card to kill"),
    DecisionKind(K_DESTROY, "destroy", "choose a card to destroy"),
    DecisionKind(K_BOUNCE, "bounce", "choose a card to return to hand"),
    DecisionKind(K_MOVE_CARD, "move-card", "choose a card to move"),
    DecisionKind(K_MOVE_TO, "move-to", "choose where to move it"),
    DecisionKind(K_TOKEN, "token", "choose a card for the token"),
    DecisionKind(K_CASUALTY, "casualty", "choose the casualty"),
    DecisionKind(K_SACRIFICE, "sacrifice", "choose a gang member to lose"),
    DecisionKind(K_OPTIONAL, "optional", "pay an optional cost?"),
    DecisionKind(K_RETRIEVE, "retrieve", "choose a card from the discard pile"),
    DecisionKind(K_SEARCH, "search", "choose a card from the deck", secret=True,
                 secret_words="puts a card from the deck on top of it"),
    DecisionKind(K_NAME, "name", "name a card"),
    DecisionKind(K_SACRIFICE_CARD, "sacrifice-card", "choose one of your characters to lose"),
    DecisionKind(K_ATTACH, "attach", "choose the card to put it under"),
)


def decision_kinds(game_kinds: tuple[DecisionKind, ...]) -> dict[int, DecisionKind]:
    """The table's kinds and a game's, by code (a game's code may not be the table's)."""
    kinds = {kind.code: kind for kind in TABLE_KINDS}
    for kind in game_kinds:
        if kind.code in kinds:
            raise ValueError(f"decision kind {kind.name}: code {kind.code} is taken by "
                             f"{kinds[kind.code].name}")
        kinds[kind.code] = kind
    return kinds


__all__ = ["IllegalActionError"]


class ActionLayout:
    """Where each range of the action table starts, for one game's decks."""

    __slots__ = (
        "ability_base",
        "card_base",
        "game_base",
        "n_defs",
        "n_game_actions",
        "n_uids",
        "own_base",
        "pay_base",
        "play_base",
        "size",
    )

    def __init__(self, n_uids: int, n_defs: int, n_game_actions: int = 0) -> None:
        self.n_uids = n_uids
        self.n_defs = n_defs  # the decks' own card definitions (see GameSpec.def_slot)
        self.n_game_actions = n_game_actions
        self.own_base = IN_PLAY_BASE + n_uids  # discard one of your own cards in play
        self.ability_base = self.own_base + n_uids
        self.play_base = self.ability_base + n_uids * MAX_ABILITIES
        self.pay_base = self.play_base + n_defs
        self.card_base = self.pay_base + n_defs
        self.game_base = self.card_base + n_defs
        self.size = self.game_base + n_game_actions


def kind_name(kind: int, spec: Any) -> str:
    """The words of an open decision of kind `kind` in the game of `spec`."""
    found = spec.kinds.get(kind)
    return found.words if found is not None else "decision"


def action_to_string(state: Any, action: int) -> str:
    """Read `action` in the context of the state's open decision."""
    spec = state.spec
    layout: ActionLayout = spec.layout
    kind = state.pending_kind
    if kind in spec.game_kinds:  # one of the game's own decisions: the game reads it first
        text = spec.game_rules.describe_action(state, action)
        if text is not None:
            return text
    if action == PASS:
        return {
            K_MAIN: "end play phase", K_REACT: "do not react",
            K_OPTIONAL: "decline the optional cost",
        }.get(kind, "stop (choose no more)")
    if action == USE_PIECE:
        return spec.game_rules.describe_piece(state)
    if action == ACCEPT:
        return "pay the optional cost"
    if BF_BASE <= action < MODE_BASE:
        verb = "move it to" if kind == K_MOVE_TO else "place at"
        return f"{verb} {spec.bf_name(action - BF_BASE)}"
    if MODE_BASE <= action < CHARACTER_BASE:
        data = state.pending_data
        card = spec.card_def[data[0]] if data else None
        index = action - MODE_BASE
        if card is not None and index < len(card.modes):
            return f"play {card.name} as: {card.modes[index].name}"
        return f"mode {index}"
    if CHARACTER_BASE <= action < IN_PLAY_BASE:
        index = action - CHARACTER_BASE
        name = spec.characters[index].name if index < len(spec.characters) else f"#{index}"
        verb = "lose" if kind == K_SACRIFICE else "casualty:"
        return f"{verb} {name}"
    if IN_PLAY_BASE <= action < layout.own_base:
        uid = action - IN_PLAY_BASE
        verb = {
            K_KILL: "kill", K_DESTROY: "destroy", K_BOUNCE: "return to hand",
            K_MOVE_CARD: "move", K_TOKEN: "token on", K_SACRIFICE_CARD: "lose",
            K_ATTACH: "put it under",
        }.get(kind, "choose")
        return (f"{verb} {spec.uid_name(uid)}{state.where_text(uid)}"
                f"{_which_copy(state, action, IN_PLAY_BASE, 1, True)}")
    if layout.own_base <= action < layout.ability_base:
        uid = action - layout.own_base
        return (f"discard own {spec.uid_name(uid)} from play"
                f"{_which_copy(state, action, layout.own_base, 1, False)}")
    if layout.ability_base <= action < layout.play_base:
        uid, index = divmod(action - layout.ability_base, MAX_ABILITIES)
        card = spec.card_def[uid]
        ability = card.abilities[index].name if index < len(card.abilities) else f"#{index}"
        return (f"use {card.name}: {ability}"
                f"{_which_copy(state, action, layout.ability_base, MAX_ABILITIES, False)}")
    action_def = spec.action_def
    if layout.play_base <= action < layout.pay_base:
        name = spec.defs[action_def[action]].name
        return f"react with {name}" if kind == K_REACT else f"play {name}"
    if layout.pay_base <= action < layout.card_base:
        name = spec.defs[action_def[action]].name
        return f"pay: discard {name}" if kind == K_PAY else f"discard {name}"
    if layout.card_base <= action < layout.game_base:
        name = spec.defs[action_def[action]].name
        verb = {K_RETRIEVE: "take", K_SEARCH: "put on top", K_NAME: "name"}.get(kind, "choose")
        return f"{verb} {name}"
    if layout.game_base <= action < layout.size:
        return spec.game_action_text(state, action - layout.game_base)
    return f"action {action} (outside the action table)"


def _which_copy(state: Any, action: int, base: int, stride: int, by_place: bool) -> str:
    """' #N' when other options of the open decision in the same range read like `action`
    (copies of one card: at one battlefield if the text names it, `by_place`, else anywhere):
    the N-th of them in the order of the action table, as scenario files number actions
    that read alike (`deckbuilder.scenarios.choosing`); '' when no other reads so."""
    if state.pending_resume is None:  # no decision open (one taken alone, or the game over):
        return ""  # the options listed are not this action's
    spec = state.spec
    uid, index = divmod(action - base, stride)
    name = spec.uid_name(uid)
    where = state.where_text(uid) if by_place else ""
    end = base + spec.layout.n_uids * stride
    alike: list[int] = []
    for option in state.legal:
        if base <= option < end and (option - base) % stride == index:
            other = (option - base) // stride
            if spec.uid_name(other) == name and (
                    not by_place or state.where_text(other) == where):
                alike.append(option)
    if len(alike) < 2 or action not in alike:
        return ""
    return f" #{alike.index(action) + 1}"

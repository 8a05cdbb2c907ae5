"""The effect vocabulary: the steps, discriminated by `do`, that card data composes into card
behaviour. `STEP_MODELS` is the one registry; a step the engine cannot perform makes its card
"unimplemented", never silently ignored.
"""

from __future__ import annotations

import importlib
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeAlias, Union

from pydantic import Field, model_validator

from deckbuilder.declared import DECLARATIONS
from deckbuilder.models.common import CardId, Category, Icon, PlayType, Strict


class Side(StrEnum):
    SELF = "self"
    OPPONENT = "opponent"
    ANY = "any"


class Where(StrEnum):
    CURRENT = "current"
    ANY = "any"
    ADJACENT = "adjacent"
    UPCOMING = "upcoming"
    PLAYED_AT = "played-at"
    # the battlefield just before (left of) the current one; as move-card's `to`, the one
    # before the moved card's own battlefield ("back one battlefield")
    PREVIOUS = "previous"


class Zone(StrEnum):
    HAND = "hand"
    PLAY = "play"
    DISCARD = "discard"
    DECK_TOP = "deck-top"


class TokenKind(StrEnum):
    POWER = "power"
    TRUE_GRIT = "true-grit"
    SILVER_DOLLAR = "silver-dollar"
    EAGLE = "eagle"
    CHILD_HOSTAGE = "child-hostage"


class Target(Strict):
    """Which cards in play a step acts on.

    A card lying under another card (see `attach`) is never a target of its own: it goes
    with the card it lies under.
    """

    side: Side = Side.OPPONENT
    where: Where = Where.CURRENT
    categories: list[Category] = Field(default_factory=list, description="empty: any category")
    plays: list[PlayType] = Field(default_factory=list, description="empty: any play type")
    cards: list[CardId] = Field(default_factory=list, description="only these card ids")
    exclude: list[CardId] = Field(default_factory=list)
    icons: list[Icon] = Field(
        default_factory=list, description="only cards bearing one of these icons")
    host: bool = Field(
        False, description="only the card this card lies under (see attach); the other "
                           "fields are not read")


Count = Annotated[int, Field(ge=0, le=99)] | Literal["all"]


class Kill(Strict):
    """Kill characters in play (true grit absorbs a kill unless ignored).

    `max_total_firepower`: the combined firepower of the killed cards may not exceed it; each
    card counts its current firepower, power tokens on it included (Stick of dynamite note).
    """

    do: Literal["kill"]
    target: Target = Field(default_factory=lambda: Target(categories=[Category.CHARACTER]))
    count: Count = 1
    up_to: bool = Field(False, description="the player may kill fewer")
    at_least: int = Field(
        0, ge=0, le=99,
        description="with up_to: the first this many kills cannot be declined (\"kill one or "
                    "two\": count 2, up_to, at_least 1); a stop is offered only after them")
    max_total_firepower: int | None = Field(None, ge=0)
    ignore_true_grit: bool = False
    remove_from_game: bool = False


class Destroy(Strict):
    """Destroy cards in play (impervious cards are immune).

    `remove_from_game`: the cards go out of the game instead of onto the discard pile; they
    still count as destroyed (their on-destroyed effects apply).
    """

    do: Literal["destroy"]
    target: Target = Field(default_factory=Target)
    count: Count = 1
    up_to: bool = False
    remove_from_game: bool = False


class Casualty(Strict):
    """The opposing bandit/guardian player loses characters, lowest survival rating first."""

    do: Literal["casualty"]
    count: int = Field(1, ge=1, le=19)


class Sacrifice(Strict):
    """You lose your own characters as casualties (their on-death effects still apply)."""

    do: Literal["sacrifice"]
    count: int = Field(1, ge=1, le=19)


class MoveMarker(Strict):
    """Move the turn marker: +1 is one space right (a turn less), -1 one space left (a turn more).

    With `stay_on_battlefield` the marker never leaves its battlefield, and the card cannot be
    played when the marker already stands on the last space in that direction (the rightmost
    space for +N, the leftmost for -N). Moving left from space "1" uses the "-" extra spaces.
    """

    do: Literal["move-marker"]
    spaces: int = Field(ge=-5, le=5)
    stay_on_battlefield: bool = True


class Draw(Strict):
    do: Literal["draw"]
    count: int = Field(1, ge=1, le=20)
    side: Side = Side.SELF


class Discard(Strict):
    """Discard cards from a hand (random: the opponent picks blind)."""

    do: Literal["discard"]
    side: Side = Side.OPPONENT
    count: int = Field(1, ge=1, le=20)
    random: bool = False
    named: bool = Field(False, description="name a card; the opponent discards it if held")


class Bounce(Strict):
    """Return a card in play to its owner's hand."""

    do: Literal["bounce"]
    target: Target = Field(default_factory=Target)
    count: int = Field(1, ge=1, le=20)


class Retrieve(Strict):
    """Take a card from your own discard pile to your hand or into play.

    `to: play` places it on your side of the current battlefield without paying its cost; its
    come-into-play effect does not apply, since it is not placed from the hand (rulebook icons).
    """

    do: Literal["retrieve"]
    categories: list[Category] = Field(default_factory=list)
    to: Zone = Zone.HAND
    count: int = Field(1, ge=1, le=20)


class MoveCard(Strict):
    """Move a card in play to another battlefield.

    `to` names a battlefield relative to the current one, except `adjacent`: a battlefield next
    to the moved card's own battlefield (Quincey 'The Spider' Whitmore).
    """

    do: Literal["move-card"]
    target: Target = Field(default_factory=Target)
    to: Where = Where.CURRENT


class AddToken(Strict):
    """Put tokens on cards in play (`target.side: self` with no filter: this card).

    A power token on a bandit or guardian character adds no firepower: it is an extra life,
    removed instead of the character when he would be killed (Cortez, base rulebook FAQ).
    """

    do: Literal["add-token"]
    token: TokenKind = TokenKind.POWER
    count: int = Field(1, ge=1, le=20)
    target: Target | None = Field(None, description="none: this card")
    per_card_in_discard: list[CardId] = Field(
        default_factory=list, description="one token per such card in your discard pile"
    )
    only_if_upcoming: bool = Field(False, description="only when placed at an upcoming battlefield")
    each: bool = Field(
        False, description="every card the target matches gets the tokens (without it: one "
                           "of them, chosen by the player)")


class RowLimit(Strict):
    """While this card stays, the opponent may have at most `limit` cards at its battlefield."""

    do: Literal["row-limit"]
    limit: int = Field(ge=0, le=5)


class BorderTokens(Strict):
    """Remove tokens from the countdown card (Mexican Border / Arrival of the Mexican Army)."""

    do: Literal["border-tokens"]
    count: int = Field(1, ge=1, le=12)


class CancelAttack(Strict):
    """The opponent's attack this turn fails (no casualty)."""

    do: Literal["cancel-attack"]


class CancelCard(Strict):
    """The card that triggered this reaction has no effect."""

    do: Literal["cancel-card"]


class SearchDeck(Strict):
    """Find a card in your deck, shuffle, put it on top."""

    do: Literal["search-deck"]


class ShuffleHands(Strict):
    """Both players shuffle their hands into their decks and draw as many."""

    do: Literal["shuffle-hands"]


class RemoveDiscardPile(Strict):
    """A player's whole discard pile is removed from the game (Austin Granby; when his deck
    then runs out he plays on with what remains: Tarnished Star, "Empty deck")."""

    do: Literal["remove-discard-pile"]
    side: Side = Side.SELF


class Forbid(Strict):
    """From now on these cards may not be played by their owner."""

    do: Literal["forbid"]
    cards: list[CardId]


class ExtraTurns(Strict):
    """Extra turns on a battlefield's face spaces (Kittens, Skinny)."""

    do: Literal["extra-turns"]
    face: str = Field(description="the face space label, e.g. kittens")
    count: int = Field(1, ge=1, le=5)
    unless_reached: CardId | None = Field(
        None, description="no extra turns once the marker has reached this battlefield"
    )


class LoseGame(Strict):
    """The owner of this card loses at once."""

    do: Literal["lose-game"]


class RemoveFromGame(Strict):
    """Remove this card from the game (instead of discarding it)."""

    do: Literal["remove-self"]


class OptionalCost(Strict):
    """You may pay an extra cost now; only if you do, the nested `steps` follow.

    The cost is discarding `discard` other cards from your hand (Yellow Boy Rifle: "you may
    discard a card to kill a lawmen character"). Declining, or being unable to pay, skips the
    nested steps; the rest of the card still resolves.
    """

    do: Literal["optional-cost"]
    discard: int = Field(1, ge=1, le=10)
    steps: list[Step] = Field(min_length=1)


class Condition(Strict):
    """What an `only-if` step asks of the game; every field given must hold.

    Things that are not in this game never satisfy a condition: a character who is not in the
    game is not dead, and the turn marker is never at, nor before, a location that is not on
    the board (the San Manzanillo Prison of Expansion 1.2, for instance).
    """

    dead: list[CardId] = Field(
        default_factory=list, description="each of these characters is in the game and dead")
    marker_at: list[CardId] = Field(
        default_factory=list, description="the turn marker is on one of these battlefields")
    marker_before: CardId | None = Field(
        None, description="the battlefield is on the board and the marker has not reached it")
    in_play: list[CardId] = Field(
        default_factory=list, description="one of these cards is in play (any battlefield, "
                                          "either side)")


class OnlyIf(Strict):
    """The steps after this one (in the same list) happen only if `condition` holds.

    With `blocks_play` (the default), a list that STARTS with this step also restricts when
    its card can be used: a card or mode whose play effect starts with it cannot be played,
    a reaction whose steps start with it is not offered, and an ability whose steps start
    with it cannot be used, while the condition does not hold.
    """

    do: Literal["only-if"]
    condition: Condition
    blocks_play: bool = True


class Attach(Strict):
    """Put this card under one card in play that `target` matches (the player chooses).

    It stays in play as an add-on of that card (its host): it adds its own firepower (the
    firepower of the mode it was played in) to its side's firepower at the host's
    battlefield, while the host's own firepower is unchanged (Tarnished Star FAQ Q5: a
    Dynamite still counts the host's base firepower); an eagle token on the host empties it
    too (Tokens and Card Notes). It counts toward no card limit, is no
    target of its own, moves with its host, and goes to its owner's discard pile when the host
    leaves play. Only its owner's cards can hold it. A card or mode whose play effect
    attaches can be played only while a host is in play; with no host left when it resolves,
    it is discarded.
    """

    do: Literal["attach"]
    target: Target = Field(
        default_factory=lambda: Target(side=Side.SELF, where=Where.ANY))


class CostReduction(Strict):
    """Static: while this card is in play at the current battlefield, its owner's cards whose
    names contain `name_contains` cost `amount` fewer discards; never below zero."""

    do: Literal["cost-reduction"]
    amount: int = Field(1, ge=1, le=10)
    name_contains: str = Field(min_length=1, max_length=80)


class UnaffectedBy(Strict):
    """Static: the row limits set by the cards `target` matches (read from this card's
    owner, e.g. the opponent's Sandstorm) do not apply to this card: it does not count toward
    them, and it may be played where they would stop a card."""

    do: Literal["unaffected-by"]
    target: Target


class DestroySelf(Strict):
    """This card is destroyed: from play onto its owner's discard pile, its on-destroyed
    effects apply. (Its own effect: the impervious icon does not stop it.)"""

    do: Literal["destroy-self"]


class DiscardSelf(Strict):
    """This card goes from play onto its owner's discard pile; it is not destroyed (no
    on-destroyed effects)."""

    do: Literal["discard-self"]


class Manual(Strict):
    """An effect the vocabulary cannot express yet; the card is reported as unimplemented."""

    do: Literal["manual"]
    text: str


#: The table's own steps; each game adds its own (its declaration's `card_model`: `STEPS`).
TABLE_STEPS: tuple[type[Strict], ...] = (
    Kill, Destroy, Casualty, Sacrifice, MoveMarker, Draw, Discard, Bounce, Retrieve,
    MoveCard, AddToken, RowLimit, BorderTokens, CancelAttack, CancelCard, SearchDeck,
    ShuffleHands, Forbid, ExtraTurns, LoseGame, RemoveFromGame, OptionalCost, Manual,
    OnlyIf, Attach, CostReduction, UnaffectedBy, DestroySelf, DiscardSelf, RemoveDiscardPile,
)


def game_declared(attribute: str) -> list[Any]:
    """What each game's own card-data module declares under `attribute` (`STEPS` ...)."""
    modules = [importlib.import_module(declaration.card_model) for declaration in DECLARATIONS
               if declaration.card_model]
    return [getattr(module, attribute) for module in modules if hasattr(module, attribute)]


#: Every step card data may name: the table's, then each game's own (the one registry).
STEP_MODELS: tuple[type[Strict], ...] = (
    *TABLE_STEPS, *(model for steps in game_declared("STEPS") for model in steps))


class StepModel(Protocol):
    """What every step model has: its name (`do`)."""

    @property
    def do(self) -> str: ...


if TYPE_CHECKING:  # built from the games' declarations; for mypy, any step model
    Step: TypeAlias = StepModel
else:
    Step = Annotated[Union[STEP_MODELS], Field(discriminator="do")]  # noqa: UP007 - from data

_NESTING: tuple[type[Strict], ...] = (OptionalCost, *STEP_MODELS[len(TABLE_STEPS):])
for _model in _NESTING:
    _model.model_rebuild(_types_namespace={"Step": Step})  # nested steps refer to `Step`
del _model

STEP_NAMES: frozenset[str] = frozenset(
    model.model_fields["do"].annotation.__args__[0] for model in STEP_MODELS  # type: ignore[union-attr]
)


class When(StrEnum):
    """Moments at which a card's trigger fires."""

    ON_PLAY = "on-play"  # the card is played from hand (one-shot) or comes into play
    OPPONENT_ATTACK_KILLS = "opponent-attack-kills"  # reaction: a casualty in the attack phase
    OPPONENT_PLAYS = "opponent-plays"  # reaction: the opponent plays one of `cards`
    ON_DESTROYED = "on-destroyed"
    ON_DEATH = "on-death"  # characters: when killed for good
    ON_TRUE_GRIT_LOST = "on-true-grit-lost"
    # a true grit or power token on this character is removed instead of a kill ("Skinny"
    # Landell: his starting token is power or true grit, depending on the ruleset)
    ON_TOKEN_LOST = "on-token-lost"
    MARKER_ENTERS = "marker-enters"  # the marker is placed on `battlefield`
    DRAW_PHASE_HERE = "draw-phase-here"  # each draw phase while this card is at the current bf
    LEAVE_BATTLEFIELD = "leave-battlefield"  # the marker leaves the battlefield of this card
    # while this card is in play (and not emptied by an eagle token), the opponent plays one
    # of `cards` (any card if empty), at this card's battlefield only with `here`; the steps
    # run after the played card's cost and its reaction window, before it resolves, unless
    # that card was cancelled; `optional` lets the owner decline
    OPPONENT_PLAYS_WHILE_IN_PLAY = "opponent-plays-while-in-play"
    # one of `cards` is played or retrieved into play at, or moved to, this card's
    # battlefield (either side), while this card is in play there and not emptied
    CARD_ARRIVES_HERE = "card-arrives-here"


class Trigger(Strict):
    when: When
    cards: list[CardId] = Field(
        default_factory=list,
        description="for opponent-plays, opponent-plays-while-in-play and card-arrives-here")
    battlefield: CardId | None = Field(None, description="for marker-enters")
    optional: bool = True
    here: bool = Field(
        False, description="for opponent-plays-while-in-play: only at this card's battlefield")
    steps: list[Step]


class Ability(Strict):
    """An action the owner may take in the play phase while the card is in play."""

    name: str
    discard_cost: int = Field(0, ge=0, le=10)
    once_per_turn: bool = True
    steps: list[Step]


class Mode(Strict):
    """An alternative way to play a card (e.g. Let's shoot our way outta here!), or to use it
    from the hand without playing it (`discard_for_effect`: the Volcanic pistol's "or discard
    this card from your hand to destroy ...")."""

    name: str
    play: PlayType
    firepower: int | None = Field(None, ge=0, le=20)
    effect: list[Step] = Field(default_factory=list)
    discard_for_effect: bool = Field(
        False, description="the card is discarded from the hand for this effect (a remove-self "
                           "step removes it from the game instead): it is no play, so its cost "
                           "is not paid and no reaction to a play answers it")

    @model_validator(mode="after")
    def _discarded_cards_are_not_placed(self) -> Mode:
        if self.discard_for_effect and self.play != PlayType.ONE_SHOT:
            raise ValueError("a discard_for_effect mode is played as one-shot: the card goes "
                             "to the discard pile, it is not placed")
        return self

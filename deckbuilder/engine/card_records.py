"""The records the table reads its cards from (a mode, an ability, a card, a character, a
battlefield), one `__slots__` object each with typed fields, below the state so every module
that plays reads them typed: for mypy, and for the compiled build (a typed field is read at
once).
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from deckbuilder.engine.codes import SLOT_UNDER

T = TypeVar("T")

#: Each record's fields, named once: its `__slots__` and its copy (a rule switch's reading
#: reshapes a copy of a record for its own game; the compiled build's classes neither list
#: their slots nor copy with `copy.copy` unless told how).
_MODE_FIELDS: Final = (
    "counts", "discarded", "effect", "firepower", "hidden", "host", "index", "marker_req",
    "name", "needs", "play", "row_limit", "slot",
)
_ABILITY_FIELDS: Final = (
    "discard_cost", "gate", "name", "needs_under", "once_per_turn", "steps",
)
_CARD_FIELDS: Final = (
    "abilities", "ammunition", "arrivals", "cat_bit", "category", "cost", "cost_waived",
    "discount", "discounted", "draw_phase_here", "eagle_proof", "enter_grit", "enter_power",
    "faction", "fast", "firepower", "forbids", "hides", "icons", "id", "idx", "immune",
    "impervious", "kegs", "leave_battlefield", "main_playable", "marker_enters", "min_cost",
    "modes", "movable", "name", "named_bf", "named_place", "names_a_card", "not_at", "on_death",
    "on_destroyed",
    "on_grit_lost", "on_token_lost", "placement", "play", "play_watch", "played_when_drawn",
    "react_attack",
    "react_cards", "react_cost", "react_gates", "react_plays", "reshuffles", "silver", "simple",
    "speaks_silenced", "watch",
)
_CHARACTER_FIELDS: Final = (
    "draw_phase_here", "id", "idx", "leader", "leave_battlefield", "marker_enters", "name",
    "on_death", "on_grit_lost", "on_token_lost", "power", "starting", "survival", "true_grit",
)

#: A target filter's fields (its slots and its copy, `card_steps.TargetFilter`).
TARGET_FIELDS: Final = ("cards", "categories", "exclude", "host", "icons", "plays", "side",
                        "this_card", "where")


def copy_fields(source: object, target: T, fields: tuple[str, ...]) -> T:
    """`target` given every field `source` has set."""
    for name in fields:
        if hasattr(source, name):
            setattr(target, name, getattr(source, name))
    return target


class ModeDef:
    """One way to play a card; index 0 is the card as printed. A card lying under another
    card in play (its host) lies in a copy of its mode (`attached`): in no column, with the
    host's instance id. Immutable once the spec is built, so clones share modes."""

    __slots__ = _MODE_FIELDS

    def __init__(self, index: int, name: str, play: int, firepower: int, slot: int, counts: bool,
                 row_limit: int, effect: tuple, marker_req: tuple[int, bool] | None,
                 needs: tuple) -> None:
        self.index = index
        self.name = name
        self.play = play
        self.firepower = firepower
        self.slot = slot
        self.counts = counts
        self.row_limit = row_limit
        self.effect = effect
        self.marker_req = marker_req
        self.needs = needs  # what must hold for this mode to be playable (mode_needs)
        self.host = -1  # the card it lies under (attached modes only)
        self.hidden = False  # face down under its host (the Strongbox's card)
        # a discard for its effect (Mode.discard_for_effect): no play, so no cost is paid
        # and no reaction to a play answers it
        self.discarded = False

    def attached(self, host: int, hidden: bool = False) -> ModeDef:
        """This mode as its card lies under `host`: without a column, adding nothing and
        saying nothing if it lies face down."""
        mode = ModeDef(self.index, "hidden under" if hidden else self.name, self.play,
                       0 if hidden else self.firepower, SLOT_UNDER, False, -1, self.effect,
                       None, ())
        mode.host = host
        mode.hidden = hidden
        return mode

    def __copy__(self) -> ModeDef:
        return copy_fields(self, ModeDef(0, "", 0, 0, 0, False, -1, (), None, ()), _MODE_FIELDS)


class AbilityDef:
    """A card's ability, used from play for its discard cost."""

    __slots__ = _ABILITY_FIELDS

    def __init__(self, name: str, discard_cost: int, once_per_turn: bool, steps: tuple,
                 gate: Any, needs_under: bool) -> None:
        self.name = name
        self.discard_cost = discard_cost
        self.once_per_turn = once_per_turn
        self.steps = steps
        self.gate = gate  # a leading blocking only-if: usable only while it holds
        # taking the card hidden under it (Strongbox): usable only while one lies there
        self.needs_under = needs_under

    def __copy__(self) -> AbilityDef:
        return copy_fields(self, AbilityDef("", 0, False, (), None, False), _ABILITY_FIELDS)


class CardDef:
    """A deck card, compiled."""

    __slots__ = _CARD_FIELDS

    abilities: tuple[AbilityDef, ...]
    ammunition: int  # Revolver 2: ammunition symbols (the Gatling Gun)
    arrivals: tuple
    cat_bit: int
    category: str
    cost: int
    cost_waived: frozenset[int]
    discount: Any
    discounted: bool
    draw_phase_here: tuple
    eagle_proof: bool  # the eagle token may not go on it (locations, event cards)
    enter_grit: int
    enter_power: int
    faction: str
    fast: int
    firepower: int
    forbids: frozenset[int]  # cards the opponent may not play where it lies (forbid-here)
    hides: bool  # puts a card from hand face down under itself (hide-under: Strongbox)
    icons: frozenset[str]
    id: str
    idx: int
    immune: Any
    impervious: bool
    kegs: int  # Revolver 2: powder kegs (the bridge, the mine)
    leave_battlefield: tuple
    main_playable: bool
    marker_enters: tuple
    min_cost: int
    modes: tuple[ModeDef, ...]
    movable: bool
    name: str
    #: a placement the game names (`GameRules.placement_battlefields`: Revolver's prison):
    #: the battlefield it names (-1: not in the row) and its words in a reason
    named_bf: int
    named_place: str
    names_a_card: bool  # its text has a player name a card (Chicken foot): see effects.py
    not_at: frozenset[int]
    on_death: tuple
    on_destroyed: tuple
    on_grit_lost: tuple
    on_token_lost: tuple
    placement: int
    play: int
    play_watch: Any
    played_when_drawn: bool
    react_attack: tuple | None
    react_cards: frozenset[int] | None
    react_cost: int
    react_gates: tuple
    react_plays: tuple | None
    reshuffles: bool
    silver: int  # its cost in silver dollars, beside the discards
    speaks_silenced: bool  # its own text names the silent battlefield: it keeps its text there
    simple: bool
    watch: bool

    def __copy__(self) -> CardDef:
        return copy_fields(self, CardDef(), _CARD_FIELDS)


class CharDef:
    """A character of the side that has them (bandits, guardians), compiled."""

    __slots__ = _CHARACTER_FIELDS

    draw_phase_here: tuple
    id: str
    idx: int
    leader: bool
    leave_battlefield: tuple
    marker_enters: tuple
    name: str
    on_death: tuple
    on_grit_lost: tuple
    on_token_lost: tuple
    power: int
    starting: bool  # in front of its player at set-up (else in the character pile)
    survival: int
    true_grit: int

    def __copy__(self) -> CharDef:
        return copy_fields(self, CharDef(), _CHARACTER_FIELDS)


class BattlefieldDef:
    __slots__ = ("defence", "faces", "id", "idx", "kinds", "labels", "name", "offset",
                 "recruits")

    defence: int
    faces: tuple[str, ...]
    id: str
    idx: int
    kinds: tuple[int, ...]
    labels: tuple[str, ...]
    name: str
    offset: int
    recruits: tuple[int, ...]  # characters drawn from the pile on each space (Revolver 2)


class TargetFields:
    """A compiled step target's fields, which `card_steps.TargetFilter` fills: declared here,
    below the table, so `board.targets` (an inner loop of every game) reads them typed."""

    __slots__ = TARGET_FIELDS

    side: int
    where: int
    icons: frozenset[str] | None
    host: bool
    categories: int
    plays: frozenset[int] | None
    cards: frozenset[int] | None
    exclude: frozenset[int]
    this_card: bool

"""The card, bandit and battlefield definitions the table plays with: one `__slots__` object
per record, compiled once from the pydantic models, so the hot loop never inspects a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from deckbuilder.declared import DECLARATIONS
from deckbuilder.engine.actions import MAX_ABILITIES
from deckbuilder.engine.card_records import (
    AbilityDef,
    BattlefieldDef,
    CardDef,
    CharDef,
    ModeDef,
)
from deckbuilder.engine.codes import (
    CATEGORY_BITS,
    FAST_FREE,
    FAST_GENERAL,
    FAST_NEVER,
    FIREPOWER,
    ONE_SHOT,
    PLACE_BESIDE,
    PLACE_CURRENT,
    PLACE_NAMED,
    PLACE_OPEN_RANGE,
    PLACEMENT_CODES,
    PLAY_CODES,
    ROW_BLOCKING,
    SLOT_BESIDE,
    SLOT_NONE,
    SLOT_OPPONENT,
    SLOT_OWN,
    SPACE_CODES,
)
from deckbuilder.engine.effects import Resolver, compile_steps
from deckbuilder.engine.expansion_compile import compile_expansion_hooks
from deckbuilder.engine.expansion_steps import (
    NEED_HOST,
    bind_attach,
    gate_of,
    mode_needs,
)
from deckbuilder.engine.wording import speaks_at
from deckbuilder.models.effects import When

#: Every game's counts on a card (its data field, the `CardDef` attribute it fills), read for
#: every card whatever the game played (another game's cards leave the field at 0).
CARD_COUNTS: tuple[tuple[str, str], ...] = tuple(
    pair for declaration in DECLARATIONS for pair in declaration.card_counts)

def _mode(index: int, name: str, play: int, firepower: int, slot: int, counts: bool,
          row_limit: int, effect: tuple, marker_req: tuple[int, bool] | None) -> ModeDef:
    """A mode with what must hold for it to be playable (`mode_needs`); a mode that attaches
    its card under another lies in no column of its own."""
    needs = mode_needs(effect)
    if any(kind == NEED_HOST for kind, _ in needs):
        slot = SLOT_NONE
    return ModeDef(index, name, play, firepower, slot, counts, row_limit, effect, marker_req,
                   needs)


def _ability(name: str, discard_cost: int, once_per_turn: bool, steps: tuple,
             resolver: Resolver) -> AbilityDef:
    return AbilityDef(name, discard_cost, once_per_turn, steps, gate_of(steps),
                      bool(steps) and steps[0][0] in resolver.under_runners)


def _steps_of(triggers: Sequence[Any], when: str) -> list[Any]:
    return [trigger for trigger in triggers if trigger.when == when]


def _trigger_steps(triggers: Sequence[Any], when: str) -> list[Any]:
    return [step for trigger in _steps_of(triggers, when) for step in trigger.steps]


def _joined(resolver: Resolver, triggers: Sequence[Any], when: str) -> tuple:
    return compile_steps(_trigger_steps(triggers, when), resolver)


def _marker_triggers(resolver: Resolver, triggers: Sequence[Any]) -> tuple:
    found = []
    for trigger in _steps_of(triggers, When.MARKER_ENTERS):
        bf = resolver.bf(trigger.battlefield) if trigger.battlefield else -1
        found.append((bf, compile_steps(trigger.steps, resolver)))
    return tuple(found)


def _marker_requirement(steps: Sequence[Any]) -> tuple[int, bool] | None:
    return next(((step.spaces, step.stay_on_battlefield) for step in steps
                 if step.do == "move-marker"), None)


def _row_limit(steps: Sequence[Any]) -> int:
    return next((step.limit for step in steps if step.do == "row-limit"), -1)


def _slot(play: int, placement: int) -> int:
    if placement == PLACE_BESIDE:
        return SLOT_BESIDE
    if play == ONE_SHOT and placement != PLACE_OPEN_RANGE:
        return SLOT_NONE
    if play == ROW_BLOCKING:
        return SLOT_OPPONENT
    return SLOT_OWN


def _names_a_card(value: Any) -> bool:
    """Does any step in `value` (a card's effect, modes, abilities and triggers, and the steps
    inside those) have a player name a card (a discard with `named`)?"""
    if isinstance(value, BaseModel):
        if getattr(value, "do", None) == "discard" and getattr(value, "named", False):
            return True
        return any(_names_a_card(getattr(value, name)) for name in type(value).model_fields)
    if isinstance(value, (list, tuple)):
        return any(_names_a_card(item) for item in value)
    return False


def _compile_modes(card: Any, d: CardDef, resolver: Resolver) -> tuple[ModeDef, ...]:
    """The ways to play the card: as printed (its effect and on-play triggers), then each
    listed mode, with `d`'s play, firepower and placement already compiled."""
    on_play = [*card.effect, *_trigger_steps(card.triggers, When.ON_PLAY)]
    modes = [_mode(0, card.name, d.play, d.firepower, _slot(d.play, d.placement),
                     card.counts_toward_limit, _row_limit(on_play),
                     compile_steps(on_play, resolver), _marker_requirement(on_play))]
    for index, mode in enumerate(card.modes, start=1):
        play = PLAY_CODES[mode.play]
        firepower = mode.firepower if mode.firepower is not None else (
            d.firepower if play == FIREPOWER else 0)
        compiled = _mode(index, mode.name, play, firepower,
                         SLOT_NONE if mode.discard_for_effect else _slot(play, d.placement),
                         card.counts_toward_limit, _row_limit(mode.effect),
                         compile_steps(mode.effect, resolver), _marker_requirement(mode.effect))
        compiled.discarded = mode.discard_for_effect
        modes.append(compiled)
    if card.modes and card.modes[0].play == card.play:
        # The data lists every way to play the card as a mode (the printed play is the first
        # one): offer the listed modes only, so the same choice does not appear twice.
        modes = modes[1:]
        for index, mode in enumerate(modes):
            mode.index = index
    for mode in modes:
        mode.effect = bind_attach(mode.effect, mode)
    return tuple(modes)


def compile_card(card: Any, idx: int, resolver: Resolver) -> CardDef:
    d = CardDef()
    d.idx, d.id, d.name, d.faction = idx, card.id, card.name, card.faction
    d.category = card.category
    d.cat_bit = CATEGORY_BITS.get(card.category, 0)
    d.play = PLAY_CODES[card.play]
    d.cost = card.cost
    d.firepower = card.firepower or 0
    icons = set(card.icons)
    d.icons = frozenset(icons)
    d.impervious = "impervious" in icons
    d.enter_grit = 1 if "true-grit" in icons else 0
    d.enter_power = 1 if "extra-firepower" in icons else 0
    d.movable = card.movable
    d.placement = PLACEMENT_CODES.get(card.placement, PLACE_NAMED)
    game_place = resolver.placements.get(card.placement)  # a placement the game names
    d.named_bf = resolver.bf(game_place[0]) if game_place is not None else -1
    d.named_place = game_place[1] if game_place is not None else f'"{card.placement}"'

    d.cost_waived = frozenset(resolver.bf(bf) for bf in card.cost_waived_at)
    d.not_at = frozenset(resolver.bf(bf) for bf in card.not_at)
    silent = resolver.silent_battlefield  # keeps its text there (Revolver's prison)
    d.speaks_silenced = bool(silent) and speaks_at(card, silent, resolver.placements)
    d.reshuffles = card.reshuffles
    d.names_a_card = _names_a_card([card.effect, card.modes, card.abilities, card.triggers])
    for field, attribute in CARD_COUNTS:
        setattr(d, attribute, getattr(card, field))
    triggers = card.triggers
    d.modes = _compile_modes(card, d, resolver)
    d.abilities = tuple(
        _ability(ability.name, ability.discard_cost, ability.once_per_turn,
                 compile_steps(ability.steps, resolver), resolver)
        for ability in card.abilities[:MAX_ABILITIES]
    )
    d.on_death = _joined(resolver, triggers, When.ON_DEATH)
    d.on_destroyed = _joined(resolver, triggers, When.ON_DESTROYED)
    d.on_token_lost = _joined(resolver, triggers, When.ON_TOKEN_LOST)
    d.on_grit_lost = _joined(resolver, triggers, When.ON_TRUE_GRIT_LOST)
    d.marker_enters = _marker_triggers(resolver, triggers)
    d.draw_phase_here = _joined(resolver, triggers, When.DRAW_PHASE_HERE)
    d.leave_battlefield = _joined(resolver, triggers, When.LEAVE_BATTLEFIELD)
    attack = _steps_of(triggers, When.OPPONENT_ATTACK_KILLS)
    d.react_attack = _joined(resolver, triggers, When.OPPONENT_ATTACK_KILLS) if attack else None
    compile_expansion_hooks(d, card, resolver)
    plays = _steps_of(triggers, When.OPPONENT_PLAYS)
    d.react_plays = d.react_cards = None
    if plays:
        d.react_plays = _joined(resolver, triggers, When.OPPONENT_PLAYS)
        named = frozenset(resolver.card(card_id) for t in plays for card_id in t.cards)
        d.react_cards = None if any(not t.cards for t in plays) else named
    # A one-shot that does nothing when played and exists to react is not played in the play
    # phase (Lightning reflexes, He shot my hat clean off!: "play this card when ...").
    reaction = d.react_attack is not None or d.react_plays is not None
    d.main_playable = not (reaction and len(d.modes) == 1 and d.modes[0].slot == SLOT_NONE
                           and not d.modes[0].effect)
    d.react_gates = (gate_of(d.react_attack) if d.react_attack else None,
                     gate_of(d.react_plays) if d.react_plays else None)
    d.watch = bool(d.marker_enters or d.draw_phase_here or d.leave_battlefield)
    d.discounted = False  # set by mark_discounts once every card is compiled
    set_fast_path(d)
    return d


def played_as_printed(d: CardDef) -> bool:
    """One way to play it, at its printed cost, with no condition, waiver, discount, silver or
    immunity: where it may go is all that is left to decide (`simple` where that is the
    marker's battlefield)."""
    return (len(d.modes) == 1 and not d.cost_waived and not d.modes[0].discarded
            and not d.not_at and d.modes[0].marker_req is None and not d.modes[0].needs
            and not d.discounted and d.immune is None and not d.silver)


def set_fast_path(d: CardDef) -> None:
    """How the play-phase options check this card (`CardDef.fast`; see codes.py)."""
    free_use = any(mode.discarded for mode in d.modes)  # a discard for its effect costs none
    d.min_cost = 0 if d.cost_waived or d.discounted or free_use else d.cost
    d.simple = d.placement == PLACE_CURRENT and played_as_printed(d)
    first = d.modes[0]
    if not d.main_playable:
        d.fast = FAST_NEVER
    elif not d.simple:
        d.fast = FAST_GENERAL
    elif first.counts and first.slot in (SLOT_OWN, SLOT_OPPONENT):
        d.fast = first.slot  # FAST_OWN_COLUMN / FAST_OPPONENT_COLUMN
    else:
        d.fast = FAST_FREE


def compile_character(character: Any, idx: int, resolver: Resolver) -> CharDef:
    c = CharDef()
    c.idx, c.id, c.name = idx, character.id, character.name
    c.survival = character.survival
    c.leader = character.leader
    c.starting = character.starting
    c.true_grit = character.true_grit
    c.power = character.power_tokens
    triggers = character.triggers
    c.on_death = compile_steps([*character.on_death, *_trigger_steps(triggers, When.ON_DEATH)],
                               resolver)
    c.on_token_lost = _joined(resolver, triggers, When.ON_TOKEN_LOST)
    c.on_grit_lost = _joined(resolver, triggers, When.ON_TRUE_GRIT_LOST)
    c.marker_enters = _marker_triggers(resolver, triggers)
    c.draw_phase_here = _joined(resolver, triggers, When.DRAW_PHASE_HERE)
    c.leave_battlefield = _joined(resolver, triggers, When.LEAVE_BATTLEFIELD)
    return c


def compile_battlefield(battlefield: Any, idx: int, offset: int) -> BattlefieldDef:
    b = BattlefieldDef()
    b.idx, b.id, b.name, b.defence, b.offset = idx, battlefield.id, battlefield.name, \
        battlefield.defence, offset
    b.kinds = tuple(SPACE_CODES[space.kind] for space in battlefield.spaces)
    b.labels = tuple(space.label for space in battlefield.spaces)
    b.faces = tuple(space.face or space.label for space in battlefield.spaces)
    b.recruits = tuple(space.recruit for space in battlefield.spaces)
    return b



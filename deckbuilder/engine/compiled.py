"""Catalog -> plain, fast card definitions (cached per catalog), and the per-game `GameSpec`.

Pydantic models stay at the edge: this module reads them once and turns every card, bandit,
battlefield and special into a `__slots__` object with ints, frozensets and tuples of compiled
effect steps `(function, params)`, so the hot loop never inspects a model or calls hasattr.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.actions import MAX_ABILITIES, MAX_BANDITS, MAX_BATTLEFIELDS, ActionLayout
from deckbuilder.engine.codes import (
    CATEGORY_BITS,
    FAST_FREE,
    FAST_GENERAL,
    FAST_NEVER,
    FIREPOWER,
    ONE_SHOT,
    PLACE_BESIDE,
    PLACE_CURRENT,
    PLACE_OPEN_RANGE,
    PLACEMENT_CODES,
    PLAY_CODES,
    PRISON_BATTLEFIELD,
    ROW_BLOCKING,
    SLOT_BESIDE,
    SLOT_NONE,
    SLOT_OPPONENT,
    SLOT_OWN,
    SPACE_CODES,
)
from deckbuilder.engine.effects import Resolver, compile_steps
from deckbuilder.engine.expansion_compile import (
    compile_expansion_hooks,
    expansion_spec,
    mark_discounts,
)
from deckbuilder.engine.expansion_steps import (
    NEED_HOST,
    bind_attach,
    gate_of,
    mode_needs,
)
from deckbuilder.engine.frontier_steps import run_take_under
from deckbuilder.engine.hooks import GameHooks
from deckbuilder.engine.play import (
    explain_illegal,
    main_options,
    refresh_hidden_decision,
    t_play_drawn,
)
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.engine.wording import speaks_at
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import CardSet
from deckbuilder.models.common import GAME_FACTIONS
from deckbuilder.models.effects import When
from deckbuilder.protocol import UnplayableDeckError
from deckbuilder.rulesets import Rules, read_rules

# Cards that never go back into a reshuffled deck (tarnished-star-en, "Empty deck": the
# Colonel McReady card is removed from the game). No card field says this yet.
NO_STEPS: tuple = ()


class ModeDef:
    """One way to play a card; index 0 is the card as printed."""

    __slots__ = ("counts", "effect", "firepower", "index", "marker_req", "name", "needs",
                 "play", "row_limit", "slot")

    def __init__(self, index: int, name: str, play: int, firepower: int, slot: int, counts: bool,
                 row_limit: int, effect: tuple, marker_req: tuple[int, bool] | None) -> None:
        self.index = index
        self.name = name
        self.play = play
        self.firepower = firepower
        self.slot = slot
        self.counts = counts
        self.row_limit = row_limit
        self.effect = effect
        self.marker_req = marker_req
        # what must hold for this mode to be playable (expansion_steps.mode_needs); a mode
        # that attaches its card under another lies in no column of its own
        self.needs = mode_needs(effect)
        if any(kind == NEED_HOST for kind, _ in self.needs):
            self.slot = SLOT_NONE


class AbilityDef:
    __slots__ = ("discard_cost", "gate", "name", "needs_under", "once_per_turn", "steps")

    def __init__(self, name: str, discard_cost: int, once_per_turn: bool, steps: tuple) -> None:
        self.name = name
        self.discard_cost = discard_cost
        self.once_per_turn = once_per_turn
        self.steps = steps
        self.gate = gate_of(steps)  # a leading blocking only-if: usable only while it holds
        # taking the card hidden under it (Strongbox): usable only while one lies there
        self.needs_under = bool(steps) and steps[0][0] is run_take_under


class CardDef:
    """A deck card, compiled."""

    __slots__ = (
        "abilities", "ammunition", "arrivals", "cat_bit", "category", "cost", "cost_waived",
        "discount", "discounted", "draw_phase_here", "eagle_proof", "enter_grit", "enter_power",
        "faction", "fast", "firepower", "forbids", "hides", "icons", "id", "idx", "immune",
        "impervious", "kegs", "leave_battlefield", "main_playable", "marker_enters", "min_cost",
        "modes", "movable", "name", "not_at", "on_death", "on_destroyed", "on_grit_lost",
        "on_token_lost", "placement", "play", "play_watch", "played_when_drawn",
        "react_attack", "react_cards", "react_cost", "react_gates", "react_plays",
        "reshuffles", "silver", "simple", "speaks_silenced", "watch",
    )

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
    speaks_silenced: bool  # its own text names the prison: it keeps its text there
    simple: bool
    watch: bool


class CharDef:
    """A character of the side that has them (bandits, guardians), compiled."""

    __slots__ = ("draw_phase_here", "id", "idx", "leader", "leave_battlefield",
                 "marker_enters", "name", "on_death", "on_grit_lost", "on_token_lost", "power",
                 "starting", "survival", "true_grit")

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


class CompiledCatalog:
    """Every card of one game in a catalog, plus the base set's table (characters,
    battlefields, specials)."""

    __slots__ = (
        "__weakref__", "base_set", "bf_index", "bfs", "characters", "countdown_tokens",
        "def_index", "defs", "game", "resolver", "rule_sets", "specs",
    )

    base_set: CardSet
    rule_sets: tuple[CardSet, ...]  # the game's other installed sets (their rule switches)
    bf_index: dict[str, int]
    bfs: list[BattlefieldDef]
    characters: list[CharDef]
    countdown_tokens: int
    def_index: dict[str, int]
    defs: list[CardDef]
    game: str
    resolver: Resolver
    specs: dict[tuple, GameSpec]


class GameSpec:
    """One game's fixed facts: who owns which card instance, the action table, the rules, and
    the game's hooks (`hooks`) and own facts (`facts`), bound once."""

    __slots__ = (
        "ability_uids", "action_def", "arrival_defs", "arrival_watchers", "attaching",
        "bandit_base", "bandit_order", "bandits", "bfs", "card_action", "card_def", "cards",
        "column_limit", "countdown_name", "countdown_tokens", "deck_defs", "decks", "def_of",
        "defs", "discounters", "draw_plays", "draw_watch", "explain_illegal", "extra_uids",
        "facts", "game", "grit_loss_kills", "hooks", "idle", "immune", "layout", "leader",
        "main_options", "modules", "n_bf", "n_cards", "n_uids", "owned_defs", "owner",
        "pay_action", "piece_text", "play_action", "play_blockers", "play_drawn",
        "play_reactions", "play_watch_defs", "play_watchers", "prison_bf", "refresh_hidden",
        "rules", "ruleset", "silences_plays", "twin", "watch_uids",
    )

    ability_uids: tuple[tuple[int, ...], ...]
    action_def: list[int]  # action -> card definition, for the play/pay/card ranges
    prison_bf: int  # where "prison" placements go (the San Manzanillo Prison), -1: not in play
    silences_plays: bool  # at the silent battlefield the cards played there lose their text
    arrival_defs: frozenset[int] | None
    arrival_watchers: tuple[int, ...]
    attaching: bool
    bandit_base: int
    bandit_order: tuple[int, ...]
    bandits: list[CharDef]
    bfs: list[BattlefieldDef]
    card_action: list[int]  # card definition -> its "choose the card" action (-1: none)
    card_def: list[CardDef]
    cards: Any
    column_limit: tuple[int, int]
    countdown_name: str
    countdown_tokens: int
    deck_defs: tuple[tuple[int, ...], ...]
    decks: tuple[list[int], list[int]]
    def_of: list[int]
    defs: list[CardDef]
    discounters: Any
    draw_plays: bool  # some card is played the moment it is drawn (played_when_drawn)
    draw_watch: bool
    explain_illegal: Callable[[Any, int], str]
    extra_uids: tuple[int, ...]  # card instances in no deck (a module's cards), set up by the game
    facts: Any  # the game's own facts (see its package)
    game: str
    grit_loss_kills: bool  # a true grit token taken instead of a death is a kill this turn
    hooks: GameHooks
    idle: Callable[[Any], None]
    immune: Any
    layout: ActionLayout
    leader: int
    main_options: Callable[[Any, int], list[int]]
    modules: frozenset[str]  # the modules in use (Tarnished Star A, B ...)
    n_bf: int
    n_cards: int
    n_uids: int
    owned_defs: tuple[tuple[int, ...], ...]  # each player's card definitions (any instance)
    owner: list[int]
    pay_action: list[int]
    piece_text: Callable[[Any, int], str]
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
    #: change sides (`frontier_steps.change_sides`)
    twin: tuple[int, ...]
    watch_uids: tuple[int, ...]

    def bf_name(self, bf: int) -> str:
        return self.bfs[bf].name if bf < self.n_bf else "the open range"

    def uid_name(self, uid: int) -> str:
        if uid >= self.n_cards:
            return self.bandits[uid - self.n_cards].name
        return self.card_def[uid].name

    def uid_id(self, uid: int) -> str:
        if uid >= self.n_cards:
            return self.bandits[uid - self.n_cards].id
        return self.card_def[uid].id


# -- compiling the catalog ----------------------------------------------------------------------
_CACHE: dict[int, tuple[weakref.ref, dict[tuple, CompiledCatalog]]] = {}


def compiled_catalog(catalog: Catalog, hooks: GameHooks,
                     layout: str | None = None) -> CompiledCatalog:
    """The compiled cards of the hooks' game in `catalog` with the battlefields of `layout`,
    built once per catalog object."""
    key = id(catalog)
    cached = _CACHE.get(key)
    if cached is None or cached[0]() is not catalog:
        cached = (weakref.ref(catalog), {})
        _CACHE[key] = cached
    per_game = cached[1]
    game_key = (hooks.game, layout)
    if game_key not in per_game:
        per_game[game_key] = _compile_catalog(catalog, hooks, layout)
    return per_game[game_key]


def _steps_of(triggers: Sequence[Any], when: str) -> list[Any]:
    return [trigger for trigger in triggers if trigger.when == when]


def _joined(resolver: Resolver, triggers: Sequence[Any], when: str) -> tuple:
    steps: list = []
    for trigger in _steps_of(triggers, when):
        steps.extend(trigger.steps)
    return compile_steps(steps, resolver)


def _marker_triggers(resolver: Resolver, triggers: Sequence[Any]) -> tuple:
    found = []
    for trigger in _steps_of(triggers, When.MARKER_ENTERS):
        bf = resolver.bf(trigger.battlefield) if trigger.battlefield else -1
        found.append((bf, compile_steps(trigger.steps, resolver)))
    return tuple(found)


def _marker_requirement(steps: Sequence[Any]) -> tuple[int, bool] | None:
    for step in steps:
        if step.do == "move-marker":
            return (step.spaces, step.stay_on_battlefield)
    return None


def _row_limit(steps: Sequence[Any]) -> int:
    for step in steps:
        if step.do == "row-limit":
            return step.limit
    return -1


def _slot(play: int, placement: int) -> int:
    if placement == PLACE_BESIDE:
        return SLOT_BESIDE
    if play == ONE_SHOT and placement != PLACE_OPEN_RANGE:
        return SLOT_NONE
    if play == ROW_BLOCKING:
        return SLOT_OPPONENT
    return SLOT_OWN


def _compile_card(card: Any, idx: int, resolver: Resolver) -> CardDef:
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
    d.placement = PLACEMENT_CODES[card.placement]
    d.cost_waived = frozenset(resolver.bf(bf) for bf in card.cost_waived_at)
    d.not_at = frozenset(resolver.bf(bf) for bf in card.not_at)
    d.speaks_silenced = speaks_at(card, PRISON_BATTLEFIELD)  # keeps its text at the prison
    d.reshuffles = card.reshuffles
    d.kegs = card.powder_kegs
    d.ammunition = card.ammunition
    triggers = card.triggers
    on_play: list = list(card.effect)
    for trigger in _steps_of(triggers, When.ON_PLAY):
        on_play.extend(trigger.steps)
    modes = [ModeDef(0, card.name, d.play, d.firepower, _slot(d.play, d.placement),
                     card.counts_toward_limit, _row_limit(on_play),
                     compile_steps(on_play, resolver), _marker_requirement(on_play))]
    for index, mode in enumerate(card.modes, start=1):
        play = PLAY_CODES[mode.play]
        firepower = mode.firepower if mode.firepower is not None else (
            d.firepower if play == FIREPOWER else 0)
        modes.append(ModeDef(index, mode.name, play, firepower, _slot(play, d.placement),
                             card.counts_toward_limit, _row_limit(mode.effect),
                             compile_steps(mode.effect, resolver),
                             _marker_requirement(mode.effect)))
    if card.modes and card.modes[0].play == card.play:
        # The data lists every way to play the card as a mode (the printed play is the first
        # one): offer the listed modes only, so the same choice does not appear twice.
        modes = modes[1:]
        for index, mode in enumerate(modes):
            mode.index = index
    for mode in modes:
        mode.effect = bind_attach(mode.effect, mode)
    d.modes = tuple(modes)
    d.abilities = tuple(
        AbilityDef(ability.name, ability.discard_cost, ability.once_per_turn,
                   compile_steps(ability.steps, resolver))
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
    d.react_attack = (compile_steps([s for t in attack for s in t.steps], resolver)
                      if attack else None)
    compile_expansion_hooks(d, card, resolver)
    plays = _steps_of(triggers, When.OPPONENT_PLAYS)
    if plays:
        d.react_plays = compile_steps([s for t in plays for s in t.steps], resolver)
        named = {resolver.card(card_id) for t in plays for card_id in t.cards}
        d.react_cards = None if any(not t.cards for t in plays) else frozenset(named)
    else:
        d.react_plays = None
        d.react_cards = None
    # A one-shot that does nothing when played and exists to react is not played in the play
    # phase (Lightning reflexes, He shot my hat clean off!: "play this card when ...").
    reaction = d.react_attack is not None or d.react_plays is not None
    d.main_playable = not (reaction and len(d.modes) == 1 and d.modes[0].slot == SLOT_NONE
                           and not d.modes[0].effect)
    d.react_gates = (gate_of(d.react_attack) if d.react_attack else None,
                     gate_of(d.react_plays) if d.react_plays else None)
    d.watch = bool(d.marker_enters or d.draw_phase_here or d.leave_battlefield)
    d.discounted = False  # set by mark_discounts once every card is compiled
    _set_fast_path(d)
    return d


def _set_fast_path(d: CardDef) -> None:
    """How the play-phase options check this card (`CardDef.fast`; see codes.py)."""
    d.min_cost = 0 if d.cost_waived or d.discounted else d.cost
    d.simple = (len(d.modes) == 1 and d.placement == PLACE_CURRENT and not d.cost_waived
                and not d.not_at and d.modes[0].marker_req is None and not d.modes[0].needs
                and not d.discounted and d.immune is None and not d.silver)
    first = d.modes[0]
    if not d.main_playable:
        d.fast = FAST_NEVER
    elif not d.simple:
        d.fast = FAST_GENERAL
    elif first.counts and first.slot in (SLOT_OWN, SLOT_OPPONENT):
        d.fast = first.slot  # FAST_OWN_COLUMN / FAST_OPPONENT_COLUMN
    else:
        d.fast = FAST_FREE


def _compile_character(character: Any, idx: int, resolver: Resolver) -> CharDef:
    c = CharDef()
    c.idx, c.id, c.name = idx, character.id, character.name
    c.survival = character.survival
    c.leader = character.leader
    c.starting = character.starting
    c.true_grit = character.true_grit
    c.power = character.power_tokens
    triggers = character.triggers
    on_death = list(character.on_death)
    for trigger in _steps_of(triggers, When.ON_DEATH):
        on_death.extend(trigger.steps)
    c.on_death = compile_steps(on_death, resolver)
    c.on_token_lost = _joined(resolver, triggers, When.ON_TOKEN_LOST)
    c.on_grit_lost = _joined(resolver, triggers, When.ON_TRUE_GRIT_LOST)
    c.marker_enters = _marker_triggers(resolver, triggers)
    c.draw_phase_here = _joined(resolver, triggers, When.DRAW_PHASE_HERE)
    c.leave_battlefield = _joined(resolver, triggers, When.LEAVE_BATTLEFIELD)
    return c


def _compile_battlefield(battlefield: Any, idx: int, offset: int) -> BattlefieldDef:
    b = BattlefieldDef()
    b.idx, b.id, b.name, b.defence, b.offset = idx, battlefield.id, battlefield.name, \
        battlefield.defence, offset
    b.kinds = tuple(SPACE_CODES[space.kind] for space in battlefield.spaces)
    b.labels = tuple(space.label for space in battlefield.spaces)
    b.faces = tuple(space.face or space.label for space in battlefield.spaces)
    b.recruits = tuple(space.recruit for space in battlefield.spaces)
    return b


def _check_battlefields(catalog: Catalog, battlefields: Sequence[Any]) -> None:
    """What the engine needs of battlefield data (a hand-edited overlay may reshape it): each
    battlefield has a regular space for the turn marker. Refused in one line that names the
    overlay entry when the overlay set the spaces, rather than failing deep in a game."""
    for battlefield in battlefields:
        if any(space.kind == "regular" for space in battlefield.spaces):
            continue
        raise UnplayableDeckError(
            f"battlefield '{battlefield.id}' has no regular space (the turn marker needs one)",
            _data_location(catalog, battlefield, "spaces"),
            "give it at least one regular space (`kind: regular`, the default), or remove "
            "the correction (`deckbuilder overlay unset`)",
        )


def _data_location(catalog: Catalog, record: Any, field: str) -> Location | None:
    """The overlay entry that set `field` of `record`, else the set file that defines it."""
    from deckbuilder.yamlio import load_yaml, position

    source = record.provenance.sources.get(field, "")
    overlay = catalog.overlay_path
    if overlay is not None and source.startswith("overlay "):
        try:
            document = load_yaml(overlay)
        except DeckbuilderError:
            return Location(overlay)
        where = position(document, ["corrections", record.id, "values", field])
        return Location(overlay, *(where or (None, None)))
    entry = catalog.entries.get(record.id)
    loaded = catalog.sets.get(entry.set_id) if entry is not None else None
    return Location(loaded.path) if loaded is not None else None


def _module_records(rule_sets: Sequence[CardSet], layout: str | None) -> frozenset[str]:
    """The record ids of the modules a layout names (`modules:` + module ids and readings)."""
    if not layout or not layout.startswith("modules:"):
        return frozenset()
    named = set(layout.removeprefix("modules:").split(","))
    return frozenset(card for card_set in rule_sets for module in card_set.modules
                     if module.id in named for card in module.cards)


def _compile_catalog(catalog: Catalog, hooks: GameHooks, layout: str | None) -> CompiledCatalog:
    game = hooks.game
    base_id = catalog.base_set_id(game)
    if base_id is None:
        raise UnplayableDeckError(f"no base set for game '{game}' is installed")
    base: CardSet = catalog.sets[base_id].card_set
    compiled = CompiledCatalog()
    compiled.game = game
    compiled.base_set = base
    compiled.rule_sets = tuple(loaded.card_set for set_id, loaded in sorted(catalog.sets.items())
                               if loaded.card_set.game == game and set_id != base_id)
    compiled.specs = {}
    # The modules a layout names ("modules:a,b,...") bring their own battlefields and
    # characters (the San Manzanillo Prison and Santiago); the game's hook places them.
    module_records = _module_records(compiled.rule_sets, layout)
    battlefields = hooks.select_battlefields(
        [*base.battlefields, *(b for s in compiled.rule_sets for b in s.battlefields
                               if b.id in module_records)], layout)
    if not battlefields or len(battlefields) > MAX_BATTLEFIELDS:
        raise UnplayableDeckError(f"the base set '{base_id}' needs 1 to {MAX_BATTLEFIELDS} "
                                  "battlefields")
    _check_battlefields(catalog, battlefields)
    card_entries = [entry for entry in catalog.cards() if entry.game == game]
    defender = GAME_FACTIONS[game][0]
    # The starting characters first (in data order), then those of the pile (Revolver 2) or
    # waiting elsewhere (a module's: Santiago in the prison).
    pool = [*base.characters, *(c for s in compiled.rule_sets for c in s.characters
                                if c.id in module_records)]
    characters = [c for c in pool if c.faction == defender and c.starting]
    characters += [c for c in pool if c.faction == defender and not c.starting]
    resolver = Resolver(
        {entry.id: index for index, entry in enumerate(card_entries)},
        {battlefield.id: index for index, battlefield in enumerate(battlefields)},
        {character.id: index for index, character in enumerate(characters)},
        {entry.id: entry.record.name for entry in card_entries},
        hooks.steps,
    )
    compiled.resolver = resolver
    compiled.def_index = resolver.cards
    compiled.bf_index = resolver.battlefields
    offset = 0
    compiled.bfs = []
    for index, battlefield in enumerate(battlefields):
        compiled.bfs.append(_compile_battlefield(battlefield, index, offset))
        offset += len(battlefield.spaces)
    compiled.defs = [_compile_card(entry.record, index, resolver)
                     for index, entry in enumerate(card_entries)]
    mark_discounts(compiled.defs, _set_fast_path)
    if len(characters) > MAX_BANDITS:
        raise UnplayableDeckError(f"more than {MAX_BANDITS} starting characters")
    compiled.characters = [_compile_character(c, index, resolver)
                           for index, c in enumerate(characters)]
    # The countdown card: the first special with tokens (the Mexican Border, the Arrival of
    # the Mexican Army).
    compiled.countdown_tokens = next((s.tokens for s in base.specials if s.tokens), 0)
    return compiled


# -- one game's spec ----------------------------------------------------------------------------
def game_spec(catalog: Catalog, hooks: GameHooks, decks: Sequence[Mapping[str, int]],
              ruleset: str | None, layout: str | None = None,
              switches: Mapping[str, str] | None = None, modules: Sequence[str] = (),
              extra_cards: Sequence[tuple[int, str]] = ()) -> GameSpec:
    """The fixed facts of a game with these decks (cached: simulations reuse it).

    `modules`: the modules in use (the game checks them); `extra_cards`: (player, card id) of
    card instances in no deck that the game's set-up places (a module's cards)."""
    compiled = compiled_catalog(catalog, hooks, layout)
    key = (ruleset, tuple(sorted((switches or {}).items())), tuple(sorted(modules)),
           tuple(extra_cards),
           tuple(tuple(sorted((k, int(v)) for k, v in deck.items())) for deck in decks))
    spec = compiled.specs.get(key)
    if spec is None:
        rules = read_rules(compiled.base_set, ruleset, hooks.known_variants, switches,
                           compiled.rule_sets)
        spec = _build_spec(catalog, compiled, decks, rules, hooks, modules, extra_cards)
        compiled.specs[key] = spec
    return spec


def _reasons(record: Any, hooks: GameHooks) -> list[str]:
    return list(dict.fromkeys(unimplemented_reasons(record, hooks.steps)))


def _unplayable(catalog: Catalog, compiled: CompiledCatalog,
                decks: Sequence[Mapping[str, int]], hooks: GameHooks) -> list[str]:
    problems: list[str] = []
    for player, deck in enumerate(decks):
        for card_id in sorted(deck):
            entry = catalog.entries.get(card_id)
            if entry is None or entry.kind != "card":
                hint = catalog.suggest(card_id, kind="card")
                problems.append(f"'{card_id}' (deck {player + 1}): unknown card"
                                + (f" (did you mean {', '.join(hint)}?)" if hint else ""))
                continue
            if entry.game != compiled.game:
                problems.append(f"{entry.name}: a card of {entry.game}, not {compiled.game}")
                continue
            reasons = _reasons(entry.record, hooks)
            problems.extend(f"{entry.name}: {reason}" for reason in reasons)
    for character in compiled.base_set.characters:
        problems.extend(f"{character.name}: {reason}" for reason in _reasons(character, hooks))
    for special in compiled.base_set.specials:
        problems.extend(f"{special.name}: {reason}" for reason in _reasons(special, hooks))
    return problems


def _play_reactions(spec: GameSpec, player: int) -> frozenset[int] | None:
    """Which played cards `player`'s deck can react to: None (no reaction cards), an empty
    set (a reaction to any card), or the set of card definitions."""
    named: set[int] = set()
    found = False
    for definition in spec.deck_defs[player]:
        card = spec.defs[definition]
        if card.react_plays is not None:
            found = True
            if card.react_cards is None:
                return frozenset()
            named |= card.react_cards
    return frozenset(named) if found else None


def _build_spec(catalog: Catalog, compiled: CompiledCatalog,
                decks: Sequence[Mapping[str, int]], rules: Rules, hooks: GameHooks,
                modules: Sequence[str] = (),
                extra_cards: Sequence[tuple[int, str]] = ()) -> GameSpec:
    if len(decks) != 2:
        raise UnplayableDeckError(f"a game needs two decks, got {len(decks)}")
    extras: list[dict[str, int]] = [{}, {}]
    for player, card_id in extra_cards:
        extras[player][card_id] = extras[player].get(card_id, 0) + 1
    problems = _unplayable(catalog, compiled, [*decks, *extras], hooks)
    if problems:
        raise UnplayableDeckError(
            "the engine cannot play: " + "; ".join(problems),
            fix="remove or replace these cards (see `deckbuilder cards --unimplemented`)",
        )
    spec = GameSpec()
    spec.game = compiled.game
    spec.hooks = hooks
    spec.rules = rules
    spec.ruleset = rules.ruleset
    spec.defs = compiled.defs
    spec.bfs = compiled.bfs
    spec.n_bf = len(compiled.bfs)
    spec.prison_bf = compiled.bf_index.get(PRISON_BATTLEFIELD, -1)
    spec.silences_plays = False  # a game's bind may set it (the prison: prison-silence)
    spec.card_def = []
    spec.def_of = []
    spec.owner = []
    spec.decks = ([], [])
    for player, deck in enumerate(decks):
        for card_id in sorted(deck):
            copies = deck[card_id]
            if type(copies) is not int or copies < 0:
                raise UnplayableDeckError(
                    f"'{card_id}': a copy count is a whole number from 0, not {copies!r}")
            card = compiled.defs[compiled.def_index[card_id]]
            for _ in range(copies):
                spec.decks[player].append(len(spec.card_def))
                spec.card_def.append(card)
                spec.def_of.append(card.idx)
                spec.owner.append(player)
    extra_uids = []
    for player, card_id in extra_cards:
        card = compiled.defs[compiled.def_index[card_id]]
        extra_uids.append(len(spec.card_def))
        spec.card_def.append(card)
        spec.def_of.append(card.idx)
        spec.owner.append(player)
    spec.extra_uids = tuple(extra_uids)
    spec.modules = frozenset(modules)
    spec.n_cards = len(spec.card_def)
    spec.bandits = compiled.characters
    spec.bandit_base = spec.n_cards
    spec.owner.extend(0 for _ in spec.bandits)
    spec.n_uids = spec.n_cards + len(spec.bandits)
    spec.bandit_order = tuple(sorted(range(len(spec.bandits)),
                                     key=lambda i: (spec.bandits[i].survival, i)))
    spec.leader = next((c.idx for c in spec.bandits if c.leader), -1)
    spec.deck_defs = tuple(tuple(sorted({spec.def_of[u] for u in spec.decks[p]}))
                           for p in (0, 1))
    _number_actions(spec, hooks)
    spec.column_limit = (3, 1 << 30)  # the defending side's three-card limit; none for the other
    spec.countdown_tokens = compiled.countdown_tokens
    spec.countdown_name = hooks.countdown_name
    # every instance a player owns (his deck's and the module / Frontier cards he may get)
    spec.ability_uids = tuple(
        tuple(u for u in range(spec.n_cards) if spec.owner[u] == p and spec.card_def[u].abilities)
        for p in (0, 1))
    spec.watch_uids = tuple(u for u in range(spec.n_cards) if spec.card_def[u].watch)
    spec.play_reactions = tuple(_play_reactions(spec, p) for p in (0, 1))
    spec.draw_watch = bool(spec.watch_uids) or any(c.draw_phase_here for c in spec.bandits)
    expansion_spec(spec)
    spec.idle = hooks.idle
    spec.main_options = main_options
    spec.explain_illegal = explain_illegal
    spec.refresh_hidden = refresh_hidden_decision
    spec.play_drawn = t_play_drawn
    spec.piece_text = _no_piece_text
    spec.facts = None
    spec.grit_loss_kills = False  # the game's bind may say otherwise (a rule switch)
    hooks.bind(spec, compiled)
    return spec


def _number_actions(spec: GameSpec, hooks: GameHooks, n_pieces: int = 0) -> None:
    """Number the card-definition actions by the definitions' order among the decks' own
    cards, so that installing or removing an unrelated set changes no action's number."""
    in_decks = sorted(set(spec.deck_defs[0]) | set(spec.deck_defs[1])
                      | {spec.def_of[uid] for uid in spec.extra_uids})
    spec.layout = layout = ActionLayout(spec.n_uids, len(in_decks), n_pieces)
    n_defs = len(spec.defs)
    spec.play_action = [-1] * n_defs
    spec.pay_action = [-1] * n_defs
    spec.card_action = [-1] * n_defs
    spec.action_def = [-1] * layout.size
    for slot, definition in enumerate(in_decks):
        for actions, base in ((spec.play_action, layout.play_base),
                              (spec.pay_action, layout.pay_base),
                              (spec.card_action, layout.card_base)):
            actions[definition] = base + slot
            spec.action_def[base + slot] = definition


def renumber_pieces(spec: GameSpec, n_pieces: int, text: Callable[[Any, int], str]) -> None:
    """Give the game's own pieces (Revolver 2's poker cards) a range of actions at the end."""
    _number_actions(spec, spec.hooks, n_pieces)
    spec.piece_text = text


def _no_piece_text(state: Any, index: int) -> str:
    return f"piece {index}"

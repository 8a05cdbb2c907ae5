"""Catalog -> plain, fast card definitions (cached per catalog), and the per-game `GameSpec`.

Pydantic models stay at the edge: this module reads them once and turns every card, bandit,
battlefield and special into a `__slots__` object with ints, frozensets and tuples of compiled
effect steps `(function, params)`, so the hot loop never inspects a model or calls hasattr.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
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
    ROW_BLOCKING,
    SLOT_BESIDE,
    SLOT_NONE,
    SLOT_OPPONENT,
    SLOT_OWN,
    SPACE_CODES,
    SPACE_REGULAR,
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
from deckbuilder.engine.rulesets import Rules, read_rules
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import CardSet
from deckbuilder.models.common import GAME_FACTIONS
from deckbuilder.models.effects import When

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
    __slots__ = ("discard_cost", "gate", "name", "once_per_turn", "steps")

    def __init__(self, name: str, discard_cost: int, once_per_turn: bool, steps: tuple) -> None:
        self.name = name
        self.discard_cost = discard_cost
        self.once_per_turn = once_per_turn
        self.steps = steps
        self.gate = gate_of(steps)  # a leading blocking only-if: usable only while it holds


class CardDef:
    """A deck card, compiled."""

    __slots__ = (
        "abilities", "arrivals", "cat_bit", "category", "cost", "cost_waived", "discount",
        "discounted", "draw_phase_here", "enter_grit", "enter_power", "faction", "fast",
        "firepower", "icons", "id", "idx", "immune", "impervious", "leave_battlefield",
        "main_playable", "marker_enters", "min_cost", "modes", "movable", "name", "not_at",
        "on_death", "on_destroyed", "on_grit_lost", "on_token_lost", "placement", "play",
        "play_watch", "react_attack", "react_cards", "react_cost", "react_gates", "react_plays",
        "reshuffles", "simple", "watch",
    )


class CharDef:
    """A bandit (character of the defending player), compiled."""

    __slots__ = ("draw_phase_here", "id", "idx", "leader", "leave_battlefield",
                 "marker_enters", "name", "on_death", "on_grit_lost", "on_token_lost", "power",
                 "survival", "true_grit")


class BattlefieldDef:
    __slots__ = ("defence", "faces", "id", "idx", "kinds", "labels", "name", "offset")


class CompiledCatalog:
    """Every card of one game in a catalog, plus the base set's table (bandits, battlefields)."""

    __slots__ = (
        "__weakref__",
        "base_set",
        "bf_index",
        "bfs",
        "border_tokens",
        "characters",
        "def_index",
        "defs",
        "derail",
        "game",
        "specs",
    )


class GameSpec:
    """One game's fixed facts: who owns which card instance, the action table, the rules."""

    __slots__ = (
        "ability_uids",
        "arrival_defs",
        "arrival_watchers",
        "attaching",
        "bandit_base",
        "bandit_order",
        "bandits",
        "bfs",
        "border_tokens",
        "card_def",
        "cards",
        "column_limit",
        "cortez",
        "cortez_deadline_bf",
        "deck_defs",
        "decks",
        "def_of",
        "defs",
        "derail_bf",
        "derail_steps",
        "discounters",
        "draw_watch",
        "game",
        "idle",
        "immune",
        "layout",
        "leader",
        "mcready_extra",
        "n_bf",
        "n_cards",
        "n_uids",
        "owner",
        "play_reactions",
        "play_watch_defs",
        "play_watchers",
        "rules",
        "ruleset",
        "skinny_true_grit",
        "train_any_member",
        "train_bf",
        "train_space",
        "watch_uids",
    )

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


class UnplayableDeckError(DeckbuilderError):
    """A deck holds cards the engine cannot play (unknown, or with unimplemented effects)."""


# -- compiling the catalog ----------------------------------------------------------------------
_CACHE: dict[int, tuple[weakref.ref, dict[str, CompiledCatalog]]] = {}


def compiled_catalog(catalog: Catalog, game: str) -> CompiledCatalog:
    """The compiled cards of `game` in `catalog`, built once per catalog object."""
    key = id(catalog)
    cached = _CACHE.get(key)
    if cached is None or cached[0]() is not catalog:
        cached = (weakref.ref(catalog), {})
        _CACHE[key] = cached
    per_game = cached[1]
    if game not in per_game:
        per_game[game] = _compile_catalog(catalog, game)
    return per_game[game]


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
    d.reshuffles = card.reshuffles
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
                and not d.discounted and d.immune is None)
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
    return b


def _compile_catalog(catalog: Catalog, game: str) -> CompiledCatalog:
    base_id = catalog.base_set_id(game)
    if base_id is None:
        raise UnplayableDeckError(f"no base set for game '{game}' is installed")
    base: CardSet = catalog.sets[base_id].card_set
    compiled = CompiledCatalog()
    compiled.game = game
    compiled.base_set = base
    compiled.specs = {}
    battlefields = sorted(base.battlefields, key=lambda b: b.order)
    if not battlefields or len(battlefields) > MAX_BATTLEFIELDS:
        raise UnplayableDeckError(f"the base set '{base_id}' needs 1 to {MAX_BATTLEFIELDS} "
                                  "battlefields")
    card_entries = [entry for entry in catalog.cards() if entry.game == game]
    defender = GAME_FACTIONS[game][0]
    characters = [c for c in base.characters if c.faction == defender and c.starting]
    resolver = Resolver(
        {entry.id: index for index, entry in enumerate(card_entries)},
        {battlefield.id: index for index, battlefield in enumerate(battlefields)},
        {character.id: index for index, character in enumerate(characters)},
        {entry.id: entry.record.name for entry in card_entries},
    )
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
    compiled.derail = None
    compiled.border_tokens = 0
    for special in base.specials:
        if any(step.do == "derail" for step in special.effect):
            beside = resolver.bf(special.beside) if special.beside else len(battlefields) - 1
            compiled.derail = (beside, compile_steps(special.effect, resolver))
        elif special.tokens and not compiled.border_tokens:
            compiled.border_tokens = special.tokens
    return compiled


# -- one game's spec ----------------------------------------------------------------------------
def game_spec(catalog: Catalog, game: str, decks: Sequence[Mapping[str, int]],
              ruleset: str) -> GameSpec:
    """The fixed facts of a game with these decks (cached: simulations reuse it)."""
    compiled = compiled_catalog(catalog, game)
    key = (ruleset, tuple(tuple(sorted((k, int(v)) for k, v in deck.items())) for deck in decks))
    spec = compiled.specs.get(key)
    if spec is None:
        spec = _build_spec(catalog, compiled, decks, read_rules(compiled.base_set, ruleset))
        compiled.specs[key] = spec
    return spec


def _reasons(record: Any) -> list[str]:
    from deckbuilder.support import unimplemented_reasons

    return list(dict.fromkeys(unimplemented_reasons(record)))


def _unplayable(catalog: Catalog, compiled: CompiledCatalog,
                decks: Sequence[Mapping[str, int]]) -> list[str]:
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
            reasons = _reasons(entry.record)
            problems.extend(f"{entry.name}: {reason}" for reason in reasons)
    for character in compiled.base_set.characters:
        problems.extend(f"{character.name}: {reason}" for reason in _reasons(character))
    for special in compiled.base_set.specials:
        problems.extend(f"{special.name}: {reason}" for reason in _reasons(special))
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
                decks: Sequence[Mapping[str, int]], rules: Rules) -> GameSpec:
    if len(decks) != 2:
        raise UnplayableDeckError(f"a game needs two decks, got {len(decks)}")
    problems = _unplayable(catalog, compiled, decks)
    if problems:
        raise UnplayableDeckError(
            "the engine cannot play: " + "; ".join(problems),
            fix="remove or replace these cards (see `deckbuilder cards --unimplemented`)",
        )
    spec = GameSpec()
    spec.game = compiled.game
    spec.rules = rules
    spec.ruleset = rules.ruleset
    spec.defs = compiled.defs
    spec.bfs = compiled.bfs
    spec.n_bf = len(compiled.bfs)
    spec.card_def = []
    spec.def_of = []
    spec.owner = []
    spec.decks = ([], [])
    for player, deck in enumerate(decks):
        for card_id in sorted(deck):
            copies = int(deck[card_id])
            if copies < 0:
                raise UnplayableDeckError(f"'{card_id}': negative copy count {copies}")
            card = compiled.defs[compiled.def_index[card_id]]
            for _ in range(copies):
                spec.decks[player].append(len(spec.card_def))
                spec.card_def.append(card)
                spec.def_of.append(card.idx)
                spec.owner.append(player)
    spec.n_cards = len(spec.card_def)
    spec.bandits = compiled.characters
    spec.bandit_base = spec.n_cards
    spec.owner.extend(0 for _ in spec.bandits)
    spec.n_uids = spec.n_cards + len(spec.bandits)
    spec.bandit_order = tuple(sorted(range(len(spec.bandits)),
                                     key=lambda i: (spec.bandits[i].survival, i)))
    spec.leader = next((c.idx for c in spec.bandits if c.leader), -1)
    # The Dutch variant names a bandit whose early death wins for McReady: data, not code.
    deadline = rules.params.get("mcready-victory", {})
    spec.cortez = next(
        (c.idx for c in spec.bandits if c.id == deadline.get("character")), -1)
    spec.deck_defs = tuple(tuple(sorted({spec.def_of[u] for u in spec.decks[p]}))
                           for p in (0, 1))
    spec.layout = ActionLayout(spec.n_uids, len(spec.defs))
    spec.column_limit = (3, 1 << 30)  # the gang's three-card limit; the lawmen have none
    spec.border_tokens = compiled.border_tokens
    spec.derail_bf, spec.derail_steps = compiled.derail if compiled.derail else (-1, NO_STEPS)
    last = spec.bfs[-1]
    spec.train_bf = last.idx
    before = deadline.get("before")
    spec.cortez_deadline_bf = (
        compiled.bf_index[before] if isinstance(before, str) and before in compiled.bf_index
        else spec.train_bf)
    spec.train_space = (last.labels.index("4") if "4" in last.labels else
                        max(i for i, kind in enumerate(last.kinds) if kind == SPACE_REGULAR))
    spec.ability_uids = tuple(
        tuple(u for u in spec.decks[p] if spec.card_def[u].abilities) for p in (0, 1))
    spec.watch_uids = tuple(u for u in range(spec.n_cards) if spec.card_def[u].watch)
    spec.play_reactions = tuple(_play_reactions(spec, p) for p in (0, 1))
    spec.draw_watch = bool(spec.watch_uids) or any(c.draw_phase_here for c in spec.bandits)
    expansion_spec(spec)
    spec.mcready_extra = rules.variant("mcready-victory", "gang-wiped-out")
    spec.train_any_member = rules.variant("train-victory", "jack-survives-space-4") == "any-member"
    spec.skinny_true_grit = rules.variant("skinny-token", "power") == "true-grit"
    spec.idle = None  # set by revolver.new_game: opens the play-phase decision
    return spec

"""Catalog -> plain, fast card definitions (`definitions.py`, cached per catalog), so the hot
loop never inspects a pydantic model; then, per game, the `GameSpec`: the decks' card
instances dealt, the actions numbered and the game's rules (`GameRules`) bound.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.actions import (
    MAX_BATTLEFIELDS,
    MAX_CHARACTERS,
    ActionLayout,
    decision_kinds,
)
from deckbuilder.engine.card_records import BattlefieldDef, CardDef, CharDef
from deckbuilder.engine.definitions import (
    compile_battlefield,
    compile_card,
    compile_character,
    set_fast_path,
)
from deckbuilder.engine.effects import Resolver
from deckbuilder.engine.expansion_compile import expansion_spec, mark_discounts
from deckbuilder.engine.game_rules import GameRules
from deckbuilder.engine.play import (
    explain_illegal,
    main_options,
    refresh_hidden_decision,
    t_play_drawn,
)
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.engine.turn import open_main
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import CardSet
from deckbuilder.models.common import GAME_FACTIONS
from deckbuilder.protocol import InvariantError, UnplayableDeckError
from deckbuilder.rulesets import Rules, read_rules


class CompiledCatalog:
    """Every card of one game in a catalog, plus the base set's table (characters,
    battlefields, specials)."""

    __slots__ = (
        "__weakref__", "base_set", "bf_index", "bfs", "characters", "countdown_tokens",
        "def_index", "defs", "game", "last_asked", "resolver", "rule_sets", "specs",
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
    #: The last `game_spec` question (its arguments, copied) and its answer, or None.
    last_asked: tuple[tuple, GameSpec] | None


class GameSpec(SpecFields):
    """One game's fixed facts, bound once; its fields are declared in `spec_fields.py` and
    `_build_spec` sets every one (tests/test_state_fields.py ties the two)."""

    __slots__ = ()


# -- compiling the catalog ----------------------------------------------------------------------
_CACHE: dict[int, tuple[weakref.ref, dict[tuple, CompiledCatalog]]] = {}


def compiled_catalog(catalog: Catalog, game_rules: GameRules,
                     layout: str | None = None) -> CompiledCatalog:
    """The compiled cards of the rules' game and `layout`, built once per catalog object."""
    key = id(catalog)
    cached = _CACHE.get(key)
    if cached is None or cached[0]() is not catalog:
        cached = (weakref.ref(catalog), {})
        _CACHE[key] = cached
    per_game = cached[1]
    game_key = (game_rules.game, layout)
    if game_key not in per_game:
        per_game[game_key] = _compile_catalog(catalog, game_rules, layout)
    return per_game[game_key]


def _check_battlefields(catalog: Catalog, battlefields: Sequence[Any]) -> None:
    """Each battlefield has a regular space for the turn marker (an overlay may reshape the
    data): refused in one line naming the overlay entry, rather than deep in a game."""
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


def _compile_catalog(catalog: Catalog, game_rules: GameRules,
                     layout: str | None) -> CompiledCatalog:
    game = game_rules.game
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
    compiled.last_asked = None
    # The modules a layout names ("modules:a,b,...") bring their own battlefields and
    # characters (the San Manzanillo Prison and Santiago); the game's hook places them.
    module_records = _module_records(compiled.rule_sets, layout)
    battlefields = game_rules.select_battlefields(
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
        game_rules,
    )
    compiled.resolver = resolver
    compiled.def_index = resolver.cards
    compiled.bf_index = resolver.battlefields
    offset = 0
    compiled.bfs = []
    for index, battlefield in enumerate(battlefields):
        compiled.bfs.append(compile_battlefield(battlefield, index, offset))
        offset += len(battlefield.spaces)
    compiled.defs = [compile_card(entry.record, index, resolver)
                     for index, entry in enumerate(card_entries)]
    mark_discounts(compiled.defs, set_fast_path)
    if len(characters) > MAX_CHARACTERS:
        raise UnplayableDeckError(f"more than {MAX_CHARACTERS} starting characters")
    compiled.characters = [compile_character(c, index, resolver)
                           for index, c in enumerate(characters)]
    # The countdown card: the first special with tokens (the Mexican Border, the Arrival of
    # the Mexican Army).
    compiled.countdown_tokens = next((s.tokens for s in base.specials if s.tokens), 0)
    return compiled


# -- one game's spec ----------------------------------------------------------------------------
def game_spec(catalog: Catalog, game_rules: GameRules, decks: Sequence[Mapping[str, int]],
              ruleset: str | None, layout: str | None = None,
              switches: Mapping[str, str] | None = None, modules: Sequence[str] = (),
              extra_cards: Sequence[tuple[int, str]] = (),
              orders: Sequence[Sequence[str] | None] = ()) -> GameSpec:
    """The fixed facts of a game with these decks (cached: simulations reuse it).
    `extra_cards`: (player, card id) of instances in no deck that a module's set-up places;
    `orders`: per player, how the deck lies before the shuffle (`deck_order`)."""
    compiled = compiled_catalog(catalog, game_rules, layout)
    chosen_orders = tuple(tuple(order) if order else None for order in orders)
    # A simulation asks with the same decks game after game: compared with a copy of the last
    # question's arguments, that is a few thousand instructions against the key's ~80,000.
    asked = (ruleset, dict(switches or {}), tuple(modules), tuple(extra_cards),
             tuple(dict(deck) for deck in decks), chosen_orders)
    last = compiled.last_asked
    if last is not None and last[0] == asked:
        return last[1]
    key = (ruleset, tuple(sorted((switches or {}).items())), tuple(sorted(modules)),
           tuple(extra_cards),
           tuple(tuple(sorted((k, int(v)) for k, v in deck.items())) for deck in decks),
           chosen_orders if any(chosen_orders) else ())
    spec = compiled.specs.get(key)
    if spec is None:
        rules = read_rules(compiled.base_set, ruleset, game_rules.known_variants, switches,
                           compiled.rule_sets)
        spec = _build_spec(catalog, compiled, decks, rules, game_rules, modules, extra_cards,
                           chosen_orders)
        compiled.specs[key] = spec
    compiled.last_asked = (asked, spec)
    return spec


def deck_order(deck: Mapping[str, int], order: Sequence[str] | None = None) -> list[str]:
    """The deck's card ids, one per copy, in the order they lie before the first shuffle:
    sorted by id (the file's order changes no game), or the caller's `order` of the same
    cards: two decks laid out so each changed card takes the place of the one it replaced
    share every draw until a changed card comes up (`deckbuilder.sim.runs.aligned`)."""
    for card_id, copies in deck.items():
        if type(copies) is not int or copies < 0:
            raise UnplayableDeckError(
                f"'{card_id}': a copy count is a whole number from 0, not {copies!r}")
    if order is None:
        return [card_id for card_id in sorted(deck) for _ in range(deck[card_id])]
    if Counter(order) != {card_id: copies for card_id, copies in deck.items() if copies}:
        raise InvariantError("a deck order that does not hold the deck's cards, each copy once")
    return list(order)


def _reasons(record: Any, game_rules: GameRules) -> list[str]:
    return list(dict.fromkeys(unimplemented_reasons(record, game_rules.steps)))


def _unplayable(catalog: Catalog, compiled: CompiledCatalog,
                decks: Sequence[Mapping[str, int]], game_rules: GameRules) -> list[str]:
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
            reasons = _reasons(entry.record, game_rules)
            problems.extend(f"{entry.name}: {reason}" for reason in reasons)
    for record in (*compiled.base_set.characters, *compiled.base_set.specials):
        problems.extend(f"{record.name}: {reason}" for reason in _reasons(record, game_rules))
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
                decks: Sequence[Mapping[str, int]], rules: Rules, game_rules: GameRules,
                modules: Sequence[str] = (),
                extra_cards: Sequence[tuple[int, str]] = (),
                orders: Sequence[tuple[str, ...] | None] = ()) -> GameSpec:
    _refuse_unplayable(catalog, compiled, decks, extra_cards, game_rules)
    spec = GameSpec()
    spec.game = compiled.game
    spec.game_rules = game_rules
    game_kinds = game_rules.declaration.decision_kinds
    spec.kinds = decision_kinds(game_kinds)
    spec.game_kinds = frozenset(kind.code for kind in game_kinds)
    spec.rules = rules
    spec.ruleset = rules.ruleset
    spec.defs = compiled.defs
    spec.bfs = compiled.bfs
    spec.n_bf = len(compiled.bfs)
    spec.silences_plays = False  # a game's bind may set it (the prison: prison-silence)
    _number_cards(spec, compiled, decks, extra_cards, orders)
    spec.modules = frozenset(modules)
    spec.n_cards = len(spec.card_def)
    spec.characters = compiled.characters
    spec.character_base = spec.n_cards
    spec.owner.extend(0 for _ in spec.characters)
    spec.n_uids = spec.n_cards + len(spec.characters)
    spec.character_order = tuple(sorted(range(len(spec.characters)),
                                     key=lambda i: (spec.characters[i].survival, i)))
    spec.leader = next((c.idx for c in spec.characters if c.leader), -1)
    spec.deck_defs = tuple(tuple(sorted({spec.def_of[u] for u in spec.decks[p]}))
                           for p in (0, 1))
    spec.name_defs = _names_to_say(spec)
    _number_actions(spec)
    spec.column_limit = (3, 1 << 30)  # the defending side's three-card limit; none for the other
    spec.countdown_tokens = compiled.countdown_tokens
    spec.countdown_name = game_rules.countdown_name
    # every instance a player owns (his deck's and the module / Frontier cards he may get)
    spec.ability_uids = tuple(
        tuple(u for u in range(spec.n_cards) if spec.owner[u] == p and spec.card_def[u].abilities)
        for p in (0, 1))
    spec.watch_uids = tuple(u for u in range(spec.n_cards) if spec.card_def[u].watch)
    spec.play_reactions = tuple(_play_reactions(spec, p) for p in (0, 1))
    spec.draw_watch = bool(spec.watch_uids) or any(c.draw_phase_here for c in spec.characters)
    expansion_spec(spec)
    spec.idle = game_rules.idle if game_rules.overrides_idle else open_main
    spec.main_options = main_options
    spec.explain_illegal = explain_illegal
    spec.refresh_hidden = refresh_hidden_decision
    spec.play_drawn = t_play_drawn
    spec.game_action_text = _no_game_action_text
    spec.facts = None
    spec.grit_loss_kills = False  # the game's bind may say otherwise (a rule switch)
    game_rules.bind(spec, compiled)
    return spec


def _refuse_unplayable(catalog: Catalog, compiled: CompiledCatalog,
                       decks: Sequence[Mapping[str, int]],
                       extra_cards: Sequence[tuple[int, str]], game_rules: GameRules) -> None:
    """Two decks, and no card (theirs or one a module hands a player) the engine cannot play."""
    if len(decks) != 2:
        raise UnplayableDeckError(f"a game needs two decks, got {len(decks)}")
    extras: list[dict[str, int]] = [{}, {}]
    for player, card_id in extra_cards:
        extras[player][card_id] = extras[player].get(card_id, 0) + 1
    problems = _unplayable(catalog, compiled, [*decks, *extras], game_rules)
    if problems:
        raise UnplayableDeckError(
            "the engine cannot play: " + "; ".join(problems),
            fix="remove or replace these cards (see `deckbuilder cards --unimplemented`)",
        )


def _number_cards(spec: GameSpec, compiled: CompiledCatalog, decks: Sequence[Mapping[str, int]],
                  extra_cards: Sequence[tuple[int, str]],
                  orders: Sequence[tuple[str, ...] | None]) -> None:
    """Give every card in the game its number (uid): each deck's cards in the deck's order,
    then the cards a module hands a player, each with its definition and owner."""
    spec.card_def = []
    spec.def_of = []
    spec.owner = []
    spec.decks = ([], [])
    dealt = [(player, card_id) for player, deck in enumerate(decks)
             for card_id in deck_order(deck, orders[player] if player < len(orders) else None)]
    for uid, (player, card_id) in enumerate([*dealt, *extra_cards]):
        card = compiled.defs[compiled.def_index[card_id]]
        if uid < len(dealt):
            spec.decks[player].append(uid)
        spec.card_def.append(card)
        spec.def_of.append(card.idx)
        spec.owner.append(player)
    spec.extra_uids = tuple(range(len(dealt), len(spec.card_def)))


def _number_actions(spec: GameSpec, n_game_actions: int = 0) -> None:
    """Number the card-definition actions by the definitions' order among the decks' own
    cards (and the names a player may say, `spec.name_defs`, in a game where a card has him
    name one), so that installing or removing an unrelated set changes no action's number."""
    in_decks = sorted(set(spec.deck_defs[0]) | set(spec.deck_defs[1])
                      | {spec.def_of[uid] for uid in spec.extra_uids}
                      | set(spec.name_defs[0]) | set(spec.name_defs[1]))
    spec.layout = layout = ActionLayout(spec.n_uids, len(in_decks), n_game_actions)
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


def _names_to_say(spec: GameSpec) -> tuple[tuple[int, ...], ...]:
    """Per player, the cards the other may name when a card has him name one (Chicken foot),
    () in a game where no card does: every card of the installed sets but the namer's own
    side's (and any the player owns), never the deck list, which would show it to the namer."""
    cards = range(spec.n_cards)
    if not any(spec.card_def[uid].names_a_card for uid in cards):
        return ((), ())
    sides = GAME_FACTIONS[spec.game]  # player 0 plays the first side, as everywhere
    return tuple(tuple(sorted(
        {card.idx for card in spec.defs if card.faction != sides[1 - player]}
        | {spec.def_of[uid] for uid in cards if spec.owner[uid] == player}))
        for player in (0, 1))


def renumber_game_actions(spec: GameSpec, n_game_actions: int,
                          text: Callable[[Any, int], str]) -> None:
    """Give the game's own actions (poker cards, a module's choices) a range, read by `text`."""
    _number_actions(spec, n_game_actions)
    spec.game_action_text = text


def _no_game_action_text(state: Any, index: int) -> str:
    return f"piece {index}"

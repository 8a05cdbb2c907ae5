"""The shell's TAB completion of the values a player types by name (typer's `autocompletion=`).

Each TAB is a fresh process: a completer reads what it needs once, and offers nothing when
its data cannot be read (the command reports it). A deck offers names only when some match,
so other prefixes fall back to the shell's file names. typer keeps only offers that start
with the typed text, so a card typed by its name's start is offered spelt like an id.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import typer

from deckbuilder.app.card_search import KIND_WORDS
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.rule_listing import game_rules
from deckbuilder.app.spellings import game_names, side_ids
from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.data_packs.layers import installed_packs, pack_fields
from deckbuilder.decks import (
    FACTION_GAMES,
    LoadedDeck,
    packaged_deck_names,
    read_deck,
)
from deckbuilder.errors import DeckbuilderError
from deckbuilder.importer import installed_files
from deckbuilder.legality.supply import COPIES_SWITCH
from deckbuilder.models.common import GAME_FACTIONS
from deckbuilder.printable import printable

#: An offer: the value, or the value and a short help the shell shows beside it (zsh, fish).
Offer = str | tuple[str, str]
#: The parameters that name a deck, whose game decides which cards a card value offers.
_DECK_PARAMETERS = ("deck", "deck_file", "deck_files", "decks", "first", "aligned_with")
#: The longest help shown beside an offer.
_HELP_WIDTH = 70
#: Weights offered after `DECK@` (`--vs mcready@2`: the opponent counts double).
_WEIGHTS = ("2", "0.5")


def _help(text: str) -> str:
    """The help beside an offer (zsh, fish): one short line (fish reads a line an offer),
    escaped, since it comes from a set file."""
    line = " ".join(printable(text).split())
    return line if len(line) <= _HELP_WIDTH else line[:_HELP_WIDTH - 1].rstrip() + "…"


def _starting_with(values: Iterable[str], incomplete: str) -> list[str]:
    """The values that start with the typed text, case not counting, in order, once each."""
    typed = incomplete.casefold()
    return list(dict.fromkeys(value for value in values if value.casefold().startswith(typed)))


def words(values: Iterable[str]) -> Callable[[str], list[str]]:
    """A completer offering fixed words (`--format text|json|...`)."""
    known = tuple(values)

    def complete(incomplete: str) -> list[str]:
        return _starting_with(known, incomplete)

    return complete


# -- what completion reads, once a process ------------------------------------------------
def _sets_dir(ctx: typer.Context) -> Path | None:
    """The `--sets-dir` typed before the value (the command's own, or the root's)."""
    context: Any = ctx
    while context is not None:
        folder = context.params.get("sets_dir")
        if folder is not None:
            return Path(folder)
        context = context.parent
    return None


@functools.cache
def _catalog(sets_dir: Path | None = None) -> Catalog | None:
    """The catalog, a broken set of the repository's sets folder left out (its names are
    not offered; the command names its problem when it runs)."""
    try:
        return project_catalog(sets_dir, keep_broken=True)
    except DeckbuilderError:
        return None


@functools.cache
def _read_deck(text: str, sets_dir: Path | None) -> LoadedDeck | None:
    """A deck named on the command line, read as every command reads it; None if it cannot be."""
    catalog = _catalog(sets_dir)
    if catalog is None:
        return None
    try:
        return read_deck(text, catalog).loaded
    except (DeckbuilderError, OSError):
        return None


def _typed_values(value: object) -> Iterator[str]:
    if isinstance(value, (list, tuple)):
        yield from (str(item) for item in value)
    elif value is not None and value is not False:
        yield str(value)


def _typed_decks(ctx: typer.Context) -> Iterator[str]:
    """The decks typed before the value. While an option's value is completed, click stops
    parsing at that option before it assigns the arguments, so they are still in `ctx.args`."""
    for name in _DECK_PARAMETERS:
        yield from _typed_values(ctx.params.get(name))
    yield from (str(arg) for arg in ctx.args if not str(arg).startswith("-"))


def _deck_side(ctx: typer.Context) -> str | None:
    """The side of the deck typed before the value (`simulate DECK --vs`), if known."""
    for text in _typed_decks(ctx):
        faction = normalise_name(text).replace(" ", "")
        if faction in FACTION_GAMES:
            return faction
        deck = _read_deck(text, _sets_dir(ctx))
        if deck is not None:
            return str(deck.deck.faction)
    return None


def _context_game(ctx: typer.Context) -> str | None:
    """The game the command line typed so far is about: its `--game`, its deck's, its side's
    (`play --colty`, `--human esteban`)."""
    game = ctx.params.get("game")
    if isinstance(game, str) and game in game_names():
        return game
    humans = list(_typed_values(ctx.params.get("human")))
    side = _deck_side(ctx) or next(
        (side for side in side_ids() if ctx.params.get(side) is not None or side in humans), None)
    return FACTION_GAMES.get(side) if side is not None else None


# -- decks ----------------------------------------------------------------------------------
def complete_deck(incomplete: str) -> list[str]:
    """A deck named on the command line: a faction (its base deck) or a packaged deck; a path
    (or a prefix no name starts with) is left to the shell's file completion."""
    if "/" in incomplete or "\\" in incomplete:
        return []
    return _starting_with([*side_ids(), *packaged_deck_names()], incomplete)


def _side_of(deck_name: str) -> str | None:
    """The side a packaged deck plays: its name holds its faction as a word (`colty-base`,
    `example-mcready-pinkertons`; a test keeps that true)."""
    return next((side for side in side_ids() if side in deck_name.split("-")), None)


def deck_of_side(side: str) -> Callable[[str], list[str]]:
    """A completer for one side's deck (`play --colty`): the side and its packaged decks."""

    def complete(incomplete: str) -> list[str]:
        return [name for name in complete_deck(incomplete) if _side_of(name) == side]

    return complete


def complete_opponent(ctx: typer.Context, incomplete: str) -> list[str]:
    """An opponent (`--vs`): a deck of the other side of the typed deck's game (as
    `complete_deck`), or after `DECK@` its weight."""
    spec, at, weight = incomplete.rpartition("@")
    if not at:
        side = _deck_side(ctx)
        if side not in FACTION_GAMES:
            return complete_deck(incomplete)
        others = [other for other in GAME_FACTIONS[FACTION_GAMES[side]] if other != side]
        return [name for name in complete_deck(incomplete) if _side_of(name) in others]
    if not spec:
        return []
    return [f"{spec}@{value}" for value in _WEIGHTS if value.startswith(weight)] or (
        [incomplete] if weight else [])


# -- cards and other records ----------------------------------------------------------------
def _offer_for(entry: Entry, incomplete: str) -> Offer | None:
    """The record as a value starting with the typed text: its id when the id starts so, else
    its name or an alias spelt like an id (`first-deputy-charlie-weathers`, which the catalog
    reads as that name); the help is its printed name."""
    typed = incomplete.casefold().replace(" ", "-")
    names = (entry.name, *entry.record.aliases)
    for spelling in (entry.id, *(normalise_name(text).replace(" ", "-") for text in names)):
        if spelling.startswith(typed):
            return incomplete + spelling[len(incomplete):], _help(entry.name)
    return None


def _records(ctx: typer.Context, incomplete: str, kinds: tuple[str, ...],
             within: Iterable[str] | None = None) -> list[Offer]:
    """Records of these kinds (of the game the command line is about) the typed text starts."""
    catalog = _catalog(_sets_dir(ctx))
    if catalog is None:
        return []
    game = _context_game(ctx)
    wanted = set(within) if within is not None else None
    offers: dict[str, Offer] = {}
    for entry in catalog.entries.values():
        if entry.kind not in kinds or (game is not None and entry.game != game):
            continue
        if wanted is not None and entry.id not in wanted:
            continue
        offer = _offer_for(entry, incomplete)
        if offer is not None:
            offers.setdefault(offer[0] if isinstance(offer, tuple) else offer, offer)
    return [offers[value] for value in sorted(offers)]


def complete_card(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """A card, by the start of its id, name or alias; of the deck's (or `--game`'s) game."""
    return _records(ctx, incomplete, ("card",))


def complete_record(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """Any record (card, character, battlefield, special, token), as `complete_card`."""
    return _records(ctx, incomplete, tuple(kind for kind, _ in KIND_WORDS.values()))


def complete_deck_card(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """A card of the deck typed before it (`deck swap DECK --out`), else any card."""
    for text in _typed_decks(ctx):
        deck = _read_deck(text, _sets_dir(ctx))
        if deck is not None:
            held = [item.entry.id for item in deck.entries if item.entry is not None]
            return _records(ctx, incomplete, ("card",), held)
    return complete_card(ctx, incomplete)


def _after(separator: str, incomplete: str) -> tuple[str, str]:
    """The typed text up to and with its last `separator`, and what follows."""
    before, found, last = incomplete.rpartition(separator)
    return before + found, last


def _prefixed(prefix: str, offers: Iterable[Offer], suffix: str = "") -> list[Offer]:
    return [(prefix + offer[0] + suffix, offer[1]) if isinstance(offer, tuple)
            else prefix + offer + suffix for offer in offers]


def complete_card_list(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """Cards, comma-separated (`optimize --out a,b`): the card after the last comma."""
    done, last = _after(",", incomplete)
    return _prefixed(done, complete_card(ctx, last))


def complete_swap(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """`OUT=IN[:COUNT]` (`play --swap`): a card before the `=`, a card after it."""
    done, last = _after("=", incomplete)
    if not done:
        return _prefixed("", complete_card(ctx, incomplete), "=")
    return [] if ":" in last else _prefixed(done, complete_card(ctx, last))


def complete_field(ctx: typer.Context, incomplete: str) -> list[str]:
    """A field of the record typed before it that a correction may change (`overlay set ID`)."""
    catalog = _catalog(_sets_dir(ctx))
    record_id = ctx.params.get("record_id")
    entry = catalog.find(str(record_id)) if catalog is not None and record_id else None
    return _starting_with(pack_fields(entry.record), incomplete) if entry is not None else []


def complete_viewer(incomplete: str) -> list[str]:
    """`replay --viewer`: a side's name, or everything (0 and 1 are taken too). The replay's
    module is imported here, when asked: every other completion would pay for it."""
    from deckbuilder.sim.records.replay_steps import EVERYTHING_NAME

    return _starting_with([*side_ids(), EVERYTHING_NAME], incomplete)


# -- sets, packs, rules ---------------------------------------------------------------------
def complete_installed_set(incomplete: str) -> list[str]:
    """A set installed in the player's sets folder (`sets remove`), by id."""
    return _starting_with(sorted(item.set_id for item in installed_files()), incomplete)


def complete_pack(incomplete: str) -> list[str]:
    """An installed data pack (`data remove`), by id."""
    try:
        packs = installed_packs()
    except DeckbuilderError:
        return []
    return _starting_with([loaded.pack.id for loaded in packs], incomplete)


def _rules(ctx: typer.Context) -> list[dict[str, Any]]:
    """Each game's switches and modules (`deckbuilder rules`), of the command line's game."""
    catalog = _catalog(_sets_dir(ctx))
    if catalog is None:
        return []
    game = _context_game(ctx)
    return [game_rules(catalog, name) for name in game_names() if game in (None, name)]


def complete_switch(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """`--switch ID=VALUE`: a switch's id, then after the `=` one of its readings."""
    switches = {switch["id"]: switch for rules in _rules(ctx) for switch in rules["switches"]
                if switch["switchable"]}
    switch_id, equals, value = incomplete.partition("=")
    if not equals:
        return [(f"{key}=", _help(switches[key]["description"]))
                for key in _starting_with(sorted(switches), incomplete)]
    variants = switches.get(switch_id, {}).get("variants", [])
    return [(f"{switch_id}={variant['value']}", _help(variant["description"]))
            for variant in variants if str(variant["value"]).startswith(value)]


def complete_supply_switch(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """`validate --switch`: only the switch deck-building reads (`card-copies`)."""
    return [offer for offer in complete_switch(ctx, incomplete)
            if offer[0].startswith(f"{COPIES_SWITCH}=")]


def complete_module(ctx: typer.Context, incomplete: str) -> list[Offer]:
    """`--module`: a module's id (its letter and name are accepted too)."""
    modules = [module for rules in _rules(ctx) for module in rules["modules"]]
    typed = incomplete.casefold()
    return [(module["id"], _help(module["name"])) for module in modules
            if module["id"].startswith(typed)]


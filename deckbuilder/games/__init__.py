"""The games, found through one registry: bots, simulation, records, scenarios and the
command line reach a game only through `get_game` (a game never imports another). A game is
a `GameDeclaration` and a `GameRules` subclass with its `GameParts`, imported when first asked
for (docs/maintainers/new-game.md).

This module imports only layer 1 and the protocol at its top: the declarations (layer 1) live
in the games' packages, so importing one runs this file while the models are still loading.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from deckbuilder.declaration import GameDeclaration
from deckbuilder.errors import DeckbuilderError

if TYPE_CHECKING:
    from deckbuilder.catalog import Catalog
    from deckbuilder.engine.game_rules import GameParts, GameRules
    from deckbuilder.engine.state import State
    from deckbuilder.protocol import Heuristics


@dataclass(frozen=True)
class Game:
    """One game as the rest of the tool sees it: its declaration and its parts."""

    declaration: GameDeclaration
    parts: GameParts

    @property
    def name(self) -> str:
        return self.declaration.id

    @property
    def title(self) -> str:
        return self.declaration.title

    @property
    def side_names(self) -> tuple[str, str]:
        """The two sides, player 0 first, as the command line names them."""
        return self.declaration.side_ids

    @property
    def rules(self) -> GameRules[State]:
        """The game's rules over the table (steps, known variants, modules ...)."""
        return self.parts.rules

    @property
    def heuristics(self) -> Heuristics:
        return self.parts.heuristics

    @property
    def terminations(self) -> type[StrEnum]:
        return self.parts.terminations

    @property
    def default_ruleset(self) -> str:
        return self.declaration.default_ruleset


def load_entry(game: str, entry: str, what: str) -> Any:
    """What `entry` ("module:attribute") names, or one line naming the game and `what`."""
    module_name, _, attribute = entry.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise DeckbuilderError(f"game '{game}': its {what} ({entry}) cannot be loaded: {error}",
                               fix="reinstall the package that provides the game") from error


_GAMES: dict[str, Game] = {}


def games() -> dict[str, Game]:
    """Every game the engine plays, by name (each game's rules imported on first use)."""
    if not _GAMES:
        from deckbuilder.declared import DECLARATIONS

        _GAMES.update({declaration.id: Game(declaration, load_entry(
            declaration.id, declaration.entry, "rules")) for declaration in DECLARATIONS})
    return _GAMES


def get_game(name: str) -> Game:
    found = games().get(name)
    if found is None:
        raise DeckbuilderError(f"unknown game '{name}'",
                               fix=f"choose one of: {', '.join(sorted(games()))}")
    return found


def game_of_view(view: Mapping[str, Any]) -> Game | None:
    """The game a position's view (`session_view.position_view`) says it is of; None when it
    names none or a game not installed here (a view from another table's server)."""
    name = view.get("game")
    return games().get(name) if isinstance(name, str) else None


def game_of_decks(decks: Sequence[Mapping[str, int]], catalog: Catalog) -> str:
    """The game the decks' cards belong to (the first known card decides; the table refuses
    a card of another game with its name)."""
    for deck in decks:
        for card_id in deck:
            entry = catalog.entries.get(card_id)
            if entry is not None and entry.kind == "card":
                return entry.game
    from deckbuilder.protocol import UnplayableDeckError

    raise UnplayableDeckError("no known card in the decks: cannot tell which game they are for",
                              fix="check the card ids against `deckbuilder cards`")


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, game: str | None = None, max_turns: int = 200,
             verbose: bool = False, switches: Mapping[str, str] | None = None,
             modules: Sequence[str] = (), orders: Sequence[Sequence[str] | None] = ()) -> Any:
    """Set up a game of whichever game the decks are for (or `game`), player 0's deck first,
    with the rule `switches` chosen over the ruleset and the `modules` in use (ids); `orders`:
    how each deck lies before the shuffle (None: sorted by id; `engine.compiled.deck_order`).

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> decks = [catalog.base_deck("revolver2", side) for side in ("esteban", "mapache")]
    >>> type(new_game(decks, seed=1, catalog=catalog).spec.game_rules).__name__
    'Revolver2Rules'
    """
    from deckbuilder.catalog import default_catalog
    from deckbuilder.protocol import UnplayableDeckError

    catalog = catalog if catalog is not None else default_catalog()
    name = game or game_of_decks(decks, catalog)
    chosen = get_game(name)
    unplayable = sorted(set(modules) - chosen.rules.modules)
    if unplayable:
        playable = ", ".join(sorted(chosen.rules.modules)) or "none yet"
        raise UnplayableDeckError(
            f"{chosen.title} cannot be played with module {', '.join(unplayable)}",
            fix=f"modules the engine plays for {name}: {playable} (see `deckbuilder rules`)")
    extra: dict[str, object] = {"modules": tuple(modules)} if modules else {}
    if any(orders):
        extra["orders"] = tuple(orders)
    return chosen.parts.new_game(decks, seed, ruleset, catalog, max_turns=max_turns,
                                 verbose=verbose, switches=switches, **extra)


def dead_card_warnings(decks: Sequence[Mapping[str, int]], catalog: Catalog | None = None,
                       game: str | None = None, modules: Sequence[str] = ()) -> list[str]:
    """One line per card of these decks that can do nothing in this set-up (Double the guard
    without the prison); empty when the decks cannot be played at all."""
    reasons = dead_card_reasons(decks, catalog, game, modules)
    return [f"{name} can do nothing in this set-up: {reason}"
            for name, reason in sorted(reasons.values())]


def dead_card_reasons(decks: Sequence[Mapping[str, int]], catalog: Catalog | None = None,
                      game: str | None = None, modules: Sequence[str] = ()
                      ) -> dict[str, tuple[str, str]]:
    """`dead_card_warnings`' cards: card id -> (its name, why)."""
    from deckbuilder.engine.dead_cards import dead_cards

    try:
        state = new_game(decks, 0, catalog=catalog, game=game, modules=modules)
    except DeckbuilderError:
        return {}
    spec = state.spec
    return {spec.defs[definition].id: (spec.defs[definition].name, reason)
            for definition, reason in dead_cards(spec).items()}


def faction_dead_card_warnings(cards: Mapping[str, int], game: str, faction: str,
                               catalog: Catalog) -> list[str]:
    """`dead_card_warnings` for one side's deck against the other side's base deck (what
    `validate` and the deck editor warn about); empty for an unknown game or faction."""
    if game not in games():
        return []
    sides = games()[game].side_names
    if faction not in sides:
        return []
    seat = sides.index(faction)
    other = catalog.base_deck(game, sides[1 - seat])
    decks = [cards, other] if seat == 0 else [other, cards]
    return dead_card_warnings(decks, catalog, game)

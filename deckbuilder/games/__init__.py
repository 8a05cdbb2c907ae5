"""The games, found through one registry: bots, simulation, records, scenarios and the
command line reach a game only through `get_game` (a game never imports another).

A third game plugs in as a package of its own under `deckbuilder/games/` that fills the
table's `GameHooks` (set-up, the turn, what a death means, victory, its table pieces, its own
steps and decisions) and one `Game` entry below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.protocol import Heuristics, UnplayableDeckError
from deckbuilder.rulesets import default_ruleset


@dataclass(frozen=True)
class Game:
    """One game as the rest of the tool sees it."""

    name: str
    title: str
    #: the two sides, player 0 first, as the command line names them
    side_names: tuple[str, str]
    #: `new_game(decks, seed, ruleset, catalog, max_turns, verbose, switches) -> State`
    new_game: Callable[..., Any]
    heuristics: Heuristics
    terminations: type[StrEnum]
    #: the table's hooks of this game (side names, steps, known variants)
    hooks: Any

    @property
    def default_ruleset(self) -> str:
        return default_ruleset(self.name)


def _registry() -> dict[str, Game]:
    from deckbuilder.games.revolver.bots import HEURISTICS as REVOLVER_HEURISTICS
    from deckbuilder.games.revolver.endings import Termination as RevolverTermination
    from deckbuilder.games.revolver.rules import HOOKS as REVOLVER_HOOKS
    from deckbuilder.games.revolver.rules import new_game as new_revolver_game
    from deckbuilder.games.revolver2.bots import HEURISTICS as REVOLVER2_HEURISTICS
    from deckbuilder.games.revolver2.endings import Termination as Revolver2Termination
    from deckbuilder.games.revolver2.rules import HOOKS as REVOLVER2_HOOKS
    from deckbuilder.games.revolver2.rules import new_game as new_revolver2_game

    games = [
        Game("revolver", "Revolver", REVOLVER_HOOKS.side_names, new_revolver_game,
             REVOLVER_HEURISTICS, RevolverTermination, REVOLVER_HOOKS),
        Game("revolver2", "Revolver 2: Last Stand at Malpaso", REVOLVER2_HOOKS.side_names,
             new_revolver2_game, REVOLVER2_HEURISTICS, Revolver2Termination, REVOLVER2_HOOKS),
    ]
    return {game.name: game for game in games}


_GAMES: dict[str, Game] = {}


def games() -> dict[str, Game]:
    """Every game the engine plays, by name."""
    if not _GAMES:
        _GAMES.update(_registry())
    return _GAMES


def get_game(name: str) -> Game:
    found = games().get(name)
    if found is None:
        raise DeckbuilderError(f"unknown game '{name}'",
                               fix=f"choose one of: {', '.join(sorted(games()))}")
    return found


def game_of_decks(decks: Sequence[Mapping[str, int]], catalog: Catalog) -> str:
    """The game the decks' cards belong to (the first known card decides; the table refuses
    a card of another game with its name)."""
    for deck in decks:
        for card_id in deck:
            entry = catalog.entries.get(card_id)
            if entry is not None and entry.kind == "card":
                return entry.game
    raise UnplayableDeckError("no known card in the decks: cannot tell which game they are for",
                              fix="check the card ids against `deckbuilder cards`")


def new_game(decks: Sequence[Mapping[str, int]], seed: int, ruleset: str | None = None,
             catalog: Catalog | None = None, game: str | None = None, max_turns: int = 200,
             verbose: bool = False, switches: Mapping[str, str] | None = None,
             modules: Sequence[str] = (), orders: Sequence[Sequence[str] | None] = ()) -> Any:
    """Set up a game of whichever game the decks are for (or `game`), player 0's deck first,
    with the rule `switches` chosen over the ruleset and the `modules` in use (ids); `orders`:
    how each deck lies before the shuffle (None: sorted by id; `engine.compiled.deck_order`).

    >>> # state = new_game([catalog.base_deck("revolver", "colty"),
    >>> #                   catalog.base_deck("revolver", "mcready")], seed=1)
    """
    catalog = catalog if catalog is not None else default_catalog()
    name = game or game_of_decks(decks, catalog)
    chosen = get_game(name)
    unplayable = sorted(set(modules) - chosen.hooks.modules)
    if unplayable:
        playable = ", ".join(sorted(chosen.hooks.modules)) or "none yet"
        raise UnplayableDeckError(
            f"{chosen.title} cannot be played with module {', '.join(unplayable)}",
            fix=f"modules the engine plays for {name}: {playable} (see `deckbuilder rules`)")
    extra: dict[str, Any] = {"modules": tuple(modules)} if modules else {}
    if any(orders):
        extra["orders"] = tuple(orders)
    return chosen.new_game(decks, seed, ruleset, catalog, max_turns=max_turns,
                           verbose=verbose, switches=switches, **extra)


def dead_card_warnings(decks: Sequence[Mapping[str, int]], catalog: Catalog | None = None,
                       game: str | None = None, modules: Sequence[str] = ()) -> list[str]:
    """One line per card of these decks that can do nothing in this set-up (legal to hold,
    never playable here: Double the guard without the prison); empty when the decks cannot be
    played at all (the engine's refusal says why)."""
    from deckbuilder.engine.dead_cards import dead_cards

    try:
        state = new_game(decks, 0, catalog=catalog, game=game, modules=modules)
    except DeckbuilderError:
        return []
    spec = state.spec
    return [f"{spec.defs[definition].name} can do nothing in this set-up: {reason}"
            for definition, reason in sorted(dead_cards(spec).items(),
                                             key=lambda item: spec.defs[item[0]].name)]


def faction_dead_card_warnings(cards: Mapping[str, int], game: str, faction: str,
                               catalog: Catalog) -> list[str]:
    """`dead_card_warnings` for one side's deck in the default set-up (against the other
    side's base deck): what `validate` and the web deck editor warn about; empty for a game
    or faction the engine does not know."""
    if game not in games():
        return []
    sides = games()[game].side_names
    if faction not in sides:
        return []
    seat = sides.index(faction)
    other = catalog.base_deck(game, sides[1 - seat])
    decks = [cards, other] if seat == 0 else [other, cards]
    return dead_card_warnings(decks, catalog, game)

"""A game's set-up read from a page's form as `deckbuilder play` reads its options, for the
bot table and the friend tables (each adds its own seats and seed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.games import Game
from deckbuilder.sim.records.session import GameSession
from deckbuilder.web.config import WebConfig
from deckbuilder.web.simulator import SimulationInputError, deck_argument, number


@dataclass(frozen=True)
class TableSetup:
    """What both tables set up alike (`decks`: `app.play_decks` side decks, in seat order)."""

    name: str
    game: Game  # the game's registry entry
    decks: list[Any]
    ruleset: str
    switches: dict[str, str]
    modules: tuple[str, ...]
    max_turns: int
    catalog: Catalog

    def rules_words(self) -> str:
        """"ruleset rulebook-en (...), module saloon-duel": the heading's rules."""
        from deckbuilder.app.switches import describe_rules

        return (f"ruleset {describe_rules(self.ruleset, self.switches)}"
                + "".join(f", module {module}" for module in self.modules))

    def session(self, seed: int, seats: list[str], viewer: str | None) -> GameSession:
        """The game these decks and rules set up, dealt from `seed`."""
        return GameSession([deck.cards for deck in self.decks], seed, seats, self.ruleset,
                           self.catalog, game=self.name, max_turns=self.max_turns,
                           switches=self.switches, modules=self.modules, viewer=viewer)


def form_game(form: Any) -> tuple[str, Any]:
    """The form's game (its name and registry entry); an unknown one is one line."""
    from deckbuilder.games import games, get_game

    name = str(form.get("game") or "revolver").strip()
    if name not in games():
        raise SimulationInputError(f"unknown game '{name[:40]}'",
                                   fix=f"choose one of: {', '.join(games())}")
    return name, get_game(name)


def form_setup(config: WebConfig, form: Any, name: str, game: Any,
               allow_illegal: bool) -> TableSetup:
    """The decks (`deck0`, `deck1`, or the API's `decks: {side: deck}`: a base deck, a
    packaged deck, a deck-folder file, or a side's name for its base deck), the rules and
    the turn cap of the form's game."""
    from deckbuilder.app.play_decks import load_side_deck
    from deckbuilder.app.switches import parse_switches, read_modules
    from deckbuilder.decks import FACTION_GAMES

    catalog = config.catalog()
    max_turns = number(form, "max_turns", 200, 1, 10_000)
    decks = []
    by_side = form.get("decks")
    for player, side in enumerate(game.side_names):
        choice = str(form.get(f"deck{player}") or (
            by_side.get(side) if isinstance(by_side, Mapping) else "") or "").strip()
        if choice in FACTION_GAMES:
            choice = f"base:{choice}"
        decks.append(load_side_deck(deck_argument(config, choice) if choice else side, side,
                                    name, f"the {side} deck", catalog, allow_illegal))
    ruleset = str(form.get("ruleset") or "").strip() or game.default_ruleset
    switches = parse_switches([str(t) for t in form.getlist("switch") if str(t).strip()],
                              catalog, name)
    modules = read_modules([str(module) for module in form.getlist("module")
                            if str(module).strip()], catalog, name)
    return TableSetup(name, game, decks, ruleset, switches, modules, max_turns, catalog)

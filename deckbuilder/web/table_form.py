"""A game's set-up read from a page's form as `deckbuilder play` reads its options, for the
bot table and the friend tables (each adds its own seats and seed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deckbuilder.app.results import Settings
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.switches import describe_rules
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
    settings: Settings  # as `deckbuilder play` reads its options (`PlayOptions.settings`)
    catalog: Catalog

    def heading(self, seat_words: Sequence[str], seed: int | None = None) -> str:
        """"Revolver, seed 7, ruleset rulebook-en, module saloon-duel: colty (Base, bot
        greedy) against ...": the table's heading, each deck followed by its seat's words."""
        rules = self.settings
        return (f"{self.game.title}{'' if seed is None else f', seed {seed}'}, ruleset "
                f"{describe_rules(rules.ruleset, rules.switches)}"
                + "".join(f", module {module}" for module in rules.modules) + ": "
                + " against ".join(f"{side} ({deck.name}{words})" for side, deck, words
                                   in zip(self.game.side_names, self.decks, seat_words,
                                          strict=True)))

    def session(self, seed: int, seats: list[str], viewer: str | None) -> GameSession:
        """The game these decks and rules set up, dealt from `seed`."""
        rules = self.settings
        return GameSession([deck.cards for deck in self.decks], seed, seats, rules.ruleset,
                           self.catalog, game=self.name, max_turns=rules.max_turns,
                           switches=rules.switches, modules=rules.modules, viewer=viewer)


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
    settings = PlayOptions(
        ruleset=str(form.get("ruleset") or "").strip() or None, max_turns=max_turns,
        switches=[str(text) for text in form.getlist("switch") if str(text).strip()],
        modules=[str(module) for module in form.getlist("module") if str(module).strip()],
    ).settings(catalog, name)
    return TableSetup(name, game, decks, settings, catalog)

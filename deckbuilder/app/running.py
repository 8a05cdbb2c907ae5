"""What every service run shares: the catalog, the settings read and checked alike from
every face, the executor the games run on."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.results import Settings, frozen_mapping
from deckbuilder.app.switches import parse_switches, read_modules
from deckbuilder.build import compiled, describe
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game
from deckbuilder.legality import COPIES_SWITCH, Supply, deck_supply
from deckbuilder.legality.supply import SupplyCollection
from deckbuilder.sim.runs.runner import Executor, make_executor, prime_catalog


class SettingError(DeckbuilderError):
    """A setting given to the API is out of its range (games below 1 ...)."""


def check_count(name: str, value: object, least: int) -> int:
    """A whole number of at least `least` (bool is no number here), else a `SettingError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SettingError(f"{name} must be a whole number of at least {least}, not {value!r}",
                           fix=f"pass {name}={max(least, 1)} or more")
    return value


def use_catalog(catalog: Catalog | None) -> Catalog:
    """The catalog given, else the command line's; shared with the processes that play."""
    found = catalog if catalog is not None else project_catalog()
    prime_catalog(found)
    return found


@contextlib.contextmanager
def games_on(workers: int, executor: Executor | None) -> Iterator[Executor]:
    """The executor given, else `workers` processes (1: this process, 0: one per core)."""
    if executor is not None:
        yield executor
        return
    yield make_executor(check_count("workers", workers, 0))


@dataclass(frozen=True)
class PlayOptions:
    """What a face asks to play, as given: one object in place of the long lists of
    settings every run takes (`switches` as {id: reading} or `ID=READING` texts)."""

    games: int = 1000
    seed: int = 1
    bot: str = "greedy"
    opponent_bot: str | None = None
    ruleset: str | None = None
    switches: Mapping[str, str] | Sequence[str] | None = None
    modules: Sequence[str] = ()
    max_turns: int = 200
    allow_illegal: bool = False
    boxes: int | None = None
    collection: SupplyCollection = None

    def _switch_texts(self) -> list[str]:
        switches = self.switches
        return ([f"{key}={value}" for key, value in switches.items()]
                if isinstance(switches, Mapping) else list(switches or ()))

    def supply(self, catalog: Catalog) -> Supply:
        """The one supply of `legality.deck_supply` these options ask for."""
        chosen = {key.strip(): value.strip() for key, _, value in
                  (text.partition("=") for text in self._switch_texts())}
        reading = {COPIES_SWITCH: chosen[COPIES_SWITCH]} if COPIES_SWITCH in chosen else None
        return deck_supply(catalog, boxes=self.boxes, collection=self.collection,
                           switches=reading)

    def settings(self, catalog: Catalog, game: str) -> Settings:
        """The settings read and checked against the game's installed sets."""
        modules = [self.modules] if isinstance(self.modules, str) else self.modules  # "A"
        return Settings(game, self.ruleset or get_game(game).default_ruleset,
                        frozen_mapping(parse_switches(self._switch_texts(), catalog, game)),
                        read_modules(modules, catalog, game), self.bot,
                        self.opponent_bot or self.bot, self.seed, self.games,
                        check_count("max_turns", self.max_turns, 1), describe(), compiled(),
                        self.supply(catalog).sentence)

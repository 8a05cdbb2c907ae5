"""What every API call shares: the catalog it plays with, the rules read from plain Python
values, the executor the games run on, and the settings a result records.

The rules are read by the same functions the command line uses (`app.switches`), so a
misspelt switch or module is the same one line here; only how the values arrive differs
(a mapping and a list rather than `--switch ID=VALUE` options).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.api.results import Settings, frozen_mapping
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.switches import parse_switches, read_modules
from deckbuilder.build import compiled, describe
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game
from deckbuilder.sim.runs.runner import Executor, make_executor, prime_catalog

__all__ = ["Rules", "SettingError", "check_count", "games_on", "read_rules", "settings",
           "use_catalog"]


class SettingError(DeckbuilderError):
    """A setting given to the API is out of its range (games below 1, a negative count of
    workers ...)."""


def check_count(name: str, value: object, least: int) -> int:
    """A whole number of at least `least` (bool is no number here), else a `SettingError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SettingError(f"{name} must be a whole number of at least {least}, not {value!r}",
                           fix=f"pass {name}={max(least, 1)} or more")
    return value


def use_catalog(catalog: Catalog | None) -> Catalog:
    """The catalog given, else the one the command line would use (packaged and installed
    sets, the overlay, a project's sets folder); shared with the processes that play."""
    found = catalog if catalog is not None else project_catalog()
    prime_catalog(found)
    return found


@dataclass(frozen=True)
class Rules:
    """The rules read and checked: the ruleset (the game's own when None was given), the
    single switches over it, the modules' ids, the turn cap."""

    ruleset: str
    switches: dict[str, str]
    modules: tuple[str, ...]
    max_turns: int


def read_rules(catalog: Catalog, game: str, ruleset: str | None,
               switches: Mapping[str, str] | None, modules: Sequence[str],
               max_turns: int) -> Rules:
    """Switches as {id: reading} and modules by letter, id or name, checked against the
    game's installed sets."""
    if isinstance(modules, str):  # one module given bare: "A" is not ["A"]'s letters
        modules = [modules]
    texts = [f"{key}={value}" for key, value in (switches or {}).items()]
    return Rules(ruleset or get_game(game).default_ruleset,
                 parse_switches(texts, catalog, game), read_modules(modules, catalog, game),
                 check_count("max_turns", max_turns, 1))


@contextlib.contextmanager
def games_on(workers: int, executor: Executor | None) -> Iterator[Executor]:
    """The executor given (a `ProcessExecutor`, a `DaskExecutor` ...), else `workers`
    processes (1: this process, 0: one per core); the same seed gives the same numbers on
    each."""
    if executor is not None:
        yield executor
        return
    yield make_executor(check_count("workers", workers, 0))


def settings(game: str, rules: Rules, *, bot: str, opponent_bot: str, seed: int,
             games: int) -> Settings:
    """The settings a result records (the build that played included)."""
    return Settings(game, rules.ruleset, frozen_mapping(rules.switches), rules.modules, bot,
                    opponent_bot, seed, games, rules.max_turns, describe(), compiled())

"""The settings every API call takes by keyword, typed once (`Unpack[SimulateKeywords]` ...)
and read once into the service's settings object (`app.running.PlayOptions`).

    >>> asked({"games": 4, "seed": 2}, SimulateKeywords, "simulate").options.games
    4
    >>> asked({"game": 4}, SimulateKeywords, "simulate")
    Traceback (most recent call last):
    ...
    TypeError: simulate() got an unexpected keyword argument 'game'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from deckbuilder.app.running import PlayOptions, check_count, use_catalog
from deckbuilder.catalog import Catalog
from deckbuilder.legality.supply import SupplyCollection
from deckbuilder.sim.runs.runner import Executor, GameResult


class RunKeywords(TypedDict, total=False):
    """What every call takes: `seed` (default 1), `bot` ("greedy"), `ruleset` (the game's),
    `switches` ({id: reading}), `modules` (letters, ids or names), `max_turns` (200),
    `workers` (processes, 1; 0: one per core) or an `executor` (Dask), `catalog`, `boxes`
    (the decks are judged against N boxes of each product; default one), `check_bot` (the
    verdict asked again with this bot, as `--check-bot`; "none": never; the report's
    `bot_check`)."""

    seed: int
    bot: str
    ruleset: str | None
    switches: Mapping[str, str] | None
    modules: Sequence[str]
    max_turns: int
    workers: int
    executor: Executor | None
    catalog: Catalog | None
    boxes: int | None
    check_bot: str | None


class OptimizeKeywords(RunKeywords, total=False):
    """`optimize`'s: `opponent_bot` (default: `bot`)."""

    opponent_bot: str | None


class TournamentKeywords(RunKeywords, total=False):
    """`tournament`'s: `games` per pairing, `allow_illegal`, `on_result` (each game),
    `collection` (the decks are judged against what it owns instead of one box of each
    product: a collection file, a `Collection` or card id -> copies)."""

    games: int
    allow_illegal: bool
    collection: SupplyCollection
    on_result: Callable[[GameResult], None] | None


class SimulateKeywords(TournamentKeywords, total=False):
    """`simulate`'s and `gauntlet`'s: `games` (default 1000) and `opponent_bot` too."""

    opponent_bot: str | None


@dataclass(frozen=True)
class Asked:
    """A call's keywords read and checked."""

    options: PlayOptions
    workers: int
    executor: Executor | None
    catalog: Catalog
    on_result: Callable[[GameResult], None] | None
    check_bot: str | None = None


def asked(given: Mapping[str, Any], allowed: type, call: str, games: int = 1000) -> Asked:
    """An unknown keyword is Python's own TypeError; `games` below 1 or a negative `seed` a
    `SettingError`."""
    known: frozenset[str] = getattr(allowed, "__optional_keys__", frozenset())
    for name in given:
        if name not in known:
            raise TypeError(f"{call}() got an unexpected keyword argument '{name}'")
    bot = str(given.get("bot", "greedy"))
    options = PlayOptions(
        check_count("games", given.get("games", games), 1),
        check_count("seed", given.get("seed", 1), 0), bot, given.get("opponent_bot"),
        given.get("ruleset"), given.get("switches"), given.get("modules", ()),
        given.get("max_turns", 200), bool(given.get("allow_illegal", False)),
        given.get("boxes"), given.get("collection"))
    return Asked(options, given.get("workers", 1), given.get("executor"),
                 use_catalog(given.get("catalog")), given.get("on_result"),
                 given.get("check_bot"))

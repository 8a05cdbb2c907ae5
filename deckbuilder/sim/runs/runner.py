"""Play many independent games through a pluggable executor: a game is a small picklable
task, `play_one(GameJob) -> GameResult`, so nothing in a result depends on where or when it
was computed (this process, a pool of processes, a Dask cluster).
"""

from __future__ import annotations

import collections
import concurrent.futures
import gc
import itertools
import multiprocessing
import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol, TypeVar

from deckbuilder.bots import cut_short_count, make_bot
from deckbuilder.catalog import Catalog, default_catalog
from deckbuilder.engine.state import State
from deckbuilder.games import get_game, new_game
from deckbuilder.protocol import Bot, Evaluator
from deckbuilder.sim.runs.seeds import bot_seed

T = TypeVar("T")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

DeckItems = tuple[tuple[str, int], ...]
SwitchItems = tuple[tuple[str, str], ...]
NewGame = Callable[..., State]


def deck_items(deck: Mapping[str, int]) -> DeckItems:
    """A deck as a sorted tuple: hashable, picklable, and independent of dict order."""
    return tuple(sorted((str(card), int(copies)) for card, copies in deck.items()))


def switch_items(switches: Mapping[str, str] | None) -> SwitchItems:
    """Rule switches (switch id -> variant) as a sorted tuple, for the same reasons."""
    return tuple(sorted((str(key), str(value)) for key, value in (switches or {}).items()))


@dataclass(frozen=True)
class GameJob:
    """Everything needed to play one game, and nothing that depends on the process."""

    index: int
    seed: int
    decks: tuple[DeckItems, DeckItems]
    bots: tuple[str, str]
    label: str = "deck"
    ruleset: str | None = None  # None: the game's own default
    game: str = "revolver"
    max_turns: int = 200
    #: Module-level functions (they pickle by name); None means the real engine.
    new_game: NewGame | None = None
    evaluate: Evaluator | None = None
    #: single rule switches over the ruleset (`switch_items`); () plays the ruleset as it is
    switches: SwitchItems = ()
    #: the modules in use (sorted ids)
    modules: tuple[str, ...] = ()
    #: per player, how the deck lies before the shuffle (one card id per copy; None: sorted
    #: by id): a paired game's deck aligned with its reference deck (`sim.runs.aligned`)
    orders: tuple[tuple[str, ...] | None, tuple[str, ...] | None] = (None, None)


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    label: str
    winner: int | None
    termination: str
    turns: int
    decisions: int
    drawn: tuple[dict[str, int], dict[str, int]] = field(default=({}, {}))
    played: tuple[dict[str, int], dict[str, int]] = field(default=({}, {}))
    #: (bot name, times its bounds cut a turn or a look-ahead short in this game), if any
    cut_short: tuple[tuple[str, int], ...] = ()


_process_catalog: Catalog | None = None


def prime_catalog(catalog: Catalog) -> None:
    """Share an already built catalog with `play_one` (forked workers inherit it). Every object
    alive now (the catalog above all) is frozen: every full collection walked them again (a
    sixth of a greedy game's time), and a fork keeps their pages shared."""
    global _process_catalog
    _process_catalog = catalog
    gc.freeze()


def engine_catalog() -> Catalog:
    """The catalog this process plays with: the primed one, else the default (built once)."""
    if _process_catalog is None:
        prime_catalog(default_catalog())
    assert _process_catalog is not None
    return _process_catalog


def start_game(spec: GameJob) -> State:
    """The initial state of `spec`'s game (a stand-in `new_game` gets only the extras used)."""
    decks = [dict(items) for items in spec.decks]
    switches = dict(spec.switches) or None
    if spec.new_game is None:
        return new_game(decks, spec.seed, ruleset=spec.ruleset, catalog=engine_catalog(),
                        game=spec.game, max_turns=spec.max_turns, switches=switches,
                        modules=spec.modules, orders=spec.orders)
    extra = {key: value for key, value in (("switches", switches), ("modules", spec.modules),
                                           ("orders", spec.orders if any(spec.orders) else None))
             if value}
    return spec.new_game(decks, spec.seed, ruleset=spec.ruleset, game=spec.game,
                         max_turns=spec.max_turns, **extra)


@lru_cache(maxsize=64)
def _bot(spec: str, evaluate: Evaluator | None, game: str) -> Bot:
    return make_bot(spec, evaluate if evaluate is not None else get_game(game).heuristics)


def play_one(spec: GameJob) -> GameResult:
    """Play one game to the end; bots draw from their own seeded streams."""
    state = start_game(spec)
    bots = [_bot(name, spec.evaluate, spec.game) for name in spec.bots]
    rngs = [random.Random(bot_seed(spec.seed, player)) for player in (0, 1)]
    distinct = {id(bot): bot for bot in bots}  # both seats may share one cached bot
    before = {key: cut_short_count(bot) for key, bot in distinct.items()}
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        state.apply(bots[player].choose(state, rngs[player]))
        decisions += 1
    outcome = state.outcome()
    assert outcome is not None  # the loop ends on a terminal state
    stats = state.stats
    return GameResult(
        index=spec.index,
        seed=spec.seed,
        label=spec.label,
        winner=outcome.winner,
        termination=str(outcome.termination),
        turns=state.turn,
        decisions=decisions,
        drawn=(_counts(stats[0].drawn), _counts(stats[1].drawn)),
        played=(_counts(stats[0].played), _counts(stats[1].played)),
        cut_short=tuple(sorted((bot.name, cut_short_count(bot) - before[key])
                               for key, bot in distinct.items()
                               if cut_short_count(bot) > before[key])),
    )


def _counts(counter: Mapping[str, int]) -> dict[str, int]:
    return {str(card): count for card, count in counter.items() if count}


class Executor(Protocol):
    """Yields `fn` of each of `items` (a lazy iterable of any length, taken as it goes)."""

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...


class SerialExecutor:
    """Everything in this process: the reference the parallel executors must match."""

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return map(fn, items)


def play_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    return [fn(item) for item in chunk]


#: The largest chunk: long enough to hide a task's overhead, short enough to spread.
MAX_CHUNK = 64
#: Chunks queued per worker thread beyond the one it is playing.
IN_FLIGHT_PER_THREAD = 4


def chunk_sizes(items: Iterable[object], threads: int, fixed: int | None = None,
                ramp: bool = False) -> Iterator[int]:
    """Small chunks keep the progress bar moving, a cap keeps any one short; with `ramp` (Dask)
    a lazy batch starts at 1 and grows, so that a short batch still reaches every worker."""
    if fixed:
        return itertools.repeat(fixed)
    if isinstance(items, Sized):
        return itertools.repeat(max(1, min(MAX_CHUNK, len(items) // (threads * 8))))
    if not ramp:
        return itertools.repeat(MAX_CHUNK)
    return itertools.chain(*(itertools.repeat(size, threads) for size in range(1, MAX_CHUNK)),
                           itertools.repeat(MAX_CHUNK))


class Submitted(Protocol[R_co]):
    def result(self) -> Iterable[R_co]: ...


def bounded_map(submit: Callable[[list[T]], Submitted[R]], items: Iterable[T],
                sizes: Iterator[int], threads: int,
                cancel: Callable[[Sequence[Submitted[R]]], object]) -> Iterator[R]:
    """The results of `submit`ting `items` in chunks, in order, a few chunks per thread in
    flight (bounded memory); what is in flight when the caller stops goes to `cancel`."""
    source = iter(items)
    pending: collections.deque[Submitted[R]] = collections.deque()
    try:
        while chunk := list(itertools.islice(source, next(sizes))):
            pending.append(submit(chunk))
            if len(pending) >= threads * (1 + IN_FLIGHT_PER_THREAD):
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        cancel(list(pending))


class ProcessExecutor:
    """A pool of local processes. `start_method` None is the platform's default (`fork` on
    Linux: the workers inherit the primed catalog); a server with threads of its own asks for
    "forkserver", as forking a process with other threads running is unsafe."""

    def __init__(self, workers: int | None = None, chunk_size: int | None = None,
                 start_method: str | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.chunk_size = chunk_size
        self.start_method = start_method

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        context = None if self.start_method is None else multiprocessing.get_context(
            self.start_method)
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers,
                                                      mp_context=context)
        yield from bounded_map(
            lambda chunk: pool.submit(play_chunk, fn, chunk), items,
            chunk_sizes(items, self.workers, self.chunk_size), self.workers,
            lambda _: pool.shutdown(wait=True, cancel_futures=True))


def make_executor(workers: int, start_method: str | None = None) -> Executor:
    """`workers` 1: this process; 0: one process per core; K: K processes."""
    if workers == 1:
        return SerialExecutor()
    return ProcessExecutor(None if workers <= 0 else workers, start_method=start_method)


def run_games(
    specs: Iterable[GameJob],
    executor: Executor | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every spec (taken lazily); the results sorted by (label, index)."""
    runner = executor or SerialExecutor()
    order: dict[str, int] = {}

    def ranked(items: Iterable[GameJob]) -> Iterator[GameJob]:
        for spec in items:
            order.setdefault(spec.label, len(order))
            yield spec

    results: list[GameResult] = []
    for result in runner.map(play_one, ranked(specs)):
        results.append(result)
        if on_result is not None:
            on_result(result)
    results.sort(key=lambda result: (order[result.label], result.index))
    return results

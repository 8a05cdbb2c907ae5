"""What the web app keeps in memory under an unguessable id (bot games, opened replays),
bounded and expiring, and the one registry of each kind an app holds (`held_by`)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from starlette.applications import Starlette


class Keepable(Protocol):
    id: str
    last_used: float


K = TypeVar("K", bound=Keepable)
T = TypeVar("T")


def held_by(app: Starlette, name: str, make: Callable[[], T]) -> T:
    """The app's `name` registry, made on first use (one per app: tests run several apps)."""
    held: T | None = getattr(app.state, name, None)
    if held is None:
        held = make()
        setattr(app.state, name, held)
    return held


class Kept(Generic[K]):
    """Items by id, bounded in number and expiring (thread-safe)."""

    def __init__(self, most: int, idle_seconds: float) -> None:
        self.most = most
        self.idle_seconds = idle_seconds
        self._items: OrderedDict[str, K] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def put(self, item: K) -> K:
        """Keep `item`, making room for it."""
        with self._lock:
            self._expire()
            while len(self._items) >= self.most:
                self._items.popitem(last=False)
            self._items[item.id] = item
            return item

    def get(self, item_id: str) -> K | None:
        """The item (now the most recently used), or None: never kept, or forgotten."""
        with self._lock:
            self._expire()
            item = self._items.get(item_id)
            if item is not None:
                item.last_used = time.monotonic()
                self._items.move_to_end(item_id)
            return item

    def __contains__(self, item_id: str) -> bool:
        with self._lock:
            return item_id in self._items

    def __len__(self) -> int:
        return len(self._items)

    def _expire(self) -> None:
        now = time.monotonic()
        for item_id, item in list(self._items.items()):
            if now - item.last_used > self.idle_seconds:
                del self._items[item_id]

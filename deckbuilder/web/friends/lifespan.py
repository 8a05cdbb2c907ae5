"""How long a friend table lives (docs/reference/table-api.md, "Tables on disk"): an ended
table leaves memory, its links still open it through `<tables>/links/` until the retention.

Open tables are counted per client (`client_key`) as well as in all, so one client cannot take
every place; this computer (loopback) counts only in all: whoever runs the server can delete
its tables anyway, and on a server only it reaches every table is made from loopback.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from deckbuilder.writing import atomic_write_text

#: Ended tables' files are deleted this long after the end (`serve --table-retention DAYS`).
RETENTION_DAYS = 7.0
DAY_SECONDS = 24 * 60 * 60.0
#: Unfinished tables one client (address) may keep at once (`serve --tables-per-client`).
TABLES_PER_CLIENT = 10
#: Ended tables kept in memory once read back for a link (a page, its events, the record).
ENDED_KEPT = 8
#: A link's file names a table and a role: a few dozen bytes.
MOST_LINK_BYTES = 4096
#: The names of a link's file: a token's SHA-256, in hex.
LINK_NAME = re.compile(r"^[0-9a-f]{64}$")


class LinkFolder:
    """The links of ended tables, one file each (`<token's sha256>.json`: [table id, role]),
    so that memory does not grow with ended tables."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, digest: str) -> Path | None:
        return self.folder / f"{digest}.json" if LINK_NAME.match(digest) else None

    def remember(self, digest: str, place: Iterable[str]) -> None:
        """Write the link's file, unless it is there (a restart writes them again)."""
        path = self._path(digest)
        if path is None or path.exists():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps([str(part) for part in place]) + "\n")

    def place(self, digest: str) -> tuple[str, ...] | None:
        """The table id and role the link names, or None."""
        path = self._path(digest)
        if path is None:
            return None
        try:
            with path.open("rb") as stream:
                data = json.loads(stream.read(MOST_LINK_BYTES))
        except (OSError, ValueError):
            return None
        if not isinstance(data, list) or len(data) < 2 or not all(
                isinstance(part, str) for part in data):
            return None
        return tuple(data)

    def forget(self, digests: Iterable[str]) -> None:
        for digest in digests:
            path = self._path(digest)
            if path is not None:
                path.unlink(missing_ok=True)


def client_key(address: str | None) -> str | None:
    """The name a client's open tables are counted under: its IPv4 address, or its IPv6
    /64 (one home or phone is given a whole /64); None for loopback and no address.

    >>> client_key("203.0.113.9"), client_key("::ffff:203.0.113.9"), client_key("127.0.0.1")
    ('203.0.113.9', '203.0.113.9', None)
    >>> client_key("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    """
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]  # a name, not an address (a test client)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def mark_ended(path: Path, when: float) -> None:
    """Date the ended table's file to its end (by the store's clock): the retention counts
    from there."""
    with contextlib.suppress(OSError):  # else the time of its last line: seconds off
        os.utime(path, (when, when))


def expired_files(folder: Path, open_ids: set[str], cutoff: float) -> Iterator[Path]:
    """The table files in `folder`, not of an open table, last written before `cutoff`."""
    for path in folder.glob("*.jsonl"):
        try:
            status = path.lstat()
        except OSError:
            continue
        if path.stem not in open_ids and stat.S_ISREG(status.st_mode) \
                and status.st_mtime < cutoff:
            yield path


def duration_words(seconds: float) -> str:
    """A time the host set (the retention, the idle time), in words.

    >>> duration_words(7 * DAY_SECONDS), duration_words(DAY_SECONDS), duration_words(1800)
    ('7 days', '1 day', '30 minutes')
    """
    unit, size = next(((unit, size) for unit, size in _UNITS if seconds >= size), _UNITS[-1])
    amount = round(seconds / size, 1)
    return f"{amount:g} {unit}{'' if amount == 1 else 's'}"


_UNITS = (("day", DAY_SECONDS), ("hour", 3600.0), ("minute", 60.0))

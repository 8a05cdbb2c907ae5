"""Reading a user's files with every bound checked before the read happens.

A path may name `/dev/zero`, a FIFO, a sparse file of 2 GiB or a device: `read_bounded` checks
what it is (`stat`), opens it without blocking, checks again on the open file (the path may
have changed), and reads at most `limit + 1` bytes, so no file costs more than its limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from deckbuilder.errors import DataFileError, Location

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _refuse_kind(mode: int, where: Location, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    fix = f"name a {what} inside it" if kind == "a directory" else f"give a regular {what}"
    raise DataFileError(f"is {kind}, not a regular file", where, fix)


def _refuse_size(size: int, limit: int, where: Location) -> None:
    if size > limit:
        raise DataFileError(f"file is {size} bytes; the limit is {limit}", where,
                            "split the file or remove what does not belong in it")


def read_bounded(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; anything else is refused."""
    path = Path(path)
    where = Location(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise DataFileError("file not found", where, "check the path") from None
    except OSError as error:
        raise DataFileError(f"cannot read: {os_reason(error)}", where,
                            "check the path and its permissions") from None
    _refuse_kind(info.st_mode, where, what)
    _refuse_size(info.st_size, limit, where)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise DataFileError(f"cannot read: {os_reason(error)}", where,
                            "check the file's permissions") from None
    try:
        opened = os.fstat(descriptor)  # the path may name something else by now
        _refuse_kind(opened.st_mode, where, what)
        _refuse_size(opened.st_size, limit, where)
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as error:
        raise DataFileError(f"cannot read: {os_reason(error)}", where,
                            "check the file") from None
    finally:
        os.close(descriptor)
    raw = b"".join(chunks)
    _refuse_size(len(raw), limit, where)  # it grew while being read
    return raw


def decode_utf8(raw: bytes, path: Path) -> str:
    """UTF-8 text (a byte-order mark is dropped); binary or other encodings are refused."""
    if b"\x00" in raw:
        raise DataFileError("binary file, not text", Location(path),
                            "give a UTF-8 text file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line_start = raw.rfind(b"\n", 0, error.start) + 1
        line = raw[: error.start].count(b"\n") + 1
        column = len(raw[line_start: error.start].decode("utf-8", "replace")) + 1
        raise DataFileError("not UTF-8 text", Location(path, line, column),
                            "save the file as UTF-8") from None


def os_reason(error: OSError) -> str:
    """Why the system refused, in a message's words (`permission denied`)."""
    return (error.strerror or str(error)).lower()

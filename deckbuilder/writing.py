"""Writing a user's files so that nothing is lost: whole or not at all, one writer at a time.

`atomic_write_text` writes a temporary file beside the target and renames it over it, through
a symbolic link, keeping mode, owner, group and extended attributes where the writer may; a
temporary file a killed writer left (its name holds the pid) goes at the next write. With
`keep_links=True` a hard-linked file is rewritten in its own inode so every name sees the
change (`_copy_into`). `editing(path)` serialises read-modify-write with an advisory `flock`
on the folder: no lock file is ever left behind, and the kernel releases it when a process dies.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.reading import os_reason

#: How long a writer waits for another one before giving up with a one-line error.
LOCK_TIMEOUT_SECONDS = 60.0
_TEMPORARY_SUFFIX = ".tmp"

try:  # POSIX; elsewhere writes are still atomic, only not serialised
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class WriteError(DeckbuilderError):
    """A file could not be written; nothing was changed."""


def _write_target(path: Path) -> Path:
    """The file a write to `path` changes: the file a symbolic link names, else `path`."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _remove_abandoned_temporaries(folder: Path, name: str) -> None:
    """Temporary files of writers that were killed before they could clean up."""
    try:
        candidates = [entry for entry in os.scandir(folder)
                      if entry.name.startswith(f".{name}.") and entry.name.endswith(
                          _TEMPORARY_SUFFIX)]
    except OSError:
        return
    for entry in candidates:
        pid_text = entry.name[len(name) + 2:].split(".", 1)[0]
        if pid_text.isdigit() and not _alive(int(pid_text)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        pass
    return True


@contextlib.contextmanager
def _signals_handled(numbers: tuple[int, ...], handler: Callable[[int, Any], None]
                     ) -> Iterator[None]:
    """`handler` answers the signals `numbers` while the block runs (main thread only)."""
    previous: dict[int, Any] = {}
    with contextlib.suppress(ValueError):
        for number in numbers:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, earlier in previous.items():
            signal.signal(number, earlier)


def _raise_exit(signum: int, frame: object) -> None:
    """SIGTERM raises SystemExit while a file is written, so the temporary file goes."""
    raise SystemExit(128 + signum)


#: Test hook: `DECKBUILDER_PAUSE_AT=point:seconds` sleeps at that point of a write, so a test
#: can start a racing command inside the window a lock must close (unset: no cost but a lookup).
PAUSE_VARIABLE = "DECKBUILDER_PAUSE_AT"


def pause_at(point: str) -> None:
    wanted = os.environ.get(PAUSE_VARIABLE)
    if not wanted:
        return
    name, _, seconds = wanted.partition(":")
    if name == point:
        with contextlib.suppress(ValueError):
            time.sleep(min(float(seconds or 0), 10.0))


def make_data_folder(folder: Path, what: str) -> Path:
    """Create a folder of the user's data folder, or say in one line why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(f"cannot create the {what} folder {folder}: {os_reason(error)}",
                         Location(folder), "set DECKBUILDER_HOME to a folder you can write "
                         "to") from None
    return folder


def refuse_overwrite(path: Path, force: bool) -> None:
    """Every command that creates a file asks for --force before it replaces one."""
    if Path(path).exists() and not force:
        raise WriteError("file already exists", Location(Path(path)),
                         "choose another file name or pass --force")


def atomic_write_text(path: Path, text: str, *, keep_links: bool = False) -> None:
    """Write `text` to `path` whole, or leave `path` as it was and raise a `WriteError`."""
    atomic_write_bytes(path, text.encode("utf-8"), keep_links=keep_links)


def atomic_write_bytes(path: Path, data: bytes, *, keep_links: bool = False) -> None:
    """Write `data` to `path` whole, or leave `path` as it was and raise a `WriteError`."""
    path = Path(path)
    target = _write_target(path)
    where = Location(path)
    if target.is_dir():
        raise WriteError(f"cannot write {path}: it is a folder", where,
                         "name a file, not a folder")
    # the file's own write permission: root may write anything, but a file someone made
    # read-only is not to be replaced behind their back
    if target.exists() and not (target.stat().st_mode & 0o200 and os.access(target, os.W_OK)):
        raise WriteError(f"cannot write {path}: the file is read-only", where,
                         "make it writable (chmod u+w) or write to another file")
    folder = target.parent
    blocking = _file_in_the_way(folder)
    if blocking is not None:
        raise WriteError(f"cannot write {path}: {blocking} is a file, not a folder", where,
                         "choose a folder, or move that file away")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(f"cannot create the folder {folder}: {os_reason(error)}", where,
                         "choose a folder you can write to") from None
    _remove_abandoned_temporaries(folder, target.name)
    temporary: str | None = None
    try:
        with _signals_handled((signal.SIGTERM,), _raise_exit):
            handle, temporary = tempfile.mkstemp(
                prefix=f".{target.name}.{os.getpid()}.", suffix=_TEMPORARY_SUFFIX, dir=folder)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                _take_on_owner_and_mode(stream.fileno(), target)
                _take_on_attributes(stream.fileno(), target)
                os.fsync(stream.fileno())
            if keep_links and _other_names(target):
                kept, temporary = temporary, None  # the copy decides what becomes of it
                _copy_into(target, data, kept)
            else:
                os.replace(temporary, target)
                temporary = None
    except OSError as error:
        raise WriteError(f"cannot write {path}: {os_reason(error)}", where,
                         _fix_for(error)) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def append_line(path: Path, line: str) -> None:
    """Add one synced line to a log file (cheaper than a rewrite at every move); a line a
    crash cut short has no newline, and `whole_lines` drops it."""
    data = (line if line.endswith("\n") else line + "\n").encode("utf-8")
    try:
        with _signals_handled((signal.SIGTERM,), _raise_exit), open(path, "ab") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        raise WriteError(f"cannot write {path}: {os_reason(error)}", Location(Path(path)),
                         _fix_for(error)) from None


def whole_lines(text: str) -> list[str]:
    """The lines of an append-only log, without a last line a crash cut short.

    >>> whole_lines("move 1\\nmove 2\\nmove")
    ['move 1\\n', 'move 2\\n']
    """
    lines = text.splitlines(keepends=True)
    return lines if not lines or lines[-1].endswith("\n") else lines[:-1]


def _file_in_the_way(folder: Path) -> Path | None:
    """The nearest existing ancestor of `folder` when it is something other than a folder."""
    for candidate in (folder, *folder.parents):
        if candidate.exists() or candidate.is_symlink():
            return None if candidate.is_dir() else candidate
    return None


def _take_on_owner_and_mode(handle: int, target: Path) -> None:
    """Give the temporary file the replaced file's owner and group where the writer may set
    them, then its mode with setuid/setgid/sticky bits (after the owner: chown clears them).
    A new file gets what the umask allows."""
    try:
        old = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(handle, 0o666 & ~umask)
        return
    new = os.fstat(handle)
    for uid, gid in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
        if (uid == -1 or uid == new.st_uid) and gid == new.st_gid:
            break
        try:
            os.fchown(handle, uid, gid)
            break
        except OSError as error:  # not permitted: keep what the writer may give
            if error.errno not in (errno.EPERM, errno.EACCES, errno.EINVAL):
                raise
    os.fchmod(handle, stat.S_IMODE(old.st_mode))


def _take_on_attributes(handle: int, target: Path) -> None:
    """Give the temporary file the replaced file's extended attributes; one the writer may not
    set is left behind, but a full disk is an error."""
    if not hasattr(os, "listxattr"):  # pragma: no cover - not Linux
        return
    try:
        names = os.listxattr(target)
    except OSError:  # a new file, or a file system without extended attributes
        return
    for name in names:
        try:
            os.setxattr(handle, name, os.getxattr(target, name))
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise


def _other_names(target: Path) -> bool:
    try:
        return target.stat().st_nlink > 1
    except OSError:
        return False


def _copy_into(target: Path, data: bytes, temporary: str) -> None:
    """Write `data` into `target`'s own inode, so its hard links see it.

    Unlike a rename, a reader in that moment (microseconds) can see part of the change, and
    a crash leaves the file partly written, so the whole new text stays synced in `temporary`
    until done, and a disk without room fails before the file is touched.
    """
    try:
        descriptor = os.open(target, os.O_WRONLY)
    except OSError:
        os.unlink(temporary)  # nothing was touched
        raise
    try:
        if not _room_for(descriptor, len(data)):
            os.unlink(temporary)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        try:
            with _signals_held():
                written = 0
                while written < len(data):  # one call for a regular file; a short write goes on
                    written += os.pwrite(descriptor, data[written:], written)
                os.ftruncate(descriptor, len(data))
                os.fsync(descriptor)
        except OSError as error:
            raise WriteError(f"cannot write {target}: {os_reason(error)}; its new text is "
                             f"whole in {temporary}", Location(target),
                             f"copy {temporary} over it once the problem is fixed") from None
    finally:
        os.close(descriptor)
    with contextlib.suppress(OSError):
        os.unlink(temporary)


def _room_for(descriptor: int, size: int) -> bool:
    """Whether the disk has room for the file (open as `descriptor`) to grow to `size`."""
    try:
        disk = os.fstatvfs(descriptor)
        held = os.fstat(descriptor).st_blocks * 512
    except OSError:
        return True  # nothing to tell by: the write itself says
    return size - held <= disk.f_bavail * disk.f_frsize


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGTERM and SIGINT while the block runs, so no file is left half-copied."""
    held: list[int] = []
    try:
        with _signals_handled((signal.SIGTERM, signal.SIGINT),
                              lambda got, _frame: held.append(got)):
            yield
    finally:
        for got in held:
            signal.raise_signal(got)


def _fix_for(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "free some disk space and try again"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a folder you can write to"
    return "check the path and try again"


def editing(path: Path) -> contextlib.AbstractContextManager[None]:
    """Hold the write lock of `path`'s folder while a read-modify-write of `path` runs."""
    return folder_lock(_write_target(Path(path)).parent)


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the write lock of a folder (the sets folder while a set is installed or removed)."""
    if fcntl is None or not folder.is_dir():
        yield
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        yield  # a folder that cannot be opened cannot be written either: the write says so
        return
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise WriteError(
                        f"another deckbuilder command has been writing in {folder} for "
                        f"{LOCK_TIMEOUT_SECONDS:.0f} s", Location(folder),
                        "wait for it to finish, then try again") from None
                time.sleep(0.02)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock

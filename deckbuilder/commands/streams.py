"""Standard output that cannot be written (`> /dev/full`, an I/O error, `| head -1`), handled
once around the whole command line (`cli.OneLineErrors.main`). The streams are watched rather
than the exceptions parsed because the libraries report a failed write in their own ways
(rich turns a broken pipe into `SystemExit(1)`), and a command may have done its work already.

A reader gone in the middle of a large write is not always an error in Python (the buffered
writer may return a short count, which the text layer drops), so while a command runs SIGPIPE
is caught and, when standard output's reader is gone, the write fails with BrokenPipeError.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import TextIO

#: Standard output (or error) could not be written (EX_IOERR in sysexits.h).
EXIT_OUTPUT_FAILED = 74
#: The reader of standard output went away (`deckbuilder cards | head -1`): 128 + SIGPIPE,
#: the code a shell reports for a program that a broken pipe ended.
EXIT_BROKEN_PIPE = 141


class WatchedStream:
    """A text stream (sys.stdout, sys.stderr) that remembers the errors its writes met."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream
        self.errors: list[OSError] = []

    @property
    def failure(self) -> OSError | None:
        """The first error (later ones are its echoes: what is still buffered fails again)."""
        return self.errors[0] if self.errors else None

    @contextlib.contextmanager
    def _noted(self) -> Iterator[None]:
        try:
            yield
        except OSError as error:
            self.errors.append(error)
            raise

    def write(self, text: str) -> int:
        with self._noted():
            return self.wrapped.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        with self._noted():
            self.wrapped.writelines(lines)

    def flush(self) -> None:
        with self._noted():
            self.wrapped.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self.wrapped, name)


class OutputWatch:
    """Watch sys.stdout and sys.stderr for the length of one command line."""

    def __init__(self) -> None:
        self.stdout = _watch("stdout")
        self.stderr = _watch("stderr")
        self._previous_handler: Callable[[int, FrameType | None], object] | int | None = None
        if (self.stdout is not None and hasattr(signal, "SIGPIPE") and hasattr(select, "poll")
                and threading.current_thread() is threading.main_thread()):  # not on Windows
            self._previous_handler = signal.signal(signal.SIGPIPE, self._on_sigpipe)

    def remove(self) -> None:
        """Put the streams and SIGPIPE's handling back (in-process runs: tests)."""
        if self._previous_handler is not None:
            signal.signal(signal.SIGPIPE, self._previous_handler)
            self._previous_handler = None
        for name, watched in (("stdout", self.stdout), ("stderr", self.stderr)):
            if watched is not None and getattr(sys, name) is watched:
                setattr(sys, name, watched.wrapped)

    def _on_sigpipe(self, signum: int, frame: FrameType | None) -> None:
        """Fail the write in progress when standard output's reader is gone (none lost unsaid)."""
        if self.stdout is None or not _reader_gone(self.stdout):
            return
        error = BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
        self.stdout.errors.append(error)
        raise error

    def claims(self, error: BaseException) -> bool:
        """Whether `error` is a failed write to a standard stream (any broken pipe is)."""
        for watched in (self.stdout, self.stderr):
            if watched is not None and any(error is seen for seen in watched.errors):
                return True
        if isinstance(error, OSError) and error.errno == errno.EPIPE and self.stdout:
            self.stdout.errors.append(error)
            return True
        return False

    def failed(self) -> bool:
        return any(watched is not None and watched.failure is not None
                   for watched in (self.stdout, self.stderr))

    def exit_code(self) -> int:
        """Report a failed write in one line and silence the stream that failed, so that the
        interpreter's last flush prints no 'Exception ignored' after it."""
        out = self.stdout.failure if self.stdout is not None else None
        if out is not None:
            _silence(self.stdout)
            if out.errno == errno.EPIPE:
                return EXIT_BROKEN_PIPE  # the reader has all it wanted: nothing to say
            reason = os.strerror(out.errno) if out.errno else str(out)
            _say_on_stderr(f"error: cannot write to standard output: {reason}", self.stderr)
            return EXIT_OUTPUT_FAILED
        _silence(self.stderr)  # nothing can be said on it
        return EXIT_OUTPUT_FAILED


def _watch(name: str) -> WatchedStream | None:
    stream = getattr(sys, name)
    if stream is None:  # started with the descriptor closed
        return None
    watched = WatchedStream(stream)
    setattr(sys, name, watched)
    return watched


def _reader_gone(watched: WatchedStream) -> bool:
    try:
        descriptor = watched.wrapped.fileno()
        mode = os.fstat(descriptor).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return False
        poller = select.poll()
        poller.register(descriptor, select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP)
                   for _, events in poller.poll(0))
    except (OSError, ValueError):
        return False


def _say_on_stderr(line: str, stderr: WatchedStream | None) -> None:
    if stderr is None:
        return
    try:
        stderr.write(line + "\n")
        stderr.flush()
    except OSError:
        _silence(stderr)


def _silence(watched: WatchedStream | None) -> None:
    """Point the stream's descriptor at the null device, for what is still buffered for it."""
    if watched is None:
        return
    try:
        descriptor = watched.wrapped.fileno()
    except (OSError, ValueError):  # an in-memory stream (a test's runner): nothing to flush
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)

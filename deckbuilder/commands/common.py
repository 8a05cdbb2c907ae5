"""What every command shares: one-line errors with exit code 2, JSON output, the catalog."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from pydantic import JsonValue
from rich.console import Console, ConsoleDimensions
from rich.markup import escape

from deckbuilder.errors import DeckbuilderError
from deckbuilder.printable import printable

P = ParamSpec("P")
R = TypeVar("R")
Row = TypeVar("Row")
JsonObject = dict[str, JsonValue]

#: The width of a table when the output is not a terminal: wide enough that no column is cut,
#: so that ids stay whole in a pipe or a file (a table is only as wide as its cells).
PIPE_WIDTH = 10_000


class ShellConsole(Console):
    """A console with no width limit when it writes to a pipe or a file (rich would take the
    width of a terminal among stdin/stderr and cut a table piped into `grep`); no emoji, so
    a card named ":skull:" prints as written."""

    def __init__(self, **options: Any) -> None:
        super().__init__(highlight=False, soft_wrap=True, emoji=False, **options)

    @property
    def size(self) -> ConsoleDimensions:
        measured = Console.size.fget(self)  # type: ignore[attr-defined]
        if self._width is None and not self.is_terminal:
            return ConsoleDimensions(PIPE_WIDTH, measured.height)
        return measured

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


console = ShellConsole()
error_console = ShellConsole(stderr=True)
#: For output that has no markup of its own (tables of names from files): nothing in a cell
#: is read as markup.
plain_console = ShellConsole(markup=False)

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran; the answer is "no" (an illegal deck, a refused set)
EXIT_BAD_INPUT = 2  # a file could not be read or an argument is wrong

#: `--json` of every command that answers in JSON as well as in text.
AsJson = Annotated[bool, typer.Option("--json", help="machine-readable output")]


def safe(text: object, *, markup: bool = False) -> str:
    """Text from a file, fit for the terminal: every character that does not print as itself
    is shown as its escape (`printable`), so a card set cannot move the cursor or split a
    line; ``markup=True`` also escapes rich markup, for text printed with markup."""
    text = printable(text)
    return escape(text) if markup else text


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one line to stderr (escaped: see `safe`) and return the Exit to raise."""
    error_console.print(f"error: {safe(message)}", markup=False)
    return typer.Exit(code)


def say(line: str = "") -> None:
    """One line of an account or report: names and texts in it come from files (escaped)."""
    console.print(safe(line), markup=False)


def tell(line: str) -> None:
    """One line on stderr, escaped (see `safe`): what a command did or what it cost (a file
    written, the games a check took), kept off stdout, which its answer owns."""
    error_console.print(safe(line), markup=False)


def warn(message: str) -> None:
    """Print one warning line to stderr (escaped: see `safe`); the command goes on."""
    error_console.print(f"warning: {safe(message)}", markup=False)


def guarded(function: Callable[P, R],
            answers: type[DeckbuilderError] | None = None) -> Callable[P, R]:
    """Turn user errors into one line on stderr and exit code 2, never a traceback. An error
    of the `answers` kind is an answer ("no": a refused change), not bad input: exit code 1,
    after the findings it carries (a refused import's), one a line."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except DeckbuilderError as error:
            if answers is None or not isinstance(error, answers):
                raise fail(str(error)) from None
            for finding in getattr(error, "findings", ()):
                console.print(safe(finding), markup=False)
            raise fail(str(error), EXIT_FAILED) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None
        # A failed write to stdout (a broken pipe, a full disk) is not caught here: the
        # command line reports it once for every command (commands.streams).

    return wrapper


def typed_line(prompt: str) -> str:
    """The line typed after `prompt` (escaped) on sys.stdin, "" at its end; undecodable bytes
    replaced (U+FFFD): bytes that are not text in the terminal's encoding are a wrong
    answer, asked again."""
    console.print(safe(prompt), end="", markup=False)
    console.file.flush()
    stream = sys.stdin
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stream (a test's StringIO): already text
        return str(stream.readline())
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return bytes(binary.readline()).decode(encoding, errors="replace")


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def each_file(files: Sequence[Path], check: Callable[[Path], tuple[int, JsonObject]],
              refused: Callable[[Path, DeckbuilderError], JsonObject], as_json: bool) -> int:
    """Check each file in turn (`sets check`, `scenario`): one file's error does not stop the
    others (each is one line on stderr, and its `refused` object); --json: one object per
    file (a list for several). The worst exit code."""
    results: list[JsonObject] = []
    exit_code = EXIT_OK
    for file in files:
        try:
            code, result = check(file)
        except DeckbuilderError as error:
            error_console.print(f"error: {safe(error)}", markup=False)
            code, result = EXIT_BAD_INPUT, refused(file, error)
        exit_code = max(exit_code, code)
        results.append(result)
    if as_json:
        print_json(results[0] if len(results) == 1 else results)
    return exit_code


def print_answer(data: object, as_json: bool, *lines: str) -> None:
    """A command's answer: `data` as JSON, or else its `lines`, escaped (see `safe`)."""
    if as_json:
        print_json(data)
        return
    for line in lines:
        console.print(safe(line), markup=False)


def print_rows(rows: list[Row], as_json: bool, lines: Callable[[Row], list[str]],
               summary: str) -> None:
    """A listing (`sets list`, `overlay show`): the rows as JSON, or each row's `lines` and
    the `summary` line."""
    print_answer(rows, as_json, *(line for row in rows for line in lines(row)), summary)

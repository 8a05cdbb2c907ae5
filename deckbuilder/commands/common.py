"""What every command shares: one-line errors with exit code 2, JSON output, the catalog."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from deckbuilder.errors import DeckbuilderError

P = ParamSpec("P")
R = TypeVar("R")

console = Console(highlight=False, soft_wrap=True)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran; the answer is "no" (an illegal deck, a refused set)
EXIT_BAD_INPUT = 2  # a file could not be read or an argument is wrong


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one line to stderr and return the Exit to raise."""
    error_console.print(f"error: {message}", markup=False)
    return typer.Exit(code)


def guarded(function: Callable[P, R]) -> Callable[P, R]:
    """Turn user errors into one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except DeckbuilderError as error:
            raise fail(str(error)) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None
        except BrokenPipeError:
            sys.stderr.close()
            raise typer.Exit(0) from None

    return wrapper


def plain_value(value: Any) -> Any:
    """A model value as JSON-ready data (models dumped, lists walked)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    return value


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def load_catalog_for_cli() -> Any:
    from deckbuilder.catalog import build_catalog

    return build_catalog()

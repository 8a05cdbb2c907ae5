"""What every command shares: one-line errors with exit code 2, JSON output, the catalog."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
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


def an(word: str) -> str:
    """`word` with its indefinite article: "a colty deck", "an esteban deck"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def parse_switches(texts: Sequence[str], catalog: Any, game: str) -> dict[str, str]:
    """`--switch ID=VALUE` options as switch id -> variant, checked against the rule switches
    of the game's installed sets, so that a typo is one line naming the choices.

    The engine checks the choice again (and refuses a variant it cannot play).
    """
    from deckbuilder.rulesets import UnknownRulesetError

    declared = {switch.id: switch for loaded in catalog.sets.values()
                if loaded.card_set.game == game for switch in loaded.card_set.rule_switches}
    example = next(iter(declared.values()), None)
    sample = f"{example.id}={example.variants[-1].value}" if example is not None else "ID=VALUE"
    chosen: dict[str, str] = {}
    for text in texts:
        key, equals, value = (part.strip() for part in text.partition("="))
        if not equals or not key or not value:
            raise UnknownRulesetError(f"--switch '{text}' is not ID=VALUE",
                                      fix=f"e.g. --switch {sample}")
        switch = declared.get(key)
        if switch is None:
            raise UnknownRulesetError(
                f"--switch {text}: {game} has no rule switch '{key}'",
                fix=f"choose one of: {', '.join(sorted(declared)) or 'none'} "
                    f"(see `deckbuilder rules --game {game}`)")
        values = [variant.value for variant in switch.variants]
        if value not in values:
            raise UnknownRulesetError(f"--switch {text}: '{value}' is not a reading of {key}",
                                      fix=f"choose one of: {', '.join(values)}")
        if chosen.get(key, value) != value:
            raise UnknownRulesetError(f"--switch {key} is given twice ({chosen[key]}, {value})",
                                      fix=f"give --switch {key}=... once")
        chosen[key] = value
    return chosen


def describe_rules(ruleset: str, switches: Mapping[str, str]) -> str:
    """`rulebook-es` or `rulebook-es with poker-tie=guardians` (for headings and reports)."""
    if not switches:
        return ruleset
    return f"{ruleset} with " + ", ".join(f"{key}={value}" for key, value in switches.items())

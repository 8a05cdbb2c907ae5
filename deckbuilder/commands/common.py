"""What every command shares: one-line errors with exit code 2, JSON output, the catalog."""

from __future__ import annotations

import functools
import json
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape

from deckbuilder.errors import DeckbuilderError

P = ParamSpec("P")
R = TypeVar("R")

#: The width of a table when the output is not a terminal: wide enough that no column is cut,
#: so that ids stay whole in a pipe or a file (a table is only as wide as its cells).
PIPE_WIDTH = 10_000


class ShellConsole(Console):
    """A console as wide as its terminal, and without a width limit when it writes to a pipe
    or a file (rich takes the width of any terminal among stdin/stdout/stderr, so a table
    piped into `grep` was cut to the width of the terminal the command was typed in).

    emoji=False: a card named ":skull:" prints as written, not as a picture.
    """

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


def _escaped(character: str) -> str:
    code = ord(character)
    if character in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[character]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _shown_raw(character: str) -> bool:
    """Printable, or a plain space of some width (no-break, ideographic): harmless on a
    terminal. Control, format (bidi overrides, zero-width), line/paragraph separators,
    surrogates, private-use and unassigned characters are not."""
    return character.isprintable() or unicodedata.category(character) == "Zs"


def safe(text: object, *, markup: bool = False) -> str:
    """Text from a file (a name, an id, a value, an error message), fit for the terminal.

    Every character that does not print as itself (ESC and the other control characters, bidi
    overrides, zero-width characters, line separators, lone surrogates ...) is shown as its
    escape (``\\x1b``, ``\\u2028``), so a card set cannot move the cursor, recolour the
    screen, split a one-line message or crash the encoder. ``markup=True`` also escapes rich
    markup (``[bold]``), for text inside a string printed with markup or a table cell.
    """
    text = str(text)
    if not text.isprintable():
        text = "".join(c if _shown_raw(c) else _escaped(c) for c in text)
    return escape(text) if markup else text


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one line to stderr (escaped: see `safe`) and return the Exit to raise."""
    error_console.print(f"error: {safe(message)}", markup=False)
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
        # A failed write to stdout (a broken pipe, a full disk) is not caught here: the
        # command line reports it once for every command (commands.streams).

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
    """The catalog every command reads: a repository's own sets folder (`--sets-dir`,
    DECKBUILDER_SETS_DIR, deckbuilder.toml) included and checked as an import would check it,
    since nothing installed those sets."""
    from deckbuilder.catalog import build_catalog
    from deckbuilder.importer import check_project_sets

    return check_project_sets(build_catalog())


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

"""Help that reads well in a terminal (`polish`, applied by `cli.load_commands`): option
values named as a player understands them (`--vs DECK`, not `<list[str]>`), and descriptions
reflowed to the terminal's width.
"""

from __future__ import annotations

import re
from typing import Protocol

#: What an option's or argument's value is, by its parameter name.
VALUE_NAMES: dict[str, str] = {
    "deck": "DECK", "decks": "DECKS", "file": "FILE", "files": "FILES", "baseline": "DECK",
    "vs": "DECK", "bot": "BOT", "opponent_bot": "BOT", "budget": "GAMES", "games": "N",
    "workers": "N", "seed": "SEED", "max_turns": "TURNS", "precision": "POINTS", "port": "PORT",
    "host": "NAME", "kind": "KIND", "module": "MODULE", "ruleset": "RULESET",
    "switch": "ID=READING", "sets": "SET", "in_cards": "CARD", "out_cards": "CARD",
    "search": "TEXT", "scheduler": "ADDRESS", "collection": "FILE", "out": "FILE",
    "output": "FILE", "record": "FILE", "report_path": "FILE.html", "charts_dir": "FOLDER",
    "sets_dir": "FOLDER", "into": "FOLDER", "install_completion": "", "show_completion": "",
}
_TYPE_NAMES = {"int": "N", "float": "X", "Path": "PATH", "bool": ""}


class Helped(Protocol):
    """A click command or group (typer's own copy of click, or click itself)."""

    help: str | None


class Named(Protocol):
    """A click parameter: an option or an argument."""

    @property
    def name(self) -> str | None: ...


def polish(command: Helped) -> None:
    """Name the values of `command`'s parameters (and its subcommands') and reflow its help."""
    for sub in getattr(command, "commands", {}).values():
        polish(sub)
    name_values(command)
    if command.help:
        command.help = reflowed(command.help)


def name_values(command: Helped) -> None:
    """Name the values of `command`'s own parameters (not its subcommands': the root's are
    loaded lazily), the `--help` flag made when the help is shown included."""
    for param in getattr(command, "params", ()):
        if param.metavar is None:
            param.metavar = value_name(param)
        if getattr(param, "param_type_name", "") == "argument":
            # An argument's name (DECK, FILE) already says what to type: typer would add
            # its type (`<str>`, `<list[Path]>`) in a column beside it.
            param.display_type_rich = _no_type_label
    made = getattr(command, "get_help_option", None)
    if made is None or getattr(made, "names_its_value", False):
        return

    def help_option(ctx: object) -> object:
        option = made(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    help_option.names_its_value = True  # type: ignore[attr-defined]
    command.get_help_option = help_option  # type: ignore[attr-defined]


def _no_type_label(ctx: object) -> None:
    """What an argument shows in the help's type column: nothing."""
    return None


def value_name(param: Named) -> str:
    """The name of a parameter's value: the table's, else by its type; "" for a flag."""
    if getattr(param, "is_flag", False) or _annotation_name(param) == "bool":
        return ""
    name = VALUE_NAMES.get(str(param.name))
    if name is not None:
        return name
    return _TYPE_NAMES.get(_annotation_name(param), str(param.name).upper().replace("_", "-"))


def _annotation_name(param: object) -> str:
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if annotation is None:  # typer before 0.29: a click type
        click_type = getattr(getattr(param, "type", None), "name", "")
        return {"integer": "int", "float": "float", "boolean": "bool",
                "path": "Path"}.get(str(click_type), str(click_type))
    return getattr(annotation, "__name__", str(annotation))


_LIST_LINE = re.compile(r"^\s*([-*]|\d+\.)\s")


def reflowed(text: str) -> str:
    """`text` with the lines of each paragraph joined (paragraphs are separated by a blank
    line; a line that starts a list item, or is indented, keeps its own line).

    >>> reflowed("One line\\nand its rest.\\n\\n- a list\\n- kept")
    'One line and its rest.\\n\\n- a list\\n- kept'
    """
    paragraphs = re.split(r"\n\s*\n", text.strip())
    out = []
    for paragraph in paragraphs:
        lines = paragraph.splitlines()
        joined: list[str] = []
        for line in lines:
            if joined and not _LIST_LINE.match(line) and not line.startswith("  "):
                joined[-1] = f"{joined[-1].rstrip()} {line.strip()}"
            else:
                joined.append(line.rstrip())
        out.append("\n".join(joined))
    return "\n\n".join(out)

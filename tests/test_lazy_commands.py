"""The command line loads a command's module only when that command runs (`deckbuilder.cli`,
`COMMANDS`): the table names every command the modules define, each with the one line its
own help starts with, and `--help` or `--version` imports no command module."""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from deckbuilder.cli import COMMANDS, load_commands


def _first_paragraph(command: object) -> str:
    text = getattr(command, "short_help", None) or getattr(command, "help", None) or ""
    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_listed_command_loads_with_the_summary_the_table_gives(name: str) -> None:
    entry = COMMANDS[name]
    command = load_commands(entry.module)[name]
    assert _first_paragraph(command) == entry.summary


def test_the_table_lists_every_command_its_modules_define() -> None:
    for module in {entry.module for entry in COMMANDS.values()}:
        defined = set(load_commands(module))
        listed = {name for name, entry in COMMANDS.items() if entry.module == module}
        assert defined == listed, module


def _modules_after(*args: str) -> set[str]:
    """The command modules imported once the command line has run with `args`."""
    probe = ("import sys\n"
             "from deckbuilder.cli import main\n"
             f"sys.argv = ['deckbuilder', *{list(args)!r}]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted(m for m in sys.modules "
             "if m.startswith('deckbuilder.commands.'))), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=120, check=False)
    return set(result.stderr.strip().splitlines()[-1].split())


def test_the_root_help_lists_every_command_and_imports_none() -> None:
    probe = subprocess.run([sys.executable, "-m", "deckbuilder", "--help"],
                           capture_output=True, text=True, timeout=120, check=True,
                           env={"COLUMNS": "300", "PATH": ""})
    listed = [line.strip("│ ").split()[0] for line in probe.stdout.splitlines()
              if line.startswith("│ ") and not line.startswith("│ -")]
    assert listed[:len(COMMANDS)] == list(COMMANDS)
    assert _modules_after("--help") <= {"deckbuilder.commands.common",
                                         "deckbuilder.commands.help_text",
                                         "deckbuilder.commands.streams"}


def test_a_command_imports_its_own_module_only() -> None:
    loaded = _modules_after("rules", "--help")
    assert "deckbuilder.commands.rules" in loaded
    assert not loaded & {"deckbuilder.commands.engine", "deckbuilder.commands.optimize",
                         "deckbuilder.commands.serve", "deckbuilder.commands.deck"}


def test_every_option_value_has_a_name_and_flags_show_none() -> None:
    """`--vs DECK`, `--games N`: no typer type label (`<list[str]>`, `<int range>`) where a
    player reads what to type, and a flag (`--json`) shows no value."""
    def walk(command: Any) -> Iterator[Any]:  # typer's own click: duck-typed
        for sub in getattr(command, "commands", {}).values():
            yield from walk(sub)
        yield from command.params

    for entry in {entry.module for entry in COMMANDS.values()}:
        for command in load_commands(entry).values():
            for param in walk(command):
                if getattr(param, "is_flag", False):
                    assert param.metavar == "", param.name
                else:
                    assert param.metavar and "<" not in param.metavar, param.name


def test_a_command_description_is_reflowed() -> None:
    probe = subprocess.run([sys.executable, "-m", "deckbuilder", "play", "--help"],
                           capture_output=True, text=True, timeout=120, check=True,
                           env={"COLUMNS": "200", "PATH": ""})
    # the docstring's line break after "the position as you see" is gone at 200 columns
    assert "the position as you see it (not the opponent's hand)" in probe.stdout


@pytest.mark.parametrize("args", [("--help",), ("simulate", "--help"), ("play", "--help"),
                                  ("validate", "--help"), ("deck", "rename", "--help")])
def test_no_option_or_argument_in_the_help_shows_a_type_label(args: tuple[str, ...]) -> None:
    """The root's options (added by typer after the group is made), every `--help` and the
    arguments read as the others do: no `<bool>`, `<path>` or `<list[Path]>` where a player
    reads what to type, and the usage line names a repeated argument once (`{DECK}...`)."""
    probe = subprocess.run([sys.executable, "-m", "deckbuilder", *args], capture_output=True,
                           text=True, timeout=120, check=True,
                           env={"COLUMNS": "200", "PATH": ""})
    lines = probe.stdout.splitlines()
    options = [line for line in lines if line.startswith("│ -")]
    arguments = [line for line in lines
                 if line.startswith(("│ *", "│   [")) and not line.startswith("│   [-")]
    labels = ("<bool>", "<path>", "<int", "<str>", "<list", "<float>")
    assert options and not [line for line in options + arguments
                            if any(tag in line for tag in labels)]
    if args[0] != "--help":
        assert arguments, "the command's arguments are listed"
    assert not [line for line in lines if "...}" in line]

"""The typer app: thin commands over the library (see deckbuilder.commands.*), loaded lazily.

A command module is imported only when one of its commands runs, shows its `--help` or
completes (click's lazily loading group), so `--version` and `--help` import none of them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup
from typer.models import DefaultPlaceholder

from deckbuilder.build import describe, faster_build_hint
from deckbuilder.commands.common import error_console, safe
from deckbuilder.commands.help_text import name_values, polish, value_name
from deckbuilder.commands.streams import OutputWatch
from deckbuilder.version import __version__

#: The exit codes every command keeps to, shown at the end of each `--help`.
EXIT_CODES_EPILOG = (
    "Exit codes: 0 ok; 1 a check failed (an illegal deck, a set with problems, a failed "
    "expectation, a refused change); 2 bad input or usage (a file that cannot be read, an "
    "unknown option or choice); 74 the output could not be written (a full disk, an I/O "
    "error); 130 interrupted; 141 the output's reader went away (a broken pipe: `| head`)."
)

#: click's base of usage errors (typer vendors click from 0.20 on, so it is found, not imported).
_CLICK_EXCEPTION: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException")


@dataclass(frozen=True)
class LazyCommand:
    """The `deckbuilder.commands` module whose `register(app)` adds a command, and the line
    the root `--help` lists it with (a test checks it agrees with the command's help)."""

    module: str
    summary: str


#: Every command and group of the command line, in the order the root `--help` lists them.
COMMANDS: dict[str, LazyCommand] = {
    "characters": LazyCommand("cards", "List every game's characters: survival ratings, "
                              "tokens, what their death does (same as `cards --kind "
                              "character`)."),
    "battlefields": LazyCommand("cards", "List the battlefields in order: turn spaces and "
                                "defence (same as `cards --kind battlefield`)."),
    "validate": LazyCommand("validate", "Check decks against the deck-building rules "
                            "(Tarnished Star, Module D)."),
    "rules": LazyCommand("rules", "List the rule switches (where the rule documents "
                         "disagree) and the rulesets."),
    "play": LazyCommand("engine", "Play one seeded game between two bots (or you and a bot) "
                        "and print it turn by turn."),
    "replay": LazyCommand("engine", "Step through a recorded game again and check the engine "
                          "still plays it the same way."),
    "scenario": LazyCommand("engine", "Set up each scenario's position, play its actions and "
                            "check what it expects."),
    "simulate": LazyCommand("simulate", "Play DECK against an opponent over many seeded "
                            "games; win rates with 95% intervals."),
    "schema": LazyCommand("schema", "Generate JSON Schemas (draft 2020-12) for card sets, "
                          "decks, collections, overlays."),
    "optimize": LazyCommand("optimize", "Search the legal decks near DECK for better ones, "
                            "by paired games on common seeds."),
    "join": LazyCommand("join", "Sit at a web table for two people by its link, and play "
                        "that seat in the terminal."),
    "tournament": LazyCommand("tournament", "Play every deck of one side against every deck "
                              "of the other; ranking and ratings."),
    "serve": LazyCommand("serve", "Start the web app: browse cards, build decks with a live "
                         "verdict, simulate, play."),
    "cards": LazyCommand("cards", "Browse cards: texts, values and sources; `cards show "
                         "NAME` for one card."),
    "deck": LazyCommand("deck", "Build decks: new (the base deck), swap, rename, diff, stats, "
                        "import and export (text, JSON, Markdown, BBCode, a sheet to print)."),
    "sets": LazyCommand("sets", "Check, import, remove and list card sets (expansions and "
                        "homebrew sets)."),
    "overlay": LazyCommand("overlay", "Correct packaged card values locally; the correction "
                           "shows as the value's source."),
    "data": LazyCommand("data", "Complete the card data from your printed cards: review, "
                        "status, and data packs to share (export, import, remove)."),
}

#: The click commands each command module defines, built once per process (click commands
#: can be invoked many times; registering a module twice would add its commands twice).
_LOADED: dict[str, dict[str, Any]] = {}


def load_commands(module: str) -> dict[str, object]:
    """The click commands and groups `deckbuilder.commands.<module>` registers, by name."""
    if module not in _LOADED:
        registered = typer.Typer()
        importlib.import_module(f"deckbuilder.commands.{module}").register(registered)
        _add_epilogs(registered)
        commands = dict(typer.main.get_group(registered).commands)
        for command in commands.values():
            polish(command)
        _LOADED[module] = commands
    return _LOADED[module]


class LazyCommands(MutableMapping[str, Any]):
    """The root group's commands: every name in `COMMANDS` is known at once; looking one up
    imports its module (and builds every command the module defines)."""

    def __init__(self, built: Mapping[str, object], table: Mapping[str, LazyCommand]) -> None:
        self._built = dict(built)
        self._table = table

    def is_loaded(self, name: str) -> bool:
        return name in self._built

    def __getitem__(self, name: str) -> object:
        if name not in self._built:
            self._built.update(load_commands(self._table[name].module))
        return self._built[name]

    def __setitem__(self, name: str, command: object) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._table
        yield from (name for name in self._built if name not in self._table)

    def __len__(self) -> int:
        return len(set(self._table) | set(self._built))


class OneLineErrors(TyperGroup):
    """The root command: its commands load lazily; a usage error is one line on stderr and
    exit code 2, not a box of text; standard output that cannot be written is one line too,
    with its own exit code (`deckbuilder.commands.streams`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_values(self)  # --version, --sets-dir: the root's own options read as the others'
        self.commands = LazyCommands(self.commands, COMMANDS)
        self._listing = False

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)
        for param in params:  # typer adds the completion options after __init__
            if param.metavar is None:
                param.metavar = value_name(param)
        return params

    def list_commands(self, ctx: object) -> list[str]:
        return list(self.commands)  # the names only: nothing is imported

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command, or, while the commands are listed, a stand-in with its one-line help
        (nothing is imported)."""
        commands = self.commands
        if (self._listing and isinstance(commands, LazyCommands)
                and not commands.is_loaded(cmd_name) and cmd_name in COMMANDS):
            return TyperCommand(name=cmd_name, help=COMMANDS[cmd_name].summary)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        self._listing = True  # completing a command's name lists the names and their help
        try:
            return list(super().shell_complete(ctx, incomplete))
        finally:
            self._listing = False

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: object) -> object:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        watch = OutputWatch()
        code: str | int | None
        try:
            try:
                code = self._exit_code(args, prog_name, complete_var, windows_expand_args,
                                       **extra)
            except SystemExit as stop:  # a command's own exit, or rich's on a broken pipe
                code = stop.code
            if sys.stdout is not None:
                sys.stdout.flush()  # here, where a failure is still ours to report
        except OSError as error:
            if not watch.claims(error):
                raise
        finally:
            watch.remove()
        if watch.failed():
            code = watch.exit_code()
        sys.exit(code)

    def _exit_code(self, args: Sequence[str] | None, prog_name: str | None,
                   complete_var: str | None, windows_expand_args: bool, **extra: object) -> int:
        """Run the command line; its exit code (a usage error printed as one line)."""
        try:
            result = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                  **extra)
        except typer.Abort:
            error_console.print("error: aborted", markup=False)
            return 1
        except _CLICK_EXCEPTION as error:
            context = getattr(error, "ctx", None)
            helper = f" (see `{context.command_path} --help`)" if context is not None else ""
            message = error.format_message()  # type: ignore[attr-defined]
            if message:  # none after the help a group prints when called with no command
                error_console.print(f"error: {safe(message)}{helper}", markup=False)
            return error.exit_code  # type: ignore[attr-defined]
        return result if isinstance(result, int) else 0


app = typer.Typer(
    name="deckbuilder",
    cls=OneLineErrors,
    help="Build, check and play-test decks for the Revolver card games.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, pwsh)
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # inherited by every command
    epilog=EXIT_CODES_EPILOG,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deckbuilder {__version__} ({describe()})")
        hint = faster_build_hint()  # on stderr: stdout stays the one line scripts read
        if hint is not None:
            typer.echo(f"note: {hint}", err=True)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="print the version and exit")] = False,
    sets_dir: Annotated[Path | None, typer.Option(
        "--sets-dir", help="a folder of set files every command reads as if installed (a "
        "repository's homebrew sets; also DECKBUILDER_SETS_DIR, or sets-dir in a "
        "deckbuilder.toml found upward)", show_default=False)] = None,
) -> None:
    """Build, check and play-test decks for the Revolver card games."""
    if sets_dir is not None:
        from deckbuilder.paths import use_sets_dir  # platformdirs: 0.1 s, only when asked

        use_sets_dir(sets_dir)


def _add_epilogs(typer_app: typer.Typer) -> None:
    """Every command and group without an epilog of its own lists the exit codes."""
    for command in typer_app.registered_commands:
        if command.epilog is None:
            command.epilog = EXIT_CODES_EPILOG
    for group in typer_app.registered_groups:
        if group.typer_instance is None:
            continue
        info = group.typer_instance.info
        if info.epilog is None or isinstance(info.epilog, DefaultPlaceholder):
            info.epilog = EXIT_CODES_EPILOG
        _add_epilogs(group.typer_instance)


def main() -> None:
    app(prog_name="deckbuilder")


if __name__ == "__main__":
    main()

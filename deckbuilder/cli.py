"""The typer app: thin commands over the library (see deckbuilder.commands.*)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.models import DefaultPlaceholder

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


class OneLineErrors(TyperGroup):
    """The root command: a usage error (an unknown option, a value that is not a choice, a
    missing argument) is one line on stderr and exit code 2, like every other error, not a
    box of text. Standard output that cannot be written (a full disk, a broken pipe) is one
    line too, and its own exit code (see `deckbuilder.commands.streams`), whatever command
    wrote it."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        from deckbuilder.commands.streams import OutputWatch

        watch = OutputWatch()
        code: Any
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
                   complete_var: str | None, windows_expand_args: bool, **extra: Any) -> Any:
        """Run the command line; its exit code (a usage error printed as one line)."""
        from deckbuilder.commands.common import error_console, safe

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

#: Command modules; each defines `register(app)`. A module that is missing is skipped so a
#: partial checkout still runs; tests assert every one of them is present.
COMMAND_MODULES = (
    "cards",
    "validate",
    "deck",
    "sets",
    "overlay",
    "rules",
    "engine",
    "simulate",
    "schema",
    "optimize",
    "serve",
)


def _version(value: bool) -> None:
    if value:
        from deckbuilder.build import describe
        from deckbuilder.version import __version__

        typer.echo(f"deckbuilder {__version__} ({describe()})")
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
        from deckbuilder.paths import use_sets_dir

        use_sets_dir(sets_dir)


def _add_epilogs(typer_app: typer.Typer) -> None:
    """Every command and group lists the exit codes at the end of its help (unless it says
    more about them itself)."""
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


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"deckbuilder.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"deckbuilder.commands.{name}":
                raise
            continue
        module.register(app)
    _add_epilogs(app)


_register_all()


def main() -> None:
    app(prog_name="deckbuilder")


if __name__ == "__main__":
    main()

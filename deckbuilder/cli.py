"""The typer app: thin commands over the library (see deckbuilder.commands.*)."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="deckbuilder",
    help="Build, check and play-test decks for the Revolver card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"deckbuilder.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"deckbuilder.commands.{name}":
                raise
            continue
        module.register(app)


_register_all()


def main() -> None:
    app()


if __name__ == "__main__":
    main()

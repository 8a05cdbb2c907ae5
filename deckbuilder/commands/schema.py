"""`deckbuilder schema`: write the JSON Schemas, or check that the committed ones are current.

`--user` writes them into the user's data folder instead (where the `$schema` lines of the
files written for the user point), with a deck schema listing the installed sets' cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckbuilder.commands.common import EXIT_FAILED, console, fail, guarded


def schema(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="folder to write to (default: package data)")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="exit 1 if the committed schemas are out of date")
    ] = False,
    user: Annotated[
        bool, typer.Option("--user", help="write the schemas into the user data folder "
                           "($DECKBUILDER_HOME/schemas), with a deck schema of the installed "
                           "sets' cards (user-deck.schema.json) for editor completion")
    ] = False,
) -> None:
    """Generate JSON Schemas (draft 2020-12) for card sets, decks, collections, overlays.

    Each schema's $id is https://revolver-deckbuilder.github.io/schemas/<file name>: an
    identifier, not necessarily an address that can be fetched.
    """
    guarded(_schema)(out, check, user)


def _schema(out: Path | None, check: bool, user: bool) -> None:
    from deckbuilder import schemas

    if user:
        if out is not None or check:
            raise fail("--user writes to the user data folder: leave out --out and --check")
        from deckbuilder.user_schemas import write_user_schemas

        for path in write_user_schemas():
            console.print(f"wrote {path}", markup=False)
        return
    if check:
        stale = schemas.stale_files(out) if out else schemas.stale_files()
        if stale:
            raise fail(f"out of date: {', '.join(stale)} (run `deckbuilder schema`)", EXIT_FAILED)
        console.print("schemas are up to date")
        return
    written = schemas.write_all(out) if out else schemas.write_all()
    for path in written:
        console.print(f"wrote {path}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)

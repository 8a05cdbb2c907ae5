"""`deckbuilder schema`: write the JSON Schemas, or check that the committed ones are current."""

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
) -> None:
    """Generate JSON Schemas (draft 2020-12) for card sets, decks, collections, overlays."""
    guarded(_schema)(out, check)


def _schema(out: Path | None, check: bool) -> None:
    from deckbuilder import schemas

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

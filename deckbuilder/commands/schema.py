"""`deckbuilder schema`: write the JSON Schemas, or check that the committed ones are current.

`--user` writes them into the user's data folder instead (where the `$schema` lines of the
files written there point), with a deck schema listing the installed sets' cards; `--into DIR`
into a folder of the user's repository, so that the decks written in it name them by a
relative path that resolves wherever the repository is cloned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckbuilder import schemas
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.commands.common import EXIT_FAILED, console, fail, guarded, print_json
from deckbuilder.commands.sets import SetsDirOption
from deckbuilder.user_schemas import write_schemas_into, write_user_schemas


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
    into: Annotated[
        Path | None, typer.Option("--into", help="write the schemas and the deck schema of "
                                  "the sets read here (--sets-dir included) into this folder "
                                  "of your repository: decks written below it name them by a "
                                  "relative path", show_default=False)
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Generate JSON Schemas (draft 2020-12) for card sets, decks, collections, overlays.

    Each schema's $id is https://revolver-deckbuilder.github.io/schemas/<file name>: an
    identifier, not necessarily an address that can be fetched.
    """
    guarded(_schema)(out, check, user, into, as_json, sets_dir)


def _schema(out: Path | None, check: bool, user: bool, into: Path | None, as_json: bool,
            sets_dir: Path | None) -> None:
    if sum((user, into is not None, out is not None or check)) > 1:
        raise fail("--user, --into DIR and --out/--check write to different places: "
                   "give one of them")
    if user or into is not None:
        catalog = project_catalog(sets_dir)
        written = (write_user_schemas(catalog) if user
                   else write_schemas_into(into, catalog) if into is not None else [])
        _print_written(written, as_json)
        return
    if check:
        stale = schemas.stale_files(out) if out else schemas.stale_files()
        if as_json:
            print_json({"up_to_date": not stale, "stale": stale})
        if stale:
            raise fail(f"out of date: {', '.join(stale)} (run `deckbuilder schema`)", EXIT_FAILED)
        if not as_json:
            console.print("schemas are up to date")
        return
    _print_written(schemas.write_all(out) if out else schemas.write_all(), as_json)


def _print_written(written: list[Path], as_json: bool) -> None:
    if as_json:
        print_json({"written": [str(path) for path in written]})
        return
    for path in written:
        console.print(f"wrote {path}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)

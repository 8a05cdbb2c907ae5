"""`deckbuilder schema`: write the JSON Schemas, or check that the committed ones are current.
`--into DIR` writes into the user's repository a deck schema of what every clone reads (the
packaged sets and the repository's sets folder, never a set installed on one machine only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import JsonValue

from deckbuilder import paths, schemas
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.commands.common import (
    EXIT_FAILED,
    AsJson,
    console,
    fail,
    guarded,
    print_json,
    warn,
)
from deckbuilder.commands.sets import SetsDirOption
from deckbuilder.importer import installed_files
from deckbuilder.user_schemas import write_schemas_into, write_user_schemas


@guarded
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
        Path | None, typer.Option("--into", help="write the schemas and a deck schema of "
                                  "the packaged sets and the repository's own (--sets-dir) "
                                  "into this folder of your repository: decks written below "
                                  "it name them by a relative path; a set installed on this "
                                  "machine only is left out, with a warning",
                                  show_default=False)
    ] = None,
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Generate JSON Schemas (draft 2020-12) for card sets, decks, collections, overlays.

    A $id (https://revolver-deckbuilder.github.io/schemas/<file>) is a name, maybe no address."""
    if sum((user, into is not None, out is not None or check)) > 1:
        raise fail("--user, --into DIR and --out/--check write to different places: "
                   "give one of them")
    if user:
        _print_written(write_user_schemas(project_catalog(sets_dir)), as_json)
        return
    if into is not None:
        _schemas_into(into, sets_dir, as_json)
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


def _schemas_into(into: Path, sets_dir: Path | None, as_json: bool) -> None:
    """What a repository commits works on every clone: its deck schema holds the packaged
    sets and the repository's own (sets-dir) only; each set installed on this machine alone
    is one warning line saying how to add it to the repository."""
    catalog = project_catalog(sets_dir, installed=False)
    left_out = [installed for installed in installed_files()
                if installed.loaded is not None and installed.set_id not in catalog.sets]
    _print_written(write_schemas_into(into, catalog), as_json, {"left_out": [
        {"set": installed.set_id, "file": str(installed.path)} for installed in left_out]})
    folder = catalog.sets_folder
    how = (f"copy it into {paths.shown_folder(folder)} (the repository's sets-dir) and "
           "commit it" if folder is not None else
           "copy it into a folder of the repository and name that folder in "
           f'{paths.PROJECT_FILE} (sets-dir = "homebrew")')
    for installed in left_out:
        warn(f"set '{installed.set_id}' ({installed.path}) is installed on this machine only, "
             f"so the schemas leave it out; to add it to the repository, {how}")


def _print_written(written: list[Path], as_json: bool,
                   more: dict[str, JsonValue] | None = None) -> None:
    if as_json:
        print_json({"written": [str(path) for path in written], **(more or {})})
        return
    for path in written:
        console.print(f"wrote {path}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)

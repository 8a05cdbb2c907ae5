"""`deckbuilder sets`: check, import, remove and list card sets (expansions, homebrew)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import JsonValue

from deckbuilder import paths
from deckbuilder.app.spellings import normalized
from deckbuilder.catalog import remember_removed_set
from deckbuilder.commands import completion
from deckbuilder.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    AsJson,
    console,
    each_file,
    error_console,
    fail,
    guarded,
    print_answer,
    print_json,
    print_rows,
    safe,
)
from deckbuilder.errors import DeckbuilderError, SetInstallError
from deckbuilder.importer import (
    SetRefused,
    check_file,
    import_set,
    installed_files,
    remove_set,
    set_rows,
)

sets_app = typer.Typer(
    help="Check, import, remove and list card sets (expansions and homebrew sets).",
    no_args_is_help=True,
)


#: `--sets-dir DIR` of the commands that read decks or sets: a repository's own set files.
SetsDirOption = Annotated[Path | None, typer.Option(
    "--sets-dir", help="a folder of set files read as if installed (a repository's homebrew "
    "sets; also DECKBUILDER_SETS_DIR, or sets-dir in a deckbuilder.toml found upward)",
    show_default=False)]


@sets_app.command("check")
def check(files: Annotated[list[Path], typer.Argument(help="card-set YAML files",
                                                     show_default=False)],
          as_json: AsJson = False, sets_dir: SetsDirOption = None) -> None:
    """Validate card-set files without installing them; list every problem of each.

    Exit code (the worst of the files) 0: every file can be imported; 1: the import would
    refuse some file (a duplicate id, an unknown reference ...); 2: some file is no card set.
    """
    paths.use_sets_dir(sets_dir)
    raise typer.Exit(guarded(each_file)(
        files, lambda file: _check(file, as_json), lambda file, error: {
            "file": str(file), "ok": False, "error": error.message, "problems": []}, as_json))


def _check(file: Path, as_json: bool) -> tuple[int, dict[str, JsonValue]]:
    """One file's check: its exit code and its JSON object. Text is printed."""
    report = check_file(file)
    problems: list[JsonValue] = [
        {"code": "schema", "file": str(problem.where.path) if problem.where else str(file),
         "line": problem.where.line if problem.where else None,
         "column": problem.where.column if problem.where else None,
         "message": problem.message, "fix": problem.fix}
        for problem in report.schema_problems]
    problems += [finding.to_dict() for finding in report.findings]
    card_set = report.loaded.card_set if report.loaded else None
    installed = report.installed
    installed_version = (
        installed.loaded.card_set.version if installed and installed.loaded else None
    )
    result: dict[str, JsonValue] = {
        "file": str(file),
        "ok": report.is_ok,
        "set": None if card_set is None else {
            "id": card_set.id, "name": card_set.name, "version": card_set.version,
            "game": card_set.game, "cards": len(card_set.cards),
        },
        "installed": installed is not None,
        "installed_version": installed_version,
        "problems": problems,
    }
    if not as_json:
        for problem in report.schema_problems:
            console.print(safe(problem), markup=False)
        for finding in report.findings:
            console.print(safe(finding), markup=False)
    if report.schema_problems:
        error = report.schema_error("in the JSON" if as_json else "above")
        error_console.print(f"error: {safe(error)}", markup=False)
        return EXIT_BAD_INPUT, {**result, "error": error.message}
    assert card_set is not None
    if report.findings:
        count = len(report.findings)
        message = (f"{file}: {count} problem{'s' if count > 1 else ''}; the set cannot be "
                   f"imported until {'they are' if count > 1 else 'it is'} corrected")
        error_console.print(f"error: {safe(message)}", markup=False)
        return EXIT_FAILED, result
    if not as_json:
        note = ""
        if installed is not None:
            note = (f"; version {installed_version or '(unreadable)'} is installed, "
                    "import it with --upgrade")
        console.print(safe(
            f"ok: {card_set.id} {card_set.version} ({card_set.name}, {len(card_set.cards)} "
            f"cards) can be imported{note}"), markup=False)
    return EXIT_OK, result


@sets_app.command("import")
@functools.partial(guarded, answers=SetInstallError)
def import_(
    file: Annotated[Path, typer.Argument(help="a card-set YAML file", show_default=False)],
    upgrade: Annotated[
        bool, typer.Option("--upgrade", help="replace the installed set with the same id")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Install a card-set file into the user data folder; a refused import changes nothing."""
    try:
        result = import_set(file, upgrade=upgrade)
    except SetRefused as refused:
        if not as_json:
            raise
        print_json({"file": str(file), "ok": False, "error": refused.message,
                    "problems": [finding.to_dict() for finding in refused.findings]})
        raise fail(str(refused), EXIT_FAILED) from None
    if as_json:
        print_json({"file": str(file), "ok": True, "set": result.set_id,
                    "version": result.version,
                    "path": str(result.path), "replaced_version": result.replaced_version})
        return
    if result.replaced_version is not None:
        console.print(safe(f"upgraded {result.set_id} from {result.replaced_version} to "
                           f"{result.version}: {result.path}"), markup=False)
    else:
        console.print(safe(f"installed {result.set_id} {result.version}: {result.path}"),
                      markup=False)


@sets_app.command("remove")
@functools.partial(guarded, answers=SetInstallError)
def remove(
    set_id: Annotated[str, typer.Argument(
        metavar="SET", help="an installed set, by id or name (\"Dusty's homebrew\")",
        autocompletion=completion.complete_installed_set)],
    as_json: AsJson = False,
) -> None:
    """Remove an installed set; refused while another installed set requires it. A deck
    that still names one of its cards is told that its set is gone."""
    set_id = _set_named(set_id)
    removed = next((item.loaded.card_set for item in installed_files()
                    if item.loaded is not None and item.set_id == set_id), None)
    path = remove_set(set_id)
    if removed is not None:
        remember_removed_set(removed)
    print_answer({"set": set_id, "path": str(path), "removed": True}, as_json,
                 f"removed {set_id}: {path}")


def _set_named(text: str) -> str:
    """The id of the packaged or installed set `text` names by id or name, case, spaces and
    punctuation not counting; an unknown one is one line listing the installed sets."""
    rows = set_rows()
    wanted = normalized(text)
    found = sorted({row["id"] for row in rows if wanted and wanted in (
        normalized(row["id"]), normalized(row["name"] or ""))})
    if len(found) == 1:
        return str(found[0])
    installed = [f"{row['id']} ({row['name']})" if row["name"] else row["id"]
                 for row in rows if row["origin"] == "user"]
    raise DeckbuilderError(
        f"no installed set is named '{text}'" if not found
        else f"'{text}' names several sets: {', '.join(found)}",
        fix=f"installed sets: {'; '.join(installed) or 'none'} (see `deckbuilder sets list`)")


@sets_app.command("list")
@guarded
def list_(as_json: AsJson = False, sets_dir: SetsDirOption = None) -> None:
    """List packaged and installed sets, and those of the sets folder (--sets-dir)."""
    paths.use_sets_dir(sets_dir)
    rows = set_rows()
    print_rows(rows, as_json, _set_lines, f"{len(rows)} sets.")


def _set_lines(row: dict[str, Any]) -> list[str]:
    """Two plain lines per set: readable in any terminal width, greppable."""
    if row["error"]:
        return [f"{row['id']}  UNREADABLE ({row['origin']}: {row['path']})",
                f"    {row['error']}"]
    number = f" {row['number']}" if row["number"] else ""
    requires = f"; requires {', '.join(row['requires'])}" if row["requires"] else ""
    return [f"{row['id']} {row['version']}  {row['name']}",
            f"    {row['game']} {row['kind']}{number}, {row['cards']} cards, "
            f"{'complete' if row['complete'] else 'incomplete'}{requires}; "
            f"{_ORIGINS.get(row['origin'], 'installed')}"]


_ORIGINS = {"package": "packaged", "user": "installed", "project": "from the sets folder"}


def register(app: typer.Typer) -> None:
    app.add_typer(sets_app, name="sets")


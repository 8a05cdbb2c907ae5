"""`deckbuilder overlay`: correct any packaged value locally, by record id, with its source
(the editing is `deckbuilder.app.overlay_edits`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from deckbuilder import paths
from deckbuilder.app.overlay_edits import overlay_rows, set_correction, unset_correction
from deckbuilder.commands import completion
from deckbuilder.commands.common import (
    AsJson,
    guarded,
    print_answer,
    print_rows,
)

overlay_app = typer.Typer(
    help="Correct packaged card values locally; the correction shows as the value's source.",
    no_args_is_help=True,
)


# -- the commands -------------------------------------------------------------------------------
@overlay_app.command("path")
def path_(as_json: AsJson = False) -> None:
    """Print where the overlay file is (it may not exist yet)."""
    where = paths.overlay_path()
    print_answer({"path": str(where), "exists": where.is_file()}, as_json, str(where))


@overlay_app.command("set", context_settings={"ignore_unknown_options": True})
@guarded
def set_(
    record_id: Annotated[str, typer.Argument(
        metavar="ID", help='a record id or name: texas-ranger, "Texas Ranger"',
        autocompletion=completion.complete_record)],
    field: Annotated[str, typer.Argument(
        metavar="FIELD", help="e.g. cost, firepower, copies",
        autocompletion=completion.complete_field)],
    value: Annotated[str, typer.Argument(metavar="VALUE", help="read as YAML: 3, true, [a, b]")],
    source: Annotated[
        str, typer.Option("--source", help="where the correct value is stated", show_default=False)
    ],
    as_json: AsJson = False,
) -> None:
    """Correct one value of one record, checked before the file is written; VALUE is read as
    YAML, so a negative number works as it is: `overlay set x cost -1`."""
    change = set_correction(record_id, field, value, source)
    print_answer(change, as_json,
                 f"{change['id']}.{change['field']}: {change['before']!r} -> "
                 f"{change['after']!r} (source: {change['source']}); wrote {change['path']}")


@overlay_app.command("unset")
@guarded
def unset(
    record_id: Annotated[str, typer.Argument(
        metavar="ID", help="a record's id or name", autocompletion=completion.complete_record)],
    field: Annotated[str | None, typer.Argument(
        metavar="[FIELD]", help="the corrected field; omitted: the whole correction",
        autocompletion=completion.complete_field)] = None,
    as_json: AsJson = False,
) -> None:
    """Take a correction out again: the packaged value and its source hold once more."""
    change = unset_correction(record_id, field)
    print_answer(change, as_json, f"{change['id']}: {', '.join(change['fields'])} no longer "
                                  f"corrected; wrote {change['path']}")


@overlay_app.command("show")
@guarded
def show(as_json: AsJson = False) -> None:
    """List the corrections and what each changes."""
    rows = overlay_rows()
    print_rows(rows, as_json, lambda row: [
        f"{row['id']}.{row['field']} ({row['set']}): {row['package_value']!r} "
        f"[{row['package_source']}] -> {row['value']!r} [{row['source']}]"],
        f"{len(rows)} corrected values in {paths.overlay_path()}.")


def register(app: typer.Typer) -> None:
    app.add_typer(overlay_app, name="overlay")

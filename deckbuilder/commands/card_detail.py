"""`deckbuilder cards show NAME`: everything about one record (`app.card_details`) printed.

A player should never take a guess for a fact: every value is shown with the document that
states it, or marked unconfirmed, and a value corrected by the overlay says so.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from deckbuilder.app.card_details import find_records, record_details
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.commands.common import console, guarded, print_json, safe
from deckbuilder.models.common import UNCONFIRMED


def _one_line(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def print_details(details: dict[str, Any]) -> None:
    say = console.print
    say(f"[bold]{safe(details['name'], markup=True)}[/] ({safe(details['id'], markup=True)})")
    say(safe(f"  {details['kind']} of {details['game']}, set {details['set']} "
             f"({details['set_name']})", markup=True))
    if details["aliases"]:
        say(f"  also called: {safe(', '.join(details['aliases']), markup=True)}")
    if details["text"]:
        say(f"  text: {safe(details['text'], markup=True)}")
        source = details["text_source"]
        say("        [dim]" + (f"source: {safe(source, markup=True)}" if source != UNCONFIRMED
                              else "a paraphrase; no document is named for it") + "[/]")
    say("  values:")
    width = max(len(row["field"]) for row in details["values"])
    for row in details["values"]:
        if row["source"].startswith("default"):
            continue
        mark = "[yellow]unconfirmed[/]" if row["unconfirmed"] else (
            f"[cyan]{safe(row['source'], markup=True)}[/]" if row["overlay"]
            else f"[dim]{safe(row['source'], markup=True)}[/]")
        say(f"    {row['field']:<{width}}  {safe(_one_line(row['value']), markup=True)}  "
            f"{mark}")
    defaults = [row["field"] for row in details["values"] if row["source"].startswith("default")]
    if defaults:
        say(f"  [dim]left at their defaults: {', '.join(defaults)} (see --json)[/]")
    if details["unconfirmed"]:
        say(f"  [yellow]unconfirmed[/] (no document states them): "
            f"{safe(', '.join(details['unconfirmed']), markup=True)}")
    if details["note"]:
        say(f"  note: {safe(details['note'], markup=True)}")
    if "base_copies" in details:
        say(f"  copies in its base deck: {details['base_copies']}")
    engine = details["engine"]
    if engine["plays"]:
        say("  engine: plays it")
    else:
        say(f"  engine: [red]cannot play it[/]: {safe('; '.join(engine['reasons']), markup=True)}")


def show(
    name: Annotated[str, typer.Argument(metavar="NAME", help="a card's id, name or alias",
                                        show_default=False)],
    game: Annotated[str | None, typer.Option(help="revolver or revolver2 (for namesakes)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Everything about one card (or character, battlefield ...): text, values with the
    document stating each, unconfirmed values, and whether the engine plays it."""
    guarded(_show)(name, game, as_json)


def _show(name: str, game: str | None, as_json: bool) -> None:
    catalog = project_catalog()
    found = [record_details(catalog, entry) for entry in find_records(catalog, name, game)]
    if as_json:
        print_json(found[0] if len(found) == 1 else found)
        return
    for index, details in enumerate(found):
        if index:
            console.print()
        print_details(details)

"""`deckbuilder cards` (and `characters`, `battlefields`: the same listing, the kind chosen,
as a player types it): list and search records, `cards show NAME` for one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Annotated

import typer

from deckbuilder.app.card_details import game_steps
from deckbuilder.app.card_search import (
    KIND_HELP,
    KIND_WORDS,
    Search,
    card_row,
    describe_spaces,
    in_listing_order,
    marks,
    parse_kind,
    record_row,
    resolve_set,
    select,
)
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.json_values import plain_value
from deckbuilder.card_face import one_line, unconfirmed_fields
from deckbuilder.card_face.words import faction_title, kind_count
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.commands import completion
from deckbuilder.commands.card_detail import show, text_width
from deckbuilder.commands.choices import FACTION, GAME, SET
from deckbuilder.commands.common import (
    AsJson,
    console,
    guarded,
    print_json,
    safe,
)
from deckbuilder.data_packs.status import catalog_counts
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.models.cards import Record
from deckbuilder.printable import wrap_columns

cards_app = typer.Typer(
    help="Browse cards: texts, values and sources; `cards show NAME` for one card.",
    invoke_without_command=True,
)

@cards_app.callback(invoke_without_command=True)
def cards(
    context: typer.Context,
    game: Annotated[str | None, typer.Option(help="a game's cards only", **GAME.option())] = None,
    faction: Annotated[str | None, typer.Option(
        help="a faction's cards only", **FACTION.option())] = None,
    set_id: Annotated[
        str | None, typer.Option("--set", help="a set id, e.g. tarnished-star", **SET.option())
    ] = None,
    kind: Annotated[str | None, typer.Option(
        "--kind", help=KIND_HELP, autocompletion=completion.words(KIND_WORDS))] = None,
    search: Annotated[str | None, typer.Option(
        "--search", help="words to find in names, aliases and texts (all of them)")] = None,
    unconfirmed: Annotated[
        bool, typer.Option("--unconfirmed", help="list every value no document states")
    ] = False,
    unimplemented: Annotated[
        bool, typer.Option("--unimplemented", help="list cards the engine cannot play")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """List cards with their texts; filter by game, faction, set, kind and words
    (`deckbuilder cards show NAME` prints everything about one card)."""
    if context.invoked_subcommand is not None:
        return
    guarded(_cards)(game, faction, set_id, kind, search, unconfirmed, unimplemented, as_json)


def _cards(game: str | None, faction: str | None, set_id: str | None, kind_text: str | None,
           search: str | None, unconfirmed: bool, unimplemented: bool, as_json: bool) -> None:
    catalog = project_catalog()
    filters = Search(game=game, faction=faction, set_id=resolve_set(catalog, set_id))
    if unconfirmed:
        _list_unconfirmed(catalog, filters, as_json)
        return
    if unimplemented:
        _list_unimplemented(catalog, filters, as_json)
        return
    kind, kind_game = parse_kind(kind_text, game)
    entries = select(catalog, replace(filters, q=search or "", kind=kind, kind_game=kind_game))
    if as_json:
        print_json([card_row(catalog, e) if kind == "card" else record_row(e) for e in entries])
        return
    _print_plain(listing_lines(catalog, entries, text_width()))
    found = kind_count(len(entries), kind)
    console.print(f"{found}{f' matching {safe(search)!r}' if search else ''}.", markup=False)


def _notes(record: Record) -> str:
    notes = marks(record)
    unconfirmed = unconfirmed_fields(record)
    if unconfirmed:
        notes.append(f"{len(unconfirmed)} value{'s' if len(unconfirmed) > 1 else ''} "
                     "unconfirmed")
    return ", ".join(notes)


def _print_plain(lines: Iterable[str]) -> None:
    """Lines of file text (already escaped by `printable`): no markup, no wrapping."""
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def listing_lines(catalog: Catalog, entries: list[Entry], width: int) -> list[str]:
    """The listing as a block per record, each line at most `width` columns (an 80-column
    terminal reads it): the name and id; the numbers a player compares (`card_face.one_line`:
    cost and firepower, survival, defence and spaces ...); where it comes from; the text."""
    width = max(width, 40)
    lines: list[str] = []
    for entry in in_listing_order(entries):
        if lines:
            lines.append("")
        lines += _wrap(f"{entry.name}  id {entry.id}", width)
        lines += _wrap(_summary(entry), width, "  ", "    ")
        lines += _wrap(_whence(catalog, entry), width, "  ", "    ")
        if entry.record.text:
            lines += _wrap(" ".join(entry.record.text.split()), width, "  ", "  ")
    return lines


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """Wrapped at spaces only: an id (what other commands take) is never cut."""
    return wrap_columns(text, width, first, rest, break_long_words=False)


def _summary(entry: Entry) -> str:
    """`one_line` without the name ("cost 1 discard, firepower 2 (white)"); a battlefield's
    spaces as `describe_spaces` reads them; a character's power tokens and death."""
    line = one_line(entry)
    cut = line.find(" - ", len(entry.record.name))
    summary = line[cut + 3:] if cut >= 0 else ""
    record = entry.record
    if entry.kind == "battlefield":
        summary = (f"battlefield {record.order}, defence {record.defence}, spaces "
                   f"{describe_spaces(record.spaces)}")
    elif entry.kind == "character":
        if record.power_tokens:
            summary += f", {record.power_tokens} power"
        if record.on_death:
            summary += f"; on death: {_brief(plain_value(record.on_death))}"
    return summary


def _whence(catalog: Catalog, entry: Entry) -> str:
    """Set, faction, category, copies in the base deck and the marks, in words."""
    record = entry.record
    parts = [entry.set_id]
    faction = getattr(record, "faction", None)
    if faction is not None and entry.kind != "battlefield":
        parts.append(faction_title(entry.game, faction))
    if entry.kind == "card":
        parts.append(str(record.category).replace("-", " "))
        parts.append(f"{catalog.base_copies(record.id)} in the base deck")
    elif entry.kind == "battlefield":
        parts.append(entry.game)
        if record.group != "fixed":
            parts.append(str(record.group).replace("-", " "))
    elif entry.kind == "character":
        parts += (["leader"] if record.leader else []) + ([] if record.starting
                                                           else ["reserve"])
    notes = _notes(record)
    return ", ".join([*parts, *([notes] if notes else [])])


def _list_unconfirmed(catalog: Catalog, filters: Search, as_json: bool) -> None:
    rows = [
        {"id": row.record_id, "name": row.name, "kind": row.kind, "set": row.set_id,
         "field": row.field, "value": plain_value(row.value)}
        for row in catalog.unconfirmed()
        if filters.holds(catalog.entries[row.record_id])
    ]
    if as_json:
        print_json(rows)
        return
    counts = catalog_counts(catalog)
    width = max(text_width(), 40)
    lines = ["Unconfirmed values (no document states them)"]
    for index, row in enumerate(rows):
        if index == 0 or row["id"] != rows[index - 1]["id"]:
            lines += ["", *_wrap(f"{row['name']}  ({row['id']}, {row['kind']}, {row['set']})",
                                 width)]
        lines += _wrap(f"{row['field']}: {_brief(row['value'])}", width, "  ", "    ")
    _print_plain(lines + _wrap(
        f"{len(rows)} unconfirmed values listed; over the whole catalog "
        f"{counts.stated + counts.player} values are confirmed by a document and "
        f"{counts.unconfirmed} are not. Correct any of them in the overlay file (see "
        "`deckbuilder overlay --help`).", width))


def _list_unimplemented(catalog: Catalog, filters: Search, as_json: bool) -> None:
    rows = [{"id": entry.id, "name": entry.name, "set": entry.set_id, "reasons": reasons}
            for entry in catalog.entries.values()
            if entry.kind in ("card", "character", "special") and filters.holds(entry)
            and (reasons := unimplemented_reasons(entry.record, game_steps(entry.game)))]
    if as_json:
        print_json(rows)
        return
    _print_plain([line for row in rows for line in _wrap(
        f"{row['id']} ({row['set']}): {'; '.join(row['reasons'])}", max(text_width(), 40), "",
        "    ")])
    console.print(f"{len(rows)} records the engine cannot play.")


def _brief(value: object, width: int = 60) -> str:
    """A one-line summary of a value for the table (JSON output carries it whole)."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        for key in ("label", "do", "when", "name"):
            if all(key in item for item in value):
                value = [item[key] for item in value]
                break
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _kind_command(kind: str, summary: str) -> Callable[..., None]:
    """`deckbuilder characters` / `battlefields`: the listing with the kind chosen."""

    def listing(
        game: Annotated[str | None, typer.Option(help="a game's only", **GAME.option())] = None,
        faction: Annotated[str | None, typer.Option(help="a faction's only",
                                                    **FACTION.option())] = None,
        set_id: Annotated[str | None, typer.Option("--set", help="a set id",
                                                   **SET.option())] = None,
        search: Annotated[str | None, typer.Option(
            "--search", help="words to find in names, aliases and texts")] = None,
        as_json: AsJson = False,
    ) -> None:
        guarded(_cards)(game, faction, set_id, kind, search, False, False, as_json)

    listing.__doc__ = summary
    return listing


def register(app: typer.Typer) -> None:
    cards_app.command("show")(show)
    app.add_typer(cards_app, name="cards")
    app.command("characters")(_kind_command(
        "character", "List every game's characters: survival ratings, tokens, what their "
        "death does (same as `cards --kind character`)."))
    app.command("battlefields")(_kind_command(
        "battlefield", "List the battlefields in order: turn spaces and defence "
        "(same as `cards --kind battlefield`)."))

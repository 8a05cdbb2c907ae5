"""`deckbuilder cards`: the card browser. List cards (with their texts), characters,
battlefields, specials and tokens; search names and texts; `cards show NAME` for everything
about one record; unconfirmed values and the records the engine cannot play.

`deckbuilder characters` and `deckbuilder battlefields` are the same listing with the kind
chosen, because that is what a player types.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from deckbuilder.app.card_details import game_steps
from deckbuilder.app.card_search import (
    KIND_HELP,
    card_row,
    describe_spaces,
    matches_search,
    parse_kind,
    record_row,
    resolve_set,
)
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.commands.card_detail import show
from deckbuilder.commands.choices import FACTION, GAME, SET
from deckbuilder.commands.common import (
    console,
    guarded,
    plain_value,
    print_json,
    safe,
)
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.errors import DeckbuilderError

cards_app = typer.Typer(
    help="Browse cards: texts, values and sources; `cards show NAME` for one card.",
    invoke_without_command=True,
)

@cards_app.callback(invoke_without_command=True)
def cards(
    context: typer.Context,
    game: Annotated[str | None, typer.Option(help="revolver or revolver2",
                                             **GAME.option())] = None,
    faction: Annotated[str | None, typer.Option(
        help="colty, mcready, frontier, esteban, mapache, ...", **FACTION.option())] = None,
    set_id: Annotated[
        str | None, typer.Option("--set", help="a set id, e.g. tarnished-star", **SET.option())
    ] = None,
    kind: Annotated[str | None, typer.Option("--kind", help=KIND_HELP)] = None,
    search: Annotated[str | None, typer.Option(
        "--search", help="words to find in names, aliases and texts (all of them)")] = None,
    unconfirmed: Annotated[
        bool, typer.Option("--unconfirmed", help="list every value no document states")
    ] = False,
    unimplemented: Annotated[
        bool, typer.Option("--unimplemented", help="list cards the engine cannot play")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List cards with their texts; filter by game, faction, set, kind and words.

    `deckbuilder cards show NAME` prints everything about one card.
    """
    if context.invoked_subcommand is not None:
        return
    guarded(_cards)(game, faction, set_id, kind, search, unconfirmed, unimplemented, as_json)


def _matches(entry: Any, game: str | None, faction: str | None, set_id: str | None) -> bool:
    record_faction = getattr(entry.record, "faction", None)
    return (
        (game is None or entry.game == game)
        and (faction is None or record_faction == faction)
        and (set_id is None or entry.set_id == set_id)
    )


def _cards(
    game: str | None,
    faction: str | None,
    set_id: str | None,
    kind_text: str | None,
    search: str | None,
    unconfirmed: bool,
    unimplemented: bool,
    as_json: bool,
) -> None:
    catalog = project_catalog()
    set_id = resolve_set(catalog, set_id)
    if unconfirmed:
        _list_unconfirmed(catalog, game, faction, set_id, as_json)
        return
    if unimplemented:
        _list_unimplemented(catalog, game, faction, set_id, as_json)
        return
    kind, kind_game = parse_kind(kind_text)
    if kind_game is not None and game is not None and game != kind_game:
        raise DeckbuilderError(f"--kind {kind_text} are {kind_game} records, not {game} ones",
                               fix=f"use --kind character with --game {game}")
    entries = [
        entry for entry in catalog.iter_kind(kind)
        if _matches(entry, game or kind_game, faction, set_id) and matches_search(entry, search)
    ]
    if as_json:
        print_json([card_row(catalog, e) if kind == "card" else record_row(e) for e in entries])
        return
    table = _TABLES[kind](catalog, entries)
    console.print(table)
    noun = {"card": "card", "character": "character", "battlefield": "battlefield",
            "special": "special card", "token": "kind of token"}[kind]
    found = f"{len(entries)} {noun}{'' if len(entries) == 1 else 's'}"
    if noun == "kind of token" and len(entries) != 1:
        found = f"{len(entries)} kinds of token"
    console.print(f"{found}{f' matching {safe(search)!r}' if search else ''}.", markup=False)


def _cell(value: Any) -> str:
    return "" if value is None else safe(value, markup=True)


def _notes(record: Any) -> str:
    notes = []
    if getattr(record, "gunslinger", False):
        notes.append("gunslinger")
    elif getattr(record, "unique", False):
        notes.append("unique")
    if not getattr(record, "deckable", True):
        notes.append("not deckable")
    if record.provenance.unconfirmed:
        notes.append(f"{len(record.provenance.unconfirmed)} unconfirmed")
    return ", ".join(notes)


def _table(*columns: str) -> Table:
    """A table whose id column is never cut (ids are what the other commands take)."""
    table = Table(*columns)
    table.columns[0].overflow = "fold"
    table.columns[0].no_wrap = True
    table.columns[-1].ratio = 1  # the text takes the width left
    return table


def _card_table(catalog: Any, entries: list[Any]) -> Table:
    table = _table("id", "name", "set", "faction", "category", "cost", "fp", "base", "notes",
                   "text")
    for entry in entries:
        card = entry.record
        table.add_row(
            _cell(card.id), _cell(card.name), _cell(entry.set_id), _cell(card.faction),
            _cell(card.category), str(card.cost), _cell(card.firepower),
            str(catalog.base_copies(card.id)), _notes(card), _cell(card.text),
        )
    return table


def _character_table(catalog: Any, entries: list[Any]) -> Table:
    table = _table("id", "name", "set", "faction", "survival", "tokens", "notes", "on death",
                   "text")
    for entry in entries:
        record = entry.record
        tokens = [f"{record.true_grit} true grit"] if record.true_grit else []
        tokens += [f"{record.power_tokens} power"] if record.power_tokens else []
        notes = (["leader"] if record.leader else []) + ([] if record.starting else ["reserve"])
        if record.provenance.unconfirmed:
            notes.append(f"{len(record.provenance.unconfirmed)} unconfirmed")
        table.add_row(
            _cell(record.id), _cell(record.name), _cell(entry.set_id), _cell(record.faction),
            str(record.survival), ", ".join(tokens), ", ".join(notes),
            _cell(_brief(plain_value(record.on_death))), _cell(record.text),
        )
    return table


def _battlefield_table(catalog: Any, entries: list[Any]) -> Table:
    table = _table("id", "name", "set", "game", "order", "defence", "spaces", "notes", "text")
    for entry in sorted(entries, key=lambda e: (e.game, e.record.order)):
        record = entry.record
        notes = [] if record.group == "fixed" else [str(record.group)]
        if record.provenance.unconfirmed:
            notes.append(f"{len(record.provenance.unconfirmed)} unconfirmed")
        table.add_row(
            _cell(record.id), _cell(record.name), _cell(entry.set_id), _cell(entry.game),
            str(record.order), str(record.defence), _cell(describe_spaces(record.spaces)),
            ", ".join(notes), _cell(record.text),
        )
    return table


def _special_table(catalog: Any, entries: list[Any]) -> Table:
    table = _table("id", "name", "set", "faction", "tokens", "beside", "notes", "text")
    for entry in entries:
        record = entry.record
        table.add_row(
            _cell(record.id), _cell(record.name), _cell(entry.set_id), _cell(record.faction),
            str(record.tokens or ""), _cell(record.beside), _notes(record), _cell(record.text),
        )
    return table


def _token_table(catalog: Any, entries: list[Any]) -> Table:
    table = _table("id", "name", "set", "game", "in the box", "notes", "text")
    for entry in entries:
        record = entry.record
        table.add_row(
            _cell(record.id), _cell(record.name), _cell(entry.set_id), _cell(entry.game),
            str(record.count), _notes(record), _cell(record.text),
        )
    return table


_TABLES = {
    "card": _card_table, "character": _character_table, "battlefield": _battlefield_table,
    "special": _special_table, "token": _token_table,
}


def _list_unconfirmed(catalog: Any, game: str | None, faction: str | None, set_id: str | None,
                      as_json: bool) -> None:
    rows = [
        {"id": row.record_id, "name": row.name, "kind": row.kind, "set": row.set_id,
         "field": row.field, "value": plain_value(row.value)}
        for row in catalog.unconfirmed()
        if _matches(catalog.entries[row.record_id], game, faction, set_id)
    ]
    confirmed, unconfirmed_count = catalog.value_counts()
    if as_json:
        print_json(rows)
        return
    table = _table("id", "kind", "set", "field", "value")
    table.title = "Unconfirmed values"
    for row in rows:
        table.add_row(_cell(row["id"]), row["kind"], _cell(row["set"]), _cell(row["field"]),
                      _cell(_brief(row["value"])))
    console.print(table)
    console.print(
        f"{len(rows)} unconfirmed values listed; over the whole catalog {confirmed} values "
        f"are confirmed by a document and {unconfirmed_count} are not. Correct any of them "
        "in the overlay file (see `deckbuilder overlay --help`)."
    )


def _list_unimplemented(catalog: Any, game: str | None, faction: str | None,
                        set_id: str | None, as_json: bool) -> None:
    rows = []
    for entry in catalog.entries.values():
        if entry.kind not in ("card", "character", "special") or not _matches(
            entry, game, faction, set_id
        ):
            continue
        reasons = unimplemented_reasons(entry.record, game_steps(entry.game))
        if reasons:
            rows.append({"id": entry.id, "name": entry.name, "set": entry.set_id,
                         "reasons": reasons})
    if as_json:
        print_json(rows)
        return
    for row in rows:
        console.print(safe(f"{row['id']} ({row['set']}): {'; '.join(row['reasons'])}"),
                      markup=False)
    console.print(f"{len(rows)} records the engine cannot play.")


def _brief(value: Any, width: int = 60) -> str:
    """A one-line summary of a value for the table (JSON output carries it whole)."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        for key in ("label", "do", "when", "name"):
            if all(key in item for item in value):
                value = [item[key] for item in value]
                break
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _kind_command(kind: str, summary: str) -> Any:
    """`deckbuilder characters` / `battlefields`: the listing with the kind chosen."""

    def listing(
        game: Annotated[str | None, typer.Option(help="revolver or revolver2",
                                                 **GAME.option())] = None,
        faction: Annotated[str | None, typer.Option(help="colty, esteban, ...",
                                                    **FACTION.option())] = None,
        set_id: Annotated[str | None, typer.Option("--set", help="a set id",
                                                   **SET.option())] = None,
        search: Annotated[str | None, typer.Option(
            "--search", help="words to find in names, aliases and texts")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    ) -> None:
        guarded(_cards)(game, faction, set_id, kind, search, False, False, as_json)

    listing.__doc__ = summary
    return listing


def register(app: typer.Typer) -> None:
    cards_app.command("show")(show)
    app.add_typer(cards_app, name="cards")
    app.command("characters")(_kind_command(
        "character", "List the bandits (Revolver) and guardians (Revolver 2): survival ratings, "
        "tokens, what their death does (same as `cards --kind character`)."))
    app.command("battlefields")(_kind_command(
        "battlefield", "List the battlefields in order: turn spaces and defence "
        "(same as `cards --kind battlefield`)."))

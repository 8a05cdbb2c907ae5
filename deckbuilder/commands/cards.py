"""`deckbuilder cards`: list cards, unconfirmed values and unimplemented effects."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from deckbuilder.commands.common import (
    console,
    guarded,
    load_catalog_for_cli,
    plain_value,
    print_json,
)


def card_row(catalog: Any, entry: Any) -> dict[str, Any]:
    card = entry.record
    loaded = catalog.sets[entry.set_id]
    return {
        "id": card.id,
        "name": card.name,
        "game": entry.game,
        "faction": card.faction,
        "set": entry.set_id,
        "category": card.category,
        "play": card.play,
        "unique": card.unique,
        "gunslinger": card.gunslinger,
        "cost": card.cost,
        "firepower": card.firepower,
        "chip": card.chip,
        "base_copies": catalog.base_copies(card.id),
        "set_copies": card.copies,
        "deckable": card.deckable,
        "set_complete": loaded.card_set.complete,
        "unconfirmed": list(card.provenance.unconfirmed),
    }


def cards(
    game: Annotated[str | None, typer.Option(help="revolver or revolver2")] = None,
    faction: Annotated[str | None, typer.Option(
        help="colty, mcready, frontier, esteban, mapache, ...")] = None,
    set_id: Annotated[
        str | None, typer.Option("--set", help="a set id, e.g. tarnished-star")
    ] = None,
    unconfirmed: Annotated[
        bool, typer.Option("--unconfirmed", help="list every value no document states")
    ] = False,
    unimplemented: Annotated[
        bool, typer.Option("--unimplemented", help="list cards the engine cannot play")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List cards; filter by game, faction and set."""
    guarded(_cards)(game, faction, set_id, unconfirmed, unimplemented, as_json)


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
    unconfirmed: bool,
    unimplemented: bool,
    as_json: bool,
) -> None:
    from deckbuilder.engine.support import unimplemented_reasons
    from deckbuilder.errors import DeckbuilderError

    catalog = load_catalog_for_cli()
    if set_id is not None and set_id not in catalog.sets:
        raise DeckbuilderError(
            f"unknown set '{set_id}'", fix=f"known sets: {', '.join(sorted(catalog.sets))}"
        )
    if unconfirmed:
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
        table = Table("id", "kind", "set", "field", "value", title="Unconfirmed values")
        for row in rows:
            table.add_row(row["id"], row["kind"], row["set"], row["field"], _brief(row["value"]))
        console.print(table)
        console.print(
            f"{len(rows)} unconfirmed values listed; over the whole catalog {confirmed} values "
            f"are confirmed by a document and {unconfirmed_count} are not. Correct any of them "
            "in the overlay file (see `deckbuilder overlay --help`)."
        )
        return
    if unimplemented:
        rows = []
        for entry in catalog.entries.values():
            if entry.kind not in ("card", "character", "special") or not _matches(
                entry, game, faction, set_id
            ):
                continue
            reasons = unimplemented_reasons(entry.record, _game_steps(entry.game))
            if reasons:
                rows.append({"id": entry.id, "name": entry.name, "set": entry.set_id,
                             "reasons": reasons})
        if as_json:
            print_json(rows)
            return
        for row in rows:
            console.print(f"{row['id']} ({row['set']}): {'; '.join(row['reasons'])}", markup=False)
        console.print(f"{len(rows)} records the engine cannot play.")
        return
    rows = [card_row(catalog, entry) for entry in catalog.cards()
            if _matches(entry, game, faction, set_id)]
    if as_json:
        print_json(rows)
        return
    table = Table("id", "name", "set", "faction", "category", "play", "cost", "fp", "base",
                  "set#", "notes")
    for row in rows:
        notes = []
        if row["gunslinger"]:
            notes.append("gunslinger")
        elif row["unique"]:
            notes.append("unique")
        if not row["deckable"]:
            notes.append("not deckable")
        if row["unconfirmed"]:
            notes.append(f"{len(row['unconfirmed'])} unconfirmed")
        table.add_row(
            row["id"], row["name"], row["set"], row["faction"], row["category"], row["play"],
            str(row["cost"]), "" if row["firepower"] is None else str(row["firepower"]),
            str(row["base_copies"]), str(row["set_copies"]), ", ".join(notes),
        )
    console.print(table)
    console.print(f"{len(rows)} cards.")


def _brief(value: Any, width: int = 60) -> str:
    """A one-line summary of a value for the table (JSON output carries it whole)."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        for key in ("label", "do", "when", "name"):
            if all(key in item for item in value):
                value = [item[key] for item in value]
                break
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def register(app: typer.Typer) -> None:
    app.command("cards")(cards)


def _game_steps(game: str) -> dict:
    """The game's own effect steps (Derail the Train ...), beside the table's."""
    from deckbuilder.games import games

    found = games().get(game)
    return dict(found.hooks.steps) if found is not None else {}

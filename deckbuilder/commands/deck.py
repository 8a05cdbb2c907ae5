"""`deckbuilder deck`: start from a base deck, swap cards, compare decks, text lists in and out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from deckbuilder.commands.common import (
    EXIT_FAILED,
    console,
    guarded,
    load_catalog_for_cli,
    print_json,
)

deck_app = typer.Typer(
    help="Build decks: new (the base deck), swap, diff, import and export text lists.",
    no_args_is_help=True,
)

FACTION_HELP = "colty, mcready (Revolver); mapache, esteban (Revolver 2)"


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@deck_app.command("new")
def new(
    faction: Annotated[str, typer.Argument(help=FACTION_HELP, show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="deck file to write")],
    name: Annotated[str | None, typer.Option(help="the deck's name")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
) -> None:
    """Write the faction's base deck, ready to edit."""
    guarded(_new)(faction, out, name, force)


def _new(faction: str, out: Path, name: str | None, force: bool) -> None:
    from deckbuilder.decks import new_deck

    cards = new_deck(load_catalog_for_cli(), faction.lower(), out, force=force, name=name)
    console.print(
        f"wrote {escape(str(out))}: the {faction.lower()} base deck, "
        f"{sum(cards.values())} cards in {len(cards)} entries"
    )


@deck_app.command("swap")
def swap(
    deck_file: Annotated[Path, typer.Argument(help="deck file, edited in place")],
    out_card: Annotated[str, typer.Option("--out", help="card to take out (id or name)")],
    in_card: Annotated[str, typer.Option("--in", help="card to put in (id or name)")],
    count: Annotated[int, typer.Option("--count", min=1, max=99, help="copies to swap")] = 1,
) -> None:
    """Swap COUNT copies of one card for another; comments and order are kept."""
    guarded(_swap)(deck_file, out_card, in_card, count)


def _swap(deck_file: Path, out_card: str, in_card: str, count: int) -> None:
    from deckbuilder.decks import swap_cards
    from deckbuilder.legality import validate_deck

    catalog = load_catalog_for_cli()
    result = swap_cards(deck_file, catalog, out_card, in_card, count)
    console.print(
        f"{escape(str(deck_file))}: {count}x {escape(result.out_name)} -> "
        f"{escape(result.in_name)} ({result.in_id})"
    )
    report = validate_deck(deck_file, catalog)
    if report.is_legal:
        console.print("the deck is legal")
    else:
        codes = ", ".join(sorted(report.codes()))
        console.print(
            f"the deck is not legal yet ({_count(len(report.violations), 'violation')}: "
            f"{codes}); see `deckbuilder validate {escape(str(deck_file))}`"
        )


@deck_app.command("diff")
def diff(
    first: Annotated[Path, typer.Argument(help="deck A", show_default=False)],
    second: Annotated[Path, typer.Argument(help="deck B", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """The cards taken out of deck A and put into deck B."""
    guarded(_diff)(first, second, as_json)


def _diff(first: Path, second: Path, as_json: bool) -> None:
    from deckbuilder.decks import diff_decks, load_deck

    catalog = load_catalog_for_cli()
    changes = diff_decks(load_deck(first, catalog), load_deck(second, catalog))
    if as_json:
        print_json({
            "out": [{"card": c.card, "name": c.name, "count": c.count} for c in changes.out],
            "in": [{"card": c.card, "name": c.name, "count": c.count} for c in changes.into],
        })
        return
    if changes.is_empty:
        console.print("the decks hold the same cards")
        return
    for sign, rows in (("-", changes.out), ("+", changes.into)):
        for row in rows:
            console.print(f"{sign} {row.count}x {row.name} ({row.card})", markup=False)
    removed, added = (sum(c.count for c in rows) for rows in (changes.out, changes.into))
    console.print(f"{removed} cards out, {added} cards in")


@deck_app.command("import")
def import_list(
    source: Annotated[Path, typer.Argument(help="text deck list", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="deck file to write")],
    faction: Annotated[str | None, typer.Option(help=f"{FACTION_HELP}; or a header")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable labels")] = False,
) -> None:
    """Read a text deck list ('3x .38 Special' lines); one label per line read.

    Exit code 1 when some line could not be read as asked (the deck is written all the same).
    """
    problems = guarded(_import)(source, out, faction, force, as_json)
    if problems:
        raise typer.Exit(EXIT_FAILED)


_STYLES = {"ok": "green", "merged": "cyan", "warning": "yellow", "header": "blue"}


def _import(source: Path, out: Path, faction: str | None, force: bool, as_json: bool) -> int:
    from deckbuilder.decklists import import_deck_list

    catalog = load_catalog_for_cli()
    deck_list = import_deck_list(
        source, catalog, out, faction.lower() if faction else None, force
    )
    if as_json:
        print_json({
            "file": str(out),
            "faction": deck_list.faction,
            "cards": deck_list.cards,
            "lines": [_line_json(line) for line in deck_list.lines],
        })
        return len(deck_list.problems)
    for line in deck_list.lines:
        if line.status in ("blank", "comment"):
            continue
        style = _STYLES.get(line.status, "red")
        message = f"  -- {escape(line.message)}" if line.message else ""
        console.print(
            f"{source.name}:{line.number:<4} [{style}]{line.status:<10}[/] "
            f"{escape(line.text.strip())}{message}"
        )
    total = sum(deck_list.cards.values())
    console.print(
        f"wrote {escape(str(out))}: {total} cards ({deck_list.faction}); "
        f"{len(deck_list.problems)} line(s) need attention"
    )
    return len(deck_list.problems)


def _line_json(line: Any) -> dict[str, Any]:
    return {
        "line": line.number, "text": line.text, "status": str(line.status),
        "message": line.message, "card": line.card, "count": line.count,
    }


@deck_app.command("export")
def export(
    deck_file: Annotated[Path, typer.Argument(help="deck file", show_default=False)],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write here, not stdout")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
) -> None:
    """Print the deck as a text list that `deck import` reads back."""
    guarded(_export)(deck_file, out, force)


def _export(deck_file: Path, out: Path | None, force: bool) -> None:
    import sys

    from deckbuilder.decklists import export_deck_list
    from deckbuilder.decks import load_deck
    from deckbuilder.errors import DeckError, Location
    from deckbuilder.writing import atomic_write_text

    text = export_deck_list(load_deck(deck_file, load_catalog_for_cli()))
    if out is None:
        sys.stdout.write(text)
        return
    if out.exists() and not force:
        raise DeckError("file already exists", Location(out), "choose another name or pass --force")
    atomic_write_text(out, text)
    console.print(f"wrote {escape(str(out))}")


def register(app: typer.Typer) -> None:
    app.add_typer(deck_app, name="deck")

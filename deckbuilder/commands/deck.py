"""`deckbuilder deck`: start from a base deck, swap cards, compare decks, text lists in and out."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.deck_sheet import deck_sheet_html, print_pdf
from deckbuilder.card_face.words import plural
from deckbuilder.catalog import normalise_name
from deckbuilder.commands import completion
from deckbuilder.commands.choices import SIDE
from deckbuilder.commands.common import (
    EXIT_FAILED,
    AsJson,
    console,
    error_console,
    guarded,
    print_answer,
    print_json,
    safe,
)
from deckbuilder.commands.deck_stats_text import stats_lines
from deckbuilder.commands.sets import SetsDirOption
from deckbuilder.deck_stats import DEFAULT_TURNS, DrawRules, deck_stats
from deckbuilder.decklists import export_deck_json, export_deck_list
from deckbuilder.decks import (
    diff_decks,
    fix_card_ids,
    new_deck,
    read_deck,
    rename_deck,
    swap_cards,
)
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckbuilderError
from deckbuilder.legality import validate_deck
from deckbuilder.schema_json import HEADER_PREFIX
from deckbuilder.shared_lists import export_forum, import_any_deck_list
from deckbuilder.writing import atomic_write_text, refuse_overwrite

deck_app = typer.Typer(
    help="Build decks: new (the base deck), swap, rename, diff, stats, import and export "
         "(text, JSON, Markdown, BBCode, a sheet to print).",
    no_args_is_help=True,
)

FACTION_HELP = "; ".join(f"{', '.join(declaration.side_ids)} ({declaration.title})"
                         for declaration in DECLARATIONS)
DECK_HELP = (f"a deck file, or a faction (its base deck: {DECLARATIONS[0].side_ids[1]}) or a "
             "packaged deck's name (a file of that name in the current folder wins)")


@deck_app.command("new")
@guarded
def new(
    faction: Annotated[str, typer.Argument(help=FACTION_HELP, show_default=False,
                                            autocompletion=SIDE.complete)],
    out: Annotated[Path, typer.Option("--out", "-o", help="deck file to write")],
    name: Annotated[str | None, typer.Option(help="the deck's name")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Write the faction's base deck, ready to edit (naming an editor schema when its
    repository has a schemas folder: `deckbuilder schema --into DIR`)."""
    faction = normalise_name(faction).replace(" ", "") or faction
    cards = new_deck(project_catalog(sets_dir), faction, out, force=force, name=name)
    schema = _schema_named(out)
    if as_json:
        print_json({"file": str(out), "faction": faction, "cards": cards,
                    "card_count": sum(cards.values()), "schema": schema})
        return
    console.print(
        f"wrote {escape(safe(out))}: the {faction} base deck, "
        f"{sum(cards.values())} cards in {len(cards)} entries"
    )
    _note_no_schema(out, schema)


def _schema_named(deck_file: Path) -> str | None:
    """The `$schema` reference a written deck's first line holds, or None."""
    with deck_file.open(encoding="utf-8") as stream:
        first = stream.readline().rstrip("\r\n")
    return first.removeprefix(HEADER_PREFIX) if first.startswith(HEADER_PREFIX) else None


def _note_no_schema(deck_file: Path, schema: str | None) -> None:
    if schema is None:
        error_console.print(
            f"note: {safe(deck_file)} names no editor schema (no schemas folder in its "
            "repository: `deckbuilder schema --into DIR` makes one; see the README's "
            "\"Editing with completion\")", markup=False)


@deck_app.command("swap")
@guarded
def swap(
    deck_file: Annotated[Path, typer.Argument(help="deck file, edited in place")],
    out_card: Annotated[str, typer.Option(
        "--out", help="card to take out (id or name)",
        autocompletion=completion.complete_deck_card)],
    in_card: Annotated[str, typer.Option(
        "--in", help="card to put in (id or name)", autocompletion=completion.complete_card)],
    count: Annotated[int, typer.Option("--count", min=1, max=99, help="copies to swap")] = 1,
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Swap COUNT copies of one card for another; comments, order and layout are kept (a
    `$schema` line that does not resolve here is rewritten when `deck new` would write one).

    Exit code 0 when the deck is legal after the swap, 1 when it is not yet (the swap is
    written all the same), 2 when the deck cannot be read or a card is unknown.
    """
    catalog = project_catalog(sets_dir)
    result = swap_cards(deck_file, catalog, out_card, in_card, count)
    report = validate_deck(deck_file, catalog)
    if as_json:
        print_json({"file": str(deck_file), "count": count,
                    "out": {"card": result.out_id or out_card, "name": result.out_name},
                    "in": {"card": result.in_id, "name": result.in_name},
                    "legal": report.is_legal, "violations": sorted(report.codes()),
                    "supply": report.supply})
    else:
        console.print(safe(
            f"{deck_file}: {count}x {result.out_name} -> {result.in_name} ({result.in_id})"
        ), markup=False)
        if report.is_legal:
            console.print(f"the deck is legal ({report.supply})" if report.supply
                          else "the deck is legal")
        else:
            console.print(
                f"the deck is not legal yet ({plural(len(report.violations), 'violation')}: "
                f"{', '.join(sorted(report.codes()))}); see `deckbuilder validate "
                f"{escape(safe(deck_file))}`")
            if report.supply:
                console.print(report.supply)
    if not report.is_legal:
        raise typer.Exit(EXIT_FAILED)


@deck_app.command("fix-ids")
@guarded
def fix_ids(
    deck_file: Annotated[Path, typer.Argument(help="deck file, edited in place")],
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Write every card of the deck under its id (`texas ranger: 1` -> `texas-ranger: 1`),
    the name kept as a comment; two lines of one card become one, unknown cards stay."""
    rewritten = fix_card_ids(deck_file, project_catalog(sets_dir))
    print_answer({"file": str(deck_file), "changed": bool(rewritten),
                  "rewritten": [asdict(row) for row in rewritten]}, as_json, *(
        f"{deck_file}:{row.line}: {row.written} {'merged into' if row.merged else '->'} "
        f"{row.card}" for row in rewritten),
        f"{deck_file}: {plural(len(rewritten), 'key')} rewritten" if rewritten
        else f"{deck_file}: every card is written as its id")


@deck_app.command("diff")
@guarded
def diff(
    first: Annotated[str, typer.Argument(
        help=f"deck A: {DECK_HELP}", show_default=False, autocompletion=completion.complete_deck)],
    second: Annotated[str, typer.Argument(
        help="deck B (the same)", show_default=False, autocompletion=completion.complete_deck)],
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """The cards taken out of deck A and put into deck B."""
    catalog = project_catalog(sets_dir)
    changes = diff_decks(read_deck(first, catalog).loaded, read_deck(second, catalog).loaded)
    if as_json:
        print_json({"out": [asdict(c) for c in changes.out],
                    "in": [asdict(c) for c in changes.into]})
        return
    if changes.is_empty:
        console.print("the decks hold the same cards")
        return
    for sign, rows in (("-", changes.out), ("+", changes.into)):
        for row in rows:
            console.print(safe(f"{sign} {row.count}x {row.name} ({row.card})"), markup=False)
    removed, added = (sum(c.count for c in rows) for rows in (changes.out, changes.into))
    console.print(f"{removed} cards out, {added} cards in")


@deck_app.command("import")
def import_list(
    source: Annotated[str, typer.Argument(
        help="a deck list file (text, JSON, a Markdown or BBCode post), or a web share link "
             "or code", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="deck file to write")],
    faction: Annotated[str | None, typer.Option(
        help=f"{FACTION_HELP}; or a header", autocompletion=SIDE.complete)] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable labels")] = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Read a deck list ('3x .38 Special' lines with `#` comments and `# name:` headers, a
    JSON deck, a forum post `deck export` wrote, or a share link); one label per line read.
    Exit code 1 when some line could not be read as asked (the deck is written all the same).
    """
    if guarded(_import)(source, out, faction, force, as_json, sets_dir):
        raise typer.Exit(EXIT_FAILED)


EXPORT_FORMATS = ("text", "json", "markdown", "bbcode", "html", "pdf")
_STYLES = {"ok": "green", "merged": "cyan", "warning": "yellow", "header": "blue",
           "section": "blue", "sideboard": "magenta"}


def _import(source_text: str, out: Path, faction: str | None, force: bool, as_json: bool,
            sets_dir: Path | None) -> int:
    catalog = project_catalog(sets_dir)
    chosen = normalise_name(faction).replace(" ", "") if faction else None
    deck_list = import_any_deck_list(source_text, catalog, out, chosen or None, force)
    if as_json:
        print_json({
            "file": str(out),
            "faction": deck_list.faction,
            "cards": deck_list.cards,
            "sideboard": deck_list.sideboard,
            "lines": [{"line": line.number, "text": line.text, "status": str(line.status),
                       "message": line.message, "card": line.card, "count": line.count}
                      for line in deck_list.lines],
            "schema": _schema_named(out),
        })
        return len(deck_list.problems)
    for line in deck_list.lines:
        if line.status in ("blank", "comment"):
            continue
        style = _STYLES.get(line.status, "red")
        message = f"  -- {safe(line.message, markup=True)}" if line.message else ""
        console.print(
            f"{safe(deck_list.source.name, markup=True)}:{line.number:<4} "
            f"[{style}]{line.status:<10}[/] {safe(line.text.strip(), markup=True)}{message}")
    total = sum(deck_list.cards.values())
    aside = sum(deck_list.sideboard.values())
    sideboard = f"; {aside} sideboard card(s) not added" if aside else ""
    console.print(safe(
        f"wrote {out}: {total} cards ({deck_list.faction}){sideboard}; "
        f"{len(deck_list.problems)} line(s) need attention"), markup=False)
    _note_no_schema(out, _schema_named(out))
    return len(deck_list.problems)


@deck_app.command("export")
@guarded
def export(
    deck_file: Annotated[str, typer.Argument(
        metavar="DECK", help=DECK_HELP, show_default=False,
        autocompletion=completion.complete_deck)],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write here, not stdout")] = None,
    output_format: Annotated[str, typer.Option(
        "--format", help="text (a '3x Name' list), json (name, faction, slots), markdown or "
                         "bbcode (forum posts), html or pdf (a deck sheet to print)",
        autocompletion=completion.words(EXPORT_FORMATS))] = "text",
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Print the deck as a text list, a JSON deck or a forum post (Markdown, BBCode for
    BoardGameGeek), each of which `deck import` reads back as the same deck (whatever its
    name holds); or as a deck sheet to print (html; pdf, printed with headless Chromium,
    needs --out): the cards grouped and counted, the replacements and the verdict."""
    chosen = output_format.strip().lower()
    if chosen not in EXPORT_FORMATS:
        raise DeckbuilderError(f"--format {safe(output_format)!r} is not a format",
                               fix=f"choose one of: {', '.join(EXPORT_FORMATS)}")
    if chosen == "pdf" and out is None:
        raise DeckbuilderError("--format pdf writes a file", fix="add --out deck.pdf")
    catalog = project_catalog(sets_dir)
    deck = read_deck(deck_file, catalog).loaded
    if chosen == "pdf":
        assert out is not None
        refuse_overwrite(out, force)
        print_pdf(deck_sheet_html(deck, catalog), out)
        console.print(f"wrote {safe(out)}", markup=False)
        return
    writers = {"json": lambda: export_deck_json(deck),  # else a forum post's format
               "text": lambda: export_deck_list(deck, catalog),
               "html": lambda: deck_sheet_html(deck, catalog)}
    text = writers.get(chosen, lambda: export_forum(deck, catalog, chosen))()
    if out is None:
        sys.stdout.write(text)  # every character that does not print is escaped already
        return
    refuse_overwrite(out, force)
    atomic_write_text(out, text)
    console.print(f"wrote {safe(out)}", markup=False)


@deck_app.command("rename")
@guarded
def rename(
    deck_file: Annotated[Path, typer.Argument(metavar="DECK", help="deck file, edited in place",
                                              show_default=False)],
    new_name: Annotated[str, typer.Argument(metavar="NAME", help="the deck's new name",
                                            show_default=False)],
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Give the deck a new name (its `name:` line); cards, comments and order are kept."""
    old = rename_deck(deck_file, project_catalog(sets_dir), new_name)
    print_answer({"file": str(deck_file), "old_name": old, "name": new_name}, as_json,
                 f"{deck_file}: renamed {old!r} -> {new_name!r}")


@deck_app.command("stats")
@guarded
def stats(
    deck_file: Annotated[str, typer.Argument(
        metavar="DECK", help=DECK_HELP, show_default=False,
        autocompletion=completion.complete_deck)],
    turns: Annotated[int, typer.Option("--turns", min=0, max=30,
                                       help="odds up to your turn N")] = DEFAULT_TURNS,
    cards: Annotated[list[str] | None, typer.Option(
        "--card", help="odds for this card only (repeat for more); default: every card",
        autocompletion=completion.complete_deck_card)] = None,
    extra_opening: Annotated[int, typer.Option(
        "--extra-opening", min=0, max=5,
        help="cards a card's effect adds to the opening hand (Revolver 2: 1 or 2)")] = 0,
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """What the deck holds: counts by category, play type and set, the cost curve, firepower
    by chip colour, the changes against the base deck, and the exact odds of at least one
    card of a kind (or a named card) in the opening hand and by your turn N."""
    catalog = project_catalog(sets_dir)
    deck = read_deck(deck_file, catalog).loaded
    found = deck_stats(deck, catalog, turns, DrawRules(extra_opening=extra_opening))
    wanted = set()
    for card in cards or []:
        entry = catalog.find(card, deck.game)
        if entry is None or entry.id not in deck.counts():
            raise DeckbuilderError(f"the deck has no card '{safe(card)}'",
                                   fix="name a card the deck holds (`deck export` lists them)")
        wanted.add(entry.id)
    if as_json:
        data = found.to_json()
        if wanted:
            data["odds"] = [row for row in data["odds"]
                            if row["kind"] == "category" or row["key"] in wanted]
        print_json(data)
        return
    for line in stats_lines(found, wanted):
        console.print(safe(line), markup=False, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(deck_app, name="deck")

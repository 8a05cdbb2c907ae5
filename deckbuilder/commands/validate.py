"""`deckbuilder validate`: Module D legality of deck files, every violation at once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import JsonValue

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.deck_verdict import deck_verdict
from deckbuilder.catalog import BrokenSet, Catalog
from deckbuilder.commands import completion
from deckbuilder.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    AsJson,
    console,
    error_console,
    guarded,
    print_json,
    safe,
)
from deckbuilder.commands.game_options import Boxes, CollectionFile
from deckbuilder.commands.sets import SetsDirOption
from deckbuilder.decks import LoadedDeck, read_deck
from deckbuilder.errors import DeckbuilderError
from deckbuilder.legality import LegalityReport, Supply, deck_supply


@guarded
def validate(
    decks: Annotated[list[Path], typer.Argument(
        metavar="DECK", help="deck files (YAML); a faction (its base deck) or a packaged "
        "deck's name works too (a file of that name in the current folder wins)",
        show_default=False, autocompletion=completion.complete_deck)],
    collection: CollectionFile = None,
    boxes: Boxes = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", metavar="ID=READING",
        help="rule switch card-copies=any-number: no limit from the boxes",
        autocompletion=completion.complete_supply_switch)] = None,
    as_json: AsJson = False,
    sets_dir: SetsDirOption = None,
) -> None:
    """Check decks against the deck-building rules (Tarnished Star, Module D).

    A card written as neither its id nor its printed name (`texas ranger`) is found with a
    note (`deckbuilder deck fix-ids DECK` rewrites it). A deck is judged against one copy of
    each product unless `--boxes N`, `--collection FILE` or `--switch card-copies=any-number`
    says otherwise. A broken set of the sets folder is reported (file:line:col): a deck
    that uses it waits on it, the others are checked.

    Exit code 0: every deck is legal; 1: some deck is illegal; 2: a file could not be read.
    """
    catalog = project_catalog(sets_dir, keep_broken=True)
    for broken in catalog.broken:
        error_console.print(f"error: {safe(broken)}", markup=False)
    exit_code = EXIT_BAD_INPUT if catalog.broken else EXIT_OK
    supply = deck_supply(catalog, boxes=boxes, collection=collection,
                         switches=dict(text.partition("=")[::2] for text in switch or []))
    results: list[dict[str, JsonValue]] = []
    for path in decks:
        result, code = _validate_one(path, catalog, supply, as_json)
        results.append(result)
        exit_code = max(exit_code, code)
    if as_json:
        print_json(results[0] if len(results) == 1 else results)
    raise typer.Exit(exit_code)


def _validate_one(path: Path, catalog: Catalog, supply: Supply,
                  as_json: bool) -> tuple[dict[str, JsonValue], int]:
    """One deck's verdict (JSON) and exit code, printed unless `as_json`."""
    try:
        loaded = read_deck(path, catalog).loaded
        waited = catalog.broken_set_needed(loaded.deck.sets or (),
                                           [entry.key for entry in loaded.unknown()])
        if waited is not None:
            return _waiting(loaded, waited, path, as_json), EXIT_BAD_INPUT
        verdict = deck_verdict(loaded, catalog, supply=supply)
    except DeckbuilderError as error:
        if not as_json:
            error_console.print(f"error: {safe(error)}", markup=False)
        return _error_json(path, error), EXIT_BAD_INPUT
    if not as_json:
        _print_report(verdict.report)
        for warning in verdict.warnings:
            console.print(f"  [yellow]warning[/]: {safe(warning, markup=True)}")
        for note in verdict.notes:
            console.print(f"  note: {safe(note, markup=True)}")
    return verdict.to_json(), EXIT_OK if verdict.is_legal else EXIT_FAILED


def _waiting(loaded: LoadedDeck, broken: BrokenSet, path: Path,
             as_json: bool) -> dict[str, JsonValue]:
    """A deck that uses a broken set of the repository's folder: not judged until the set is
    fixed (its verdict would be the set's problem, not the deck's)."""
    named = f"'{broken.set_id}'" if broken.set_id else str(broken.path)
    if not as_json:
        summary = _summary(loaded.name, loaded.faction, loaded.game, loaded.total())
        console.print(
            f"[bold yellow]WAITING[/]  {safe(loaded.label, markup=True)}: "
            f"{safe(summary, markup=True)}, waits on set {safe(named, markup=True)} "
            f"({safe(broken.where, markup=True)} is broken): checked once that set is fixed")
    where = broken.error.where
    return {
        "file": str(path), "name": loaded.name, "game": loaded.game,
        "faction": loaded.faction, "legal": None,
        "waits_on": {"set": broken.set_id, "file": str(broken.path),
                     "line": where.line if where is not None else None,
                     "column": where.column if where is not None else None,
                     "message": broken.error.message},
        "violations": [], "replacements": [], "pairs": [],
    }


def _summary(name: str, faction: str, game: str, card_count: int) -> str:
    return (f'"{name}" ({faction}, {game}), {card_count} '
            f'card{"" if card_count == 1 else "s"}')


def _error_json(path: Path, error: DeckbuilderError) -> dict[str, JsonValue]:
    where = error.where
    return {
        "file": str(path),
        "legal": None,
        "error": {
            "message": error.message,
            "line": where.line if where is not None else None,
            "fix": error.fix,
        },
        "violations": [],
        "replacements": [],
        "pairs": [],
    }


def _print_report(report: LegalityReport) -> None:
    label = safe(report.path if report.path is not None else report.name, markup=True)
    summary = safe(_summary(report.name, report.faction, report.game, report.card_count),
                   markup=True)
    if report.is_legal:
        console.print(f"[bold green]LEGAL[/]    {label}: {summary}")
    else:
        count = len(report.violations)
        console.print(
            f"[bold red]ILLEGAL[/]  {label}: {summary}, "
            f"{count} violation{'s' if count != 1 else ''}"
        )
    console.print(f"  {safe(report.supply, markup=True)}")
    for violation in report.violations:
        where = f"{label}:{violation.line}" if violation.line is not None else label
        message = safe(violation.message, markup=True)
        console.print(f"  {where}  [bold]{violation.code}[/]  {message}")
        console.print(f"      rule: {safe(violation.rule, markup=True)}", style="dim")
        if violation.fix:
            console.print(f"      fix: {safe(violation.fix, markup=True)}")
    _print_replacements(report)


def _print_replacements(report: LegalityReport) -> None:
    if not report.pairs:
        console.print("  replacements: none"
                      + (" (the base deck as it comes)" if report.is_legal else ""))
        return
    console.print("  replacements (base card out -> card in):")
    for pair in report.pairs:
        console.print(f"    {pair.count}x {safe(pair.replacement.out_name, markup=True)} -> "
                      f"{safe(pair.replacement.in_name, markup=True)}  ({pair.rule})")


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)

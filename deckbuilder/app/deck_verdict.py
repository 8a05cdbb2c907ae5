"""A deck's verdict, the one answer `validate --json`, the web deck editor and
`deckbuilder.deck_verdict` give: the Module D report and what is said beside it."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from deckbuilder.app.data_notes import deck_data_notes
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckEntry, DeckSource, read_deck
from deckbuilder.games import faction_dead_card_warnings
from deckbuilder.legality import LegalityReport, Supply, validate_deck
from deckbuilder.legality.supply import SupplyCollection


@dataclass(frozen=True)
class DeckVerdict:
    """The rules' report and what the faces say beside it: the faction's dead cards
    (`warnings`), notes on the deck's data and spellings (`notes`), and each card key
    written other than as its id (`spellings`: line, written, card, name)."""

    report: LegalityReport
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    spellings: tuple[dict[str, JsonValue], ...]

    @property
    def is_legal(self) -> bool:
        return self.report.is_legal

    def to_json(self) -> dict[str, JsonValue]:
        """The verdict as `validate --json` prints it and the web editor shows it."""
        report = self.report
        return {**report.to_json(), "name": report.name, "game": report.game,
                "faction": report.faction, "warnings": list(self.warnings),
                "notes": list(self.notes), "spellings": list(self.spellings)}


def deck_verdict(deck: DeckSource, catalog: Catalog, collection: SupplyCollection = None, *,
                 supply: Supply | None = None) -> DeckVerdict:
    """Check a deck as `deckbuilder validate` does (against one box of each product, the
    `collection` or the `supply`)."""
    loaded = read_deck(deck, catalog).loaded
    report = validate_deck(loaded, catalog, collection, supply=supply)
    spellings = tuple(_spelling_json(entry) for entry in loaded.miswritten())
    notes = (*(_spelling_note(row, report.path) for row in spellings),
             *deck_data_notes(loaded.counts(), catalog))  # H6: overlay in use, guesses
    warnings = faction_dead_card_warnings(loaded.counts(), report.game, report.faction, catalog)
    return DeckVerdict(report, tuple(warnings), notes, spellings)


def _spelling_json(entry: DeckEntry) -> dict[str, JsonValue]:
    assert entry.entry is not None  # a miswritten entry names a card
    return {"line": entry.line, "written": entry.key, "card": entry.entry.id,
            "name": entry.entry.name}


def _spelling_note(row: dict[str, JsonValue], path: Path | None) -> str:
    where = f"line {row['line']}: " if row["line"] is not None else ""
    written = f"{where}'{row['written']}' is {row['name']} ({row['card']}) written another way"
    if path is None:
        return f"{written}; Save writes its id"
    return (f"{written}; editors flag it: `deckbuilder deck fix-ids {shlex.quote(str(path))}` "
            "rewrites it to its id")

"""A deck's verdict as both faces give it: `deckbuilder validate --json` prints it and the web
deck editor shows it. The Module D report (with the supply sentence: what the deck was judged
against), the faction's dead cards, the notes on the data it rests on and on card keys written
other than as ids."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from deckbuilder.app.data_notes import deck_data_notes
from deckbuilder.games import faction_dead_card_warnings


def report_json(loaded: Any, report: Any, catalog: Any, path: Path | None) -> dict[str, Any]:
    """A deck's verdict as `validate --json` prints it and the web editor shows it (one
    reading for both faces): the report, the faction's dead cards, the notes on its data and
    on card keys written other than as ids. `path` None: the editor's deck, which Save
    writes with ids."""
    warnings = faction_dead_card_warnings(loaded.counts(), report.game, report.faction, catalog)
    miswritten = [_spelling_json(entry) for entry in loaded.miswritten()]
    notes = [*(_spelling_note(row, path) for row in miswritten),
             *deck_data_notes(loaded.counts(), catalog)]  # H6: overlay in use, guesses
    return {**report.to_json(), "name": report.name, "game": report.game,
            "faction": report.faction, "warnings": warnings, "notes": notes,
            "spellings": miswritten}


def _spelling_json(entry: Any) -> dict[str, Any]:
    return {"line": entry.line, "written": entry.key, "card": entry.entry.id,
            "name": entry.entry.name}


def _spelling_note(row: dict[str, Any], path: Path | None) -> str:
    where = f"line {row['line']}: " if row["line"] is not None else ""
    written = f"{where}'{row['written']}' is {row['name']} ({row['card']}) written another way"
    if path is None:
        return f"{written}; Save writes its id"
    return (f"{written}; editors flag it: `deckbuilder deck fix-ids {shlex.quote(str(path))}` "
            "rewrites it to its id")

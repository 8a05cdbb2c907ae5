"""Everything known about one record (a card, character, battlefield ...): its values with
the document that states each, what is unconfirmed, what the overlay changed, and whether
the engine plays it. `deckbuilder cards show` prints it; the web card page shows it.

A player should never take a guess for a fact: every value carries its source, or is
marked unconfirmed, and a value corrected by the overlay says so.
"""

from __future__ import annotations

from typing import Any

from deckbuilder.app.printable import printable
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import games
from deckbuilder.models.common import UNCONFIRMED

#: Fields shown apart (the heading, the text) or not values at all.
_NOT_VALUES = ("id", "name", "aliases", "text", "provenance")
OVERLAY_SOURCE = "overlay "  # how catalog.apply_overlay_document labels a corrected value


def find_records(catalog: Any, name: str, game: str | None = None) -> list[Any]:
    """Every record the id, name or alias names (a name printed in both games gives both,
    unless `game` chooses); raises with the plausible names for a typo."""
    chosen = [game] if game else sorted({entry.game for entry in catalog.entries.values()})
    found: list[Any] = []
    for each in chosen:
        entry = catalog.find(name, each)
        if entry is not None and (game is None or entry.game == game) and entry not in found:
            found.append(entry)
    if not found:
        hint = catalog.suggest(name, prefer_game=game)
        raise DeckbuilderError(
            f"no card or other record is named '{printable(name)}'",
            fix=f"did you mean {' or '.join(hint)}?" if hint
            else "search names and texts with `deckbuilder cards --search WORDS`",
        )
    return found


def _shown_value(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, list):
        return [_shown_value(item) for item in value]
    return value.value if hasattr(value, "value") else value


def record_details(catalog: Any, entry: Any) -> dict[str, Any]:
    """Everything known about one record: values with their sources, what is unconfirmed,
    what the overlay changed, and whether the engine plays it (and why not)."""
    record = entry.record
    provenance = record.provenance
    fields = type(record).model_fields
    values = []
    for name in fields:
        if name in _NOT_VALUES:
            continue
        explicit = (name in record.model_fields_set or name in provenance.unconfirmed
                    or name in provenance.sources)
        source = provenance.source_of(name)
        values.append({
            "field": name,
            "value": _shown_value(getattr(record, name)),
            "source": source if explicit else "default (the data does not set it)",
            "unconfirmed": explicit and source == UNCONFIRMED,
            "overlay": source.startswith(OVERLAY_SOURCE),
        })
    loaded = catalog.sets[entry.set_id]
    details: dict[str, Any] = {
        "id": entry.id,
        "name": record.name,
        "aliases": list(record.aliases),
        "kind": entry.kind,
        "game": entry.game,
        "set": entry.set_id,
        "set_name": loaded.card_set.name,
        "set_source": provenance.source_of("set"),
        "text": record.text,
        "text_source": provenance.source_of("text"),
        "values": values,
        "unconfirmed": list(provenance.unconfirmed),
        "note": provenance.note,
    }
    if entry.kind == "card":
        details["base_copies"] = catalog.base_copies(entry.id)
    details["engine"] = engine_support(entry)
    return details


def engine_support(entry: Any) -> dict[str, Any]:
    """Whether the engine plays the record, and the reasons when it does not."""
    if entry.game not in games():
        return {"plays": False, "reasons": [f"the engine does not play {entry.game}"]}
    if entry.kind not in ("card", "character", "special"):
        return {"plays": True, "reasons": []}
    reasons = unimplemented_reasons(entry.record, game_steps(entry.game))
    return {"plays": not reasons, "reasons": reasons}


def game_steps(game: str) -> dict:
    """The game's own effect steps (Derail the Train ...), beside the table's."""
    found = games().get(game)
    return dict(found.hooks.steps) if found is not None else {}

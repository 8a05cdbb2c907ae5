"""Everything known about one record: its values with the document that states each, what is
unconfirmed, what the overlay changed, and whether the engine plays it (`cards show`, the
web card page). A player should never take a guess for a fact.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypedDict

from pydantic import BaseModel

from deckbuilder.card_face import unconfirmed_fields
from deckbuilder.catalog import Catalog, Entry, normalise_name
from deckbuilder.data_packs.standing import standing_of_source
from deckbuilder.engine.game_rules import StepEntry
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import games
from deckbuilder.printable import printable

#: Fields shown apart (the heading, the text) or not values at all.
_NOT_VALUES = ("id", "name", "aliases", "text", "provenance")
OVERLAY_SOURCE = "overlay "  # how catalog.apply_overlay_document labels a corrected value


def find_records(catalog: Catalog, name: str, game: str | None = None) -> list[Entry]:
    """Every record the id, name or alias names (a name printed in both games gives both),
    else the one a unique prefix names (`volcanic`); an ambiguous prefix or a typo raises
    with the choices."""
    chosen = [game] if game else sorted({entry.game for entry in catalog.entries.values()})
    found = list({entry.id: entry for each in chosen  # each record once
                  if (entry := catalog.find(name, each)) is not None
                  and (game is None or entry.game == game)}.values())
    if found:
        return found
    by_prefix = records_by_prefix(catalog, name, game)
    names = {normalise_name(entry.name) for entry in by_prefix}
    if by_prefix and len(names) == 1:  # one name (perhaps printed in both games)
        return by_prefix
    if by_prefix:
        shown = [f"{entry.name} ({entry.kind}, {entry.game})" for entry in by_prefix]
        more = len(shown) - MAX_CHOICES_SHOWN
        listed = "; ".join(shown[:MAX_CHOICES_SHOWN]) + (f"; and {more} more" if more > 0
                                                         else "")
        raise DeckbuilderError(
            f"'{printable(name)}' begins {len(by_prefix)} names: {printable(listed)}",
            fix="give more of the name, or the id")
    hint = catalog.suggest(name, prefer_game=game)
    raise DeckbuilderError(
        f"no card or other record is named '{printable(name)}'",
        fix=f"did you mean {' or '.join(hint)}?" if hint
        else "search names and texts with `deckbuilder cards --search WORDS`",
    )


#: How many of an ambiguous prefix's records the error names.
MAX_CHOICES_SHOWN = 8


def records_by_prefix(catalog: Catalog, prefix: str, game: str | None = None) -> list[Entry]:
    """The records whose name, an alias or id begins with `prefix`, in the catalog's order."""
    folded = normalise_name(prefix)
    if not folded:
        return []
    raw = prefix.strip().lower()
    return [entry for entry in catalog.entries.values()
            if (game is None or entry.game == game) and (entry.id.startswith(raw) or any(
                normalise_name(each).startswith(folded)
                for each in (entry.record.name, *entry.record.aliases)))]


def _shown_value(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, list):
        return [_shown_value(item) for item in value]
    return value.value if isinstance(value, Enum) else value


def record_details(catalog: Catalog, entry: Entry) -> dict[str, Any]:
    record = entry.record
    provenance = record.provenance
    fields = type(record).model_fields
    unconfirmed = unconfirmed_fields(record)  # as the card face marks them
    values = []
    for name in fields:
        if name in _NOT_VALUES:
            continue
        explicit = (name in record.model_fields_set or name in provenance.unconfirmed
                    or name in provenance.sources)
        source = provenance.source_of(name)
        shown = source if explicit else "default (the data does not set it)"
        standing, confirmed_by = standing_of_source(shown)
        values.append({
            "field": name,
            "value": _shown_value(getattr(record, name)),
            "source": shown,
            "unconfirmed": name in unconfirmed,
            "overlay": source.startswith(OVERLAY_SOURCE),
            # stated, player (and who confirmed it), unconfirmed or default
            "standing": "unconfirmed" if name in unconfirmed else (
                "default" if shown.startswith("default") else standing.value),
            "confirmed_by": confirmed_by,
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
        "unconfirmed": list(unconfirmed),
        "note": provenance.note,
    }
    if entry.kind == "card":
        details["base_copies"] = catalog.base_copies(entry.id)
    details["engine"] = engine_support(entry)
    return details


class EngineSupport(TypedDict):
    """Whether the engine plays a record; why not, when it does not."""

    plays: bool
    reasons: list[str]


def engine_support(entry: Entry) -> EngineSupport:
    if entry.game not in games():
        return {"plays": False, "reasons": [f"the engine does not play {entry.game}"]}
    if entry.kind not in ("card", "character", "special"):
        return {"plays": True, "reasons": []}
    reasons = unimplemented_reasons(entry.record, game_steps(entry.game))
    return {"plays": not reasons, "reasons": reasons}


def game_steps(game: str) -> dict[str, StepEntry]:
    """The game's own effect steps (Derail the Train ...), beside the table's."""
    found = games().get(game)
    return dict(found.rules.steps) if found is not None else {}

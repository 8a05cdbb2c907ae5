"""Each value's standing: stated by a document (which), confirmed by a player (which pack, or
the player's own overlay), or unconfirmed (our reading). Every view of a card and `data
status` read it from here, so they agree with each other and with `cards --unconfirmed`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pydantic import JsonValue

from deckbuilder.catalog import Entry
from deckbuilder.data_packs.layers import is_engine_data, plain
from deckbuilder.data_packs.model import OVERLAY_SOURCE_PREFIX, PACK_SOURCE_PREFIX
from deckbuilder.models.common import UNCONFIRMED


class Standing(StrEnum):
    STATED = "stated"
    PLAYER = "player"
    UNCONFIRMED = "unconfirmed"


def standing_of_source(source: str) -> tuple[Standing, str | None]:
    """A provenance source read back: its standing, and who confirmed a player's value.

    >>> standing_of_source("data pack mcready-printed 1: read from the printed card")
    (<Standing.PLAYER: 'player'>, 'pack mcready-printed 1')
    >>> standing_of_source("rulebook-en: FAQ")[0].value
    'stated'
    """
    if source == UNCONFIRMED:
        return Standing.UNCONFIRMED, None
    if source.startswith(PACK_SOURCE_PREFIX):
        label = source[len(PACK_SOURCE_PREFIX):].split(":", 1)[0]
        return Standing.PLAYER, f"pack {label}"
    if source.startswith(OVERLAY_SOURCE_PREFIX):
        return Standing.PLAYER, "your overlay"
    return Standing.STATED, None


_LABELLED = re.compile(r"^([a-z_]+(?:, [a-z_]+)*): (.+)$", re.DOTALL)


def said_for(source: str, field: str) -> str:
    """What a player's source says of one field (of a source labelled per field, its part).

    >>> said_for("overlay /h/overlay.yaml: cost, icons: read, 2025-03-01; copies: box", "cost")
    'read, 2025-03-01'
    """
    said = source.split(": ", 1)[1] if ": " in source else source
    for segment in said.split("; "):
        match = _LABELLED.match(segment)
        if match and field in match.group(1).split(", "):
            return match.group(2)
    return said


def labelled(source: str, fields: list[str]) -> list[tuple[list[str], str]] | None:
    """A correction's source as (fields, text) segments when labelled per field, else None."""
    segments: list[tuple[list[str], str]] = []
    for segment in source.split("; "):
        match = _LABELLED.match(segment)
        names = match.group(1).split(", ") if match else []
        if not match or not set(names) <= set(fields):
            return None
        segments.append((names, match.group(2)))
    return segments


def _without(segments: list[tuple[list[str], str]], field: str) -> list[tuple[list[str], str]]:
    kept = [([name for name in names if name != field], text) for names, text in segments]
    return [(names, text) for names, text in kept if names]


def _joined(segments: list[tuple[list[str], str]]) -> str:
    return "; ".join(f"{', '.join(names)}: {text}" for names, text in segments)


def merge_source(old: str, fields: list[str], field: str, new: str) -> str:
    """One correction's source text, labelled per field when the fields' sources differ.

    >>> merge_source("box count", ["copies"], "cost", "read from the printed card, 2025-03-01")
    'copies: box count; cost: read from the printed card, 2025-03-01'
    >>> merge_source("box count", ["copies"], "firepower", "errata")
    'copies: box count; firepower: errata'
    """
    kept = _without(labelled(old, fields) or [(list(fields), old)], field)
    return new if all(text == new for _, text in kept) else _joined([*kept, ([field], new)])


def drop_source(old: str, fields: list[str], field: str) -> str:
    """The correction's source once `field` is no longer corrected: its own label goes.

    >>> drop_source("copies: box count; firepower: errata", ["copies", "firepower"], "copies")
    'errata'
    """
    segments = labelled(old, fields)
    if segments is None:
        return old  # not labelled by us: it covers every field
    kept = _without(segments, field)
    if len({text for _, text in kept}) <= 1:
        return kept[0][1] if kept else old
    return _joined(kept)


def standing_words(source: str, field: str = "") -> str:
    """The standing as a player reads it (`stated by rulebook-en: FAQ` ...)."""
    standing, by = standing_of_source(source)
    if standing is Standing.UNCONFIRMED:
        return "unconfirmed (our reading)"
    if standing is Standing.STATED:
        return f"stated by {source}"
    return f"confirmed by a player ({by}): {said_for(source, field)}"


@dataclass(frozen=True)
class ValueStanding:
    """One value of a record with its standing."""

    record_id: str
    field: str
    value: JsonValue
    standing: Standing
    source: str  # the provenance source ("unconfirmed" for our reading)
    confirmed_by: str | None  # `pack ID VERSION` or `your overlay` for a player's value
    engine_data: bool  # effect steps, turn spaces: confirmed as they stand, never retyped

    @property
    def words(self) -> str:
        return standing_words(self.source, self.field)


_NOT_VALUES = {"id", "provenance", "aliases", "text"}


def value_standings(entry: Entry) -> list[ValueStanding]:
    """Every value a record's data sets or lists unconfirmed, each with its standing."""
    record = entry.record
    rows = []
    for name in sorted(name for name in record.model_fields_set | set(
            record.provenance.unconfirmed) if name not in _NOT_VALUES):
        source = record.provenance.source_of(name)
        standing, by = standing_of_source(source)
        value = entry.set_id if name == "set" else plain(record, name)
        rows.append(ValueStanding(entry.id, name, value, standing, source, by,
                                  is_engine_data(name, value)))
    return rows

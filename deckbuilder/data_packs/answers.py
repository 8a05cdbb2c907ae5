"""Saving review answers into the player's overlay: one answer at a time, written whole under
the overlay's lock and read afresh inside it, so a killed review loses no earlier answer and
two reviews at once keep each other's. The format is the one `overlay set` writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from deckbuilder import paths
from deckbuilder.catalog import Catalog, apply_overlay_document, normalise_name
from deckbuilder.data_packs.layers import apply_packs, installed_packs, plain, renamed_aliases
from deckbuilder.data_packs.model import MAX_NAME, printed_card_source
from deckbuilder.data_packs.standing import merge_source
from deckbuilder.errors import DataFileError, DeckbuilderError, Location
from deckbuilder.importer import sets_catalog
from deckbuilder.models import Overlay
from deckbuilder.printable import printable
from deckbuilder.user_schemas import overlay_header
from deckbuilder.writing import editing, pause_at
from deckbuilder.yamlio import load_yaml, validate_document, write_yaml

OVERLAY_HEADER = (
    "deckbuilder overlay: local corrections to card data, by record id.\n"
    "Each correction names its source; it then shows as the source of the corrected values.\n"
    "Edit by hand or with `deckbuilder overlay set ID FIELD VALUE --source TEXT`;\n"
    "`deckbuilder data review` adds the values you read from your printed cards."
)
#: `confirm` as an answer's value: the current reading, as the card shows it.
AS_SHOWN = object()


class AnswerRefused(DeckbuilderError):
    """An answer the record's model (or the engine-data rule) refuses; nothing was written."""


@dataclass(frozen=True)
class SavedAnswer:
    record_id: str
    field: str
    before: object
    after: object
    source: str  # as the overlay file now holds it for this field
    path: Path
    alias: str | None = None  # the old name kept as an alias, when a name was replaced


def check_player_name(name: str | None) -> str | None:
    """A name a player signs answers with: one printable line of at most 120 characters."""
    if name is None or not name.strip():
        return None
    name = name.strip()
    if len(name) > MAX_NAME or printable(name) != name or ";" in name:
        raise DeckbuilderError(f"--name '{printable(name)[:40]}' is not a plain name",
                               fix=f"give a name of at most {MAX_NAME} printable characters, "
                                   "without ';'")
    return name


def save_answer(record_id: str, field: str, value: object, player: str | None = None,
                day: date | None = None, overlay: Path | None = None) -> SavedAnswer:
    """Write one answer into the overlay (`AS_SHOWN` confirms the current reading), sourced
    "read from the printed card, DATE[, by NAME]", checked against the catalog before writing;
    a new name keeps the old one as an alias."""
    path = overlay if overlay is not None else paths.overlay_path()
    source = printed_card_source(day or date.today(), check_player_name(player))
    with editing(path):  # another review waits, then reads this answer before adding its own
        document = load_overlay(path)
        before_catalog = catalog_below_overlay()
        apply_overlay_document(before_catalog, document, path)  # the file as it is must hold
        entry = before_catalog.entries.get(record_id)
        if entry is None:
            raise DeckbuilderError(f"no record with id '{printable(record_id)}'",
                                   fix="see `deckbuilder cards`")
        before = plain(entry.record, field)
        after = before if value is AS_SHOWN else value
        values: dict[str, object] = {field: after}
        alias = None
        if field == "name" and normalise_name(str(after)) != normalise_name(entry.name):
            alias = entry.name
            values["aliases"] = renamed_aliases(entry.record.aliases, entry.name, after)
        correction = document["corrections"].setdefault(
            record_id, CommentedMap([("source", source), ("values", CommentedMap())]))
        for name, value in values.items():
            correction["source"] = merge_source(str(correction["source"]),
                                                [str(each) for each in correction["values"]],
                                                name, source)
            correction["values"][name] = value
        try:
            apply_overlay_document(catalog_below_overlay(), document, path)
        except DataFileError as error:
            reason = error.message.removeprefix(f"overlay for '{record_id}': ")
            raise AnswerRefused(f"{field} of {record_id}: {reason}", fix=error.fix) from None
        pause_at("answer-checked")
        write_yaml(path, document, overlay_header(path))
        return SavedAnswer(record_id, field, before, after, source, path, alias)


def catalog_below_overlay() -> Catalog:
    """The packaged and installed sets with the installed packs: what the overlay corrects."""
    catalog = sets_catalog()
    catalog.packs = apply_packs(catalog, installed_packs())
    return catalog


def load_overlay(path: Path) -> CommentedMap:
    """The overlay as a round-trip document (comments kept); a new one when there is none."""
    document = load_yaml(path) if path.exists() else None
    if document is None:
        document = CommentedMap()
        document.yaml_set_start_comment(OVERLAY_HEADER)
    else:
        validate_document(document, Overlay, path)
    if document.get("corrections") is None:
        document["corrections"] = CommentedMap()
    if not isinstance(document["corrections"], dict):
        raise DataFileError("corrections is not a mapping", Location(path),
                            "write corrections as record id: {source, values}")
    return document

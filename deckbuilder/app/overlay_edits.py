"""Editing the overlay (`$DECKBUILDER_HOME/overlay.yaml`): local corrections of packaged
values, each with its source, edited as round-trip YAML so the user's comments survive, and
checked by building the catalog with them before writing (atomically, one writer at a time).
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from ruamel.yaml.comments import CommentedMap

from deckbuilder import paths
from deckbuilder.app.json_values import plain_value
from deckbuilder.catalog import Catalog, Entry, apply_overlay_document
from deckbuilder.data_packs.answers import load_overlay
from deckbuilder.data_packs.standing import drop_source, merge_source
from deckbuilder.errors import DataFileError, DeckbuilderError, Location
from deckbuilder.importer import sets_catalog
from deckbuilder.models import Overlay
from deckbuilder.printable import printable
from deckbuilder.user_schemas import overlay_header
from deckbuilder.writing import editing
from deckbuilder.yamlio import load_yaml, parse_yaml, position, validate_document, write_yaml


class SetChange(TypedDict):
    """A corrected value (`overlay set --json`): before and after, as JSON carries them."""

    id: str
    field: str
    before: object
    after: object
    source: str
    path: str


class UnsetChange(TypedDict):
    """A correction taken out (`overlay unset --json`): the record and its fields."""

    id: str
    fields: list[str]
    path: str


class OverlayRow(TypedDict):
    """One corrected value beside the packaged one (`overlay show --json`)."""

    id: str
    name: str
    kind: str
    set: str
    field: str
    package_value: object
    package_source: str
    value: object
    source: str
    where: str


def _plain_scalar(value: object) -> object:
    """Round-trip scalars (quoted strings, ints with a format) as plain Python values."""
    if isinstance(value, list):
        return [_plain_scalar(item) for item in value]
    for kind in (bool, int, float, str):  # bool first: a bool is an int too
        if isinstance(value, kind):
            return kind(value)
    return value


def parse_value(text: str) -> object:
    """A command-line VALUE read as a YAML scalar ("3" -> 3, "true" -> True, "[a, b]" -> list)."""
    value = parse_yaml(text, Path("VALUE"))
    if isinstance(value, dict) or (
        isinstance(value, list) and not all(isinstance(item, str) for item in value)
    ):
        raise DeckbuilderError(
            f"VALUE {text!r} is not a scalar or a list of names",
            fix="give one value (a number, true/false, null, a name) or a list like [a, b]",
        )
    return _plain_scalar(value)


def _with_overlay(document: object, path: Path) -> Catalog:
    catalog = sets_catalog()
    apply_overlay_document(catalog, document, path)
    return catalog


def resolve_record(catalog: Catalog, text: str) -> Entry:
    """The record an id, name or alias names; a name two records share (both games print
    a Gatling Gun) is refused with both ids, a typo with the plausible names."""
    entry = catalog.entries.get(text)
    if entry is not None:
        return entry
    games = sorted({each.game for each in catalog.entries.values()})
    found = list({match.id: match for game in games
                  if (match := catalog.find(text, game)) is not None}.values())
    if len(found) == 1:
        return found[0]
    if found:
        raise DeckbuilderError(
            f"'{printable(text)}' names {len(found)} records: "
            + ", ".join(f"{each.id} ({each.game} {each.kind})" for each in found),
            fix="give the id of the one you mean",
        )
    hint = catalog.suggest(text)
    raise DeckbuilderError(
        f"no card or other record with id '{printable(text)}', nor one by that name",
        fix=f"did you mean {' or '.join(hint)}?" if hint else "see `deckbuilder cards --search`",
    )


def unset_correction(record_id: str, field: str | None = None) -> UnsetChange:
    """Take one corrected value (or, without `field`, a record's whole correction) out; a
    record no installed set has any more can still be named by its id."""
    path = paths.overlay_path()
    with editing(path):
        if not path.exists():
            raise DeckbuilderError("there is no overlay file: nothing to take out",
                                   Location(path), "see `deckbuilder overlay set --help`")
        document = load_overlay(path)
        corrections = document["corrections"]
        key = (record_id if record_id in corrections
               else resolve_record(sets_catalog(), record_id).id)
        correction = corrections.get(key)
        if correction is None:
            corrected = ", ".join(map(str, corrections)) or "none"
            raise DeckbuilderError(f"the overlay does not correct '{printable(key)}'",
                                   Location(path), f"corrected records: {printable(corrected)}")
        values = correction["values"]
        removed = [field] if field is not None else [str(name) for name in values]
        if field is not None and field not in values:
            raise DeckbuilderError(
                f"the overlay does not correct {printable(field)} of '{key}'", Location(path),
                f"corrected fields of {key}: {', '.join(map(str, values))}",
            )
        if field is None or len(values) == 1:
            del corrections[key]
        else:
            correction["source"] = drop_source(str(correction["source"]), list(values), field)
            del values[field]
        validate_document(document, Overlay, path)
        write_yaml(path, document, overlay_header(path))
        return {"id": key, "fields": removed, "path": str(path)}


def set_correction(record_id: str, field: str, value_text: str, source: str) -> SetChange:
    """Correct one value in the overlay file; checked against the catalog before writing."""
    path = paths.overlay_path()
    if not source.strip():
        raise DeckbuilderError("--source is empty", fix="name where the correct value is stated")
    value = parse_value(value_text)
    with editing(path):  # a concurrent `overlay set` waits: both corrections survive
        document = load_overlay(path)
        before_catalog = _with_overlay(document, path)  # the file as it is must already hold
        entry = resolve_record(before_catalog, record_id)
        record_id = entry.id
        before = getattr(entry.record, field, None)
        corrections = document["corrections"]
        correction = corrections.get(record_id)
        if correction is None:
            corrections[record_id] = CommentedMap([
                ("source", source), ("values", CommentedMap([(field, value)])),
            ])
        else:
            correction["source"] = merge_source(
                str(correction["source"]), list(correction["values"]), field, source
            )
            correction["values"][field] = value
        try:
            after_catalog = _with_overlay(document, path)
        except DataFileError as error:
            reason = error.message.removeprefix(f"overlay for '{record_id}': ")
            raise DeckbuilderError(
                f"cannot set {field} of '{record_id}' to {value_text!r}: {reason}",
                fix=error.fix,
            ) from None
        write_yaml(path, document, overlay_header(path))
        after = getattr(after_catalog.entries[record_id].record, field)
        return {"id": record_id, "field": field,
                "before": plain_value(before), "after": plain_value(after),
                "source": after_catalog.entries[record_id].record.provenance.source_of(field),
                "path": str(path)}


def overlay_rows() -> list[OverlayRow]:
    """Every corrected value: the packaged value, the corrected one, and its source."""
    path = paths.overlay_path()
    if not path.exists():
        return []
    document = load_yaml(path)
    if document is None:
        return []
    overlay = validate_document(document, Overlay, path)
    package, corrected = sets_catalog(), _with_overlay(document, path)
    rows: list[OverlayRow] = []
    for record_id, correction in overlay.corrections.items():
        old = package.entries[record_id]
        new = corrected.entries[record_id]
        for field in correction.values:
            line = position(document, ["corrections", record_id, "values", field])
            rows.append({
                "id": record_id,
                "name": new.name,
                "kind": new.kind,
                "set": new.set_id,
                "field": field,
                "package_value": plain_value(getattr(old.record, field, None)),
                "package_source": old.record.provenance.source_of(field),
                "value": plain_value(getattr(new.record, field, None)),
                "source": new.record.provenance.source_of(field),
                "where": str(Location(path, *(line or (None, None)))),
            })
    return rows

"""The data packs as a layer of the catalog: above the sets, below the player's overlay.

The result depends on which packs are installed, never their order: a value two packs give
differently is a conflict neither decides, and a pack read for another set version applies a
value only while the set leaves it unconfirmed. This module must not import the catalog.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import JsonValue, ValidationError

from deckbuilder import paths
from deckbuilder.data_packs.model import (
    ENGINE_FIELDS,
    NOT_PACK_FIELDS,
    PACK_SOURCE_PREFIX,
    DataPack,
)
from deckbuilder.errors import Location
from deckbuilder.models.cards import Record
from deckbuilder.models.common import UNCONFIRMED, Provenance
from deckbuilder.models.sets import RECORD_LISTS
from deckbuilder.reading import read_bounded
from deckbuilder.yamlio import MAX_FILE_BYTES, located, model_of, yaml_files


@dataclass(frozen=True)
class LoadedPack:
    """A pack file read and checked; `raw` is the bytes read once, parsed and installed."""

    pack: DataPack
    path: Path
    digest: str
    document: object = None
    raw: bytes = field(default=b"", repr=False)

    @property
    def label(self) -> str:
        return f"{self.pack.id} {self.pack.version}"

    def where(self, *loc: object) -> Location:
        return located(self.path, self.document, loc)


@dataclass(frozen=True)
class PackChange:
    """A value a pack sets (or would set): `before` is the sets' value, `after` the pack's."""

    pack: str
    record_id: str
    field: str
    before: object
    after: JsonValue
    before_source: str


@dataclass(frozen=True)
class PackNotice:
    """A value not applied, or applied with a warning: `kind` is conflict, version, missing
    or refused (an import refuses the pack)."""

    kind: str
    pack: str
    record_id: str
    field: str
    message: str
    where: Location | None = None


@dataclass
class PackLayer:
    """The packs in force and what they did to the catalog."""

    packs: list[LoadedPack] = field(default_factory=list)
    changes: list[PackChange] = field(default_factory=list)
    notices: list[PackNotice] = field(default_factory=list)

    def refusals(self) -> list[PackNotice]:
        return [notice for notice in self.notices if notice.kind == "refused"]


# -- reading ----------------------------------------------------------------------------------
def load_pack_file(path: Path) -> LoadedPack:
    """Read a pack file with every YAML file's limits and check it against `DataPack`."""
    raw = read_bounded(Path(path), MAX_FILE_BYTES, "data pack (.yaml)")
    pack, document = model_of(raw, Path(path), DataPack)
    return LoadedPack(pack, Path(path), hashlib.sha256(raw).hexdigest(), document, raw)


def installed_packs(folder: Path | None = None) -> list[LoadedPack]:
    """The packs in the player's packs folder, by id (a damaged file raises, naming it)."""
    packs = [load_pack_file(path) for path in yaml_files(folder or paths.packs_dir())]
    return sorted(packs, key=lambda loaded: loaded.pack.id)


# -- applying ---------------------------------------------------------------------------------
def pack_fields(record: Record) -> list[str]:
    """The fields of a record a pack may give a value."""
    return sorted(set(type(record).model_fields) - NOT_PACK_FIELDS)


def is_engine_data(name: str, value: object) -> bool:
    """Effect steps and turn spaces, or anything shaped like them (a list of mappings)."""
    return name in ENGINE_FIELDS or (
        isinstance(value, list) and any(isinstance(item, dict) for item in value))


def plain(record: Record, name: str) -> JsonValue:
    """A field's value as JSON data (what a pack or the overlay file holds)."""
    return record.model_dump(mode="json", include={name}).get(name)


def renamed_aliases(aliases: Iterable[object], old: str, new: object) -> list[str]:
    """A record's aliases once its name `old` becomes `new` (decks naming `old` keep working)."""
    kept = [str(alias) for alias in aliases]
    return [alias for alias in (kept if old in kept else [*kept, old]) if alias != new]


def with_values(record: Record, values: Mapping[str, object], source_of: dict[str, str],
                *, keep_old_name: bool = True) -> Record:
    """A copy of `record` with `values` set, each with its source (off the unconfirmed list);
    a new name keeps the old one as an alias unless the caller writes aliases itself."""
    data = record.model_dump(exclude_unset=True)
    data.update(values)
    if keep_old_name and "name" in values and values["name"] != record.name:
        data["aliases"] = renamed_aliases(data.get("aliases", []), record.name, values["name"])
    provenance = record.provenance
    data["provenance"] = Provenance(
        sources={**provenance.sources, **source_of},
        unconfirmed=[name for name in provenance.unconfirmed if name not in values],
        note=provenance.note,
    ).model_dump(exclude_unset=True)
    return type(record).model_validate(data)


@dataclass(frozen=True)
class _Offer:
    loaded: LoadedPack
    value: JsonValue
    source: str


def check_value(entry: Any, name: str, value: JsonValue) -> str | None:
    """Why a pack may not set this value of this record (None: it may)."""
    record = entry.record
    if name not in pack_fields(record):
        return (f"'{name}' is not a value a pack sets on a {entry.kind} "
                f"(values: {', '.join(pack_fields(record))})")
    return value_refused(record, name, value, "a pack may confirm it as it stands, not "
                         "reshape it (the player's overlay can: `deckbuilder overlay set`)")


def value_refused(record: Record, name: str, value: object, reshaped: str) -> str | None:
    """Why `value` cannot be the record's `name` (one line), or None: the model refuses it, or
    it reshapes engine data (`reshaped` says what may be done instead)."""
    try:
        changed = with_values(record, {name: value}, {})
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(map(str, first["loc"]))
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    if is_engine_data(name, plain(record, name)) and getattr(changed, name) != getattr(
            record, name):
        return f"{name} is engine data: {reshaped}"
    return None


def apply_packs(catalog: Any, packs: Iterable[LoadedPack]) -> PackLayer:
    """Apply `packs` to the catalog's records (in place) and say what each did; refused
    values are listed, not applied."""
    layer = PackLayer(sorted(packs, key=lambda loaded: loaded.pack.id))
    offers: dict[tuple[str, str], list[_Offer]] = {}
    for loaded in layer.packs:
        for record_id, values in loaded.pack.values.items():
            for name, given in values.items():
                if _goes_forward(catalog, loaded, record_id, name, given.value, layer):
                    offers.setdefault((record_id, name), []).append(
                        _Offer(loaded, given.value, given.source))
    chosen: dict[str, dict[str, _Offer]] = {}
    for (record_id, name), offered in sorted(offers.items()):
        if len({json.dumps(offer.value, sort_keys=True) for offer in offered}) > 1:
            said = "; ".join(f"pack {offer.loaded.label} says {offer.value!r}"
                             for offer in offered)
            layer.notices.append(PackNotice(
                "conflict", ", ".join(offer.loaded.pack.id for offer in offered), record_id,
                name, f"{record_id}.{name}: the packs disagree ({said}): neither is applied; "
                "settle it with `deckbuilder data review` or `deckbuilder overlay set`"))
            continue
        chosen.setdefault(record_id, {})[name] = offered[0]  # agreed: the first pack by id
    for record_id, picked in chosen.items():
        entry = catalog.entries[record_id]
        record = entry.record
        sources = {name: f"{PACK_SOURCE_PREFIX}{offer.loaded.label}: {offer.source}"
                   for name, offer in picked.items()}
        try:
            changed = with_values(record, {name: offer.value for name, offer in picked.items()},
                                  sources)
        except ValidationError as error:  # values of several packs that do not go together
            reason = error.errors()[0]["msg"]
            for name, offer in picked.items():
                layer.notices.append(PackNotice(
                    "refused", offer.loaded.pack.id, record_id, name,
                    f"{record_id}.{name}: not applied: the packs' values of {record_id} do not "
                    f"go together ({reason})", offer.loaded.where("values", record_id, name)))
            continue
        for name, offer in picked.items():
            layer.changes.append(PackChange(
                offer.loaded.pack.id, record_id, name, plain(record, name), plain(changed, name),
                record.provenance.source_of(name)))
        replace_record(catalog, entry, changed)
    return layer


def _goes_forward(catalog: Any, loaded: LoadedPack, record_id: str, name: str, value: JsonValue,
                  layer: PackLayer) -> bool:
    """True when the pack's value goes forward to the layer; else a notice says why not."""
    pack = loaded.pack

    def noticed(kind: str, message: str) -> bool:
        """Say why the value does not go forward (or why it goes with a warning)."""
        layer.notices.append(PackNotice(kind, pack.id, record_id, name, message,
                                        loaded.where("values", record_id, name)))
        return False

    entry = catalog.entries.get(record_id)
    if entry is None:
        return noticed("missing", f"{record_id}: no installed set has this record")
    wanted = pack.applies_to.get(entry.set_id)
    if wanted is None:
        return noticed("refused", f"{record_id} is a record of set '{entry.set_id}', which the "
                                  "pack's applies_to does not name")
    reason = check_value(entry, name, value)
    if reason is not None:
        return noticed("refused", f"{record_id}.{name}: {reason}")
    installed = catalog.sets[entry.set_id].card_set.version
    if wanted != installed:
        source = entry.record.provenance.source_of(name)
        if source != UNCONFIRMED:
            return noticed("version", f"{record_id}.{name}: not applied: the pack was read for "
                           f"{entry.set_id} {wanted}, the installed set is {installed} and "
                           f"states it ({source})")
        noticed("version", f"{record_id}.{name}: applied, though the pack was read for "
                f"{entry.set_id} {wanted} and the installed set is {installed} (it still "
                "leaves the value unconfirmed)")
    return True


def replace_record(catalog: Any, entry: Any, record: Record) -> None:
    """Put `record` in place of the entry's in the catalog and in its set."""
    catalog.entries[record.id] = dataclasses.replace(entry, record=record)
    names = getattr(catalog, "_names", None)
    if isinstance(names, dict):
        names.clear()  # a renamed record is found by its new name (and its old, an alias)
    card_set = catalog.sets[entry.set_id].card_set
    for list_name, _ in RECORD_LISTS:
        items = getattr(card_set, list_name)
        for index, item in enumerate(items):
            if item.id == record.id:
                items[index] = record
                return

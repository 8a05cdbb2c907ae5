"""Data packs in and out: `data export` writes the overlay's values as a pack; `data import`
checks a pack as `sets import` checks a set and installs it, reporting every change and
conflict; `data remove` takes it out. A refused import changes nothing."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from deckbuilder import paths
from deckbuilder.catalog import Catalog, apply_overlay, build_catalog
from deckbuilder.data_packs.answers import catalog_below_overlay
from deckbuilder.data_packs.layers import (
    LoadedPack,
    PackChange,
    PackNotice,
    apply_packs,
    installed_packs,
    is_engine_data,
    load_pack_file,
    pack_fields,
    plain,
)
from deckbuilder.data_packs.model import PACK_FORMAT, DataPack
from deckbuilder.data_packs.standing import Standing, said_for, standing_of_source
from deckbuilder.errors import DataFileError, DeckbuilderError, Location
from deckbuilder.importer import sets_catalog
from deckbuilder.models.common import CARD_ID_PATTERN
from deckbuilder.printable import printable
from deckbuilder.reading import read_bounded
from deckbuilder.writing import (
    atomic_write_bytes,
    atomic_write_text,
    folder_lock,
    make_data_folder,
    pause_at,
)
from deckbuilder.yamlio import MAX_FILE_BYTES, dump_yaml


class PackRefused(DeckbuilderError):
    """A pack `data import` will not install; nothing was changed."""


# -- export -----------------------------------------------------------------------------------
@dataclass
class Exported:
    pack: DataPack
    path: Path
    left_out: list[str] = field(default_factory=list)  # values a pack cannot carry, and why


def export_pack(output: Path, pack_id: str = "my-card-data", version: str = "1",
                sets: Iterable[str] = (), cards: Iterable[str] = (),
                description: str | None = None) -> Exported:
    """Write the overlay's values as a pack (only of `sets` / `cards` when given); engine data
    the overlay reshaped is left out, since a pack cannot carry it."""
    catalog = build_catalog()
    wanted_sets, wanted_cards = set(sets), set(cards)
    values: dict[str, dict[str, dict[str, object]]] = {}
    applies: dict[str, str] = {}
    left_out: list[str] = []
    below = catalog_below_overlay()
    for entry in catalog.entries.values():
        if (wanted_sets and entry.set_id not in wanted_sets) or (
                wanted_cards and entry.id not in wanted_cards):
            continue
        for name in pack_fields(entry.record):
            source = entry.record.provenance.source_of(name)
            standing, by = standing_of_source(source)
            if standing is not Standing.PLAYER or by != "your overlay":
                continue
            value = plain(entry.record, name)
            old = below.entries.get(entry.id)
            if is_engine_data(name, value) and (old is None or value != plain(old.record, name)):
                left_out.append(f"{entry.id}.{name}: engine data the overlay reshaped")
                continue
            values.setdefault(entry.id, {})[name] = {"value": value,
                                                     "source": said_for(source, name)}
            applies[entry.set_id] = catalog.sets[entry.set_id].card_set.version
    if not values:
        raise DeckbuilderError("there are no values of yours to export",
                               fix="review cards first (`deckbuilder data review`), or name "
                                   "sets or cards your overlay corrects")
    pack = DataPack(format=PACK_FORMAT, id=pack_id, version=version, description=description,
                    applies_to=dict(sorted(applies.items())), values=values)
    document = CommentedMap(pack.model_dump(mode="json", exclude_none=True))
    document.yaml_set_start_comment(
        f"deckbuilder data pack ({date.today().isoformat()}): card values read from the "
        "printed cards.\nImport it with `deckbuilder data import FILE`.")
    atomic_write_text(output, dump_yaml(document))
    return Exported(pack, output, left_out)


# -- import -----------------------------------------------------------------------------------
@dataclass
class ImportReport:
    """What a pack does: every value it changes, every conflict, the overlay's overrides."""

    pack_id: str
    version: str
    path: Path
    changes: list[PackChange] = field(default_factory=list)
    notices: list[PackNotice] = field(default_factory=list)
    overlay_wins: list[str] = field(default_factory=list)
    replaced_version: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.pack_id, "version": self.version, "path": str(self.path),
            "replaced_version": self.replaced_version,
            "changes": [{"id": change.record_id, "field": change.field,
                         "before": change.before, "after": change.after,
                         "before_source": change.before_source} for change in self.changes],
            "conflicts": [notice.message for notice in self.notices
                          if notice.kind == "conflict"],
            "warnings": [notice.message for notice in self.notices
                         if notice.kind in ("version", "missing")],
            "overlay_wins": self.overlay_wins,
        }


def check_pack(loaded: LoadedPack, catalog: Catalog) -> list[str]:
    """Why the pack cannot be imported into this catalog (empty: it can)."""
    problems = [f"{loaded.where('applies_to', set_id)}: set '{set_id}' is not installed "
                "(install it with `deckbuilder sets import`)"
                for set_id in loaded.pack.applies_to if set_id not in catalog.sets]
    for record_id in loaded.pack.values:
        if record_id not in catalog.entries:
            hint = catalog.suggest(record_id)
            problems.append(f"{loaded.where('values', record_id)}: no installed set has the "
                            f"record '{record_id}'"
                            + (f" (did you mean {', '.join(hint)}?)" if hint else ""))
    layer = apply_packs(catalog, [loaded])
    problems += [f"{notice.where}: {notice.message}" for notice in layer.refusals()]
    return problems


def import_pack(path: Path, upgrade: bool = False) -> ImportReport:
    """Install a pack, or change nothing and raise."""
    loaded = load_pack_file(path)
    problems = check_pack(loaded, sets_catalog())
    if problems:
        more = len(problems) - 1
        raise PackRefused(
            f"refused to import pack '{loaded.pack.id}': {printable(problems[0])}"
            + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""),
            Location(Path(path)), "correct the pack (or ask its author for one made for your "
                                  "sets), then import it again")
    with folder_lock(make_data_folder(paths.packs_dir(), "packs")):
        pack = loaded.pack
        installed = installed_packs()
        others = [each for each in installed if each.pack.id != pack.id]
        replaced = next((each for each in installed if each.pack.id == pack.id), None)
        if replaced is not None and not upgrade:
            raise PackRefused(f"pack '{pack.id}' is already installed (version "
                              f"{replaced.pack.version})", Location(replaced.path),
                              "add --upgrade to replace it, or `deckbuilder data remove` it")
        pause_at("pack-checked")
        after = sets_catalog()
        layer = apply_packs(after, [*others, loaded])
        report = ImportReport(pack.id, pack.version, paths.packs_dir() / f"{pack.id}.yaml",
                              replaced_version=replaced.pack.version if replaced else None)
        report.changes = [change for change in layer.changes if change.pack == pack.id]
        report.notices = [notice for notice in layer.notices
                          if pack.id in notice.pack.split(", ")]
        report.overlay_wins = _overlay_overrides(after, pack)
        atomic_write_bytes(report.path, loaded.raw)  # the bytes checked, not the file as it is now
        return report


def _overlay_overrides(catalog: Catalog, pack: DataPack) -> list[str]:
    """The pack's values the player's overlay sets too: the overlay's value wins."""
    overlay = paths.overlay_path()
    if not overlay.exists():
        return []
    apply_overlay(catalog, overlay)
    return [f"{record_id}.{name}: your overlay's value {plain(record, name)!r} wins over the "
            f"pack's {given.value!r}" for record_id, values in pack.values.items()
            for name, given in values.items()
            if standing_of_source((record := catalog.entries[record_id].record)
                                  .provenance.source_of(name))[1] == "your overlay"]


# -- remove -----------------------------------------------------------------------------------
def remove_pack(pack_id: str) -> tuple[Path, list[PackChange]]:
    """Take an installed pack out: the file removed and the values it set."""
    if not re.fullmatch(CARD_ID_PATTERN, pack_id):
        raise DeckbuilderError(f"'{printable(pack_id)}' is not a pack id",
                               fix="see `deckbuilder data status` for the packs installed")
    with folder_lock(make_data_folder(paths.packs_dir(), "packs")):
        packs = installed_packs()
        target = next((each for each in packs if each.pack.id == pack_id), None)
        if target is None:
            known = ", ".join(each.pack.id for each in packs) or "none"
            raise DeckbuilderError(f"no installed pack '{pack_id}'",
                                   fix=f"installed packs: {known}")
        layer = apply_packs(sets_catalog(), packs)
        gone = [change for change in layer.changes if change.pack == pack_id]
        try:
            target.path.unlink()
        except OSError as error:
            raise DataFileError(f"cannot delete: {error.strerror}", Location(target.path),
                                "remove it by hand") from None
        return target.path, gone


# -- the data in force ------------------------------------------------------------------------
def data_hash(catalog: Catalog) -> dict[str, object]:
    """The packs and overlay a catalog was built with, by SHA-256, so `replay` can tell when
    a record's data differ."""
    layer = catalog.packs
    packs = {loaded.pack.id: loaded.digest for loaded in (layer.packs if layer else [])}
    overlay = None
    if catalog.overlay_path is not None and catalog.overlay_path.is_file():
        overlay = hashlib.sha256(read_bounded(catalog.overlay_path, MAX_FILE_BYTES,
                                              "overlay")).hexdigest()
    combined = hashlib.sha256(
        "\n".join([*(f"{key} {value}" for key, value in sorted(packs.items())),
                   f"overlay {overlay}"]).encode()).hexdigest()
    return {"packs": packs, "overlay": overlay, "sha256": combined}

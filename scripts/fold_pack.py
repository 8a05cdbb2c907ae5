"""Fold a reviewed data pack into the packaged card-set files (maintainers only).

    python scripts/fold_pack.py PACK.yaml [--dry-run] [--any-version] [--sets-dir DIR]

Each value of the pack is written into its record in `deckbuilder/data/expansions/*.yaml`
(or the set files of --sets-dir), the field taken off `provenance.unconfirmed` and given the
source `data pack ID VERSION: read from the printed card, DATE, by NAME`; comments and layout
are kept, every changed file is checked against the card-set model before it is written, and
nothing is written when any value is refused. See docs/maintainers/data-packs.md. Nothing
installed uses the fold, so it lives here, not in the package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import JsonValue
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from deckbuilder import paths
from deckbuilder.catalog import RECORD_LISTS, build_catalog
from deckbuilder.data_packs.layers import LoadedPack, check_value, load_pack_file
from deckbuilder.data_packs.model import PACK_SOURCE_PREFIX
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import CardSet
from deckbuilder.models.cards import Record
from deckbuilder.printable import printable
from deckbuilder.yamlio import load_yaml, validate_document, write_yaml, yaml_files


@dataclass
class Folded:
    """What a fold changed (or, dry, would change), per set file."""

    files: dict[Path, list[str]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def _flow(value: object) -> object:
    if isinstance(value, list):
        seq = CommentedSeq(_flow(item) for item in value)
        if all(not isinstance(item, dict | list) for item in value):
            seq.fa.set_flow_style()
        return seq
    if isinstance(value, dict):
        return CommentedMap((key, _flow(item)) for key, item in value.items())
    return value


def _record_node(document: CommentedMap, record_id: str) -> CommentedMap:
    for list_name, _ in RECORD_LISTS:
        for node in document.get(list_name) or []:
            if isinstance(node, CommentedMap) and node.get("id") == record_id:
                return node
    raise DeckbuilderError(f"{record_id} is in none of its set file's lists")


def fold_pack(pack_file: Path, set_files: Iterable[Path] | None = None, dry_run: bool = False,
              any_version: bool = False) -> Folded:
    """Fold the pack's values into the set files (the packaged ones by default). A value for
    a set of another version than the pack names is refused unless `any_version`; a value
    the record's model refuses, or engine data reshaped, always is. Nothing is written when
    anything is refused, or with `dry_run`."""
    loaded = load_pack_file(pack_file)
    files = list(set_files) if set_files is not None else yaml_files(paths.PACKAGED_SETS)
    catalog = build_catalog(package_sets=files, use_user_data=False)
    documents = {path: load_yaml(path) for path in files}
    by_set = {catalog.sets[str(doc["id"])].card_set.id: path for path, doc in documents.items()
              if str(doc.get("id")) in catalog.sets}
    folded = Folded()
    problems = []
    for record_id, values in loaded.pack.values.items():
        entry = catalog.entries.get(record_id)
        if entry is None:
            problems.append(f"{record_id}: no set file has this record")
            continue
        wanted = loaded.pack.applies_to.get(entry.set_id)
        version = catalog.sets[entry.set_id].card_set.version
        if wanted is None or (wanted != version and not any_version):
            problems.append(f"{record_id}: the pack was read for {entry.set_id} {wanted}, the "
                            f"set file is {version} (--any-version folds it anyway)")
            continue
        path = by_set[entry.set_id]
        node = _record_node(documents[path], record_id)
        for name, given in values.items():
            reason = check_value(entry, name, given.value)
            if reason is not None:
                problems.append(f"{record_id}.{name}: {reason}")
                continue
            _fold_value(node, entry.record, loaded, name, given.value, given.source)
            folded.files.setdefault(path, []).append(
                f"{record_id}.{name}: {getattr(entry.record, name, None)!r} -> {given.value!r}")
    if problems:
        raise DeckbuilderError(f"refused to fold {pack_file}: {problems[0]}"
                               + (f" (and {len(problems) - 1} more)" if len(problems) > 1
                                  else ""), Location(pack_file), "correct the pack first")
    for path in folded.files:
        validate_document(documents[path], CardSet, path)  # the whole set still holds
    if not dry_run:
        for path in folded.files:
            write_yaml(path, documents[path])
    return folded


def _fold_value(node: CommentedMap, record: Record, loaded: LoadedPack, name: str,
                value: JsonValue, source: str) -> None:
    if name == "name" and value != record.name:
        aliases = node.get("aliases")
        if aliases is None:
            node.insert(list(node).index("name") + 1, "aliases", _flow([record.name]))
        elif record.name not in aliases:
            aliases.append(record.name)
    node[name] = _flow(value)
    provenance = node.setdefault("provenance", CommentedMap())
    unconfirmed = provenance.get("unconfirmed")
    if unconfirmed is not None and name in unconfirmed:
        unconfirmed.remove(name)
        if not unconfirmed:
            del provenance["unconfirmed"]
    sources = provenance.get("sources")
    if sources is None:
        sources = CommentedMap()
        provenance.insert(0, "sources", sources)
    sources[name] = f"{PACK_SOURCE_PREFIX}{loaded.label}: {source}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", type=Path, help="the reviewed data pack")
    parser.add_argument("--dry-run", action="store_true", help="say what would change only")
    parser.add_argument("--any-version", action="store_true",
                        help="fold values read for another version of a set too")
    parser.add_argument("--sets-dir", type=Path, default=None,
                        help="the set files to fold into (default: the packaged ones)")
    options = parser.parse_args(argv)
    files = sorted(options.sets_dir.glob("*.yaml")) if options.sets_dir else None
    try:
        folded = fold_pack(options.pack, files, dry_run=options.dry_run,
                           any_version=options.any_version)
    except DeckbuilderError as error:
        print(f"error: {printable(error)}", file=sys.stderr)
        return 2
    for path, lines in folded.files.items():
        print(f"{'would change' if options.dry_run else 'changed'} {path}:")
        for line in lines:
            print(f"  {printable(line)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fold a reviewed data pack into the packaged card-set files (maintainers only).

    python scripts/fold_pack.py PACK.yaml [--dry-run] [--any-version] [--sets-dir DIR]

Each value of the pack is written into its record in `deckbuilder/data/expansions/*.yaml`
(or the set files of --sets-dir), the field taken off `provenance.unconfirmed` and given the
source `data pack ID VERSION: read from the printed card, DATE, by NAME`; comments and layout
are kept, every changed file is checked against the card-set model before it is written, and
nothing is written when any value is refused. See docs/maintainers/data-packs.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deckbuilder.data_packs.fold import fold_pack
from deckbuilder.errors import DeckbuilderError
from deckbuilder.printable import printable


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

"""The catalog a command works on: packaged and installed sets, the overlay, and a
repository's own sets folder (`--sets-dir`, DECKBUILDER_SETS_DIR, sets-dir in a
deckbuilder.toml), checked as an import would check it since nothing installed it."""

from __future__ import annotations

from pathlib import Path

from deckbuilder import paths
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.importer import vet_project_sets


def project_catalog(sets_dir: Path | None = None, *, keep_broken: bool = False,
                    installed: bool = True) -> Catalog:
    """A broken set of the folder raises, unless `keep_broken`: then it is left out and
    listed in `catalog.broken`, so what does not need it still works. `installed=False`:
    only what every clone of the repository reads (`schema --into`)."""
    paths.use_sets_dir(sets_dir)
    catalog = build_catalog(installed=installed, vet_project_sets=vet_project_sets)
    if catalog.broken and not keep_broken:
        raise catalog.broken[0].error
    return catalog

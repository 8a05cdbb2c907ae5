"""The catalog a command works on: packaged and installed sets, the overlay, and a
repository's own sets folder (`--sets-dir`, DECKBUILDER_SETS_DIR, sets-dir in a
deckbuilder.toml), that folder checked as an import would check it, since nothing
installed those sets."""

from __future__ import annotations

from pathlib import Path

from deckbuilder import paths
from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.importer import check_project_sets


def project_catalog(sets_dir: Path | None = None) -> Catalog:
    """The catalog with the repository's sets folder included (`sets_dir` first, as
    `--sets-dir` gives it) and checked."""
    paths.use_sets_dir(sets_dir)
    return check_project_sets(build_catalog())

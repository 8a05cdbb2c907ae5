"""Where data lives: package data shipped in the wheel, and the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

PACKAGE_DATA = Path(__file__).resolve().parent / "data"
PACKAGED_SETS = PACKAGE_DATA / "expansions"
PACKAGED_DECKS = PACKAGE_DATA / "decks"
PACKAGED_SCHEMAS = PACKAGE_DATA / "schemas"

HOME_VARIABLE = "DECKBUILDER_HOME"


def user_home() -> Path:
    """The user data folder; `DECKBUILDER_HOME` overrides the platform default."""
    override = os.environ.get(HOME_VARIABLE)
    return Path(override).expanduser() if override else Path(user_data_dir("deckbuilder"))


def installed_sets_dir() -> Path:
    return user_home() / "sets"


def overlay_path() -> Path:
    return user_home() / "overlay.yaml"


def user_schemas_dir() -> Path:
    """Copies of the schemas beside the user's files, so their `$schema` lines resolve."""
    return user_home() / "schemas"


CACHE_VARIABLE = "DECKBUILDER_CACHE"


def cache_dir() -> Path:
    """Derived data only (content-addressed), so it is shared whatever DECKBUILDER_HOME says."""
    override = os.environ.get(CACHE_VARIABLE)
    return Path(override).expanduser() if override else Path(user_cache_dir("deckbuilder"))

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


def packs_dir() -> Path:
    """The data packs the player imported (`deckbuilder data import`), one file per pack id."""
    return user_home() / "packs"


def user_schemas_dir() -> Path:
    """Copies of the schemas beside the user's files, so their `$schema` lines resolve."""
    return user_home() / "schemas"


CACHE_VARIABLE = "DECKBUILDER_CACHE"


def cache_dir() -> Path:
    """Derived data only (content-addressed), so it is shared whatever DECKBUILDER_HOME says."""
    override = os.environ.get(CACHE_VARIABLE)
    return Path(override).expanduser() if override else Path(user_cache_dir("deckbuilder"))


# -- a repository's own files: homebrew sets and editor schemas -----------------------------
#: A folder of set files the catalog reads besides the installed ones (`--sets-dir`).
SETS_DIR_VARIABLE = "DECKBUILDER_SETS_DIR"
#: The project file: found in the current folder or above (up to the repository's root).
PROJECT_FILE = "deckbuilder.toml"
_PROJECT_KEYS = ("sets-dir", "schemas-dir")
_MAX_PROJECT_BYTES = 64 * 1024


def repository_folders(start: Path) -> list[Path]:
    """`start` and the folders above it, up to the repository's root (the first holding
    `.git` or `.hg`; the filesystem root when there is none)."""
    folders = []
    for folder in (start, *start.parents):
        folders.append(folder)
        if (folder / ".git").exists() or (folder / ".hg").exists():
            break
    return folders


def find_project_file(start: Path | None = None) -> Path | None:
    """The nearest `deckbuilder.toml` in `start` (default: the current folder) or above it,
    within the repository; None when there is none."""
    folder = Path(os.path.abspath(start if start is not None else Path.cwd()))
    return next((candidate / PROJECT_FILE for candidate in repository_folders(folder)
                 if (candidate / PROJECT_FILE).is_file()), None)


def read_project_file(path: Path) -> dict[str, Path]:
    """The folders a project file names (`sets-dir = "homebrew"`, `schemas-dir`), relative
    to the file."""
    import tomllib

    from deckbuilder.errors import DataFileError, Location
    from deckbuilder.reading import decode_utf8, read_bounded

    text = decode_utf8(read_bounded(path, _MAX_PROJECT_BYTES, "project file"), path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"not a TOML file: {error}", Location(path),
                            'write `sets-dir = "FOLDER"` (TOML)') from None
    folders: dict[str, Path] = {}
    for key, value in data.items():
        if key not in _PROJECT_KEYS:
            raise DataFileError(f"unknown setting '{key}'", Location(path),
                                f"settings: {', '.join(_PROJECT_KEYS)}")
        if not isinstance(value, str) or not value.strip():
            raise DataFileError(f"{key} must be a folder name (a string)", Location(path),
                                f'write {key} = "FOLDER"')
        folders[key] = (path.parent / value.strip()).resolve()
    return folders


def project_sets_dir() -> Path | None:
    """The repository's own set folder: `--sets-dir` / `DECKBUILDER_SETS_DIR`, else the
    project file's `sets-dir`; None when neither names one."""
    override = os.environ.get(SETS_DIR_VARIABLE)
    if override:
        return Path(override).expanduser().resolve()
    project = find_project_file()
    return read_project_file(project).get("sets-dir") if project is not None else None


def shown_path(path: Path | str) -> str:
    """A path as a player names it in a message: relative to the current folder when inside
    it (`homebrew/town.yaml`), else absolute."""
    absolute = Path(os.path.abspath(path))
    here = Path(os.path.abspath(Path.cwd()))
    return (absolute.relative_to(here) if absolute.is_relative_to(here) else absolute).as_posix()


def shown_folder(folder: Path) -> str:
    """A folder as `shown_path` names it, with a trailing slash (`homebrew/`)."""
    return f"{shown_path(folder).rstrip('/')}/"


def use_sets_dir(folder: Path | None) -> None:
    """`--sets-dir DIR`: this process and those it starts read the set files of DIR."""
    if folder is not None:
        os.environ[SETS_DIR_VARIABLE] = str(Path(folder).expanduser().resolve())

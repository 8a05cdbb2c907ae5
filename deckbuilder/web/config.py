"""What the web app may touch: the deck folder it was given (every path the browser sends
goes through `resolve_deck_path`), and the catalog it loads once.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from starlette.requests import HTTPConnection

from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError, Location

#: The files the deck folder may hold for the app: deck files and text deck lists.
DECK_SUFFIXES = (".yaml", ".txt")
#: A path from the browser longer than this is no file name anyone typed.
MAX_NAME_LENGTH = 255


class UnsafePathError(DeckbuilderError):
    """A path sent by the browser that would leave the deck folder (or names no deck)."""


@dataclass
class WebConfig:
    """The server's settings: the one folder it reads and writes, the request limit, and
    the names and port it is reached under (`trust`: it answers to the loopback names,
    `listen_host` and `extra_hosts`, and takes changes only from pages of those names)."""

    deck_folder: Path
    max_request_bytes: int = 1_000_000
    listen_host: str | None = None  # `serve --host`
    extra_hosts: tuple[str, ...] = ()  # `serve --allow-host NAME`, repeated
    port: int | None = None  # `serve --port`
    #: `serve --allow-illegal`: a friend table's decks may break the deck-building rules
    allow_illegal: bool = False
    #: `serve --table-idle MINUTES`: a friend table ends after both seats left this long
    table_idle_seconds: float = 1800.0
    #: `serve --table-retention DAYS`: an ended table's file (its record) is kept this long
    table_retention_seconds: float = 7 * 24 * 3600.0
    #: `serve --tables-per-client N`: unfinished tables one address may keep at once
    tables_per_client: int = 10
    #: where friend tables are written as they are played (None: $DECKBUILDER_HOME/tables)
    tables_folder: Path | None = None
    _catalog: Catalog | None = field(default=None, init=False, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False,
                                  compare=False)
    #: What the pages learnt from reading a deck file, by (path, mtime, size): a folder's
    #: decks are listed at every visit, and are read again only when they change.
    read_decks: dict[tuple[str, int, int], tuple[str, str, str] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def catalog(self) -> Catalog:
        """The catalog (packaged sets, installed sets, overlay), built once per server: the
        same call the command line makes (`build_catalog`)."""
        with self._lock:
            if self._catalog is None:
                from deckbuilder.catalog import build_catalog

                self._catalog = build_catalog()
            return self._catalog

    def forget_catalog(self) -> None:
        """The card data changed (a value confirmed on the card data page): the next page
        builds the catalog afresh, and deck files are read again against it."""
        with self._lock:
            self._catalog = None
            self.read_decks.clear()


def config_of(request: HTTPConnection) -> WebConfig:
    """The WebConfig of the app serving this request (`app.state.config`)."""
    config: WebConfig = request.app.state.config
    return config


def resolve_deck_path(config: WebConfig, name: str, suffixes: tuple[str, ...] = DECK_SUFFIXES,
                      fix: str = "name a file inside the deck folder, e.g. my-deck.yaml"
                      ) -> Path:
    """The file `name` (`/`-separated) names inside the deck folder, of one of `suffixes`, or
    an `UnsafePathError` saying why not. The file need not exist (a deck may be saved under a
    new name), but it must be inside the folder once every symbolic link is followed.

    >>> try:
    ...     resolve_deck_path(WebConfig(Path("/tmp")), "../etc/passwd.yaml")
    ... except UnsafePathError as error:
    ...     print(error.message)
    a deck path may not contain '..'
    """
    shown = name if len(name) <= 80 and name.isprintable() else repr(name[:80])
    where = Location(shown)
    if not name or not name.strip():
        raise UnsafePathError("no file name given", None, fix)
    if len(name) > MAX_NAME_LENGTH or not name.isprintable() or "\\" in name:
        raise UnsafePathError("not a file name", where, fix)
    pure = PurePosixPath(name)
    if pure.is_absolute() or name.startswith("~") or (len(name) > 1 and name[1] == ":"):
        raise UnsafePathError("a deck path must be relative to the deck folder", where, fix)
    if any(part == ".." for part in pure.parts):
        raise UnsafePathError("a deck path may not contain '..'", where, fix)
    if any(part.startswith(".") for part in pure.parts):
        raise UnsafePathError("hidden files and folders are not served", where, fix)
    kind = "deck files" if suffixes == DECK_SUFFIXES else "records"
    if pure.suffix.lower() not in suffixes:
        raise UnsafePathError(f"only {' and '.join(suffixes)} files are {kind}", where, fix)
    root = Path(os.path.realpath(config.deck_folder))
    candidate = Path(os.path.realpath(root.joinpath(*pure.parts)))
    if not candidate.is_relative_to(root) or candidate == root:
        raise UnsafePathError("that path leads out of the deck folder", where, fix)
    if candidate.suffix.lower() not in suffixes:  # a link named .yaml to something else
        raise UnsafePathError(f"that link names none of the {kind}", where, fix)
    return candidate


#: How deep `deck_files` looks below the deck folder, and how many names it reads at most:
#: `serve` started in a home or temporary folder must not walk every file on the disk.
DECK_FOLDER_DEPTH = 3
MOST_ENTRIES_LOOKED_AT = 20_000
#: Folders that hold no decks (virtual environments are recognised by their pyvenv.cfg).
NOT_DECK_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


def deck_files(config: WebConfig, suffixes: tuple[str, ...] = DECK_SUFFIXES) -> list[str]:
    """The deck files and lists (or other `suffixes`) in the deck folder and its subfolders,
    three deep, as the names `resolve_deck_path` accepts; links that lead out are left out."""
    root = Path(os.path.realpath(config.deck_folder))
    found: list[str] = []
    if not root.is_dir():
        return found
    looked_at = 0
    for folder, folders, files in os.walk(root):
        depth = len(Path(folder).relative_to(root).parts)
        folders[:] = [] if depth >= DECK_FOLDER_DEPTH else sorted(
            name for name in folders
            if not name.startswith(".") and name not in NOT_DECK_FOLDERS
            and not (Path(folder) / name / "pyvenv.cfg").exists())
        looked_at += len(files) + len(folders)
        if looked_at > MOST_ENTRIES_LOOKED_AT:  # a home folder, not a deck folder
            break
        for file_name in sorted(files):
            relative = (Path(folder) / file_name).relative_to(root).as_posix()
            try:
                resolve_deck_path(config, relative, suffixes)
            except UnsafePathError:
                continue
            found.append(relative)
        if len(found) > 2000:  # a deck folder pointed at a home folder: enough to choose from
            break
    return found

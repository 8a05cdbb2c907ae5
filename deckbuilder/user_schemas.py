"""Schemas in the user's data folder, so every YAML file written for a user names one that resolves.

The package's own path changes with every virtual environment, so the data folder holds
copies, refreshed when the package changes, and a deck schema of the user's catalog whose
`cards` keys are its cards (rewritten when the catalog changes; a stamp file records what it
was built from). A deck outside the data folder names a schema only by a relative path into
its repository's schemas folder, never a path on the author's machine.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from deckbuilder import paths, schema_json
from deckbuilder import version as package
from deckbuilder.catalog import Catalog, Entry, build_catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import Deck
from deckbuilder.models.common import GAME_FACTIONS
from deckbuilder.reading import decode_utf8, read_bounded
from deckbuilder.writing import atomic_write_text, folder_lock, make_data_folder

USER_DECK_SCHEMA = "user-deck.schema.json"
_STAMP = ".installed.json"
#: The largest deck schema read back (ours are well under 1 MB; a bigger file is not ours).
MOST_SCHEMA_BYTES = 8 * 1024 * 1024
_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


# -- the packaged copies --------------------------------------------------------------------
def _packaged_texts() -> dict[str, str]:
    folder = paths.PACKAGED_SCHEMAS
    return {path.name: path.read_text(encoding="utf-8")
            for path in sorted(folder.glob("*.schema.json"))}


def _read_stamp(folder: Path) -> dict[str, object]:
    try:
        stamp = json.loads((folder / _STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _write_stamp(folder: Path, **values: str) -> None:
    stamp = {**_read_stamp(folder), **values}
    atomic_write_text(folder / _STAMP, json.dumps(stamp, indent=2, sort_keys=True) + "\n")


def _install_packaged(folder: Path, force: bool) -> list[Path]:
    """Copy the packaged schemas unless the stamp says these very texts are already there."""
    texts = _packaged_texts()
    digest = hashlib.sha256("".join(f"{name}\0{text}\0" for name, text in sorted(texts.items())
                                    ).encode()).hexdigest()
    version = str(package.__version__)
    stamp = _read_stamp(folder)
    current = (stamp.get("package") == version and stamp.get("schemas") == digest
               and all((folder / name).is_file() for name in texts))
    if current and not force:
        return []
    written = _copy_packaged(folder, texts)
    _write_stamp(folder, package=version, schemas=digest)
    return written


def _copy_packaged(folder: Path, texts: dict[str, str]) -> list[Path]:
    for name, text in texts.items():
        atomic_write_text(folder / name, text)
    return [folder / name for name in texts]


def install_packaged_schemas(force: bool = False) -> list[Path]:
    """Bring `$DECKBUILDER_HOME/schemas/` up to date with the package; returns what it wrote."""
    folder = make_data_folder(paths.user_schemas_dir(), "schemas")
    with folder_lock(folder):
        return _install_packaged(folder, force)


# -- the deck schema of the user's catalog --------------------------------------------------
def _deck_cards(catalog: Catalog) -> list[Entry]:
    """The catalog entries a deck may hold: deckable cards (no characters, battlefields ...)."""
    return [entry for entry in catalog.entries.values()
            if entry.kind == "card" and getattr(entry.record, "deckable", True)]


#: The user deck schema's shape: a new one rewrites a schema whose catalog has not changed.
_DECK_SCHEMA_SHAPE = "cards of the deck's game under $defs, picked by its faction and game"


def catalog_fingerprint(catalog: Catalog) -> str:
    """What the user deck schema depends on."""
    rows = sorted(
        (entry.id, entry.name, *entry.record.aliases, entry.game, entry.set_id,
         _describe(entry, catalog))
        for entry in _deck_cards(catalog)
    )
    return hashlib.sha256(json.dumps([_DECK_SCHEMA_SHAPE, rows]).encode()).hexdigest()


def _describe(entry: Entry, catalog: Catalog) -> str:
    record = entry.record
    loaded = catalog.sets.get(entry.set_id)
    set_name = loaded.card_set.name if loaded is not None else entry.set_id
    traits = [str(record.faction), str(record.category)]
    if record.unique:
        traits.append("unique")
    if record.cost:
        traits.append(f"cost {record.cost}")
    if record.firepower is not None:
        traits.append(f"firepower {record.firepower}")
    also = f"; also written: {', '.join(record.aliases)}" if record.aliases else ""
    return (f"{record.name} ({', '.join(traits)}); {record.copies} in {set_name} "
            f"[{entry.set_id}, {entry.game}]{also}")


def _described(entries: list[Entry], catalog: Catalog,
               count: Mapping[str, object]) -> dict[str, object]:
    """Every spelling a deck file may use as a key (id, printed name, alias), described."""
    described: dict[str, object] = {
        entry.id: {**count, "title": entry.name, "description": _describe(entry, catalog)}
        for entry in entries
    }
    for entry in entries:
        for spelling in (entry.name, *entry.record.aliases):
            described.setdefault(spelling, {
                **count, "title": f"{spelling} ({entry.id})",
                "description": f"{_describe(entry, catalog)}; its id: {entry.id}"})
    return described


def cards_definition(game: str) -> str:
    """The name, under `$defs`, of one game's cards in a user deck schema."""
    return f"{game}-cards"


def _is_game(game: str) -> dict[str, object]:
    """A deck of this game by its faction and its `game`: both, since while completing,
    yaml-language-server counts a value as equal to any it begins (`revolver` for
    `revolver2`); no side begins another game's side (a test keeps that true)."""
    return {"required": ["faction"], "properties": {
        "faction": {"enum": [str(side) for side in GAME_FACTIONS[game]]},
        "game": {"const": game}}}


#: Whose cards a deck schema offers: the user's (`--user`) or a repository's (`--into`).
INSTALLED_SETS = "this user's installed sets"
REPOSITORY_SETS = "the packaged sets and the repository's own sets folder (sets-dir)"


def user_deck_schema(catalog: Catalog, whose: str = INSTALLED_SETS) -> dict[str, object]:
    """The deck schema with `cards` keys limited to the catalog's cards, each described.

    Each game's exact spellings sit under `$defs`, picked by an `if`/`then` on the deck's game,
    which closes `cards`: a typo or another game's card is ONE short diagnostic ("'texas
    ranger' was unexpected"), not a list of every card's name.
    """
    schema: dict[str, Any] = schema_json.schema_for(Deck, USER_DECK_SCHEMA)
    cards: dict[str, Any] = schema["properties"]["cards"]
    count = cards["additionalProperties"]
    cards["description"] = (
        "card id or name -> number of copies; the cards of the deck's game in the sets read "
        "when deckbuilder wrote this schema (`deckbuilder schema --user` or `--into DIR`)"
    )
    entries = sorted(_deck_cards(catalog), key=lambda entry: entry.id)
    games = sorted({entry.game for entry in entries})
    definitions = schema.setdefault("$defs", {})
    for game in games:
        definitions[cards_definition(game)] = {
            "properties": _described([entry for entry in entries if entry.game == game],
                                     catalog, count),
            "additionalProperties": False,
        }
    schema["allOf"] = [
        {"if": _is_game(game), "then": {"properties": {"cards": {
            "$ref": f"#/$defs/{cards_definition(game)}"}}}}
        for game in games
    ]
    schema["description"] = (
        f"A deck whose cards are those of {whose} (generated by deckbuilder; do not edit)."
    )
    return schema


def write_user_schemas(catalog: Catalog | None = None, force: bool = True) -> list[Path]:
    """`deckbuilder schema --user`: the packaged copies and the user deck schema, rewritten."""
    catalog = catalog if catalog is not None else build_catalog()
    folder = make_data_folder(paths.user_schemas_dir(), "schemas")
    with folder_lock(folder):  # two refreshes take turns; the later one sees both changes
        written = _install_packaged(folder, force)
        fingerprint = catalog_fingerprint(catalog)
        target = folder / USER_DECK_SCHEMA
        if force or not target.is_file() or _read_stamp(folder).get("catalog") != fingerprint:
            text = json.dumps(user_deck_schema(catalog), indent=2, ensure_ascii=False) + "\n"
            atomic_write_text(target, text)
            _write_stamp(folder, catalog=fingerprint)
            written.append(target)
    return written


def keeps_user_schemas_fresh(function: Callable[_Params, _Result]
                             ) -> Callable[_Params, _Result]:
    """Decorate a function that changes the installed sets: refresh the schemas once it returns
    (a failure is a warning, since the change itself stands)."""
    @functools.wraps(function)
    def changed(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        result = function(*args, **kwargs)
        try:
            write_user_schemas(force=False)
        except DeckbuilderError as error:
            sys.stderr.write(f"warning: editor schemas not refreshed: {error} "
                             "(run `deckbuilder schema --user`)\n")
        return result

    return changed


# -- the `$schema` lines --------------------------------------------------------------------
def _header_for(file: Path, schema_name: str, catalog: Catalog | None = None) -> str:
    """The header naming `schema_name` in the user's schemas folder, installed first (the
    packaged file when the data folder cannot be written)."""
    try:
        if catalog is not None:
            write_user_schemas(catalog, force=False)
        else:
            install_packaged_schemas()
        schema = paths.user_schemas_dir() / schema_name
    except DeckbuilderError:
        packaged = "deck.schema.json" if schema_name == USER_DECK_SCHEMA else schema_name
        schema = paths.PACKAGED_SCHEMAS / packaged
    # named relatively inside the data folder, else by an absolute URI
    file, schema = Path(os.path.abspath(file)), Path(os.path.abspath(schema))
    home = Path(os.path.abspath(paths.user_home()))
    inside = file.is_relative_to(home) and schema.is_relative_to(home)
    return schema_json.header_line(
        Path(os.path.relpath(schema, file.parent)).as_posix() if inside else schema.as_uri())


def deck_header(path: Path, catalog: Catalog) -> str:
    """The `$schema` line of a deck written for the user: one that resolves wherever the deck
    goes (the data folder's copies, or its repository's schemas folder, relatively), else ""
    (a path into this machine's data folder would fail for everyone the deck is shared with).
    """
    path = Path(path)
    if Path(os.path.abspath(path)).is_relative_to(os.path.abspath(paths.user_home())):
        return _header_for(path, USER_DECK_SCHEMA, catalog)  # kept fresh with the catalog
    folder = repository_schemas(path)
    if folder is not None:
        chosen = USER_DECK_SCHEMA if (folder / USER_DECK_SCHEMA).is_file() else "deck.schema.json"
        relative = os.path.relpath(os.path.abspath(folder / chosen), os.path.abspath(path.parent))
        return schema_json.header_line(Path(relative).as_posix())
    return ""


def _is_our_schema_folder(folder: Path) -> bool:
    """A folder `schema --into` wrote: its deck schema carries our `$id`."""
    path = folder / "deck.schema.json"
    try:  # bounded and regular files only: a FIFO named so must not hang a save
        text = decode_utf8(read_bounded(path, MOST_SCHEMA_BYTES, "schema file"), path)
        return bool(json.loads(text).get("$id") == schema_json.schema_id("deck.schema.json"))
    except (OSError, ValueError, AttributeError, DeckbuilderError):
        return False


def repository_schemas(deck: Path) -> Path | None:
    """The schemas folder of the repository holding `deck` (see `deck_header`), or None."""
    start = Path(os.path.abspath(deck)).parent
    project = paths.find_project_file(start)
    if project is not None:
        try:
            named = paths.read_project_file(project).get("schemas-dir")
        except DeckbuilderError:
            named = None
        if named is not None and _is_our_schema_folder(named):
            return named
    return next((folder / "schemas" for folder in paths.repository_folders(start)
                 if _is_our_schema_folder(folder / "schemas")), None)


def write_schemas_into(folder: Path, catalog: Catalog) -> list[Path]:
    """`deckbuilder schema --into DIR`: the packaged schemas and this catalog's deck schema in
    a folder of the user's repository, which its decks name by a relative path."""
    written = _copy_packaged(make_data_folder(folder, "schemas"), _packaged_texts())
    deck_schema = folder / USER_DECK_SCHEMA
    text = json.dumps(user_deck_schema(catalog, REPOSITORY_SETS), indent=2, ensure_ascii=False)
    atomic_write_text(deck_schema, text + "\n")
    return [*written, deck_schema]


def _reference_resolves(file: Path, reference: str) -> bool | None:
    """Whether a `$schema` reference names a file that exists from `file` (None: a URL)."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(reference)
    if parsed.scheme in ("http", "https"):
        return None
    if parsed.scheme == "file":
        return Path(unquote(parsed.path)).is_file()
    if parsed.scheme and len(parsed.scheme) > 1:  # another scheme (a drive letter is one char)
        return None
    target = Path(reference)
    return (target if target.is_absolute() else Path(file).parent / target).is_file()


def with_deck_header_that_resolves(text: str, file: Path, catalog: Catalog) -> str:
    """A deck's text to be written back, its `$schema` line replaced by `deck_header`'s when
    it does not resolve here (another machine's data folder)."""
    lines = text.splitlines(keepends=True)
    found = _modelines(lines)
    if not found:
        return text
    reference = lines[found[0]].strip().lstrip("#").strip().split("$schema=", 1)[1].strip()
    if _reference_resolves(file, reference) is not False:
        return text
    return _replace_modeline(text, deck_header(file, catalog))


def overlay_header(path: Path) -> str:
    """The `$schema` line of an overlay the tool creates ("" for an existing one: its first
    lines are the user's)."""
    return "" if Path(path).exists() else _header_for(Path(path), "overlay.schema.json")


def with_set_header(text: str, target: Path) -> str:
    """An installed set's text with its `$schema` modeline naming the schema where it now
    lives, every other byte kept."""
    return _replace_modeline(text, _header_for(Path(target), "card-set.schema.json"))


def _replace_modeline(text: str, header: str) -> str:
    """`text` with its leading `$schema` modelines replaced by `header`."""
    text = text.removeprefix("\ufeff")  # a byte-order mark may only open the file
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    dropped = set(_modelines(lines))
    kept = [line for index, line in enumerate(lines) if index not in dropped]
    return (header + newline if header else "") + "".join(kept)


def _modelines(lines: list[str]) -> list[int]:
    """The indexes of the `$schema` modelines among the leading comment (and blank) lines."""
    found = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        body = stripped.lstrip("#").strip()
        if body.startswith("yaml-language-server:") and "$schema=" in body:
            found.append(index)
    return found

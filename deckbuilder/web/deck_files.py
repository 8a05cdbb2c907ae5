"""The deck folder: open a deck file, save the editor's deck, read a collection.

Every name goes through `resolve_deck_path` first, and every file is read once and bounded
(`yamlio.read_bytes`). Saving edits an existing deck file in place, as `deck swap` does, and
only while it still has the version (content hash) the editor parsed, checked under the lock
`deck swap` holds: a change made meanwhile is never silently undone (`SaveConflict`).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from deckbuilder.catalog import Catalog
from deckbuilder.decklists import export_deck_list
from deckbuilder.decks import (
    deck_document,
    load_collection,
    resolve_deck,
    set_card_counts,
    write_edited_deck,
)
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import Deck
from deckbuilder.user_schemas import deck_header
from deckbuilder.web.config import WebConfig, resolve_deck_path
from deckbuilder.web.deck_state import DeckState, state_from_loaded
from deckbuilder.writing import WriteError, atomic_write_text, editing
from deckbuilder.yamlio import (
    model_of,
    read_bytes,
    read_text,
    text_of,
    validate_document,
    write_yaml,
)


class SaveConflict(DeckbuilderError):
    """Save would replace a deck file that changed since the editor read it."""


def version_of_bytes(raw: bytes) -> str:
    """The version of a file as the editor tracks it: the SHA-256 of the bytes read."""
    return hashlib.sha256(raw).hexdigest()


@contextlib.contextmanager
def named_as(name: str, path: Path) -> Iterator[None]:
    """Errors about `path` name it as `name` (relative to the deck folder), not as the
    server's absolute path."""
    try:
        yield
    except DeckbuilderError as error:
        if error.where is not None and Path(str(error.where.path)) == path:
            error.where = Location(name, error.where.line, error.where.column)
        raise


def open_deck(config: WebConfig, name: str) -> DeckState:
    """A deck file of the deck folder, read and checked like `deckbuilder validate` reads it."""
    path = resolve_deck_path(config, name)
    with named_as(name, path):
        if path.suffix.lower() != ".yaml":
            raise DeckbuilderError("not a deck file (a .yaml file)", Location(name),
                                   "open a text list with 'Paste a list'")
        raw = read_bytes(path)  # once; the version is that of the bytes parsed
        deck, document = model_of(raw, path, Deck)
        loaded = resolve_deck(deck, config.catalog(), path, document)  # as `load_deck` does
        return state_from_loaded(loaded, name, version_of_bytes(raw))


def read_list(config: WebConfig, name: str) -> str:
    """A text deck list of the deck folder (bounded and decoded like `deck import` reads it)."""
    path = resolve_deck_path(config, name)
    with named_as(name, path):
        return read_text(path)


def owned_cards(config: WebConfig, name: str) -> dict[str, int]:
    """A collection file's cards (id -> copies owned), as `validate --collection` reads it."""
    path = resolve_deck_path(config, name)
    with named_as(name, path):
        return load_collection(path, config.catalog())


@dataclass(frozen=True)
class Saved:
    file: str
    created: bool  # False: an existing file was edited in place (its comments kept)
    version: str | None = None  # the written file's version (`version_of_bytes`)


def save_deck(config: WebConfig, state: DeckState, name: str, overwrite: bool = False
              ) -> Saved:
    """Write the deck to `name`: a .yaml deck file or a .txt list (`deck export`'s text). A
    file other than the one the deck was opened from is replaced only with `overwrite`."""
    catalog = config.catalog()
    path = resolve_deck_path(config, name)
    model = state.model()  # a bad deck is refused before anything is touched
    with named_as(name, path), editing(path):
        exists = path.exists()
        if exists and name != state.file and not overwrite:
            raise WriteError("file already exists", Location(name),
                             "choose another file name, or tick 'replace a file that exists'")
        if path.suffix.lower() == ".txt":
            atomic_write_text(path, export_deck_list(state.loaded(catalog), catalog))
            return Saved(name, not exists)
        if exists and name == state.file:
            raw = read_bytes(path)  # once: the bytes compared are the bytes edited
            refuse_changed_file(version_of_bytes(raw), name, state.version)
            _, document = model_of(raw, path, Deck)
            update_document(document, state, catalog)
            validate_document(document, Deck, path)
            written = write_edited_deck(path, document, text_of(raw, path), catalog)
            return Saved(name, False, version_of_bytes(written.encode()))
        document = deck_document(model.name, state.faction, state.card_map(), catalog,
                                 state.sets, state.description)
        validate_document(document, Deck, path)
        written = write_yaml(path, document, deck_header(path, catalog))
        return Saved(name, True, version_of_bytes(written.encode()))


def refuse_changed_file(current: str, name: str, version: str | None) -> None:
    """Raise `SaveConflict` unless the file's `current` version is the one the editor read."""
    if version is not None and current == version:
        return
    reason = ("the file changed since the editor read it (another program, command or tab "
              "wrote it)" if version is not None
              else "the editor does not know which version of the file it opened")
    raise SaveConflict(f"not saved: {reason}", Location(name),
                       "reload the file to see it as it is now, or save your deck as a copy")


def copy_name(config: WebConfig, name: str) -> str:
    """A free file name beside `name` for the editor's deck: `NAME-copy.yaml`,
    `NAME-copy-2.yaml`, ..."""
    stem = name[:-len(".yaml")] if name.lower().endswith(".yaml") else name
    for number in range(1, 100):
        candidate = f"{stem}-copy{'' if number == 1 else f'-{number}'}.yaml"
        try:
            if not resolve_deck_path(config, candidate).exists():
                return candidate
        except DeckbuilderError:
            break
    return "my-deck-copy.yaml"


def update_document(document: Any, state: DeckState, catalog: Catalog) -> None:
    """Make a deck file's round-trip document hold the editor's deck, changing only what
    changed (the cards as `decks.set_card_counts` edits them)."""
    for key, value in (("name", state.name), ("game", state.game),
                       ("faction", state.faction), ("description", state.description)):
        if value is None:
            document.pop(key, None)
        elif document.get(key) != value:
            document[key] = value
    if state.sets is None:
        document.pop("sets", None)
    elif list(document.get("sets") or []) != state.sets or "sets" not in document:
        flow = CommentedSeq(state.sets)
        flow.fa.set_flow_style()
        document["sets"] = flow
    cards = document.get("cards")
    if not isinstance(cards, CommentedMap):
        cards = document["cards"] = CommentedMap()
    set_card_counts(cards, state.cards, catalog, state.game)

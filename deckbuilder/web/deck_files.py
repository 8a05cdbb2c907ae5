"""The deck folder: open a deck file, save the editor's deck, read a collection.

Every name comes from the browser and goes through `resolve_deck_path` first. Saving an
existing deck file edits its round-trip YAML document in place, as `deckbuilder deck swap`
does, so the user's comments and the order of the entries survive; the read-modify-write
holds the folder lock (`writing.editing`) and the write is atomic (`write_yaml`). A new file
is written like `deckbuilder deck new` writes one. Errors name the file as the user knows it
(relative to the deck folder), so the line is the one `deckbuilder validate NAME` prints
when run in that folder.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from deckbuilder.decklists import export_deck_list
from deckbuilder.decks import deck_document, load_collection, load_deck, set_card_counts
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import Deck
from deckbuilder.user_schemas import deck_header
from deckbuilder.web.config import WebConfig, resolve_deck_path
from deckbuilder.web.deck_state import DeckState, state_from_loaded
from deckbuilder.writing import WriteError, atomic_write_text, editing
from deckbuilder.yamlio import load_model, read_text, validate_document, write_yaml


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
        loaded = load_deck(path, config.catalog())
    return state_from_loaded(loaded, name)


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


def save_deck(config: WebConfig, state: DeckState, name: str, overwrite: bool = False
              ) -> Saved:
    """Write the deck to `name` in the deck folder: a .yaml deck file (an existing one is
    edited in place) or a .txt list (`deck export`'s text). A file other than the one the
    deck was opened from is replaced only with `overwrite`."""
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
            _, document = load_model(path, Deck)
            update_document(document, state, catalog)
            validate_document(document, Deck, path)
            write_yaml(path, document)
            return Saved(name, False)
        document = deck_document(model.name, state.faction, state.card_map(), catalog,
                                 state.sets)
        if state.description:
            document["description"] = state.description
        for key in ("name", "description"):
            if key in document and not document[key].isprintable():
                document[key] = DoubleQuotedScalarString(document[key])  # as `deck import`
        validate_document(document, Deck, path)
        write_yaml(path, document, deck_header(path, catalog))
        return Saved(name, True)


def update_document(document: Any, state: DeckState, catalog: Any) -> None:
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

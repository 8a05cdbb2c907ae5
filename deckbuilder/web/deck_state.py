"""The deck the editor holds, between the page and the server, and its share code.

The page keeps the deck as JSON and sends it with every change; the server checks it as the
`Deck` model. The share code is the deck as a diff against its faction's base deck, so a link
stays short (its codec is `shared_lists`', which `deck import` reads links with).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictInt, StrictStr, ValidationError

from deckbuilder.app.json_values import TooDeep, parse_json
from deckbuilder.catalog import Catalog
from deckbuilder.decks import (
    FACTION_GAMES,
    LoadedDeck,
    base_deck_cards,
    base_deck_name,
    resolve_deck,
)
from deckbuilder.errors import DeckError, Location
from deckbuilder.models import Deck
from deckbuilder.models.decks import MAX_DECK_ENTRIES
from deckbuilder.shared_lists import (  # noqa: F401 (MAX_SHARE_CODE, ShareCodeError: the web's names)
    MAX_SHARE_CODE,
    ShareCodeError,
    decode_share_code,
    encode_share_code,
    shared_deck_cards,
)
from deckbuilder.yamlio import validate_document

#: The one copy count the editor will not go past (the Deck model's own limit).
MAX_COPIES = 99
_WHERE = Location("deck")


@dataclass
class DeckState:
    """A deck being edited: the fields of a deck file, cards in the order the file has them
    (by the key the file uses: an id or a name), and the deck-folder file it came from."""

    name: str
    game: str
    faction: str
    cards: list[tuple[str, int]] = field(default_factory=list)
    sets: list[str] | None = None
    description: str | None = None
    file: str | None = None  # relative to the deck folder; None for a deck not saved yet
    #: The content hash of `file` as the editor read (or last wrote) it: Save refuses to
    #: replace a file that has changed since (`deck_files.save_deck`).
    version: str | None = None

    def card_map(self) -> dict[str, int]:
        return dict(self.cards)

    def model(self) -> Deck:
        """The deck as the `Deck` model, checked exactly as a deck file is (one line for
        a bad value, e.g. `deck: cards.deputy: Input should be less than or equal to 99`)."""
        document = {"name": self.name, "game": self.game, "faction": self.faction,
                    "cards": self.card_map(), "sets": self.sets, "description": self.description}
        return validate_document({key: value for key, value in document.items()
                                  if value is not None}, Deck, Path(self.file or "deck"))

    def loaded(self, catalog: Catalog) -> LoadedDeck:
        """The deck resolved against the catalog (what `validate_deck` takes)."""
        return resolve_deck(self.model(), catalog)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "cards": [[key, count] for key, count in self.cards]}


class _SentDeck(BaseModel):
    """The deck as a page sends it, checked for shape (its values are checked by `model`)."""

    name: Annotated[StrictStr, Field(max_length=500)]
    game: Annotated[StrictStr, Field(max_length=40)]
    faction: Annotated[StrictStr, Field(max_length=40)]
    cards: Annotated[list[tuple[Annotated[StrictStr, Field(max_length=200)], StrictInt]],
                     Field(max_length=MAX_DECK_ENTRIES)]
    sets: Annotated[list[StrictStr], Field(max_length=100)] | None = None
    description: Annotated[StrictStr, Field(max_length=5000)] | None = None
    file: Annotated[StrictStr, Field(max_length=255)] | None = None
    version: object = None


def state_from_json(data: object) -> DeckState:
    """The deck a page sent, as the editor keeps it."""
    if not isinstance(data, dict):
        raise DeckError("the page sent no deck", _WHERE, "reload the page")
    try:
        sent = _SentDeck.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise DeckError(f"the page sent a deck of the wrong shape ({where}: {first['msg']})",
                        _WHERE, "reload the page") from None
    return DeckState(sent.name, sent.game, sent.faction, list(sent.cards), sent.sets,
                     sent.description, sent.file or None, version_of(sent.version))


def version_of(value: object) -> str | None:
    """A file version sent back by the page (a hex content hash), or None for anything else:
    a deck without a version cannot replace its file (`deck_files.save_deck` says so)."""
    if isinstance(value, str) and 0 < len(value) <= 64 and all(
            character in "0123456789abcdef" for character in value):
        return value
    return None


def state_from_loaded(deck: LoadedDeck, file: str | None = None, version: str | None = None
                      ) -> DeckState:
    model = deck.deck
    return DeckState(name=model.name, game=str(model.game), faction=str(model.faction),
                     cards=list(model.cards.items()), sets=model.sets,
                     description=model.description, file=file, version=version)


def base_state(catalog: Catalog, faction: str) -> DeckState:
    """The faction's base deck, as `deckbuilder deck new FACTION` writes it."""
    cards = base_deck_cards(catalog, faction, _WHERE)
    # no `sets:` (every installed set), like the file `deck new` writes: the cards of the
    # expansions may go in
    return DeckState(name=base_deck_name(faction), game=FACTION_GAMES[faction],
                     faction=faction, cards=list(cards.items()))


# -- clicks: a card in, a card out -----------------------------------------------------------
def _key_of(state: DeckState, catalog: Catalog, card: str) -> str | None:
    """The key under which the deck lists `card` (an id or a name it may be written as)."""
    wanted = catalog.find(card, state.game)
    for key, _ in state.cards:
        if key == card:
            return key
        if wanted is not None:
            found = catalog.find(key, state.game)
            if found is not None and found.id == wanted.id:
                return key
    return None


def add_card(state: DeckState, catalog: Catalog, card: str, count: int = 1) -> DeckState:
    """`count` more copies of a card, a new one under its id. Any card may go in (the verdict
    judges); a name no card has is refused with suggestions, like `deck swap --in`."""
    key = _key_of(state, catalog, card)
    if key is None:
        entry = catalog.find(card, state.game)
        if entry is None:
            hint = catalog.suggest(card, kind="card", game=state.game, faction=state.faction)
            raise DeckError(f"'{card}' is not a known card", _WHERE,
                            f"did you mean {' or '.join(hint)}?" if hint
                            else "search for it in the card list")
        return replace(state, cards=[*state.cards, (entry.id, count)])
    return replace(state, cards=[(k, min(c + count, MAX_COPIES) if k == key else c)
                                 for k, c in state.cards])


def remove_card(state: DeckState, catalog: Catalog, card: str, count: int = 1) -> DeckState:
    """One copy fewer (or `count`); the card leaves the list at none."""
    key = _key_of(state, catalog, card)
    if key is None:
        raise DeckError(f"the deck has no copy of '{card}'", _WHERE,
                        "click a card the deck contains")
    cards = [(k, c - count if k == key else c) for k, c in state.cards]
    return replace(state, cards=[(k, c) for k, c in cards if c > 0])


# -- share codes -----------------------------------------------------------------------------
def share_code(state: DeckState, catalog: Catalog) -> str:
    """The deck as its diff against the base deck (`shared_lists.encode_share_code`)."""
    base = Counter(catalog.base_deck(state.game, state.faction)
                   if state.faction in FACTION_GAMES else {})
    counts: Counter[str] = Counter()
    for key, count in state.cards:
        entry = catalog.find(key, state.game)
        counts[entry.id if entry is not None else key] += count
    return encode_share_code(state.faction, state.name, dict(base - counts),
                             dict(counts - base), state.sets, state.description)


def state_from_share_code(code: str, catalog: Catalog) -> DeckState:
    """The deck a share code holds (JSON read with the web's bound on nesting), checked as
    any deck is."""
    shared = decode_share_code(code, parse_json, (TooDeep,))
    faction = shared["faction"]
    cards = shared_deck_cards(shared, catalog, _WHERE)
    state = DeckState(name=shared["name"] or base_deck_name(faction),
                      game=FACTION_GAMES[faction], faction=faction, cards=list(cards.items()),
                      sets=shared["sets"], description=shared["description"])
    state.model()  # a code edited by hand gets the deck file's one-line error
    return state

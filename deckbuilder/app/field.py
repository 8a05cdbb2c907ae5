"""The decks a deck is judged against: `--vs` read into a weighted field (docs/players/
simulate.md). A folder's decks of another side are left out with a note, so one folder can
hold a player's decks of both sides; the same deck named twice is one opponent whose weights
add up."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deckbuilder.app.play_decks import SimDeck, an, load_sim_deck, side_error
from deckbuilder.app.running import SettingError
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource, deck_text
from deckbuilder.errors import DeckError, Location
from deckbuilder.legality import PLAY_TESTING, Supply

__all__ = ["Field", "FieldEntry", "deck_files_in", "is_field", "read_decks", "read_field",
           "single_opponent", "split_weight"]

#: `SPEC@WEIGHT`: a positive number after the last `@`.
_WEIGHTED = re.compile(r"^(?P<spec>.+)@(?P<weight>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")
_NUMBERISH = re.compile(r"^(?:[-+0-9.eE]*|[-+]?(?:inf|nan)[a-z]*)$", re.IGNORECASE)
#: A weight this large is a typo (a field of a million opponents' worth of one deck).
MAX_WEIGHT = 1000.0
#: Deck files in a folder: more is a wrong folder, not a field (each plays every game).
MAX_FOLDER_DECKS = 200


@dataclass(frozen=True)
class FieldEntry:
    """One opponent of a field: its label (unique within the field) and weight."""

    label: str
    deck: SimDeck
    weight: float = 1.0
    source: str = ""

    @property
    def cards(self) -> dict[str, int]:
        return self.deck.cards


@dataclass(frozen=True)
class Field:
    """The opponents a deck is judged against, all of one game and side."""

    game: str
    side: str
    entries: tuple[FieldEntry, ...]
    notes: tuple[str, ...] = ()  # what the reading left out or merged
    warnings: tuple[str, ...] = ()  # the decks' own (--allow-illegal)

    @property
    def weights(self) -> list[float]:
        """Each opponent's share of the field (the weights scaled to sum to 1)."""
        total = sum(entry.weight for entry in self.entries)
        return [entry.weight / total for entry in self.entries]


def split_weight(text: str, option: str = "--vs") -> tuple[str, float]:
    """`SPEC@WEIGHT` as (SPEC, WEIGHT); an existing file whose name ends in `@2` is that
    file, weighing 1."""
    if Path(text).exists():
        return text, 1.0
    found = _WEIGHTED.match(text)
    if found is None:
        _, at, written = text.rpartition("@")
        if at and _NUMBERISH.match(written):  # meant as a weight, but not a positive number
            raise DeckError(f"{option} {text}: the weight '{written}' is not a positive number",
                            fix=f"write {option} DECK@2 (a positive number after @), or "
                                f"name an existing file")
        return text, 1.0
    spec, weight = str(found["spec"]), float(found["weight"])
    if not 0 < weight <= MAX_WEIGHT or not math.isfinite(weight):
        raise DeckError(f"{option} {text}: a weight must be above 0 and at most "
                        f"{MAX_WEIGHT:g}", fix=f"write {option} DECK@2 (0.5, 1, 3 ...)")
    return spec, weight


def is_field(specs: Sequence[str]) -> bool:
    """Whether `--vs` names a field (several decks, or a folder) rather than one opponent."""
    return len(specs) > 1 or any(Path(split_weight(spec)[0]).is_dir() for spec in specs)


def single_opponent(specs: Sequence[str] | None) -> str | None:
    """The one opponent `--vs` names (a weight dropped: it is the whole field), or None."""
    return split_weight(specs[0])[0] if specs else None


def deck_files_in(folder: Path) -> list[Path]:
    files = sorted(path for path in folder.iterdir()
                   if path.suffix in (".yaml", ".yml") and path.is_file())
    if not files:
        raise DeckError("no deck files (*.yaml) in this folder", Location(folder),
                        fix="name a folder holding deck files, or the deck files themselves")
    if len(files) > MAX_FOLDER_DECKS:
        raise DeckError(f"{len(files)} files in this folder: at most {MAX_FOLDER_DECKS} decks",
                        Location(folder), fix="name fewer decks, or a smaller folder")
    return files


@dataclass(frozen=True)
class _Read:
    deck: SimDeck
    weight: float
    source: str  # what identifies the deck: a resolved path, or the faction's base deck
    shown: str  # how the user named it
    from_folder: bool


def _weights(given: Sequence[float] | None, count: int) -> list[float]:
    if given is None:
        return [1.0] * count
    if len(given) != count:
        raise SettingError(f"{len(given)} weights for {count} opponents",
                           fix="give one weight per opponent (or none: all alike)")
    for weight in given:
        if isinstance(weight, bool) or not isinstance(weight, int | float) \
                or not 0 < weight < float("inf"):
            raise SettingError(f"a weight must be a positive number, not {weight!r}",
                               fix="give weights such as 1, 2 or 0.5")
    return [float(weight) for weight in given]


def _read_all(items: Sequence[DeckSource], catalog: Catalog, allow_illegal: bool, option: str,
              weights: Sequence[float] | None, supply: Supply) -> list[_Read]:
    """Each item read; a script's `weights` multiply the items' own `@WEIGHT`."""
    found: list[_Read] = []
    for index, (item, given) in enumerate(zip(items, _weights(weights, len(items)),
                                              strict=True)):
        text = deck_text(item, option)
        if text is None:  # a deck object: never merged with another
            deck = load_sim_deck(item, catalog, allow_illegal, option, supply)
            found.append(_Read(deck, given, f"#{index}", deck.name, False))
            continue
        spec, weight = split_weight(text, option)
        from_folder = Path(spec).is_dir()
        for name in map(str, deck_files_in(Path(spec))) if from_folder else [spec]:
            deck = load_sim_deck(name, catalog, allow_illegal, supply=supply)
            found.append(_Read(deck, weight * given, deck.source, name, from_folder))
    return found


def _merged(reads: list[_Read]) -> tuple[list[_Read], list[str]]:
    merged: dict[str, _Read] = {}
    notes = []
    for read in reads:
        earlier = merged.get(read.source)
        if earlier is None:
            merged[read.source] = read
            continue
        merged[read.source] = _Read(earlier.deck, earlier.weight + read.weight, earlier.source,
                                    earlier.shown, earlier.from_folder and read.from_folder)
        notes.append(f"{read.shown} is {earlier.shown} again: counted once, with the weights "
                     f"added ({earlier.weight + read.weight:g})")
    return list(merged.values()), notes


def _entries(reads: list[_Read]) -> tuple[FieldEntry, ...]:
    """Entries labelled by deck name; decks sharing a name are told apart by how they were
    named (their file)."""
    names = [read.deck.name for read in reads]
    entries = []
    for index, read in enumerate(reads):
        label = read.deck.name
        if names.count(label) > 1:
            label = f"{label} ({read.shown if read.shown != label else f'#{index + 1}'})"
        entries.append(FieldEntry(label, read.deck, read.weight, read.shown))
    return tuple(entries)


def read_decks(specs: Sequence[DeckSource], catalog: Catalog, *, allow_illegal: bool = False,
               option: str = "DECKS", supply: Supply = PLAY_TESTING
               ) -> tuple[list[FieldEntry], list[str]]:
    """Every deck `specs` name, of any side but of one game, and the notes on decks named
    twice."""
    reads, notes = _merged(_read_all(specs, catalog, allow_illegal, option, None, supply))
    if not reads:
        raise DeckError(f"{option}: no decks given", fix="name deck files or a folder of decks")
    first = reads[0]
    for read in reads[1:]:
        if read.deck.game != first.deck.game:
            raise DeckError(
                f"{read.shown} is {an(read.deck.game)} deck but {first.shown} is "
                f"{an(first.deck.game)} deck: decks of one game only",
                fix=f"give only {first.deck.game} decks, or only {read.deck.game} decks")
    return list(_entries(reads)), notes


def read_field(specs: Sequence[DeckSource], catalog: Catalog, *, game: str, side_against: str,
               allow_illegal: bool = False, option: str = "--vs",
               weights: Sequence[float] | None = None, supply: Supply = PLAY_TESTING) -> Field:
    """The field `specs` name, played by the side `side_against` of `game`: a deck named
    directly of another side or game is refused, one inside a folder left out with a note."""
    reads, notes = _merged(_read_all(specs, catalog, allow_illegal, option, weights, supply))
    kept: list[_Read] = []
    for read in reads:
        if read.deck.game == game and read.deck.faction == side_against:
            kept.append(read)
        elif read.from_folder:
            notes.append(f"{read.shown} left out: {an(read.deck.faction)} deck "
                         f"({read.deck.game}), not {an(side_against)} deck")
        else:
            raise side_error(option, side_against, game, read.deck)
    if not kept:
        raise DeckError(f"{option}: no {side_against} decks of {game} among "
                        f"{', '.join(deck_text(spec) or 'a deck' for spec in specs)}",
                        fix=f"name {an(side_against)} deck file, folder or faction")
    warnings = tuple(warning for read in kept for warning in read.deck.warnings)
    return Field(game, side_against, _entries(kept), tuple(notes), warnings)

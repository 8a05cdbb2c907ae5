"""One resolved card pool: packaged sets + user-installed sets + the repository's own sets
folder + data packs + the local overlay. It answers which card a name means (with typo
suggestions), a faction's base deck, and where each value comes from.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deckbuilder import paths
from deckbuilder.data_packs.layers import (
    PackLayer,
    apply_packs,
    installed_packs,
    replace_record,
    with_values,
)
from deckbuilder.data_packs.model import OVERLAY_SOURCE_PREFIX
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import CardDataError, DataFileError, DeckbuilderError, Location
from deckbuilder.models import Card, CardSet, Overlay, SetKind
from deckbuilder.models.sets import RECORD_LISTS
from deckbuilder.reading import decode_utf8, read_bounded
from deckbuilder.set_cache import cached_set, entry_file, source_digest, store_cached_set
from deckbuilder.writing import atomic_write_text
from deckbuilder.yamlio import (
    MAX_FILE_BYTES,
    load_yaml,
    located,
    model_of,
    parse_yaml,
    text_of,
    to_plain,
    validate_document,
    yaml_files,
)

RecordKind = str  # "card", "character", "battlefield", "special", "token"

#: A set's lists of rule parts, whose ids are global like record ids, and what each is.
RULE_LISTS = (("modules", "module"), ("rule_switches", "rule switch"), ("rulesets", "ruleset"))
_PUNCTUATION = re.compile(r"[^a-z0-9]+")
#: Spellings that differ between documents; folded before lookup (rules README, point 6).
_SPELLING_FOLDS = dict(fold for declaration in DECLARATIONS for fold in declaration.name_folds)
#: A suggestion is plausible when this similar to the typo (difflib ratio of folded names) and
#: within the margin of the best suggestion.
_PLAUSIBLE = 0.6
_PLAUSIBLE_MARGIN = 0.12


def normalise_name(name: str) -> str:
    """Fold case, accents, punctuation and known spelling variants for name lookup."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = [word for word in _PUNCTUATION.split(text) if word]
    return " ".join(_SPELLING_FOLDS.get(word, word) for word in words)


@dataclass(frozen=True)
class Entry:
    """A record of the catalog with the set it came from."""

    record: Any  # Card | Character | Battlefield | Special | Token
    kind: RecordKind
    set_id: str
    game: str

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def name(self) -> str:
        return self.record.name


@dataclass(frozen=True)
class UnconfirmedValue:
    record_id: str
    name: str
    kind: RecordKind
    set_id: str
    field: str
    value: Any


@dataclass
class LoadedSet:
    card_set: CardSet
    path: Path
    origin: str  # "package", "user" (installed) or "project" (the repository's sets folder)
    parsed: object = None  # the round-trip document; None when the set came from the cache

    @property
    def document(self) -> Any:
        """The round-trip document (for source positions), parsed on first use."""
        if self.parsed is None and self.path.is_file():
            self.parsed = load_yaml(self.path)
        return self.parsed


@dataclass(frozen=True)
class BrokenSet:
    """A set of the repository's folder that cannot be used, and its first problem: set
    apart, so that what does not need it is still read and checked."""

    path: Path
    set_id: str | None  # its id, as far as the file could be read
    error: DeckbuilderError
    names: frozenset[str] = frozenset()  # its records' folded ids, names and aliases
    waits_on: str | None = None  # the broken set it requires, when that is the reason

    @property
    def where(self) -> str:
        """`file:line:col` of the problem, the file named as a player would."""
        where = self.error.where or Location(self.path)
        return str(Location(paths.shown_path(where.path), where.line, where.column))

    def __str__(self) -> str:
        fix = f" (fix: {self.error.fix})" if self.error.fix else ""
        return f"{self.where}: {self.error.message}{fix}"


@dataclass
class Catalog:
    sets: dict[str, LoadedSet] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)
    overlay_path: Path | None = None
    #: the repository's own sets folder read (`paths.project_sets_dir`), when one is named
    sets_folder: Path | None = None
    #: the sets of that folder set apart as broken (read with `vet_project_sets` only)
    broken: list[BrokenSet] = field(default_factory=list)
    #: the data packs in force and what they changed (`data_packs.layers.PackLayer`), or None
    packs: PackLayer | None = None
    _names: dict[str, list[str]] = field(default_factory=dict)

    # -- building ---------------------------------------------------------------------------
    def add_set(self, loaded: LoadedSet) -> None:
        """Add a set, or refuse it whole (nothing of it added) when one of its ids is taken."""
        card_set = loaded.card_set
        if card_set.id in self.sets:
            raise CardDataError(
                f"set id '{card_set.id}' is already provided by {self.sets[card_set.id].path}",
                Location(loaded.path),
                "give the set a new id, or upgrade the installed one with --upgrade",
            )
        # module, rule switch and ruleset ids are global like record ids: a user set may not
        # redefine a packaged one (`rules` would show the homebrew text under its id)
        for list_name, what in RULE_LISTS:
            taken = {item.id: set_id for set_id, other in self.sets.items()
                     for item in getattr(other.card_set, list_name)}
            for index, item in enumerate(getattr(card_set, list_name)):
                if item.id in taken:
                    raise CardDataError(
                        f"{what} id '{item.id}' is already used in set '{taken[item.id]}'",
                        located(loaded.path, loaded.document, [list_name, index, "id"]),
                        f"ids are global: choose another {what} id",
                    )
        records = [(list_name, index, record, kind) for list_name, kind in RECORD_LISTS
                   for index, record in enumerate(getattr(card_set, list_name))]
        owners: dict[str, str] = {}
        for list_name, index, record, _ in records:
            other = self.entries.get(record.id)
            owner = other.set_id if other is not None else owners.get(record.id)
            if owner is not None:
                raise CardDataError(
                    f"id '{record.id}' is already used in set '{owner}'",
                    located(loaded.path, loaded.document, [list_name, index, "id"]),
                    "ids are global: choose another id",
                )
            owners[record.id] = card_set.id
        self.sets[card_set.id] = loaded
        for _, _, record, kind in records:
            self.entries[record.id] = Entry(record, kind, card_set.id, card_set.game)
        self._names.clear()

    def _name_index(self) -> dict[str, list[str]]:
        """Normalised name -> ids (several when two games print the same name)."""
        if not self._names:
            for entry in self.entries.values():
                for text in (entry.id, entry.record.name, *entry.record.aliases):
                    ids = self._names.setdefault(normalise_name(text), [])
                    if entry.id not in ids:
                        ids.append(entry.id)
        return self._names

    # -- lookup -----------------------------------------------------------------------------
    def find(self, name_or_id: str, game: str | None = None) -> Entry | None:
        """The record an id, name or alias names. `game` only decides between two games'
        namesakes, so the validator can say "wrong game" instead of "unknown card"."""
        entry = self.entries.get(name_or_id)
        if entry is not None and (game is None or entry.game == game):
            return entry
        ids = self._name_index().get(normalise_name(name_or_id), [])
        preferred = [i for i in ids if self.entries[i].game == game]
        candidates = preferred or ids
        return self.entries[candidates[0]] if candidates else entry

    def suggest(
        self,
        name: str,
        limit: int = 3,
        kind: RecordKind | None = None,
        game: str | None = None,
        faction: str | None = None,
        prefer_game: str | None = None,
    ) -> list[str]:
        """The plausible names for a misspelt one, the deck's own first (`kind` and `game`
        filter; `faction` and `prefer_game` order). Only names not much further from the typo
        than the best one are offered, not a card that merely shares letters."""
        index = self._name_index()
        wanted_game = game or prefer_game
        folded = normalise_name(name)
        scored: dict[str, tuple[int, float]] = {}  # display name -> (tier, score)
        for key, ids in index.items():
            matcher = difflib.SequenceMatcher(None, folded, key)  # the cheap bounds first
            if matcher.real_quick_ratio() < _PLAUSIBLE or matcher.quick_ratio() < _PLAUSIBLE \
                    or (score := matcher.ratio()) < _PLAUSIBLE:
                continue
            for entry_id in ids:
                entry = self.entries[entry_id]
                if (kind is not None and entry.kind != kind) or (
                    game is not None and entry.game != game
                ):
                    continue
                own_side = faction is None or getattr(entry.record, "faction", None) in (
                    faction, "neutral")
                tier = (0 if wanted_game is None or entry.game == wanted_game else 2) + (
                    0 if own_side else 1)
                best = scored.get(entry.name)
                if best is None or (tier, -score) < (best[0], -best[1]):
                    scored[entry.name] = (tier, score)
        if not scored:
            return []
        top = max(score for _, score in scored.values())
        plausible = [(tier, -score, display) for display, (tier, score) in scored.items()
                     if score >= top - _PLAUSIBLE_MARGIN]
        return [display for _, _, display in sorted(plausible)[:limit]]

    def removed_set_of(self, name_or_id: str) -> tuple[str, str] | None:
        """(id, name) of the removed set that had the record this names, when no set of the
        catalog has it: a deck is told its card's set is gone, not offered a look-alike."""
        key = normalise_name(name_or_id)
        return next(((set_id, str(kept.get("name") or set_id))
                     for set_id, kept in removed_sets().items()
                     if set_id not in self.sets and key in kept.get("names", ())), None)

    def broken_set_needed(self, set_ids: Iterable[str],
                          card_keys: Iterable[str]) -> BrokenSet | None:
        """The broken set of the repository's folder a deck waits on: one its `sets:` names,
        or one holding a card it names that no sound set has; None when it needs none."""
        wanted = set(set_ids)
        folded = {normalise_name(key) for key in card_keys}
        return next((broken for broken in self.broken
                     if broken.set_id in wanted or folded & broken.names), None)

    def card(self, card_id: str) -> Card:
        entry = self.entries[card_id]
        if entry.kind != "card":
            raise KeyError(card_id)
        return entry.record

    def iter_kind(self, kind: RecordKind) -> Iterator[Entry]:
        return (entry for entry in self.entries.values() if entry.kind == kind)

    def cards(self) -> Iterator[Entry]:
        return self.iter_kind("card")

    def card_names(self) -> dict[str, str]:
        """Every card's printed name by its id (what a report's card rows are labelled by)."""
        return {entry.id: entry.name for entry in self.cards()}

    # -- base decks -------------------------------------------------------------------------
    def base_set_id(self, game: str) -> str | None:
        return next((set_id for set_id, loaded in self.sets.items()
                     if loaded.card_set.kind == SetKind.BASE and loaded.card_set.game == game),
                    None)

    def base_copies(self, card_id: str) -> int:
        entry = self.entries.get(card_id)
        if entry is None or entry.kind != "card" or not entry.record.deckable:
            return 0
        return entry.record.copies if entry.set_id == self.base_set_id(entry.game) else 0

    def base_deck(self, game: str, faction: str) -> dict[str, int]:
        """The faction's deck as it comes in the box: card id -> copies."""
        set_id = self.base_set_id(game)
        if set_id is None:
            return {}
        return {
            card.id: card.copies
            for card in self.sets[set_id].card_set.cards
            if card.faction == faction and card.deckable and card.copies > 0
        }

    # -- provenance -------------------------------------------------------------------------
    def unconfirmed(self) -> list[UnconfirmedValue]:
        return [UnconfirmedValue(entry.id, entry.name, entry.kind, entry.set_id, name,
                                 entry.set_id if name == "set"
                                 else getattr(entry.record, name, None))
                for entry in self.entries.values()
                for name in entry.record.provenance.unconfirmed]


#: The removed sets (id -> name and folded record names); only a message depends on it, so
#: a damaged file is read as empty.
REMOVED_SETS_FILE = "removed-sets.json"
_MAX_REMOVED_BYTES = 4 * 1024 * 1024


def removed_sets() -> dict[str, dict[str, Any]]:
    """The removed sets remembered (`remember_removed_set`); {} when none or unreadable."""
    path = paths.user_home() / REMOVED_SETS_FILE
    try:  # none (not found), or not a regular file: refused by read_bounded
        data = json.loads(decode_utf8(read_bounded(path, _MAX_REMOVED_BYTES), path))
    except (DeckbuilderError, ValueError):
        return {}
    kept = data.get("sets") if isinstance(data, dict) else None
    return {str(k): v for k, v in kept.items() if isinstance(v, dict)} \
        if isinstance(kept, dict) else {}


def record_names(card_set: CardSet) -> frozenset[str]:
    """The folded ids, names and aliases of every record of a set."""
    return frozenset(normalise_name(text) for kind_list, _ in RECORD_LISTS
                     for record in getattr(card_set, kind_list)
                     for text in (record.id, record.name, *record.aliases))


def remember_removed_set(card_set: CardSet) -> None:
    """Remember a set being removed: its name and the names of its records."""
    kept = removed_sets()
    kept[card_set.id] = {"name": card_set.name, "game": str(card_set.game),
                         "names": sorted(record_names(card_set))}
    atomic_write_text(paths.user_home() / REMOVED_SETS_FILE,
                      json.dumps({"format": 1, "sets": kept}, indent=1) + "\n")


# -- loading --------------------------------------------------------------------------------
def load_set_file(path: Path, origin: str = "user") -> LoadedSet:
    """Load a set file, from the validated-JSON cache when the file is unchanged (round-trip
    YAML costs ~100x more than validating cached JSON)."""
    raw = read_bounded(path, MAX_FILE_BYTES, "set file (.yaml)")
    digest = source_digest(raw)
    cache_file = entry_file(digest)
    card_set = cached_set(cache_file, digest)
    if card_set is not None:
        return LoadedSet(card_set, path, origin)
    card_set, document = model_of(raw, path, CardSet)
    store_cached_set(cache_file, digest, card_set)
    return LoadedSet(card_set, path, origin, document)


def project_set_files(folder: Path | None = None) -> list[Path]:
    """The set files of the repository's own folder: read like installed sets, never copied."""
    folder = folder if folder is not None else paths.project_sets_dir()
    if folder is None:
        return []
    if not folder.is_dir():
        raise DataFileError("sets folder not found", Location(folder),
                            "name an existing folder of set files (--sets-dir, "
                            f"{paths.SETS_DIR_VARIABLE} or sets-dir in {paths.PROJECT_FILE})")
    return yaml_files(folder)


#: A top-level `id:` line, for a set file too broken to parse (`broken_set_file`).
_ID_LINE = re.compile(r"^id:[ \t]*[\"']?([A-Za-z0-9][A-Za-z0-9_.-]*)", re.MULTILINE)


def broken_set_file(path: Path, error: DeckbuilderError) -> BrokenSet:
    """A set file that cannot be loaded, with its id and record names as far as readable, so
    a deck naming one is told it waits on this set."""
    text, document = "", None
    with contextlib.suppress(DeckbuilderError):
        text = text_of(read_bounded(path, MAX_FILE_BYTES, "set file (.yaml)"), path)
        document = to_plain(parse_yaml(text, path))
    if not isinstance(document, dict):
        found = _ID_LINE.search(text)
        return BrokenSet(path, found.group(1) if found else None, error)

    def listed(value: object) -> list[object]:
        return value if isinstance(value, list) else []

    items = [item for list_name, _ in RECORD_LISTS for item in listed(document.get(list_name))
             if isinstance(item, dict)]
    names = frozenset(normalise_name(text) for item in items
                      for text in (item.get("id"), item.get("name"), *listed(item.get("aliases")))
                      if isinstance(text, str))
    set_id = document.get("id")
    return BrokenSet(path, set_id if isinstance(set_id, str) else None, error, names)


def broken_set(loaded: LoadedSet, error: DeckbuilderError,
               waits_on: str | None = None) -> BrokenSet:
    """A set that loads but cannot be used (ids taken, integrity, a broken requirement)."""
    return BrokenSet(loaded.path, loaded.card_set.id, error, record_names(loaded.card_set),
                     waits_on)


#: Fields an overlay may not set: the id is the key, provenance is what the overlay writes.
FIXED_FIELDS = frozenset({"id", "provenance"})


def apply_overlay(catalog: Catalog, overlay_file: Path) -> None:
    """Correct package values by record id; the correction becomes the value's source."""
    apply_overlay_document(catalog, load_yaml(overlay_file), overlay_file)


def apply_overlay_document(catalog: Catalog, document: object, overlay_file: Path) -> None:
    """Apply an already parsed overlay (lets `overlay set` check a change before writing it)."""
    if document is None:
        return
    overlay = validate_document(document, Overlay, overlay_file)
    for record_id, correction in overlay.corrections.items():
        at = ["corrections", record_id]
        entry = catalog.entries.get(record_id)
        if entry is None:
            hint = catalog.suggest(record_id)
            raise DataFileError(f"overlay corrects unknown id '{record_id}'",
                                located(overlay_file, document, at),
                                f"did you mean {', '.join(hint)}?" if hint
                                else "use an id from `deckbuilder cards`")
        fields = type(entry.record).model_fields
        for name in correction.values:
            if name not in fields or name in FIXED_FIELDS:
                raise DataFileError(
                    f"overlay for '{record_id}' sets "
                    f"{'fixed' if name in FIXED_FIELDS else 'unknown'} field '{name}'",
                    located(overlay_file, document, [*at, "values", name]),
                    f"correctable fields of a {entry.kind}: "
                    f"{', '.join(sorted(set(fields) - FIXED_FIELDS))}",
                )
        sources = {name: f"{OVERLAY_SOURCE_PREFIX}{overlay_file}: {correction.source}"
                   for name in correction.values}
        try:
            corrected = with_values(entry.record, correction.values, sources, keep_old_name=False)
        except ValidationError as error:
            first = error.errors()[0]
            named = first["loc"][0] if first["loc"] else None
            at += ["values", named] if named in correction.values else []
            raise DataFileError(
                f"overlay for '{record_id}': {'.'.join(map(str, first['loc']))}: {first['msg']}",
                located(overlay_file, document, at),
                "correct the value",
            ) from None
        replace_record(catalog, entry, corrected)
    catalog.overlay_path = overlay_file


_DEFAULT: list[Catalog] = []


def default_catalog() -> Catalog:
    """The whole catalog, loaded once per process (the default when none is given)."""
    if not _DEFAULT:
        _DEFAULT.append(build_catalog())
    return _DEFAULT[0]


#: Sorts the repository's loaded sets (`build_catalog`): returns those that can be used and
#: appends the others to the catalog's `broken`, given the catalog of every other set.
VetProjectSets = Callable[[Catalog, list[LoadedSet]], list[LoadedSet]]


def build_catalog(
    package_sets: Iterable[Path] | None = None,
    user_sets: Iterable[Path] | None = None,
    overlay: Path | None = None,
    use_user_data: bool = True,
    *,
    installed: bool = True,
    vet_project_sets: VetProjectSets | None = None,
) -> Catalog:
    """Load every layer into one catalog. A set of the repository's folder shadows an
    installed one of the same id (every clone reads it); `installed=False` leaves out what
    only this machine has. With `vet_project_sets` a broken repository set is set apart in
    `catalog.broken` instead of raising."""
    catalog = Catalog()
    for path in package_sets if package_sets is not None else yaml_files(paths.PACKAGED_SETS):
        catalog.add_set(load_set_file(path, "package"))
    if not use_user_data:
        return catalog
    project = _read_project_sets(catalog, vet_project_sets is not None) \
        if user_sets is None else []
    shadowed = {loaded.card_set.id for loaded in project} | {
        broken.set_id for broken in catalog.broken}
    if installed:
        for path in user_sets if user_sets is not None else yaml_files(paths.installed_sets_dir()):
            loaded = load_set_file(path, "user")
            if loaded.card_set.id not in shadowed:
                catalog.add_set(loaded)
    _add_project_sets(catalog, project, vet_project_sets)
    if installed:
        catalog.packs = apply_packs(catalog, installed_packs())  # above the sets, below the overlay
        overlay_file = overlay if overlay is not None else paths.overlay_path()
        if overlay_file.exists():
            apply_overlay(catalog, overlay_file)
    return catalog


def _read_project_sets(catalog: Catalog, keep_going: bool) -> list[LoadedSet]:
    """The loaded sets of the repository's folder (a broken one raises unless `keep_going`)."""
    catalog.sets_folder = paths.project_sets_dir()
    loaded = []
    for path in project_set_files(catalog.sets_folder):
        try:
            loaded.append(load_set_file(path, "project"))
        except DeckbuilderError as error:
            if not keep_going:
                raise
            catalog.broken.append(broken_set_file(path, error))
    return loaded


def _add_project_sets(catalog: Catalog, project: list[LoadedSet],
                      vet: VetProjectSets | None) -> None:
    """The repository's own sets: all or nothing without `vet`; else the sound ones."""
    for sound in project if vet is None else vet(catalog, project):
        try:
            catalog.add_set(sound)
        except DeckbuilderError as error:
            if vet is None:
                raise
            catalog.broken.append(broken_set(sound, error))

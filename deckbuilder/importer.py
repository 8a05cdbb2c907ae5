"""Check, install, remove and list card sets in the user data folder.

The folder is the truth (no manifest). Every change is checked completely first and then made
with one atomic file operation, so a refused one changes nothing; the installed file's name
comes from the set id alone, never from a path the user gave.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deckbuilder import paths
from deckbuilder.card_face.words import plural
from deckbuilder.catalog import (
    BrokenSet,
    Catalog,
    LoadedSet,
    broken_set,
    build_catalog,
    load_set_file,
    project_set_files,
)
from deckbuilder.errors import (
    CardDataError,
    DataFileError,
    DeckbuilderError,
    Location,
    SetInstallError,
)
from deckbuilder.integrity import Finding, check_catalog, check_set, dependents
from deckbuilder.models import CardSet
from deckbuilder.models.common import CARD_ID_PATTERN
from deckbuilder.reading import os_reason
from deckbuilder.user_schemas import keeps_user_schemas_fresh, with_set_header
from deckbuilder.writing import (
    WriteError,
    atomic_write_text,
    folder_lock,
    make_data_folder,
    pause_at,
)
from deckbuilder.yamlio import (
    first_problem,
    located,
    parse_yaml,
    read_text,
    to_plain,
    validate_document,
    validation_problems,
    yaml_files,
)


class SetRefused(SetInstallError):
    """An import refused because of integrity findings (all of them are attached)."""

    def __init__(self, message: str, findings: list[Finding], fix: str | None = None):
        super().__init__(message, fix=fix)
        self.findings = findings


@dataclass
class InstalledFile:
    """A file in the user's sets folder; `error` is set when it cannot be loaded."""

    path: Path
    loaded: LoadedSet | None = None
    error: DeckbuilderError | None = None

    @property
    def set_id(self) -> str:
        return self.loaded.card_set.id if self.loaded else self.path.stem


@dataclass
class CheckReport:
    """What `sets check` found in one file."""

    path: Path
    text: str
    loaded: LoadedSet | None  # None when the file is not a valid card set
    schema_problems: list[DataFileError] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    installed: InstalledFile | None = None  # the installed set with the same id, if any

    @property
    def is_ok(self) -> bool:
        return not self.schema_problems and not self.findings

    def schema_error(self, listed: str | None = None) -> DataFileError:
        """The schema problems as one error: the first, and how many more (listed where)."""
        return first_problem(self.schema_problems, listed)


# -- what is there ------------------------------------------------------------------------------
def packaged_sets() -> dict[str, LoadedSet]:
    """The sets shipped in the package (a broken one is a package bug: it raises)."""
    loaded = (load_set_file(path, "package") for path in yaml_files(paths.PACKAGED_SETS))
    return {item.card_set.id: item for item in loaded}


def installed_files() -> list[InstalledFile]:
    """Every file in the user's sets folder, loaded or with the reason it cannot be."""
    return _set_files(yaml_files(paths.installed_sets_dir()), "user")


def project_files() -> list[InstalledFile]:
    """Every file of the repository's own sets folder, loaded or with the reason it cannot be."""
    return _set_files(project_set_files(), "project")


def _set_files(files: list[Path], origin: str) -> list[InstalledFile]:
    found: list[InstalledFile] = []
    for path in files:
        try:
            found.append(InstalledFile(path, load_set_file(path, origin)))
        except DeckbuilderError as error:
            found.append(InstalledFile(path, error=error))
    return found


def vet_project_sets(catalog: Catalog, candidates: list[LoadedSet]) -> list[LoadedSet]:
    """The repository's own sets that can be used, each checked as an import would be (nothing
    installed them); the others go to `catalog.broken`. A set whose only problem is another
    broken set of the folder is kept, and one requiring a broken set waits on it."""
    known = {set_id: loaded.card_set for set_id, loaded in catalog.sets.items()}
    pool = list(candidates)
    while True:
        suspects = _findings_among(pool, pool, known)
        if not suspects:
            return pool
        trusted = [loaded for loaded in pool if loaded.path not in suspects]
        doubtful = [loaded for loaded in pool if loaded.path in suspects]
        still = _findings_among(doubtful, trusted, known)  # not only because of a suspect
        kept = [loaded for loaded in pool if loaded.path not in still]
        blamed = _findings_among([loaded for loaded in doubtful if loaded.path in still],
                                 kept, known) or still or suspects  # said beside the kept
        broken_ids = {broken.set_id for broken in catalog.broken} | {
            loaded.card_set.id for loaded in doubtful if loaded.path in blamed}
        for loaded in doubtful:
            if loaded.path in blamed:
                catalog.broken.append(_broken_project_set(loaded, blamed[loaded.path],
                                                          broken_ids))
        pool = [loaded for loaded in pool if loaded.path not in blamed]


def _findings_among(sets: list[LoadedSet], among: list[LoadedSet],
                    known: dict[str, CardSet]) -> dict[Path, list[Finding]]:
    """The integrity findings of each of `sets` beside `known` and the sets `among`."""
    others = {**known, **{loaded.card_set.id: loaded.card_set for loaded in among}}
    return {loaded.path: found for loaded in sets if (found := check_set(loaded, others))}


def _broken_project_set(loaded: LoadedSet, findings: list[Finding],
                        broken_ids: set[str | None]) -> BrokenSet:
    """One line for a set of the sets folder: the broken set it waits on, else its first
    problem and how many more there are."""
    set_id = loaded.card_set.id
    requires = loaded.card_set.requires
    waited = next((index for index, required in enumerate(requires)
                   if required in broken_ids and required != set_id), None)
    if waited is not None:
        return broken_set(loaded, CardDataError(
            f"set '{set_id}' of the sets folder waits on set '{requires[waited]}', which is "
            "broken: it is checked once that set is fixed",
            located(loaded.path, loaded.document, ["requires", waited]),
            f"fix set '{requires[waited]}' first"), requires[waited])
    first, more = findings[0], len(findings) - 1
    shown = paths.shown_path(loaded.path)
    also = f" (and {more} more: `deckbuilder sets check {shown}`)" if more else ""
    return broken_set(loaded, CardDataError(
        f"set '{set_id}' of the sets folder: {first.message}{also}", first.where, first.fix))


def sets_catalog() -> Catalog:
    """Packaged and installed sets without the overlay (what the overlay corrects)."""
    catalog = Catalog()
    for loaded in packaged_sets().values():
        catalog.add_set(loaded)
    for installed in installed_files():
        if installed.error is not None:
            raise installed.error
        assert installed.loaded is not None
        catalog.add_set(installed.loaded)
    return catalog


# -- check --------------------------------------------------------------------------------------
def check_file(path: Path) -> CheckReport:
    """Validate a card-set file without installing it: schema first, then integrity, every
    problem in the report (raises `DataFileError` only when the file is no YAML at all)."""
    text = read_text(path)
    document = parse_yaml(text, path)
    if not isinstance(document, dict):
        validate_document(document, CardSet, path)  # raises the "empty" / "not a mapping" error
    try:
        card_set = CardSet.model_validate(to_plain(document))
    except ValidationError as error:
        return CheckReport(path, text, None, validation_problems(error, document, path))
    loaded = LoadedSet(card_set, path, "user", document)
    report = CheckReport(path, text, loaded)
    packaged = packaged_sets()
    others: dict[str, CardSet] = {key: item.card_set for key, item in packaged.items()}
    for installed in installed_files():
        if installed.set_id == card_set.id:
            report.installed = installed
        elif installed.error is not None:
            raise installed.error
        elif installed.loaded is not None:
            others.setdefault(installed.set_id, installed.loaded.card_set)
    for project in project_files():  # the repository's other sets (a set may require them)
        if project.loaded is not None and project.set_id != card_set.id:
            others.setdefault(project.set_id, project.loaded.card_set)
    if card_set.id in packaged:
        report.findings.append(Finding(
            "packaged-set-id", f"set id '{card_set.id}' belongs to a packaged set",
            located(path, document, ["id"]),
            "packaged sets cannot be replaced: give this set a new id"))
    report.findings.extend(check_set(loaded, others))
    return report


# -- import -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportResult:
    set_id: str
    version: str
    path: Path
    replaced_version: str | None  # the version an upgrade replaced


@keeps_user_schemas_fresh
def import_set(path: Path, upgrade: bool = False) -> ImportResult:
    """Install a card-set file into the user data folder, or change nothing and raise:
    `DataFileError` (no card set), `SetRefused` (every integrity finding attached) or
    `SetInstallError` (installed already, without `upgrade`)."""
    first = check_file(path)  # a file that is no card set is refused before anything is made
    if first.loaded is None:
        raise first.schema_error()
    # racing imports and removals take turns
    with folder_lock(make_data_folder(paths.installed_sets_dir(), "sets")):
        report = check_file(path)
        if report.loaded is None:
            raise report.schema_error()
        pause_at("import-checked")  # between the check and the write: the window a lock closes
        card_set = report.loaded.card_set
        installed = report.installed
        if installed is not None and not upgrade:
            version = installed.loaded.card_set.version if installed.loaded else "unreadable"
            raise SetInstallError(
                f"set '{card_set.id}' is already installed (version {version})",
                Location(installed.path),
                "add --upgrade to replace it",
            )
        if report.findings:
            raise SetRefused(
                f"refused to import '{card_set.id}': {plural(len(report.findings), 'problem')} in "
                f"{path}",
                report.findings,
                "correct them (`deckbuilder sets check` lists them) and import again",
            )
        _check_after_install(report.loaded, installed)
        target = paths.installed_sets_dir() / f"{card_set.id}.yaml"
        _refuse_foreign_file(target, card_set.id)
        if installed is not None and installed.path.resolve() != target.resolve() and \
                not target.exists():
            # An upgrade of a file named otherwise: the new text replaces the old file, which is
            # then renamed, each step atomic, so at no moment do two files hold the set.
            atomic_write_text(installed.path, with_set_header(report.text, target))
            try:
                os.replace(installed.path, target)
            except OSError as error:
                raise WriteError(f"cannot rename {installed.path} to {target.name}: "
                                 f"{error.strerror}", Location(installed.path),
                                 "check the sets folder's permissions") from None
        else:
            atomic_write_text(target, with_set_header(report.text, target))
        _remove_other_copies(card_set.id, target)
        replaced = installed.loaded.card_set.version if installed and installed.loaded else None
        return ImportResult(card_set.id, card_set.version, target, replaced)


def _remove_other_copies(set_id: str, kept: Path) -> None:
    """Any other file holding this set (left by an interrupted upgrade of an older version)."""
    for item in installed_files():
        if item.set_id == set_id and item.path.resolve() != kept.resolve():
            try:
                item.path.unlink(missing_ok=True)
            except OSError as error:
                raise WriteError(f"cannot remove the older copy {item.path.name}: "
                                 f"{os_reason(error)}", Location(item.path),
                                 "delete it by hand (the new version is installed)") from None


def _check_after_install(loaded: LoadedSet, replaced: InstalledFile | None) -> None:
    """Build the catalog as it would be after the import: the overlay and dependents must hold."""
    others = [item.path for item in installed_files() if item is not replaced
              and item.set_id != loaded.card_set.id]
    try:
        catalog = build_catalog(user_sets=[*others, loaded.path])
    except DeckbuilderError as error:
        raise SetInstallError(
            f"installing '{loaded.card_set.id}' would break the catalog: {error}",
            fix="correct the set or the file named, then import again",
        ) from None
    sets = {set_id: item.card_set for set_id, item in catalog.sets.items()}
    affected = dependents(loaded.card_set.id, sets)
    findings = check_catalog(catalog, only=affected) if affected else []
    if findings:
        raise SetRefused(
            f"refused to import '{loaded.card_set.id}': installed sets that require it would "
            f"break ({', '.join(affected)})",
            findings,
            "keep the records they refer to, or upgrade those sets first",
        )


def _refuse_foreign_file(target: Path, set_id: str) -> None:
    if target.resolve().parent != paths.installed_sets_dir().resolve():
        raise SetInstallError(f"'{set_id}' does not name a file in the sets folder")
    for item in installed_files():
        if item.path.name == target.name and item.loaded and item.loaded.card_set.id != set_id:
            raise SetInstallError(
                f"{target} holds set '{item.loaded.card_set.id}', not '{set_id}'",
                Location(target),
                "rename that file after its set id, then import again",
            )


# -- remove -------------------------------------------------------------------------------------
@keeps_user_schemas_fresh
def remove_set(set_id: str) -> Path:
    """Delete an installed set; refused while another installed set requires it."""
    if not re.fullmatch(CARD_ID_PATTERN, set_id) or len(set_id) > 80:
        raise DeckbuilderError(f"'{set_id}' is not a set id",
                               fix="set ids are kebab-case (see `deckbuilder sets list`)")
    with folder_lock(paths.installed_sets_dir()):  # no folder: nothing to remove, no lock
        if set_id in packaged_sets():
            raise SetInstallError(
                f"'{set_id}' is a packaged set and cannot be removed",
                fix="packaged sets ship with deckbuilder; decks may simply not use them",
            )
        files = installed_files()
        matches = [item for item in files if item.set_id == set_id]
        if not matches:
            known = ", ".join(sorted(item.set_id for item in files)) or "none"
            raise DeckbuilderError(
                f"no installed set '{set_id}'", fix=f"installed sets: {known}"
            )
        target = matches[0]
        requiring = sorted(
            item.set_id for item in files
            if item.loaded and item is not target and set_id in item.loaded.card_set.requires
        )
        if requiring:
            raise SetInstallError(
                f"cannot remove '{set_id}': installed set{'s' if len(requiring) > 1 else ''} "
                f"{', '.join(requiring)} require{'' if len(requiring) > 1 else 's'} it",
                Location(target.path),
                f"remove {', '.join(requiring)} first",
            )
        _check_after_removal(set_id, target, files)
        try:
            target.path.unlink()
        except OSError as error:
            raise DeckbuilderError(
                f"cannot delete: {error.strerror}", Location(target.path), "remove it by hand"
            ) from None
        return target.path


def _check_after_removal(set_id: str, target: InstalledFile, files: list[InstalledFile]) -> None:
    """Refuse a removal that would leave the overlay correcting records that are gone."""
    others = [item.path for item in files if item is not target]
    try:
        build_catalog(user_sets=others)
    except DeckbuilderError as after:
        try:
            build_catalog()
        except DeckbuilderError:
            return  # already broken before: removing this set is how the user recovers
        raise SetInstallError(
            f"cannot remove '{set_id}': afterwards {after}",
            fix=f"remove the overlay corrections of records of '{set_id}' first",
        ) from None


# -- list ---------------------------------------------------------------------------------------
def set_rows() -> list[dict[str, Any]]:
    """Every set, one row each; an unreadable file says why."""
    rows = [_row(loaded) for loaded in packaged_sets().values()]
    rows += [_file_row(installed, "user") for installed in installed_files()]
    rows += [_file_row(project, "project") for project in project_files()]
    return rows


def _file_row(file: InstalledFile, origin: str) -> dict[str, object]:
    if file.loaded is not None:
        return _row(file.loaded)
    unknown = dict.fromkeys(("name", "version", "game", "kind", "number", "complete", "cards"))
    return {"id": file.set_id, **unknown, "requires": [], "origin": origin,
            "path": str(file.path), "error": str(file.error)}


def _row(loaded: LoadedSet) -> dict[str, object]:
    card_set = loaded.card_set
    shown = card_set.model_dump(include={"id", "name", "version", "game", "kind", "number",
                                         "complete"})
    return {**shown, "cards": len(card_set.cards), "requires": list(card_set.requires),
            "origin": loaded.origin, "path": str(loaded.path), "error": None}

"""YAML in and out: round-trip loading with source positions, limits, and atomic writes.

Every YAML file the program reads goes through `load_yaml`, so every command answers broken
input the same way: a `DataFileError` naming `file:line:col`, what is wrong and how to fix it.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from deckbuilder.errors import DataFileError, Location

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 40
MAX_ALIASES = 50

ModelT = TypeVar("ModelT", bound=BaseModel)


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.allow_duplicate_keys = False
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_text(path: Path) -> str:
    """Read a UTF-8 text file, refusing what is not one."""
    where = Location(path)
    if not path.exists():
        raise DataFileError("file not found", where, "check the path")
    if path.is_dir():
        raise DataFileError("is a directory, not a file", where, "name a .yaml file inside it")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataFileError(
                f"file is {size} bytes; the limit is {MAX_FILE_BYTES}",
                where,
                "split the file or remove what does not belong in it",
            )
        raw = path.read_bytes()
    except OSError as error:
        raise DataFileError(f"cannot read: {error.strerror}", where, "check permissions") from None
    if b"\x00" in raw:
        raise DataFileError("binary file, not YAML text", where, "give a UTF-8 YAML file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise DataFileError(
            "not UTF-8 text", Location(path, line, 1), "save the file as UTF-8"
        ) from None


def _mark_location(path: Path, mark: Any) -> Location:
    if mark is None:
        return Location(path)
    return Location(path, mark.line + 1, mark.column + 1)


def _check_structure(yaml: YAML, text: str, path: Path) -> None:
    """Refuse alias bombs and absurd nesting before building any object."""
    depth = 0
    aliases = 0
    for event in yaml.parse(io.StringIO(text)):
        if isinstance(event, MappingStartEvent | SequenceStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise DataFileError(
                    f"nested more than {MAX_DEPTH} levels deep",
                    _mark_location(path, event.start_mark),
                    "flatten the structure",
                )
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            depth -= 1
        elif isinstance(event, AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise DataFileError(
                    f"more than {MAX_ALIASES} YAML aliases (*name)",
                    _mark_location(path, event.start_mark),
                    "write the values out instead of using anchors and aliases",
                )


def _yaml_error(path: Path, error: YAMLError) -> DataFileError:
    if isinstance(error, DuplicateKeyError):
        mark = error.problem_mark
        key = (error.problem or "").split('"')[1] if '"' in (error.problem or "") else "a key"
        return DataFileError(
            f'duplicate key "{key}"' if key != "a key" else "duplicate key",
            _mark_location(path, mark),
            "keep one entry per key (add the counts together)",
        )
    if isinstance(error, MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        problem = (error.problem or error.context or "invalid YAML").strip()
        fix = "fix the YAML syntax at that place"
        if "\\t" in problem or "tab" in problem.lower():
            problem = "tab character used for indentation"
            fix = "indent with spaces, not tabs"
        return DataFileError(f"invalid YAML: {problem}", _mark_location(path, mark), fix)
    return DataFileError(f"invalid YAML: {error}", Location(path), "fix the YAML syntax")


def parse_yaml(text: str, path: Path) -> Any:
    """Parse YAML text into round-trip objects (CommentedMap keeps comments and positions)."""
    yaml = _yaml()
    try:
        _check_structure(yaml, text, path)
        return yaml.load(text)
    except DataFileError:
        raise
    except YAMLError as error:
        raise _yaml_error(path, error) from None
    except RecursionError:
        raise DataFileError(
            "nested too deeply to read", Location(path), "flatten the structure"
        ) from None


def load_yaml(path: Path) -> Any:
    return parse_yaml(read_text(path), path)


def position(document: Any, loc: Iterable[Any]) -> tuple[int, int] | None:
    """The 1-based (line, column) of the deepest node on `loc` in a round-trip document."""
    node = document
    found: tuple[int, int] | None = None
    if hasattr(node, "lc"):
        found = (node.lc.line + 1, node.lc.col + 1)
    for key in loc:
        if isinstance(node, CommentedMap) and key in node:
            line, col = node.lc.key(key)
            found = (line + 1, col + 1)
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            line, col = node.lc.item(key)
            found = (line + 1, col + 1)
            node = node[key]
        else:
            break
    return found


def _describe_validation(error: ValidationError, document: Any, path: Path) -> DataFileError:
    first = error.errors()[0]
    loc = [part for part in first["loc"] if not (isinstance(part, str) and "[" in part)]
    where = position(document, loc)
    dotted = ".".join(str(part) for part in loc) or "(top level)"
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = f"unknown field '{loc[-1]}'"
        fix = "remove it or check its spelling against the schema"
    elif first["type"] == "missing":
        message = f"missing field '{loc[-1]}'"
        fix = "add it (see the schema named on the file's first line)"
    else:
        message = f"{dotted}: {message}"
        fix = "correct the value (see the schema named on the file's first line)"
    more = len(error.errors()) - 1
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    line, column = where if where else (None, None)
    return DataFileError(message, Location(path, line, column), fix)


def validate_document(document: Any, model: type[ModelT], path: Path) -> ModelT:
    """Validate a parsed document against a model; errors point at the offending line."""
    if document is None:
        raise DataFileError("file is empty", Location(path, 1, 1), f"write a {model.__name__}")
    if not isinstance(document, dict):
        raise DataFileError(
            f"expected a mapping (key: value) at the top, found {type(document).__name__}",
            Location(path, 1, 1),
            f"write a {model.__name__} as a YAML mapping",
        )
    try:
        return model.model_validate(to_plain(document))
    except ValidationError as error:
        raise _describe_validation(error, document, path) from None


def load_model(path: Path, model: type[ModelT]) -> tuple[ModelT, Any]:
    """Load and validate a YAML file; returns the model and the round-trip document."""
    document = load_yaml(path)
    return validate_document(document, model, path), document


def to_plain(value: Any) -> Any:
    """Round-trip objects to plain dicts/lists (keys become strings where YAML made numbers)."""
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    return value


def dump_yaml(document: Any) -> str:
    stream = io.StringIO()
    _yaml().dump(document, stream)
    return stream.getvalue()


def atomic_write_text(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename: never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_yaml(path: Path, document: Any, header: str | None = None) -> None:
    text = dump_yaml(document)
    if header and not text.startswith(header):
        text = header + "\n" + text
    atomic_write_text(path, text)

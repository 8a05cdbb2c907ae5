"""YAML in and out: round-trip loading with source positions, limits, and atomic writes.

Every YAML file the program reads goes through `load_yaml`, so every command answers broken
input the same way: a `DataFileError` naming `file:line:col`, what is wrong and how to fix it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import UnionType
from typing import Any, Final, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.reader import ReaderError

from deckbuilder.errors import DataFileError, Location
from deckbuilder.models.common import CARD_ID_PATTERN
from deckbuilder.models.effects import STEP_NAMES
from deckbuilder.reading import decode_utf8, read_bounded
from deckbuilder.writing import atomic_write_text

MAX_FILE_BYTES = 512 * 1024  # the largest packaged set is under 70 KB
MAX_DEPTH = 40
MAX_ALIASES = 50
MAX_EXPANDED_NODES = 1_000_000  # scalars, counting each alias as what it expands to
#: Lines of any text file; the largest packaged set has under 2,000.
MAX_LINES = 10_000
#: Values of a YAML file, bounded by its lines and commas (a value costs ~0.1 ms to parse).
MAX_ITEMS = 10_000
#: Digits of a number (Python refuses to convert more than 4,300; no count needs 10).
MAX_DIGITS = 30
_LINE_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")

ModelT = TypeVar("ModelT", bound=BaseModel)
#: The dumper's line width: wider than any file the tool reads (`MAX_FILE_BYTES`).
NEVER_WRAP: Final = 1 << 30


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.allow_duplicate_keys = False
    # Never fold a line: a round trip must not re-wrap a line the user wrote (a long
    # `sets: [...]`), and a line is bounded by the file's size limit anyway.
    yaml.width = NEVER_WRAP
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a YAML or text file, read once and bounded (`deckbuilder.reading`); a
    caller needing the file's version hashes these bytes rather than read it again."""
    return read_bounded(Path(path), limit, "YAML or text file")


def text_of(raw: bytes, path: Path) -> str:
    """The UTF-8 text of bytes read from `path`; refused over `MAX_LINES` lines."""
    text = decode_utf8(raw, Path(path))
    lines = _line_count(text)
    if lines > MAX_LINES:
        raise DataFileError(
            f"file has {lines} lines; the limit is {MAX_LINES}", Location(Path(path)),
            "split the file or remove what does not belong in it",
        )
    return text


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file, refusing what is not one, and any file over the limits."""
    return text_of(read_bytes(path, limit), Path(path))


def yaml_files(folder: Path) -> list[Path]:
    """The `*.yaml` files of a folder, sorted (none when there is no such folder)."""
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def _line_count(text: str) -> int:
    breaks = sum(text.count(mark) for mark in _LINE_BREAKS) - text.count("\r\n")
    return breaks + (1 if text and not text.endswith(("\n", "\r")) else 0)


def _refused_at(path: Path, mark: Any, message: str, fix: str) -> DataFileError:
    """The refusal of what the parser met at `mark` (None: the file as a whole)."""
    where = Location(path) if mark is None else Location(path, mark.line + 1, mark.column + 1)
    return DataFileError(message, where, fix)


def _check_structure(yaml: YAML, text: str, path: Path) -> None:
    """Refuse alias bombs and absurd nesting before building any object. Counting aliases is
    not enough (45, three per level, expand to 14 million nodes): each adds its anchor's size."""
    aliases = 0
    open_counts: list[int] = []  # nodes so far per open collection: its depth is their number
    open_anchors: list[str | None] = []  # and its anchor
    anchor_sizes: dict[str, int] = {}
    total = 0

    def add(size: int, mark: object) -> None:
        nonlocal total
        total += size
        if total > MAX_EXPANDED_NODES:
            raise _refused_at(
                path, mark, f"expands to more than {MAX_EXPANDED_NODES} values (anchors and "
                "aliases)", "write the values out instead of using anchors and aliases")
        if open_counts:
            open_counts[-1] += size

    for event in yaml.parse(io.StringIO(text)):
        if isinstance(event, MappingStartEvent | SequenceStartEvent):
            if len(open_counts) >= MAX_DEPTH:
                raise _refused_at(path, event.start_mark, f"nested more than {MAX_DEPTH} levels "
                                  "deep", "flatten the structure")
            open_counts.append(1)
            open_anchors.append(event.anchor)
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            size, anchor = open_counts.pop(), open_anchors.pop()
            if anchor is not None:
                anchor_sizes[anchor] = size
            if open_counts:
                open_counts[-1] += size
        elif isinstance(event, ScalarEvent):
            _check_scalar(event, path)
            if event.anchor is not None:
                anchor_sizes[event.anchor] = 1
            add(1, event.start_mark)
        elif isinstance(event, AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _refused_at(path, event.start_mark,
                                  f"more than {MAX_ALIASES} YAML aliases (*name)",
                                  "write the values out instead of using anchors and aliases")
            add(anchor_sizes.get(event.anchor, 1), event.start_mark)


_NUMBER_LIKE = re.compile(r"[-+]?\.?[0-9][0-9a-fA-FxXoObB_.:+-]*")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_scalar(event: ScalarEvent, path: Path) -> None:
    """Refuse a number too long to convert and text no terminal can print, with the place."""
    value = event.value or ""
    if event.style is None and _NUMBER_LIKE.fullmatch(value):
        digits = sum(character.isdigit() for character in value)
        if digits > MAX_DIGITS:
            raise _refused_at(path, event.start_mark,
                              f"a number with {digits} digits; the limit is {MAX_DIGITS}",
                              "write a smaller number")
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        raise _refused_at(path, event.start_mark, "text holds a lone surrogate "
                          f"(\\u{ord(surrogate.group()):04x}), not a character",
                          "remove the \\u escape, or write the character itself")


def _reader_error(path: Path, error: ReaderError, text: str) -> DataFileError:
    """A character YAML does not allow (a control character): one line with file:line:col."""
    offset = min(max(error.position if isinstance(error.position, int) else 0, 0), len(text))
    before = text[:offset]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    column = offset - max(before.rfind("\n"), before.rfind("\r"))
    character = error.character
    code = f"U+{character:04X}" if isinstance(character, int) else (
        f"U+{ord(character):04X}" if isinstance(character, str) and len(character) == 1
        else "a character")
    return DataFileError(
        f"invalid YAML: control character {code} is not allowed in YAML",
        Location(path, line, column),
        "remove it, or write it as an escape inside double quotes (\"\\x1b\")",
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _yaml_error(path: Path, error: YAMLError) -> DataFileError:
    if isinstance(error, DuplicateKeyError):
        parts = (error.problem or "").split('"')
        message = f'duplicate key "{parts[1]}"' if len(parts) > 1 else "duplicate key"
        return _refused_at(path, error.problem_mark, message,
                           "keep one entry per key (add the counts together)")
    if isinstance(error, MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        problem = _one_line(error.problem or error.context or "invalid YAML")
        fix = "fix the YAML syntax at that place"
        if "\\t" in problem or "tab" in problem.lower():
            problem = "tab character used for indentation"
            fix = "indent with spaces, not tabs"
        return _refused_at(path, mark, f"invalid YAML: {problem}", fix)
    return DataFileError(f"invalid YAML: {_one_line(str(error))}", Location(path),
                         "fix the YAML syntax")


def parse_yaml(text: str, path: Path) -> object:
    """Parse YAML text into round-trip objects (CommentedMap keeps comments and positions)."""
    # too many values are refused before parsing (~0.1 ms a value): every value but the first
    # follows a line break or a comma, so their count is a cheap upper bound
    items = _line_count(text) + text.count(",")
    if items > MAX_ITEMS:
        raise DataFileError(
            f"file has {items} lines and commas (values); the limit is {MAX_ITEMS}",
            Location(path), "split the file or remove what does not belong in it",
        )
    yaml = _yaml()
    try:
        _check_structure(yaml, text, path)
        return yaml.load(text)
    except ReaderError as error:
        raise _reader_error(path, error, text) from None
    except YAMLError as error:
        raise _yaml_error(path, error) from None
    except ValueError as error:  # a value the constructor cannot convert
        raise DataFileError(f"invalid value: {_one_line(str(error))[:200]}", Location(path),
                            "correct the value") from None
    except RecursionError:
        raise DataFileError(
            "nested too deeply to read", Location(path), "flatten the structure"
        ) from None


def load_yaml(path: Path) -> Any:
    return parse_yaml(read_text(path), path)


def _known(line: object, col: object) -> tuple[int, int] | None:
    return (line + 1, col + 1) if isinstance(line, int) and isinstance(col, int) else None


def position(document: object, loc: Iterable[object]) -> tuple[int, int] | None:
    """The 1-based (line, column) of the deepest node on `loc` that was read from a file."""
    node = document
    found: tuple[int, int] | None = None
    if hasattr(node, "lc"):
        found = _known(node.lc.line, node.lc.col)
    for key in loc:
        try:
            if isinstance(node, CommentedMap) and key in node:
                found = _known(*node.lc.key(key)) or found
                node = node[key]
            elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
                found = _known(*node.lc.item(key)) or found
                node = node[key]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break  # a node added in memory: no position recorded
    return found


def located(path: Path | str, document: object, loc: Iterable[object]) -> Location:
    """`path` at the deepest node on `loc` that `document` has a position for (`position`)."""
    return Location(path, *(position(document, loc) or (None, None)))


def _document_loc(document: Any, loc: Sequence[object]) -> list[object]:
    """The parts of a pydantic error location that exist in the document: not the union
    members' names pydantic adds ("kill", "literal['all']"); a missing last field is kept."""
    node = document
    kept: list[object] = []
    for index, key in enumerate(loc):
        in_mapping = isinstance(node, dict) and key in node
        in_sequence = isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        if in_mapping or in_sequence:
            node = node[key]
        elif index < len(loc) - 1 or not isinstance(node, dict) or str(key).startswith("["):
            continue  # a union member's name, or "[key]" for an invalid mapping key
        kept.append(key)
    return kept


_SEE_SCHEMA = "see the schema named on the file's first line"
_STEP_NAMES = ", ".join(sorted(STEP_NAMES))


def _problem(detail: Any, document: Any) -> tuple[list[object], str, str]:
    """(location in the document, message, fix) for one pydantic error."""
    loc = _document_loc(document, detail["loc"])
    dotted = ".".join(str(part) for part in loc) or "(top level)"
    kind = detail["type"]
    context = detail.get("ctx") or {}
    if kind == "extra_forbidden":
        return loc, f"unknown field '{loc[-1]}'", "remove it or check its spelling in the schema"
    if kind == "missing":
        return loc, f"missing field '{loc[-1]}'", f"add it ({_SEE_SCHEMA})"
    if kind == "union_tag_invalid" and context.get("discriminator") == "'do'":
        return (
            loc,
            f"{dotted}: unknown effect step '{context.get('tag')}'",
            f"use one of the known steps: {_STEP_NAMES}",
        )
    if kind == "union_tag_not_found" and context.get("discriminator") == "'do'":
        return (
            loc,
            f"{dotted}: effect step without 'do'",
            f"start the step with `do:` and one of: {_STEP_NAMES}",
        )
    if kind == "string_pattern_mismatch" and context.get("pattern") == CARD_ID_PATTERN:
        return (
            loc,
            f"{dotted}: '{detail.get('input')}' is not a valid id",
            "ids are kebab-case: lower-case letters and digits joined by single hyphens",
        )
    return loc, f"{dotted}: {detail['msg']}", f"correct the value ({_SEE_SCHEMA})"


def validation_problems(
    error: ValidationError, document: object, path: Path
) -> list[DataFileError]:
    """Every problem of a failed validation, one per place (a union's failed alternatives
    merged), each with its file:line:col."""
    grouped: dict[tuple[object, ...], tuple[list[object], list[str], str]] = {}
    for detail in error.errors():
        loc, message, fix = _problem(detail, document)
        _, messages, _ = grouped.setdefault(tuple(loc), (loc, [], fix))
        extra = message.split(": ", 1)[-1] if messages else message
        if extra not in messages:
            messages.append(extra)
    ordered = sorted(grouped.values(), key=lambda group: position(document, group[0]) or (0, 0))
    return [DataFileError(" or ".join(messages), located(path, document, loc), fix)
            for loc, messages, fix in ordered]


def first_problem(problems: Sequence[DataFileError], listed: str | None = None
                  ) -> DataFileError:
    """The first of several problems as one error, saying how many more (listed where)."""
    first, more = problems[0], len(problems) - 1
    where = f", listed {listed}" if listed else ""
    suffix = f" (and {more} more problem{'s' if more > 1 else ''}{where})" if more else ""
    return DataFileError(first.message + suffix, first.where, first.fix)


#: What a top-level value that is no mapping is, in words (the first type it is wins).
_KINDS: tuple[tuple[type | UnionType, str], ...] = (
    (list, "a list"), (bool, "true/false"), (int | float, "a number"), (str, "plain text"))


def validate_document(document: object, model: type[ModelT], path: Path) -> ModelT:
    """Validate a parsed document against a model; errors point at the offending line."""
    if document is None:
        raise DataFileError("file is empty", Location(path, 1, 1), f"write a {model.__name__}")
    if not isinstance(document, dict):
        found = next((words for kind, words in _KINDS if isinstance(document, kind)),
                     type(document).__name__)
        raise DataFileError(
            f"expected a mapping (key: value) at the top, found {found}",
            Location(path, 1, 1),
            f"write a {model.__name__} as a YAML mapping",
        )
    try:
        return model.model_validate(to_plain(document))
    except ValidationError as error:
        raise first_problem(validation_problems(error, document, path)) from None


def model_of(raw: bytes, path: Path, model: type[ModelT]) -> tuple[ModelT, object]:
    """Parse and validate the bytes of a YAML file: the model and the round-trip document."""
    document = parse_yaml(text_of(raw, path), path)
    return validate_document(document, model, path), document


def load_model(path: Path, model: type[ModelT]) -> tuple[ModelT, object]:
    """Load and validate a YAML file; returns the model and the round-trip document."""
    return model_of(read_bytes(path), Path(path), model)


def to_plain(value: object) -> object:
    """Round-trip objects to plain dicts/lists (keys become strings where YAML made numbers)."""
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    return value


def dump_yaml(document: object) -> str:
    stream = io.StringIO()
    _yaml().dump(document, stream)
    return stream.getvalue()


def dump_keeping_layout(document: object, original: str) -> str:
    """`dump_yaml(document)` for a document read from `original` and edited, where every
    top-level entry the dumper writes the same before and after the edit keeps `original`'s
    bytes: the round-trip dumper keeps comments and order but not every layout (it joins a
    wrapped `sets: [...]` and re-indents lists)."""
    dumped = dump_yaml(document)
    path = Path("<original>")
    before = parse_yaml(original, path)
    after = parse_yaml(dumped, path)
    redumped = dump_yaml(before)
    as_read, as_edited = _top_blocks(before, original), _top_blocks(after, dumped)
    as_before = _top_blocks(parse_yaml(redumped, path), redumped)
    if as_read is None or as_edited is None or as_before is None:
        return dumped  # not a block mapping at the top (a flow `{...}` file): the dump as is
    newline = "\r\n" if "\r\n" in original.split("\n", 1)[0] + "\n" else "\n"
    parts = [as_read[0] if as_before[0] == as_edited[0] else _with_newline(as_edited[0],
                                                                             newline)]
    for key, block in as_edited[1].items():
        unchanged = key in as_read[1] and as_before[1].get(key) == block
        parts.append(as_read[1][key] if unchanged else _with_newline(block, newline))
    for index, part in enumerate(parts[:-1]):  # a last line without its break, moved up
        if part and not part.endswith(_LINE_BREAKS):
            parts[index] = part + newline
    return "".join(parts)


#: A line with its break, split where the YAML reader counts lines.
_LINE = re.compile("[^\n\r\x85\u2028\u2029]*(?:\r\n|[\n\r\x85\u2028\u2029])"
                   "|[^\n\r\x85\u2028\u2029]+")


def _top_blocks(document: object, text: str) -> tuple[str, dict[object, str]] | None:
    """`text` cut at its top-level keys: (the lines before the first key, {key: its lines up
    to the next key}); None unless each key of a block mapping opens its own line."""
    if not isinstance(document, CommentedMap) or document.fa.flow_style() or not document:
        return None
    starts = [document.lc.key(key)[0] for key in document]
    if any(not isinstance(line, int) for line in starts) or starts != sorted(set(starts)):
        return None
    lines = _LINE.findall(text)
    bounds = [*starts, len(lines)]
    blocks = {key: "".join(lines[bounds[index]:bounds[index + 1]])
              for index, key in enumerate(document)}
    return "".join(lines[:starts[0]]), blocks


def _with_newline(text: str, newline: str) -> str:
    return text if newline == "\n" else text.replace("\n", newline)


def write_yaml(path: Path, document: object, header: str | None = None) -> str:
    """Write a document atomically; returns the text written (what the file now holds)."""
    text = dump_yaml(document)
    if header and not text.startswith(header):
        text = header + "\n" + text
    atomic_write_text(path, text)
    return text

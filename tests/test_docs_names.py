"""The maintainer pages name only what exists: every code name in backticks on
`docs/maintainers/*.md` (a module, `module.function`, `ClassName.attribute`, a constant, a file
path such as `engine/play.py`) is looked up in the source, and the architecture page's layer
table is the one `tests/test_layers.py` enforces.

Fast (an AST index of the package, no imports of it): the pages drift the day a name moves, so
this runs with every test run. A failure names the page, the line and the name. Rewrite the
layer table after a change of `LAYERS` with `DECKBUILDER_REWRITE_DOCS=1`.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.util
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

import pytest
import test_layers
from test_layers import LAYERS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckbuilder"
PAGES = sorted((ROOT / "docs" / "maintainers").glob("*.md"))
ARCHITECTURE = ROOT / "docs" / "maintainers" / "architecture.md"
REWRITE = os.environ.get("DECKBUILDER_REWRITE_DOCS") == "1"

#: Names the pages use that live outside the package: the standard library's and the
#: browser's members, typing's words. A module of the standard library or a dependency needs
#: no entry (it is found by `importlib.util.find_spec`).
OUTSIDE = {"python", "create_model", "_action_to_string", "Any", "None", "Final", "Annotated",
           "append", "pop", "shuffle", "randrange", "getrandbits", "ru_maxrss", "textContent",
           "__init__", "__slots__", "__getitem__"}
#: Folders of the checkout the pages name that a build makes (absent from a fresh clone).
MADE_BY_BUILDS = ("build/", "site/", "revolver_deckbuilder.egg-info", "revolver_deckbuilder-")
SKIPPED_FOLDERS = {".git", "site", "build", "node_modules", "__pycache__", ".mypy_cache",
                   ".ruff_cache", ".pytest_cache", "revolver_deckbuilder.egg-info"}
#: Where the code the pages describe lives: the package, and the tests, benchmarks and scripts
#: the development pages describe.
SOURCES = ("deckbuilder", "tests", "benchmarks", "scripts", "docs/hooks", "setup.py")
#: The variables the pages write as the code does, and the class each holds.
VARIABLES = {"spec": "GameSpec", "state": "State", "layout": "ActionLayout"}
FILE_SUFFIX = re.compile(r"\.(py|md|yaml|yml|json|jsonl|txt|toml|in|html|cfg|js|css|whl)$")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
#: A page of the web app (`/play`, `/friends`): it exists where the package writes it as a string.
WEB_ADDRESS = re.compile(r"(?:/[a-z][\w.-]*)+/?")


@dataclass
class SourceIndex:
    """What the package defines, by name, read from its source."""

    modules: set[str] = field(default_factory=set)  # deckbuilder.engine.turn ...
    top_level: dict[str, set[str]] = field(default_factory=dict)  # module -> its names
    classes: dict[str, set[str]] = field(default_factory=dict)  # class name -> members
    bases: dict[str, set[str]] = field(default_factory=dict)  # class name -> base names
    names: set[str] = field(default_factory=set)  # every name defined anywhere
    words: set[str] = field(default_factory=set)  # string constants and data words

    def modules_for(self, dotted: str) -> list[str]:
        """The package's modules `dotted` may name, written in full or from any of its folders
        (`chance`, `engine.chance`, `deckbuilder.engine.chance`; `rules` names several)."""
        if dotted in self.modules:
            return [dotted]
        return sorted(module for module in self.modules if module.endswith("." + dotted))

    def members(self, class_name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """A class's members, those of its bases in the package included."""
        found = set(self.classes.get(class_name, set()))
        for base in self.bases.get(class_name, set()) - seen:
            found |= self.members(base, seen | {class_name})
        return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Tuple | ast.List):
        for element in node.elts:
            yield from _targets(element)


def _assigned(statement: ast.stmt) -> Iterator[str]:
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            yield from _targets(target)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        yield from _targets(statement.target)
    elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield statement.name
    elif isinstance(statement, ast.Import | ast.ImportFrom):
        for alias in statement.names:
            yield (alias.asname or alias.name).split(".")[0]


def _strings(node: ast.AST) -> set[str]:
    return {each.value for each in ast.walk(node)
            if isinstance(each, ast.Constant) and isinstance(each.value, str)}


def _class_members(node: ast.ClassDef, constants: dict[str, set[str]]) -> set[str]:
    """What a class defines: its body's names, what its methods set on `self`, its slots
    (written out, or a module constant's strings: `__slots__ = STATE_FIELDS`)."""
    members = {name for statement in node.body for name in _assigned(statement)}
    for inner in ast.walk(node):
        if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
                and inner.value.id in {"self", "cls"} and isinstance(inner.ctx, ast.Store)):
            members.add(inner.attr)
        if (isinstance(inner, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__slots__"
                for target in inner.targets)):
            members |= _strings(inner.value) | constants.get(
                inner.value.id if isinstance(inner.value, ast.Name) else "", set())
    return members


def _read_module(index: SourceIndex, path: Path) -> None:
    name = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    index.modules.add(name)
    index.top_level[name] = {each for statement in tree.body for each in _assigned(statement)}
    constants = {target.id: _strings(statement.value) for statement in tree.body
                 if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value
                 for target in (statement.targets if isinstance(statement, ast.Assign)
                                else [statement.target]) if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            index.classes.setdefault(node.name, set()).update(_class_members(node, constants))
            index.bases.setdefault(node.name, set()).update(
                base.id if isinstance(base, ast.Name) else base.attr for base in node.bases
                if isinstance(base, ast.Name | ast.Attribute))
            index.names.add(node.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            index.names.add(node.name)
            index.names.update(argument.arg for argument in node.args.kwonlyargs)
        elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            index.names.add(node.id if isinstance(node, ast.Name) else node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(
                node.value) < 60:
            index.words.update(re.findall(r"[\w-]+", node.value))
        elif isinstance(node, ast.keyword) and node.arg:
            index.words.add(node.arg)  # an option the code passes: `multi_file=True`


@functools.cache
def source_index() -> SourceIndex:
    index = SourceIndex()
    for source in SOURCES:
        paths = [ROOT / source] if source.endswith(".py") else (ROOT / source).rglob("*.py")
        for path in sorted(paths):
            _read_module(index, path)
    for members in index.classes.values():
        index.names |= members
    for path in sorted((PACKAGE / "data").rglob("*.yaml")):
        index.words.update(re.findall(r"[\w-]+", path.read_text(encoding="utf-8")))
    return index


@functools.cache
def checkout_files() -> tuple[str, ...]:
    """Every file and folder of the checkout, relative, folders ending in `/`."""
    found: list[str] = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [each for each in subfolders if each not in SKIPPED_FOLDERS]
        relative = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if relative == "." else relative + "/"
        found += [prefix + each + "/" for each in subfolders]
        found += [prefix + each for each in files]
    return tuple(found)


def path_exists(written: str) -> bool:
    """A path as a page writes it: from the checkout, from the package, or a bare file name;
    `<game>` and `*` stand for any name."""
    if written.startswith(MADE_BY_BUILDS):
        return True
    pattern = re.sub(r"<[^>]+>", "*", written.split("::")[0])
    is_folder = pattern.endswith("/")
    candidates = [pattern, "deckbuilder/" + pattern, "deckbuilder/data/" + pattern]
    if "/" not in pattern.rstrip("/"):
        candidates.append("*/" + pattern)
    return any(fnmatch(each, candidate) for each in checkout_files()
               for candidate in candidates if each.endswith("/") == is_folder)


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


PACKAGE_FOLDERS = {"deckbuilder", "engine", "games", "sim", "app", "web", "commands", "scenarios",
                   "models", "legality", "data_packs", "api", "card_face", "bots", "tests",
                   "benchmarks"}


def dotted_exists(index: SourceIndex, dotted: str) -> bool:
    """`a.b.c` names a module and what it defines (`engine.turn.open_main`), a class and its
    members (`GameRules.steps`), or, its head being a variable such as `spec` or `state`, a
    member some class defines (`spec.game_rules`)."""
    parts = dotted.split(".")
    if (parts[0] not in PACKAGE_FOLDERS and not index.modules_for(parts[0])
            and _is_module(parts[0])):
        return True  # the standard library's or a dependency's
    for cut in range(len(parts), 0, -1):
        candidates = index.modules_for(".".join(parts[:cut]))
        if not candidates:
            continue
        rest = parts[cut:]
        if not rest or any(rest[0] in index.top_level.get(module, set())
                           and _members_exist(index, rest) for module in candidates):
            return True
        break
    if parts[0] in PACKAGE_FOLDERS and len(parts) > 1:
        return False  # written as a module's path: it must be one
    if parts[0] in index.classes:
        return _members_exist(index, parts)
    if parts[0] in VARIABLES:
        return _members_exist(index, [VARIABLES[parts[0]], *parts[1:]])
    return all(part in index.names or part in OUTSIDE for part in parts[1:])


def _members_exist(index: SourceIndex, parts: list[str]) -> bool:
    owner = parts[0]
    for part in parts[1:]:
        if owner in index.classes:
            if part not in index.members(owner) and part not in OUTSIDE:
                # a base outside the package (pydantic, a NamedTuple) may still define it
                if all(base in index.classes for base in index.bases.get(owner, ())):
                    return False
                if part not in index.names:
                    return False
        elif part not in index.names and part not in OUTSIDE:
            return False
        owner = part
    return True


def code_name(span: str) -> str | None:
    """The code name a backticked span writes (`GameRules.steps`, `new_game(decks, seed)`, the
    base of `class MyRules(GameRules)`), or None when it writes something else: a command, an
    option, a setting, a commit, a value with spaces."""
    text = span.strip()
    if text.startswith("class ") and "(" in text:
        text = text.split("(", 1)[1].split(")", 1)[0]
    head = text.split(" -> ", 1)[0].split("(", 1)[0]
    if re.fullmatch(r"[0-9a-f]{7,40}", head) or head.startswith("super"):
        return None
    return head if DOTTED.fullmatch(head) else None


def is_path(span: str) -> bool:
    text = span.strip()
    return " " not in text and ("/" in text or bool(FILE_SUFFIX.search(text))) and not (
        text.startswith(("$", "-", "http")) or "=" in text)


def problem(span: str) -> str | None:
    """Why a span names nothing that exists, or None."""
    index = source_index()
    if WEB_ADDRESS.fullmatch(span.strip()):
        return None if f'"{span.strip()}' in _package_text() else "no such web address"
    if is_path(span):
        text = span.strip()
        module_path = re.fullmatch(r"([\w/]+)\.([A-Za-z_]\w*)", text)
        if module_path and not FILE_SUFFIX.search(text):
            dotted = module_path.group(1).replace("/", ".") + "." + module_path.group(2)
            return None if dotted_exists(index, dotted) else "no such module member"
        return None if path_exists(text) else "no such file or folder"
    name = code_name(span)
    if name is None or name in OUTSIDE or name.split(".")[0] in vars(builtins):
        return None
    if "." in name:
        return None if dotted_exists(index, name) else "no such name in the package"
    looks_like_code = "_" in name or name != name.lower() or "(" in span
    if re.fullmatch(r"[A-Z][A-Z0-9_]+", name) and name not in index.names:
        return None if _named_in_checkout(name) else "no such constant or environment variable"
    if name in index.names or index.modules_for(name) or _is_module(name):
        return None
    if name in index.words and name == name.lower():
        return None  # a value: a faction, a bot, a step, a ruleset, an ending
    return "no such name in the package" if looks_like_code else "not a name of the code"


@functools.cache
def _checkout_text() -> str:
    return "\n".join(
        (ROOT / each).read_text(encoding="utf-8", errors="replace") for each in checkout_files()
        if not each.endswith("/") and each.startswith(("deckbuilder/", "tests/", ".ci/",
                                                       "benchmarks/", "setup.py", ".github/",
                                                       "pyproject.toml"))
        and not each.endswith((".png", ".whl", ".gz")) and (ROOT / each).stat().st_size < 2e6
        and ROOT / each != Path(__file__).resolve())  # this file names what does not exist


@functools.cache
def _package_text() -> str:
    """The package's source and templates: where the web app's addresses are written."""
    return "\n".join(path.read_text(encoding="utf-8") for suffix in ("*.py", "*.html")
                     for path in sorted(PACKAGE.rglob(suffix)))


def _named_in_checkout(variable: str) -> bool:
    return variable in _checkout_text()


def spans(page: Path) -> Iterator[tuple[int, str]]:
    """Each backticked span of a page with its line, outside fenced blocks; in a fenced
    Python block, each name it calls or defines."""
    fence: str | None = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence is None:
            for match in re.finditer(r"``?([^`]+)``?", line):
                yield number, match.group(1)
        elif fence == "python":
            code = line.split("#", 1)[0]
            for match in re.finditer(r"(?<![\w.])([A-Za-z_][\w.]*)\(", code):
                yield number, match.group(1) + "()"


def test_every_code_name_on_the_maintainer_pages_exists() -> None:
    wrong = [f"{page.relative_to(ROOT)}:{number}: `{span}`: {why}"
             for page in PAGES for number, span in spans(page)
             if (why := problem(span)) is not None]
    assert not wrong, "the maintainer pages name what the code does not have:\n" + "\n".join(
        wrong)


@pytest.mark.parametrize(("span", "exists"), [
    ("engine/play.py", True), ("engine/plays.py", False),
    ("games/<game>/declaration.py", True), ("tests/test_layers.py", True),
    ("GameRules.character_died", True), ("GameRules.character_dies", False),
    ("engine.turn.open_main", True), ("engine.turn.open_mains", False),
    ("spec.game_rules", True), ("spec.no_such_field", False), ("spec.hooks", False),
    ("COMMANDS", True), ("NO_SUCH_CONSTANT", False),
    ("new_game(decks, seed, ruleset) -> State", True), ("sim/runs/runner.prime_catalog", True),
    ("sim/runs/runner.no_such_function", False), ("random.Random(seed)", True),
    ("--json", True), ("deckbuilder play", True), ("colty", True),
    ("/friends", True), ("/no-such-page", False),
])
def test_a_name_that_does_not_exist_is_seen(span: str, exists: bool) -> None:
    assert (problem(span) is None) is exists, problem(span)


# -- complete lists ------------------------------------------------------------------------------
#: `<!-- names: methods of engine/game_rules.py GameRules -->` before a paragraph: the paragraph
#: names every public method (or attribute: what `__init__` sets) of that class, and no other.
COMPLETE_LIST = re.compile(r"^<!-- names: (methods|attributes) of (\S+\.py) (\w+) -->$",
                           re.MULTILINE)


def class_names(path: Path, class_name: str, kind: str) -> set[str]:
    """A class's public methods, or the public attributes its `__init__` sets (a dataclass's
    fields)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(each for each in ast.walk(tree)
                if isinstance(each, ast.ClassDef) and each.name == class_name)
    methods = [each for each in node.body if isinstance(each, ast.FunctionDef)]
    if kind == "methods":
        return {each.name for each in methods if not each.name.startswith("_")}
    init = next((each for each in methods if each.name == "__init__"), None)
    if init is None:  # a dataclass: its fields
        return {each.target.id for each in node.body if isinstance(each, ast.AnnAssign)
                and isinstance(each.target, ast.Name) and not each.target.id.startswith("_")}
    return {each.attr for each in ast.walk(init) if isinstance(each, ast.Attribute)
            and isinstance(each.value, ast.Name) and each.value.id == "self"
            and isinstance(each.ctx, ast.Store) and not each.attr.startswith("_")}


def complete_lists() -> Iterator[tuple[str, str, set[str], set[str]]]:
    """Each complete list on the pages: where, what, the names it gives, the names the code has."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in COMPLETE_LIST.finditer(text):
            kind, path, class_name = match.groups()
            paragraph = text[match.end():].lstrip("\n").split("\n\n", 1)[0]
            listed = {name.rsplit(".", 1)[-1] for span in re.findall(r"`([^`]+)`", paragraph)
                      if (name := code_name(span)) is not None and name != class_name
                      and not name.startswith("__")}
            line = text[:match.start()].count("\n") + 1
            yield (f"{page.relative_to(ROOT)}:{line}", f"{kind} of {class_name}", listed,
                   class_names(PACKAGE / path, class_name, kind))


def test_the_complete_lists_name_every_method_and_attribute() -> None:
    lists = list(complete_lists())
    assert len(lists) >= 3  # the game rules' methods and attributes, the plug-ins' methods
    wrong = [f"{where}: {what}: missing {sorted(code - listed)}, not in the code "
             f"{sorted(listed - code)}" for where, what, listed, code in lists if listed != code]
    assert not wrong, "\n".join(wrong)


# -- the layer table ---------------------------------------------------------------------------
#: The modules of a game's package that sit in layer 1 (`test_layers.is_declaration`).
DECLARATION_MODULES: tuple[str, ...] = getattr(test_layers, "DECLARATION_MODULES",
                                               ("declaration",))
TABLE_HEAD = ("| layer | modules | what they do |", "|---|---|---|")


def _shown(prefix: str) -> str:
    return f"`{prefix}/`" if (PACKAGE / prefix).is_dir() else f"`{prefix}`"


def layer_rows(described: dict[int, str]) -> list[str]:
    """The table's rows from `LAYERS`, each keeping what the page says the layer does."""
    rows = []
    for number, prefixes in enumerate(LAYERS, 1):
        modules = ", ".join(_shown(prefix) for prefix in prefixes)
        if number == 1:
            modules += ", and each game's " + ", ".join(
                f"`games/<game>/{each}.py`" for each in DECLARATION_MODULES)
        rows.append(f"| {number} | {modules} | {described.get(number, 'to describe')} |")
    return rows


def page_table(lines: list[str]) -> tuple[int, int]:
    """Where the layer table is on the page: its first and past-the-last row."""
    start = lines.index(TABLE_HEAD[0]) + 2
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def test_the_layer_table_is_the_one_the_layer_test_enforces() -> None:
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    assert lines[lines.index(TABLE_HEAD[0]) + 1] == TABLE_HEAD[1]
    start, end = page_table(lines)
    described = {int(row.split("|")[1]): row.split("|", 3)[3].rsplit("|", 1)[0].strip()
                 for row in lines[start:end]}
    expected = layer_rows(described)
    if REWRITE and lines[start:end] != expected:
        lines[start:end] = expected
        ARCHITECTURE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines[start:end] == expected, (
        f"{ARCHITECTURE.relative_to(ROOT)}:{start + 1}: the layer table differs from "
        "tests/test_layers.py LAYERS: rewrite it with DECKBUILDER_REWRITE_DOCS=1 "
        "python -m pytest tests/test_docs_names.py, then describe any new layer")

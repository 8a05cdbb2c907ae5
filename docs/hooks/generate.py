"""MkDocs hook: the reference pages that are generated from the code and the data.

Parts of four pages are written at build time, so they can never drift from what they describe:

- `reference/cli.md`: every command of the typer app, walked through the click command typer
  builds (`typer.main.get_command`), with its usage, help text and options as `--help` shows
  them (`get_help_record`, the call click's own help uses);
- `players/card-data.md` (a table): per packaged set, the values a document states and those
  no document states;
- `reference/formats.md` (tables): each packaged JSON Schema's top-level keys and types;
- `reference/rule-switches.md`: every rule switch of the packaged card sets with its readings
  and their sources, every ruleset with what it changes, every module and whether the engine
  plays it, read from the catalog (`build_catalog(use_user_data=False)`: the packaged data,
  never the data folder of whoever builds the docs).

The pages on disk hold an introduction and a marker line (`<!-- generated: cli -->`); the hook
replaces the marker with the generated text (`on_page_markdown`), so the files still read well
on GitHub. Why a hook and not mkdocs-click: typer builds its click command inside a function
call and vendors its own click, which mkdocs-click neither imports nor recognises, and a hook is
one file with no extra dependency that also serves the data-generated page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)
CODE_SPAN = re.compile(r"(`[^`]*`)")


def plain_help(text: str) -> str:
    """Help text as a user reads it: typer renders help as rich markup, where `\\[` stands for a
    bracket; a bracket written bare is shown as written here (rich would drop a `[word]`)."""
    return " ".join(text.replace("\\[", "[").split())


def escape(text: str) -> str:
    """Help and data text as Markdown that shows it literally: code spans are kept, every other
    character Markdown or HTML would read (`*`, `_`, `[`, `<`, `|` ...) is escaped."""
    parts = CODE_SPAN.split(text)
    out = []
    for index, part in enumerate(parts):
        if index % 2:  # a code span
            out.append(part.replace("|", "\\|"))
            continue
        part = part.replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;")
        part = part.replace(">", "&gt;").replace("|", "&#124;")
        for character in "*_[]#":
            part = part.replace(character, "\\" + character)
        out.append(part)
    return "".join(out)


# -- the command line ------------------------------------------------------------------------
def _commands(command: Any, path: list[str], context: Any) -> Iterator[tuple[list[str], Any, Any]]:
    yield path, command, context
    children = getattr(command, "commands", None) or {}
    for name in sorted(children):
        child = children[name]
        if getattr(child, "hidden", False):
            continue
        child_context = child.make_context(name, [], parent=context, resilient_parsing=True)
        yield from _commands(child, [*path, name], child_context)


def command_paths() -> list[str]:
    """Every command of the app, as typed (`deckbuilder deck swap`), groups included."""
    import typer.main

    from deckbuilder.cli import app

    root = typer.main.get_command(app)
    context = root.make_context("deckbuilder", [], resilient_parsing=True)
    return [" ".join(path) for path, _, _ in _commands(root, ["deckbuilder"], context)]


def _usage(path: list[str], command: Any) -> str:
    pieces = [*path, "[OPTIONS]"]
    for param in command.params:
        if param.param_type_name != "argument":
            continue
        name = (param.metavar or param.name or "").upper()
        if param.nargs == -1:
            name += "..."
        pieces.append(name if param.required else f"[{name}]")
    if getattr(command, "commands", None):
        pieces.append("COMMAND [ARGS]...")
    return " ".join(pieces)


def _parameter_rows(command: Any, context: Any) -> list[tuple[str, str]]:
    rows = []
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        record = param.get_help_record(context)
        if record is None:  # an argument without help text
            record = ((param.name or "").upper(), "")
        rows.append(record)
    help_option = command.get_help_option(context)
    if help_option is not None:
        rows.append(help_option.get_help_record(context))
    return rows


def cli_markdown() -> str:
    """The command reference: one section per command, in the order of `--help` groups."""
    import typer.main

    from deckbuilder.cli import app

    root = typer.main.get_command(app)
    context = root.make_context("deckbuilder", [], resilient_parsing=True)
    lines: list[str] = []
    commands = list(_commands(root, ["deckbuilder"], context))
    lines.append("Commands: " + ", ".join(
        f"[`{' '.join(path)}`](#{'-'.join(path)})" for path, _, _ in commands) + ".")
    lines.append("")
    for path, command, command_context in commands:
        lines.append(f"## `{' '.join(path)}` {{ #{'-'.join(path)} }}")
        lines.append("")
        lines.append("```text")
        lines.append(_usage(path, command))
        lines.append("```")
        lines.append("")
        for paragraph in (command.help or "").split("\n\n"):
            text = plain_help(paragraph)
            if text and text != "\b":
                lines.append(escape(text.replace("\b", "").strip()))
                lines.append("")
        children = getattr(command, "commands", None) or {}
        if children:
            lines.append("| command | what it does |")
            lines.append("|---|---|")
            for name in sorted(children):
                child = children[name]
                if getattr(child, "hidden", False):
                    continue
                anchor = "-".join([*path, name])
                summary = escape(plain_help(child.get_short_help_str(200)))
                lines.append(f"| [`{' '.join([*path, name])}`](#{anchor}) | {summary} |")
            lines.append("")
        rows = _parameter_rows(command, command_context)
        if rows:
            lines.append("| option or argument | meaning |")
            lines.append("|---|---|")
            for names, text in rows:
                shown = names.replace("|", "\\|")
                lines.append(f"| `{shown}` | {escape(plain_help(text))} |")
            lines.append("")
        epilog = " ".join((command.epilog or "").split())
        if epilog and (path == ["deckbuilder"] or epilog != " ".join((root.epilog or "").split())):
            lines.append(escape(epilog))
            lines.append("")
    return "\n".join(lines)


# -- the rule switches, rulesets and modules ---------------------------------------------------
def packaged_rule_data() -> list[dict[str, Any]]:
    """Per game: its switches (with the set declaring each), rulesets and modules, from the
    packaged card sets only."""
    from deckbuilder.catalog import build_catalog
    from deckbuilder.games import games
    from deckbuilder.rulesets import list_rulesets

    catalog = build_catalog(use_user_data=False)
    data = []
    for name, game in games().items():
        game_sets = [loaded.card_set for loaded in catalog.sets.values()
                     if loaded.card_set.game == name]
        switches = [(card_set.id, switch) for card_set in game_sets
                    for switch in card_set.rule_switches]
        modules = [(card_set.id, module) for card_set in game_sets
                   for module in card_set.modules]
        data.append({"game": game, "switches": switches, "modules": modules,
                     "rulesets": list_rulesets(catalog, name)})
    return data


def switches_markdown() -> str:
    """Every rule switch with its readings and their sources; every ruleset and module."""
    lines: list[str] = []
    for entry in packaged_rule_data():
        game = entry["game"]
        known = game.rules.known_variants
        lines.append(f"## {escape(game.title)} (`{game.name}`)")
        lines.append("")
        lines.append(f"Default ruleset: `{game.default_ruleset}`. "
                     f"{len(entry['switches'])} rule switches, {len(entry['rulesets'])} "
                     f"rulesets, {len(entry['modules'])} modules.")
        lines.append("")
        lines.append(f"### Rule switches of {escape(game.title)}")
        lines.append("")
        for set_id, switch in entry["switches"]:
            lines.append(f"#### `{switch.id}`")
            lines.append("")
            lines.append(f"{escape(' '.join(switch.description.split()))} "
                         f"(declared by the set `{set_id}`; `--switch {switch.id}=READING`)")
            lines.append("")
            for variant in switch.variants:
                default = " **(default)**" if variant.value == switch.default else ""
                playable = known.get(switch.id)
                refused = ("; the engine cannot play this reading"
                           if playable is not None and variant.value not in playable else "")
                lines.append(f"- `{variant.value}`{default}: "
                             f"{escape(' '.join(variant.description.split()))} "
                             f"(source: {escape(variant.source)}{refused})")
            lines.append("")
        lines.append(f"### Rulesets of {escape(game.title)}")
        lines.append("")
        lines.append("| ruleset | name | what it is | readings other than the defaults |")
        lines.append("|---|---|---|---|")
        for ruleset in entry["rulesets"]:
            default = " (default)" if ruleset.id == game.default_ruleset else ""
            changes = ", ".join(f"`{key}={value}`" for key, value in ruleset.changes().items())
            lines.append(f"| `{ruleset.id}`{default} | {escape(ruleset.name)} | "
                         f"{escape(' '.join(ruleset.description.split()))} | "
                         f"{changes or 'none: every default'} |")
        lines.append("")
        if entry["modules"]:
            lines.append(f"### Modules of {escape(game.title)}")
            lines.append("")
            lines.append("| module | set | name | needs | the engine plays it |")
            lines.append("|---|---|---|---|---|")
            for set_id, module in entry["modules"]:
                letter = f"{module.letter}. " if module.letter else ""
                needs = ", ".join(f"`{each}`" for each in module.requires_modules) or "-"
                plays = "yes" if module.id in game.rules.modules else "no"
                lines.append(f"| `{module.id}` | `{set_id}` | {escape(letter + module.name)} | "
                             f"{needs} | {plays} |")
            lines.append("")
    return "\n".join(lines)


# -- what the data confirms ---------------------------------------------------------------------
def data_status_markdown() -> str:
    """Per packaged set: the values a document states and the values no document states (the
    figure `deckbuilder cards --unconfirmed` ends with, set by set)."""
    from deckbuilder.catalog import build_catalog
    from deckbuilder.data_packs.status import set_counts

    catalog = build_catalog(use_user_data=False)
    counts = set_counts(catalog)
    lines = ["| set | product | card list complete | values stated by a document | "
             "unconfirmed values |", "|---|---|---|---|---|"]
    totals = [0, 0]
    for set_id in sorted(catalog.sets):
        loaded = catalog.sets[set_id]
        confirmed, unconfirmed = counts[set_id].stated + counts[set_id].player, \
            counts[set_id].unconfirmed
        totals[0] += confirmed
        totals[1] += unconfirmed
        complete = "yes" if loaded.card_set.complete else "no"
        lines.append(f"| `{set_id}` | {escape(loaded.card_set.name)} | {complete} | "
                     f"{confirmed} | {unconfirmed} |")
    lines.append(f"| all | | | {totals[0]} | {totals[1]} |")
    return "\n".join(lines)


# -- the file formats' JSON Schemas --------------------------------------------------------------
def _schema_type(node: dict[str, Any], definitions: dict[str, Any]) -> str:
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        target = definitions.get(name, {})
        if "enum" in target:
            return " \\| ".join(f"`{value}`" for value in target["enum"])
        return name
    if "anyOf" in node:
        kinds = [_schema_type(each, definitions) for each in node["anyOf"]]
        return " or ".join(kind for kind in kinds if kind != "null") or "null"
    if "enum" in node:
        return " \\| ".join(f"`{value}`" for value in node["enum"])
    kind = node.get("type", "any")
    if kind == "array" and "items" in node:
        return f"list of {_schema_type(node['items'], definitions)}"
    return str(kind)


def schemas_markdown() -> str:
    """Each packaged JSON Schema: its file, `$id`, and its top-level keys with their types."""
    import json

    from deckbuilder.paths import PACKAGED_SCHEMAS

    lines: list[str] = []
    for path in sorted(PACKAGED_SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        definitions = schema.get("$defs", {})
        lines.append(f"### `{path.name}`")
        lines.append("")
        description = " ".join(str(schema.get("description", "")).split())
        lines.append(f"{escape(str(schema.get('title', path.stem)))}: {escape(description)} "
                     f"`$id`: `{schema.get('$id', '-')}`.")
        lines.append("")
        # a file of several shapes (the scenario of either game) lists each shape's keys
        shapes = [(None, schema)] if "properties" in schema else [
            (reference["$ref"].rsplit("/", 1)[-1],
             definitions[reference["$ref"].rsplit("/", 1)[-1]])
            for reference in schema.get("oneOf", []) if "$ref" in reference]
        for shape_name, shape in shapes:
            if shape_name is not None:
                lines.append(f"{escape(shape_name)}: "
                             f"{escape(' '.join(str(shape.get('description', '')).split()))}")
                lines.append("")
            lines.extend(_key_table(shape, definitions))
    return "\n".join(lines)


def _key_table(shape: dict[str, Any], definitions: dict[str, Any]) -> list[str]:
    required = set(shape.get("required", []))
    lines = ["| key | type | required | what it is |", "|---|---|---|---|"]
    for key, node in shape.get("properties", {}).items():
        what = " ".join(str(node.get("description", "")).split())
        lines.append(f"| `{key}` | {_schema_type(node, definitions)} | "
                     f"{'yes' if key in required else 'no'} | {escape(what)} |")
    lines.append("")
    return lines


GENERATORS: dict[str, Callable[[], str]] = {
    "schemas": schemas_markdown,
    "cli": cli_markdown,
    "rule-switches": switches_markdown,
    "data-status": data_status_markdown,
}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace each page's generation marker by the generated text."""

    def generated(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"{page.file.src_path}: unknown generated section '{name}'")
        return GENERATORS[name]()

    return MARKER.sub(generated, markdown)

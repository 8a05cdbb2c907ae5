"""The package's layers (DESIGN.md, "Layers"): a module imports only from its own layer or
below, a game never imports another game, and no modules import each other in a circle,
counting imports inside functions (that is where cycles hide)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deckbuilder"

#: Module name prefixes (below `deckbuilder.`) by layer, lowest first.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "paths", "version", "reading", "writing", "printable", "declaration", "declared",
     "models", "yamlio", "schema_json"),
    ("catalog", "set_cache", "data_packs", "user_schemas", "integrity", "importer", "decks",
     "decklists", "shared_lists", "deck_stats", "card_face", "legality", "rulesets"),
    ("protocol",),
    ("engine", "build", "game_kit"),
    ("bots", "scenario_kit"),
    ("games",),
    ("scenarios", "sim"),
    ("app",),
    ("schemas", "commands", "cli", "web", "api", "__main__", "__init__"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """Every deckbuilder module `path` imports, at the top or inside a function; `from a
    import b` counts as importing `a.b` when that is a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [name if name in known else node.module for name in names]
        else:
            continue
        found.update(name for name in names if name.startswith("deckbuilder"))
    return found & known


#: The modules of a game's package that the models read: its declaration (its static facts,
#: read by the models' enums) and its card model (its own effect steps and card fields, read
#: by `models.effects` and `models.cards`).
DECLARATION_MODULES = ("declaration", "card_model")


def is_declaration(module: str) -> bool:
    """A game's declaration module (`deckbuilder.games.<game>.declaration`, `.card_model`):
    read by the models, so it sits in layer 1 although it lives in its game's package."""
    parts = module.split(".")
    return len(parts) == 4 and parts[1] == "games" and parts[3] in DECLARATION_MODULES


def layer_of(module: str) -> int:
    if module == "deckbuilder":
        return len(LAYERS) - 1
    if is_declaration(module):
        return 0
    first = module.split(".")[1]
    for index, prefixes in enumerate(LAYERS):
        if first in prefixes:
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


@functools.cache
def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(path, known) - {name} for name, path in found.items()}


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_module_imports_from_a_layer_above() -> None:
    upward = [f"{module} (layer {layer_of(module) + 1}) imports {target} "
              f"(layer {layer_of(target) + 1})"
              for module, targets in graph().items() for target in sorted(targets)
              if layer_of(target) > layer_of(module)]
    assert upward == []


def test_game_declarations_sit_in_layer_one_and_import_only_layer_one() -> None:
    declarations = [module for module in graph() if is_declaration(module)]
    assert {"deckbuilder.games.revolver.declaration", "deckbuilder.games.revolver.card_model",
            "deckbuilder.games.revolver2.declaration",
            "deckbuilder.games.revolver2.card_model"} <= set(declarations)
    assert all(layer_of(module) == 0 for module in declarations)
    above = [f"{module} imports {target}" for module in declarations
             for target in sorted(graph()[module]) if layer_of(target) > 0]
    assert above == []


def test_a_planted_upward_import_of_a_declaration_is_seen(tmp_path: Path) -> None:
    planted = tmp_path / "declaration.py"
    planted.write_text("from deckbuilder.catalog import Catalog\n", encoding="utf-8")
    targets = imports_of(planted, {"deckbuilder.catalog"})
    assert targets == {"deckbuilder.catalog"}
    assert max(layer_of(target) for target in targets) > layer_of(
        "deckbuilder.games.revolver.declaration")


def _game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def test_a_game_never_imports_another_game() -> None:
    crossing = [f"{module} imports {target}" for module, targets in graph().items()
                for target in sorted(targets)
                if _game(module) and _game(target) and _game(module) != _game(target)]
    assert crossing == []


#: Imports of a game's own modules (beyond its declaration) from outside `games/` that cannot
#: go yet, each with why: none today. A new one fails the test below; reach the game through
#: the registry (`deckbuilder.games.get_game`, its `GameParts`) or its rules' methods instead.
OUTSIDE_GAMES_EXCEPTIONS: frozenset[tuple[str, str]] = frozenset()


def reaching_into_games(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(importer, game module) for each module outside `games/` importing a game's module that
    is not its declaration (`deckbuilder.declared` lists the declarations; the registry, the
    package `deckbuilder.games`, is no game's)."""
    return {(module, target) for module, targets in edges.items() for target in targets
            if _game(target) and not _game(module) and not module.startswith(
                "deckbuilder.games.") and not is_declaration(target)}


def test_outside_games_only_the_declarations_are_imported() -> None:
    """A game is its package (issue 36): scenarios, views, bots and faces reach a game only
    through the registry; its declaration (layer 1) is the one module read from outside."""
    assert reaching_into_games(graph()) - OUTSIDE_GAMES_EXCEPTIONS == set()
    assert reaching_into_games(graph()) >= OUTSIDE_GAMES_EXCEPTIONS, "an exception is gone"


#: The modules that make and draw a position's view: they reach a game only through its rules
#: (`spec.game_rules`: observe, row_choices, card_symbols, record_names), never its package.
VIEW_MODULES = ("deckbuilder.engine.observe", "deckbuilder.sim.records.session_view",
                "deckbuilder.sim.records.replay_steps", "deckbuilder.app.table_words",
                "deckbuilder.web.table_view", "deckbuilder.web.replays",
                "deckbuilder.web.friends.seats")


def test_the_view_is_drawn_without_importing_a_game() -> None:
    reaching = [f"{module} imports {target}" for module in VIEW_MODULES
                for target in sorted(graph()[module])
                if _game(target) and not is_declaration(target)]
    assert reaching == []
    assert all(module in graph() for module in VIEW_MODULES)


def test_a_planted_reach_into_a_game_is_seen() -> None:
    edges = {"deckbuilder.scenarios.run": {"deckbuilder.games.revolver2.poker",
                                           "deckbuilder.games.revolver2.declaration",
                                           "deckbuilder.games"},
             "deckbuilder.games.revolver2.rules": {"deckbuilder.games.revolver2.poker"}}
    assert reaching_into_games(edges) == {("deckbuilder.scenarios.run",
                                           "deckbuilder.games.revolver2.poker")}


def test_games_do_not_import_the_registry() -> None:
    """The registry (deckbuilder.games) imports the games, so a game importing it would close
    a circle."""
    back = [module for module, targets in graph().items()
            if _game(module) and "deckbuilder.games" in targets]
    assert back == []


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_planted_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_package_has_no_import_cycles() -> None:
    assert cycles(graph()) == []


#: The sub-packages of `deckbuilder.sim`, lowest first: a module imports a sibling sub-package
#: only from a lower rank (those of one rank import none of each other), and none imports the
#: package `deckbuilder.sim` itself (its facade, which imports them).
SIM_RANKS: list[tuple[str, ...]] = [
    ("runs",),
    ("optimiser", "rankings", "records"),
    ("reports",),
]


def sim_rank(module: str) -> tuple[int, str]:
    sub = module.split(".")[2]
    return next(rank for rank, subs in enumerate(SIM_RANKS) if sub in subs), sub


def test_every_sim_module_sits_in_a_ranked_sub_package() -> None:
    sim = [module for module in graph() if module.startswith("deckbuilder.sim.")]
    assert len(sim) > 30
    assert all(module.count(".") >= 2 and sim_rank(module) for module in sim)


def test_sims_sub_packages_import_only_lower_ranks() -> None:
    wrong = [f"{module} imports {target}" for module, targets in graph().items()
             if module.startswith("deckbuilder.sim.") for target in sorted(targets)
             if target == "deckbuilder.sim" or (
                 target.startswith("deckbuilder.sim.") and sim_rank(target)[1] !=
                 sim_rank(module)[1] and sim_rank(target)[0] >= sim_rank(module)[0])]
    assert wrong == []


@pytest.mark.parametrize("forbidden", ["deckbuilder.games", "deckbuilder.bots",
                                       "deckbuilder.sim", "deckbuilder.scenarios"])
def test_the_table_knows_no_game(forbidden: str) -> None:
    engine = [module for module in graph() if module.startswith("deckbuilder.engine")]
    assert engine
    for module in engine:
        assert not any(target.startswith(forbidden) for target in graph()[module]), module


#: The two faces: each parses, calls `deckbuilder.app` and the library, and presents; neither
#: borrows from the other (what both need lives in `app`, a layer below both).
FACES = ("deckbuilder.commands", "deckbuilder.web")


def _face(module: str) -> str | None:
    return next((face for face in FACES
                 if module == face or module.startswith(face + ".")), None)


#: The one command that reaches into the web face: `deckbuilder serve` builds the web app and
#: runs it (it borrows no library code from it).
LAUNCHER = "deckbuilder.commands.serve"


def test_the_two_faces_do_not_import_each_other() -> None:
    crossing = [f"{module} imports {target}" for module, targets in graph().items()
                for target in sorted(targets)
                if _face(module) and _face(target) and _face(module) != _face(target)
                and module != LAUNCHER]
    assert crossing == []
    launched = {target for target in graph()[LAUNCHER] if _face(target)}
    assert launched <= {"deckbuilder.web.app", "deckbuilder.web.config",
                        "deckbuilder.web.trust", "deckbuilder.commands.common"}


def test_a_planted_crossing_between_the_faces_is_seen(tmp_path: Path) -> None:
    planted = tmp_path / "page.py"
    planted.write_text("def page() -> None:\n"
                       "    from deckbuilder.commands.cards import describe_spaces\n",
                       encoding="utf-8")
    targets = imports_of(planted, {"deckbuilder.commands.cards"})
    assert {_face(target) for target in targets} == {"deckbuilder.commands"}
    assert _face("deckbuilder.web.page") == "deckbuilder.web"


#: What a module of `deckbuilder.app` may not import: it neither prints nor speaks HTTP.
PRESENTATION = ("typer", "click", "rich", "starlette", "jinja2", "uvicorn", "markupsafe")


def test_the_app_layer_neither_prints_nor_serves() -> None:
    found = []
    for name, path in modules().items():
        if not name.startswith("deckbuilder.app"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            found += [f"{name} imports {each}" for each in names
                      if each.split(".")[0] in PRESENTATION]
        found += [f"{name} calls print()" for node in ast.walk(
            ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "print"]
    assert any(name.startswith("deckbuilder.app.") for name in modules())
    assert found == []

"""The shape of the package in figures (issue 36, "Done means"): how big it is, how long its
functions are, how much it leaves untyped, how many parameters its functions take, how much it
repeats itself and how much of it outside `games/` names one game's own things.

    python scripts/shape.py             # the figures of deckbuilder/ as it is in the checkout
    python scripts/shape.py --list      # ... and the functions each figure counts

Reads the source (AST), never imports the package, except through `scripts/game_words.py`
(which builds the catalog for the games' words). The duplicated pairs come from the
`duplicates` command when it is on PATH (`duplicates --most 200 --repo deckbuilder`); without it,
or without `scripts/game_words.py`, that figure is "n/a".
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckbuilder"
#: The shape the project keeps to (DESIGN.md): function length and parameter count limits.
LONG, RATHER_LONG, MANY_PARAMETERS = 80, 60, 5
ANY = re.compile(r"\bAny\b")
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Function:
    """One function of the package: where it is, how long and how many parameters."""

    where: str  # deckbuilder/sim/rankings/tournament.py:12 run_tournament
    lines: int
    parameters: int
    public_api: bool


def parameter_count(node: FunctionNode) -> int:
    """Its parameters as a caller sees them: `self` and `cls` are not counted."""
    arguments = node.args
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args,
                                           *arguments.kwonlyargs)]
    return len([name for name in names if name not in {"self", "cls"}])


def functions(path: Path) -> Iterator[Function]:
    relative = path.relative_to(ROOT).as_posix()
    public_module = relative.startswith("deckbuilder/api/")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, FunctionNode) and node.end_lineno is not None:
            yield Function(f"{relative}:{node.lineno} {node.name}",
                           node.end_lineno - node.lineno + 1, parameter_count(node),
                           public_module and id(node) in top_level
                           and not node.name.startswith("_"))


def duplicate_pairs() -> tuple[int, int] | None:
    """The `duplicates` pairs of deckbuilder/ (its first line counts them) and how many are
    identical (not alike by shape alone, with other names); None without the command."""
    command = shutil.which("duplicates")
    if command is None:
        return None
    listed = subprocess.run([command, "--most", "200", "--repo", str(PACKAGE), "--seconds", "120"],
                            capture_output=True, text=True, check=False, cwd=ROOT).stdout
    counted = re.match(r"(\d+) pairs? of places.*?\((\d+) by shape alone", listed)
    if counted is None:
        return (0, 0) if listed.startswith("no duplicates") else None
    return int(counted.group(1)), int(counted.group(1)) - int(counted.group(2))


def game_words() -> str:
    """`scripts/game_words.py`'s count of files outside games/ naming a game's own things."""
    script = ROOT / "scripts" / "game_words.py"
    if not script.exists():
        return "n/a"
    answer = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            check=False, cwd=ROOT).stdout
    files = re.search(r"naming a game's own things: (\d+)", answer)
    words = re.search(r"^words: (\d+)", answer, re.MULTILINE)
    return f"{files.group(1)} ({words.group(1) if words else '?'} words)" if files else "n/a"


def figures(listing: bool) -> list[str]:
    paths = sorted(PACKAGE.rglob("*.py"))
    texts = [path.read_text(encoding="utf-8") for path in paths]
    found = [function for path in paths for function in functions(path)]
    long = sorted((each for each in found if each.lines > LONG), key=lambda each: -each.lines)
    rather_long = [each for each in found if each.lines > RATHER_LONG]
    many = sorted((each for each in found if each.parameters > MANY_PARAMETERS),
                  key=lambda each: -each.parameters)
    api = [each for each in many if each.public_api]
    pairs = duplicate_pairs()
    sim_top = len(list((PACKAGE / "sim").glob("*.py")))
    lines = [
        f"lines of .py in deckbuilder/: {sum(len(text.splitlines()) for text in texts)}",
        f"modules: {len(paths)} (sim/ at its top level: {sim_top})",
        f"functions over {LONG} lines: {len(long)}",
        f"functions over {RATHER_LONG} lines: {len(rather_long)}",
        f"lines naming Any: {sum(1 for line in _lines(texts) if ANY.search(line))}",
        f"functions with more than {MANY_PARAMETERS} parameters: {len(many)} "
        f"(public API functions among them: {len(api)}; the most: "
        f"{max((each.parameters for each in api), default=0)})",
        "duplicates pairs: " + (f"{pairs[0]} ({pairs[1]} identical)" if pairs else "n/a"),
        f"files outside games/ naming a game's own things: {game_words()}",
    ]
    if listing:
        lines += [f"  over {LONG}: {each.where} ({each.lines} lines)" for each in long]
        lines += [f"  public API: {each.where} ({each.parameters} parameters)" for each in api]
    return lines


def _lines(texts: list[str]) -> Iterator[str]:
    for text in texts:
        yield from text.splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true",
                        help="also list the long functions and the public API's long signatures")
    options = parser.parse_args(argv)
    print("\n".join(figures(options.list)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which files outside `deckbuilder/games/` name a game's own things in code (issue 36, item 3:
"a game is its package").

The words are taken from the games themselves, not written here: each declaration's side and
faction ids, and its character words; the module ids of its card sets;
the names of its own effect steps and the table pieces of its rules; and the few pieces the
rulebooks name that no declaration lists yet (`PIECES`). Game ids themselves are not counted
(a file may say which game it serves). Comments and docstrings are not code and are skipped.

    python scripts/game_words.py            # the totals, then one line per file
    python scripts/game_words.py --words    # ... and the words each file names
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckbuilder"
#: Pieces of the two games' tables that their rules and data name but no declaration lists.
#: (Words that are also the tool's own, such as tournament, mine or border, are left out.)
PIECES = ("poker", "keg", "powder-kegs", "ammunition", "gatling", "train", "derail", "santiago",
          "prison", "duel", "bridge", "mexican-army", "mexican-border", "silver-dollars")


def game_words() -> set[str]:
    """Every word naming one game's own things, from the declarations, data and rules."""
    from deckbuilder.catalog import build_catalog
    from deckbuilder.declared import DECLARATIONS
    from deckbuilder.games import games

    words = set(PIECES)
    for declaration in DECLARATIONS:
        words.update(side.id for side in (*declaration.sides, *declaration.other_factions))
        words.update((declaration.character_word, declaration.characters_word))
    for loaded in build_catalog(use_user_data=False).sets.values():
        words.update(module.id for module in loaded.card_set.modules or ())
    for game in games().values():
        words.update(game.rules.steps)
        words.update(game.rules.piece_names)
        words.update(game.rules.modules)
    return {word.lower().replace("_", "-") for word in words if len(word) > 2}


def code_texts(path: Path) -> list[str]:
    """The names and string literals of a module, without comments and docstrings."""
    texts: list[str] = []
    previous = tokenize.NEWLINE
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = token.type
        if kind == tokenize.NAME or (kind == tokenize.STRING and previous not in (
                tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL)):
            texts.append(token.string.lower().replace("_", "-"))
        if kind not in (tokenize.COMMENT, tokenize.NL):
            previous = kind
    return texts


def named_in(path: Path, patterns: dict[str, re.Pattern[str]]) -> Counter[str]:
    found: Counter[str] = Counter()
    for text in code_texts(path):
        for word, pattern in patterns.items():
            found[word] += len(pattern.findall(text))
    return +found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", action="store_true", help="list each file's words")
    options = parser.parse_args(argv)
    words = game_words()
    patterns = {word: re.compile(rf"(?<![a-z0-9]){re.escape(word)}(?:s|es)?(?![a-z0-9])")
                for word in sorted(words)}
    per_file: dict[str, Counter[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("deckbuilder/games/"):
            continue
        found = named_in(path, patterns)
        if found:
            per_file[relative] = found
    total = sum(sum(found.values()) for found in per_file.values())
    lines = sum(len(path.read_text(encoding="utf-8").splitlines())
                for path in PACKAGE.rglob("*.py"))
    print(f"files outside games/ naming a game's own things: {len(per_file)}")
    print(f"words: {total}")
    print(f"deckbuilder/ lines: {lines}")
    for relative, found in sorted(per_file.items(), key=lambda item: -sum(item[1].values())):
        listed = ", ".join(f"{word} {count}" for word, count in found.most_common())
        print(f"{sum(found.values()):5} {relative}" + (f": {listed}" if options.words else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

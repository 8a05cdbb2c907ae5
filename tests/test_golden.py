"""Golden transcripts: seeded games written out in full (every action, every logged event, the
final position), for both games, each module of Revolver and Revolver 2's rule options. A rules
change that alters any of them shows up here as a diff; a move of code changes no byte.

When the change is intended, regenerate the files and review the diff before committing:

    DECKBUILDER_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py

Every golden with an option (a module, a rule switch, a ruleset, decks other than the base
decks) is checked to show that option at work: the same game without it plays differently, so
a module the engine silently ignored could not pass. The seeds were picked for short games
that use the option (the whole folder stays under 400 KB, see `MAX_TOTAL_BYTES`).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.decks import load_deck, packaged_deck_file
from deckbuilder.engine.position import render, snapshot
from deckbuilder.games import get_game
from deckbuilder.sim.records.session import golden_text, play_game
from deckbuilder.sim.records.transcript import TextNarrator, outcome_text
from deckbuilder.writing import atomic_write_text

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("DECKBUILDER_REGEN_GOLDEN") == "1"
#: The goldens are read by every contributor's diff tool and shipped in the sdist: keep them
#: small (pick a short game, or fewer goldens, rather than raise this).
MAX_TOTAL_BYTES = 400_000


@dataclass(frozen=True)
class Golden:
    """One seeded game between bots. `decks`: each side's packaged deck by name (None: the
    base decks); `ruleset`: None for the game's own; `switches` and `modules` as on the command
    line (`--switch ID=VALUE`, `--module ID`)."""

    seed: int
    bots: tuple[str, str]
    game: str = "revolver"
    decks: tuple[str, str] | None = None
    ruleset: str | None = None
    switches: tuple[tuple[str, str], ...] = ()
    modules: tuple[str, ...] = ()


GATLING = (("gatling-casualty", "owner-chooses"), ("gatling-true-grit", "saves"))
PRISON_DECKS = ("example-colty-prison-break", "example-mcready-prison-guard")
EXAMPLE_DECKS = ("example-colty-fan-the-gun", "example-mcready-pinkertons")

GAMES: dict[str, Golden] = {
    # Revolver, the base decks
    "random-vs-random-seed-1": Golden(1, ("random", "random")),
    "random-vs-random-seed-7": Golden(7, ("random", "random")),
    "greedy-vs-greedy-seed-3": Golden(3, ("greedy", "greedy")),
    # Revolver 2, the base decks: the Mexican Army arrives; the guardians are wiped out
    "revolver2-random-vs-random-seed-5": Golden(5, ("random", "random"), "revolver2"),
    "revolver2-greedy-vs-greedy-seed-1": Golden(1, ("greedy", "greedy"), "revolver2"),
    # Revolver 2's options (each switch's other reading, the other ruleset: a guardian alive at
    # the mine wins), in two games where every one of them changes the game
    "revolver2-review-ameritrash-nl-gatling-greedy-seed-6": Golden(
        6, ("greedy", "greedy"), "revolver2", ruleset="review-ameritrash-nl", switches=GATLING),
    "revolver2-switches-random-vs-greedy-seed-25": Golden(
        25, ("random", "greedy"), "revolver2",
        switches=(("gatling-true-grit", "saves"), ("guardian-pile-victory", "pile-counts"),
                  ("poker-tie", "guardians"))),
    # Revolver's modules
    # Expansion 1.1 whole: the ambushes and its new bandit (Sister Sarah dies in this one)
    "revolver-ambush-on-gunshot-trail-random-seed-4": Golden(
        4, ("random", "random"), modules=("ambushes", "gunshot-trail-bandits")),
    "revolver-prison-random-seed-3": Golden(3, ("random", "random"), decks=PRISON_DECKS,
                                            modules=("san-manzanillo-prison-rules",)),
    "revolver-saloon-duel-random-seed-2": Golden(2, ("random", "random"),
                                                 modules=("saloon-duel",)),
    "revolver-mcreadys-choice-prison-random-seed-9": Golden(
        9, ("random", "random"), decks=PRISON_DECKS,
        modules=("mcreadys-choice", "saloon-duel", "san-manzanillo-prison-rules")),
    "revolver-frontier-deck-random-seed-3": Golden(3, ("random", "random"),
                                                   modules=("frontier-deck",)),
    "revolver-frontier-cards-silver-dollars-random-seed-2": Golden(
        2, ("random", "random"),
        modules=("frontier-deck", "frontier-deck-cards", "silver-dollars")),
    "revolver-build-your-own-deck-greedy-seed-3": Golden(
        3, ("greedy", "greedy"), decks=EXAMPLE_DECKS, modules=("build-your-own-deck",)),
}
#: Modules that change nothing at the table (Module D is the deck-building rules, which every
#: deck meets anyway: games/revolver/resources.py); their goldens show the decks at work.
NO_TABLE_EFFECT = {"build-your-own-deck"}
#: module -> the module it needs (`deckbuilder rules`) or brings along (Module C is shuffled
#: into "the Frontier deck you already have": games/revolver/frontier.py); dropping a module
#: drops those too, or the game would not change without it
NEEDS = {"mcreadys-choice": "saloon-duel", "frontier-deck-cards": "frontier-deck"}


def decks_of(golden: Golden) -> list[dict[str, int]]:
    catalog = default_catalog()
    if golden.decks is None:
        return [dict(catalog.base_deck(golden.game, side))
                for side in get_game(golden.game).side_names]
    decks = []
    for name in golden.decks:
        path = packaged_deck_file(name)
        assert path is not None, f"no packaged deck {name}"
        decks.append(load_deck(path, catalog).counts())
    return decks


def heading(golden: Golden) -> list[str]:
    """The first line names seed, bots and ruleset (as it always has); the lines below name
    what differs from a base game of Revolver."""
    ruleset = golden.ruleset or get_game(golden.game).default_ruleset
    lines = [f"# golden transcript: seed {golden.seed}, bots {' vs '.join(golden.bots)}, "
             f"ruleset {ruleset}"]
    if golden.game != "revolver":
        lines.append(f"# game: {golden.game}")
    if golden.decks is not None:
        lines.append(f"# decks: {' vs '.join(golden.decks)}")
    if golden.modules:
        lines.append(f"# modules: {', '.join(sorted(golden.modules))}")
    if golden.switches:
        lines.append("# switches: " + ", ".join(f"{k}={v}" for k, v in sorted(golden.switches)))
    return lines


def transcript(golden: Golden) -> str:
    """The golden's text: the heading, every action with its events (as `deckbuilder play`
    narrates them), the outcome and the final position (as `sim.records.session.golden_text`)."""
    lines = heading(golden)
    state, record = play_game(decks_of(golden), golden.seed, golden.bots, golden.ruleset,
                              default_catalog(), game=golden.game,
                              narrate=TextNarrator(lines.append),
                              switches=dict(golden.switches), modules=golden.modules)
    lines.append(f"# {outcome_text(record)}, {len(record.steps)} actions")
    lines.append("# final position")
    lines.extend(render(snapshot(state, legal=False)))
    return "\n".join(lines) + "\n"


def game_body(text: str) -> str:
    """A transcript without its heading, to compare two set-ups' games."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("# golden")
                     and not line.startswith(("# game:", "# decks:", "# modules:",
                                              "# switches:")))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(GAMES[name])
    if REGENERATE:
        atomic_write_text(path, text)
    assert path.exists(), f"no {path.name}: run with DECKBUILDER_REGEN_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(), text.splitlines(),
                                    f"golden/{path.name}", "this engine", lineterm="", n=2)
        shown = list(diff)[:60]
        pytest.fail("the game no longer plays as recorded (if intended, regenerate with "
                    "DECKBUILDER_REGEN_GOLDEN=1 and review):\n" + "\n".join(shown))


def test_every_golden_file_is_listed_and_the_folder_stays_small() -> None:
    files = {path.stem for path in GOLDEN.glob("*.txt")}
    assert files == set(GAMES), "a golden file without its game (or the reverse): " \
                                f"{sorted(files ^ set(GAMES))}"
    total = sum(path.stat().st_size for path in GOLDEN.glob("*.txt"))
    assert total <= MAX_TOTAL_BYTES, f"the goldens take {total} bytes"


def test_the_base_goldens_are_the_librarys_golden_text() -> None:
    """The transcript above and `sim.records.session.golden_text` write a base game alike."""
    for name in ("random-vs-random-seed-1", "greedy-vs-greedy-seed-3"):
        golden = GAMES[name]
        assert transcript(golden) == golden_text(decks_of(golden), golden.seed, golden.bots,
                                                 catalog=default_catalog())


def test_golden_transcripts_ignore_the_global_random_state() -> None:
    for name in ("random-vs-random-seed-1", "revolver2-random-vs-random-seed-5",
                 "revolver-frontier-cards-silver-dollars-random-seed-2"):
        random.seed(12345)
        first = transcript(GAMES[name])
        random.seed(54321)
        random.random()
        assert transcript(GAMES[name]) == first, name


#: Run in a fresh interpreter with other string hashes: the goldens must not depend on the order
#: of a set or a dict keyed by strings.
OTHER_PROCESS = """
import json, sys
sys.path.insert(0, sys.argv[1])
import test_golden
print(json.dumps({name: test_golden.transcript(golden)
                  for name, golden in test_golden.GAMES.items()}))
"""


def test_goldens_are_the_same_bytes_in_another_process() -> None:
    hash_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-P", "-c", OTHER_PROCESS, str(GOLDEN.parent)],
                          capture_output=True, text=True, timeout=300, env=environment)
    assert done.returncode == 0, done.stderr[-2000:]
    texts: Mapping[str, str] = json.loads(done.stdout)
    for name, text in texts.items():
        assert text == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8"), name


def without_each_option(golden: Golden) -> dict[str, Golden]:
    """The golden's game set up without one of its options at a time."""
    variants: dict[str, Golden] = {}
    for module in golden.modules:
        if module in NO_TABLE_EFFECT:
            continue
        kept = tuple(m for m in golden.modules if m != module and NEEDS.get(m) != module)
        variants[f"module {module}"] = dataclasses.replace(golden, modules=kept)
    for switch in golden.switches:
        kept_switches = tuple(s for s in golden.switches if s != switch)
        variants[f"switch {switch[0]}"] = dataclasses.replace(golden, switches=kept_switches)
    if golden.ruleset is not None:
        variants[f"ruleset {golden.ruleset}"] = dataclasses.replace(golden, ruleset=None)
    if golden.decks is not None:
        variants["decks"] = dataclasses.replace(golden, decks=None)
    return variants


WITH_OPTIONS = sorted(name for name, golden in GAMES.items() if without_each_option(golden))


def test_the_goldens_cover_both_games_and_every_playable_module() -> None:
    assert {golden.game for golden in GAMES.values()} == {"revolver", "revolver2"}
    covered = {module for golden in GAMES.values() for module in golden.modules}
    for game in ("revolver", "revolver2"):
        assert get_game(game).rules.modules <= covered, f"{game}: a module without a golden"


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_each_option_of_a_golden_changes_its_game(name: str) -> None:
    """Without any one of its options the game plays differently: each golden keeps its
    module, switch, ruleset or decks at work (a seed where an option happens not to matter
    would make the golden blind to it)."""
    golden = GAMES[name]
    played = game_body((GOLDEN / f"{name}.txt").read_text(encoding="utf-8"))
    for option, variant in without_each_option(golden).items():
        assert game_body(transcript(variant)) != played, f"{name}: {option} changes nothing"


def test_module_d_changes_nothing_at_the_table() -> None:
    """The deck-building module is accepted and plays the same game as without it."""
    golden = GAMES["revolver-build-your-own-deck-greedy-seed-3"]
    without = dataclasses.replace(golden, modules=())
    assert game_body(transcript(without)) == game_body(transcript(golden))


def test_golden_transcripts_show_the_whole_game() -> None:
    text = (GOLDEN / "greedy-vs-greedy-seed-3.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# golden transcript: seed 3, bots greedy vs greedy, ruleset rulebook-en"
    assert "-- turn 1: colty" in lines
    assert any(line.split()[1:2] == ["mcready"] and line.split()[0].isdigit() for line in lines)
    assert "# final position" in lines
    assert lines[-1].startswith("game over: ")


def test_a_revolver2_golden_names_its_game_and_sides() -> None:
    text = (GOLDEN / "revolver2-greedy-vs-greedy-seed-1.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[:2] == ["# golden transcript: seed 1, bots greedy vs greedy, "
                         "ruleset rulebook-es", "# game: revolver2"]
    acting = {line.split()[1] for line in lines if line[:5].strip().isdigit()}
    assert acting == {"esteban", "mapache"}
    assert lines[-1].startswith("game over: ")

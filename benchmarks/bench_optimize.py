"""Does the optimiser's budget buy search? Planted weaknesses, found or not, seed by seed.

    python benchmarks/bench_optimize.py --case restricted --budgets 1200
    python benchmarks/bench_optimize.py --case free --budgets 2400 4800
    python benchmarks/bench_optimize.py --case small --budgets 1200 2400 4800
    python benchmarks/bench_optimize.py --case revolver2 --budgets 1200 2400
    python benchmarks/bench_optimize.py --case all --seeds 1-8   # everything (long)

Each case takes a packaged base deck, weakens it by a swap (the *plant*), and asks the
optimiser for better decks at each budget and seed. A seed counts as found when the best
suggestion undoes the plant (it holds the swap that puts the planted cards back) and its
confirmed interval on fresh seeds lies above zero. One process (`SerialExecutor`): the
results do not depend on it, only the time does. Prints figures, asserts nothing.

- restricted: McReady's ten Deputies swapped for Texas Rangers; seven cards may go in
  (the case of tests/test_optimize.py).
- free: the same deck, every legal single swap of a base game and five Tarnished Stars.
- small: McReady's base deck with three Deputies swapped for three Texas Rangers (a few
  points), seven cards may go in.
- revolver2: Padre Esteban's fourteen Armed villagers swapped for fourteen Scarecrows, a
  card of the TEST FIXTURE set tests/fixtures/sets/test-fixture-revolver2.yaml (invented
  cards, installed as a player installs an imported expansion; not card data). Revolver 2's
  deck-building leaves no freedom with the base set alone (every change to a base deck is
  illegal: rule C pairs an added card only with a card the base deck lacks), so the case
  needs cards a deck may take in; every legal single swap of the base set and the fixture
  (about thirty) may go in.

Prints the finalists confirmed on fresh seeds too (how many the race could not tell apart).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deckbuilder.catalog import build_catalog
from deckbuilder.decks import load_collection
from deckbuilder.games import get_game
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize import OptimizeSettings, optimize
from deckbuilder.sim.optimiser.optimize_candidates import Swap
from deckbuilder.sim.runs.runner import SerialExecutor, prime_catalog

DISTRACTORS = ("cowboy", "bounty-hunter", "lee-shao-chinese-railworker",
               "trained-in-the-pinkerton-ways", "volcanic-pistol", "double-the-guard")
COLLECTION = {"revolver-base": 1, "tarnished-star": 5}
#: The TEST FIXTURE set of invented Revolver 2 cards (not card data; see its header).
REVOLVER2_FIXTURE = (Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "sets"
                     / "test-fixture-revolver2.yaml")


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    faction: str
    plant: Swap  # what weakened the base deck: `count` of `out` replaced by `into`
    only_in: tuple[str, ...] = ()
    collection: bool = True
    #: user sets installed for the case (test fixtures), besides the packaged ones
    user_sets: tuple[Path, ...] = ()


CASES = {
    "restricted": Case("restricted", "revolver", "mcready", Swap("deputy", "texas-ranger", 10),
                       ("deputy", *DISTRACTORS)),
    "free": Case("free", "revolver", "mcready", Swap("deputy", "texas-ranger", 10)),
    "small": Case("small", "revolver", "mcready", Swap("deputy", "texas-ranger", 3),
                  ("deputy", *DISTRACTORS)),
    "revolver2": Case("revolver2", "revolver2", "esteban",
                      Swap("armed-villager", "test-fixture-scarecrow", 14), collection=False,
                      user_sets=(REVOLVER2_FIXTURE,)),
}


def weakened(case: Case, catalog: object) -> Deck:
    cards = dict(catalog.base_deck(case.game, case.faction))  # type: ignore[attr-defined]
    plant = case.plant
    cards[plant.out] -= plant.count
    if not cards[plant.out]:
        del cards[plant.out]
    cards[plant.into] = cards.get(plant.into, 0) + plant.count
    return Deck(name=f"planted {case.name}", game=case.game, faction=case.faction,
                cards=cards)


def collection_counts(catalog: object) -> dict[str, int]:
    """What a base game and five Tarnished Stars hold, read as `--collection` reads it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "collection.yaml"
        path.write_text("name: a base game and five Tarnished Stars\nsets:\n" + "".join(
            f"  {set_id}: {boxes}\n" for set_id, boxes in COLLECTION.items()),
            encoding="utf-8")
        return load_collection(path, catalog)  # type: ignore[arg-type]


def run(case: Case, budget: int, seed: int, catalog: object,
        owned: dict[str, int] | None) -> tuple[bool, str, float, int, float, int]:
    deck = weakened(case, catalog)
    game = get_game(case.game)
    side = game.side_names.index(case.faction)
    opponent = catalog.base_deck(case.game, game.side_names[1 - side])  # type: ignore[attr-defined]
    settings = OptimizeSettings(side=side, opponent=opponent, budget=budget, seed=seed,
                                game=case.game, ruleset=game.default_ruleset)
    started = time.perf_counter()
    result = optimize(deck, catalog, settings, collection=owned,  # type: ignore[arg-type]
                      only_in=case.only_in, executor=SerialExecutor())
    seconds = time.perf_counter() - started
    best = result.best
    undo = (case.plant.into, case.plant.out)
    found = best is not None and result.improved and any(
        (s.out, s.into) == undo and s.count == case.plant.count for s in best.swaps)
    label = "; ".join(f"{s.count}x {s.out}->{s.into}" for s in best.swaps) if best else "-"
    low = result.difference(best).low if best else 0.0
    return found, label, low, len(result.candidates), seconds, len(result.finalists)


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=[*CASES, "all"], default="restricted")
    parser.add_argument("--budgets", type=int, nargs="+", default=[1200])
    parser.add_argument("--seeds", default="1-8", help="a range, e.g. 1-8")
    args = parser.parse_args(argv)
    packaged = build_catalog()
    owned = collection_counts(packaged)
    cases = list(CASES.values()) if args.case == "all" else [CASES[args.case]]
    for case in cases:
        catalog = build_catalog(user_sets=case.user_sets) if case.user_sets else packaged
        prime_catalog(catalog)
        for budget in args.budgets:
            found = 0
            seeds = seeds_of(args.seeds)
            for seed in seeds:
                hit, label, low, candidates, seconds, finalists = run(
                    case, budget, seed, catalog, owned if case.collection else None)
                found += hit
                print(f"{case.name} budget {budget} seed {seed}: {'found' if hit else 'MISSED'}"
                      f" (best: {label}, confirmed low {low * 100:+.1f} points; "
                      f"{candidates} candidates, {finalists} confirmed; {seconds:.0f} s)",
                      flush=True)
            print(f"== {case.name} budget {budget}: found at {found} of {len(seeds)} seeds",
                  flush=True)


if __name__ == "__main__":
    main()

"""The bot ladder on a game's base decks: who wins, how games end, how long they last.

    python benchmarks/calibrate.py                  # the ladder: 400 games a pair, 100 with search
    python benchmarks/calibrate.py --game revolver2 # the same for Revolver 2
    python benchmarks/calibrate.py --games 200 --pairs greedy,greedy random,greedy
    python benchmarks/calibrate.py --pairs search:rollouts=128,greedy --search-games 100

Each row is one pair of bots (player 0's bot, player 1's: the gang's and McReady's, or the
guardians' and Mapache's) playing the two base decks over
seeded games. It prints each side's wins with a Wilson 95% interval, draws (turn cap), how
the games ended and their mean length in turns. A simulator whose base matchup is lopsided
between equally good bots cannot tell a player whether a deck change helps: the target for the
(mostly unconfirmed) base data is roughly 35-65% for each side between equal bots. Results
measure decks *and* bots together.

The last column is the sanity check: pointless moves per game of each side's bot, over the
first `--sanity-games` seeds of the pair (default 100; 0 leaves it out). A move is pointless
as `benchmarks/sanity.py` defines it: discarding one's own card from play when the card
gave firepower and, before the play phase ends, the column it left takes no card it could not
have taken had the card stayed (the column was open before the discard and never fills up to
its card limit afterwards). Making room under the gang's 3-card limit, opening a column a row
limit had closed, and getting rid of an emptied card (FAQ Q3) are not counted.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time
from collections import Counter
from functools import partial

from sanity import watched_game  # benchmarks/sanity.py, beside this script

from deckbuilder.catalog import build_catalog
from deckbuilder.games import get_game
from deckbuilder.sim import Contestant, simulate
from deckbuilder.sim.runs.runner import prime_catalog
from deckbuilder.sim.runs.stats import wilson_interval

#: Each bot against itself and against the next one down, from both seats; and the scoring
#: greedy against the play-out greedy it replaced.
DEFAULT_PAIRS = ("greedy,greedy", "random,random", "greedy,random", "random,greedy",
                 "search,greedy", "greedy,search", "greedy:judge=playout,greedy:judge=playout",
                 "greedy,greedy:judge=playout", "greedy:judge=playout,greedy")
#: Revolver 2's greedy is the play-out greedy with its own heuristic.
DEFAULT_PAIRS_REVOLVER2 = ("greedy,greedy", "random,random", "greedy,random", "random,greedy",
                           "search,greedy", "greedy,search")
ENDING_ABBREVIATIONS = {
    "guardians_wiped_out": "wiped", "esteban_survived_mine": "mine",
    "guardian_survived_mine": "mine", "army_arrived": "army",
    "border_emptied": "border", "train_reached": "train", "gang_wiped_out": "wiped",
    "jack_killed": "jack", "cortez_killed": "cortez", "derail_failed": "derail",
    "card_effect": "card", "turn_cap": "cap",
}


def share(wins: int, games: int) -> str:
    """'52.3% [47.4, 57.1]': the rate and its Wilson 95% interval, in percent."""
    low, high = wilson_interval(wins, games)
    return f"{100 * wins / games:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"


def balance_row(colty: dict[str, int], mcready: dict[str, int], colty_bot: str,
                mcready_bot: str, games: int, seed: int, workers: int,
                ruleset: str | None, game: str = "revolver") -> str:
    """Play one pair of bots and format its row of the table."""
    started = time.perf_counter()
    first, second = get_game(game).side_names
    run = simulate(Contestant(f"{first} base", colty, colty_bot),
                   Contestant(f"{second} base", mcready, mcready_bot),
                   side=0, games=games, seed=seed, workers=workers, ruleset=ruleset, game=game,
                   keep_results=True)
    seconds = time.perf_counter() - started
    results = run.results
    played = len(results)
    colty_wins = sum(1 for result in results if result.winner == 0)
    mcready_wins = sum(1 for result in results if result.winner == 1)
    draws = played - colty_wins - mcready_wins
    endings = Counter(result.termination for result in results)
    ending_text = " ".join(f"{ENDING_ABBREVIATIONS.get(name, name)} {count}"
                           for name, count in endings.most_common())
    mean_turns = sum(result.turns for result in results) / played
    return (f"{colty_bot:<22} {mcready_bot:<22} {played:>5} {share(colty_wins, played):<24} "
            f"{share(mcready_wins, played):<24} {draws:>5} {mean_turns:6.1f}  {ending_text}"
            f"  ({seconds:.0f}s)")


def pointless_per_game(colty: dict[str, int], mcready: dict[str, int], colty_bot: str,
                       mcready_bot: str, games: int, seed: int, workers: int,
                       game: str = "revolver") -> str:
    """'p0/p1' pointless moves per game of each side's bot over `games` seeds from `seed`."""
    if games <= 0:
        return ""
    play = partial(watched_game, game, (colty, mcready), (colty_bot, mcready_bot))
    seeds = range(seed, seed + games)
    if workers > 1:
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            counts = list(pool.map(play, seeds, chunksize=max(1, games // (4 * workers))))
    else:
        counts = [play(one) for one in seeds]
    first = sum(result.pointless[0] for result in counts) / games
    second = sum(result.pointless[1] for result in counts) / games
    return f"{first:.2f}/{second:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="revolver", choices=["revolver", "revolver2"])
    parser.add_argument("--pairs", nargs="+", default=None,
                        help="BOT0,BOT1 pairs (default: the ladder from both seats)")
    parser.add_argument("--games", type=int, default=400, help="games per pair")
    parser.add_argument("--search-games", type=int, default=100,
                        help="games for a pair with a search bot (seconds per game)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", default=None, help="default: the game's own")
    parser.add_argument("--sanity-games", type=int, default=100,
                        help="games per pair counting pointless moves (0: skip the check)")
    options = parser.parse_args()

    catalog = build_catalog()
    prime_catalog(catalog)
    game = get_game(options.game)
    first, second = game.side_names
    colty = catalog.base_deck(game.name, first)
    mcready = catalog.base_deck(game.name, second)
    default = DEFAULT_PAIRS if game.name == "revolver" else DEFAULT_PAIRS_REVOLVER2
    pairs = [tuple(pair.split(",", 1)) for pair in options.pairs or default]
    ruleset = options.ruleset or game.default_ruleset
    print(f"{game.title} base decks, seed {options.seed}, ruleset {ruleset}; "
          "wins with Wilson 95% intervals; how the games ended")
    print(f"{first + ' bot':<22} {second + ' bot':<22} {'games':>5} {first + ' wins':<24} "
          f"{second + ' wins':<24} {'draws':>5} {'turns':>6}  endings; pointless moves per game "
          f"({first}/{second}) in the last column")
    for colty_bot, mcready_bot in pairs:
        searching = colty_bot.startswith("search") or mcready_bot.startswith("search")
        games = options.search_games if searching else options.games
        row = balance_row(colty, mcready, colty_bot, mcready_bot, games, options.seed,
                          options.workers, ruleset, game.name)
        sanity = pointless_per_game(colty, mcready, colty_bot, mcready_bot,
                                    min(games, options.sanity_games), options.seed,
                                    options.workers, game.name)
        print(f"{row}  pointless {sanity}" if sanity else row, flush=True)


if __name__ == "__main__":
    main()

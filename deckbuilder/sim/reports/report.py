"""Turn a batch of games into a report: a plain dict for `--json`, and tables for people."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from deckbuilder.build import build_facts, build_line
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.optimize_json import OptimizeReport
from deckbuilder.sim.reports.sensitivity import points_interval
from deckbuilder.sim.reports.simulate_json import CardRowJson, PlayerJson, SimulationReport
from deckbuilder.sim.runs.batch import SimulationRun
from deckbuilder.sim.runs.stats import games_needed, proportion

NOTE = (
    "These results measure the deck and the bots together: a stronger or weaker bot, or a "
    "bot that misplays a particular card, changes them. Compare decks with the same bots."
)
CARD_NOTE = (
    "Win rate when played is a correlation, not the card's value: cards played more often in "
    "long games, or only when already winning, look better or worse than they are. A card "
    "can be played more often than drawn: some cards bring others back from the discard pile."
)
STANDARD_PRECISIONS = (0.05, 0.02, 0.01)
#: Below this many games a percentage is shown with its count: "80% (4/5)".
SMALL_SAMPLE = 100


def _baseline(run: SimulationRun) -> dict[str, object] | None:
    config = run.config
    tally = run.tally
    if config.baseline is None or tally.baseline is None or tally.paired is None:
        return None
    wins = tally.baseline.wins[config.side]
    difference = tally.paired.difference()
    return {
        "deck": config.baseline.name, "bot": config.baseline.bot,
        "wins": wins,
        "win_rate": proportion(wins, tally.baseline.count).as_dict(),
        "difference": difference.as_dict(),
        "games_with_different_winner": tally.paired.different_winner,
        "method": "paired on the same game seeds: mean of per-seed win differences "
                  "(deck minus baseline) with a normal-approximation 95% interval",
        "verdict": verdict(config.deck.name, config.baseline.name, difference.as_dict()),
        "progress": tally.paired.progress,
    }


def build_report(run: SimulationRun, players: Sequence[str],
                 names: Mapping[str, str] | None = None,
                 precision: float = 0.02) -> dict[str, Any]:
    config = run.config
    names = names or {}
    tally = run.tally
    count = tally.deck.count
    seat = config.side
    deck_wins = tally.deck.wins[seat]
    rate = proportion(deck_wins, count)
    draws = tally.deck.draws
    targets = sorted({*STANDARD_PRECISIONS, precision}, reverse=True)
    # The win rate within the interval that needs the most games (the one nearest 1/2): at an
    # observed 0% or 100%, p(1-p) = 0 would promise that one game is enough.
    planning = min(max(0.5, rate.low), rate.high)
    opponent_seat = 1 - seat
    return {
        "note": NOTE,
        "game": config.game,
        "ruleset": config.ruleset,
        "seed": config.seed,
        "games": count,
        "max_turns": config.max_turns,
        "reproducible": run.reproducible,
        "deck": {"name": config.deck.name, "faction": players[seat], "seat": seat,
                 "bot": config.deck.bot},
        "opponent": {"name": config.opponent.name, "faction": players[opponent_seat],
                     "seat": opponent_seat, "bot": config.opponent.bot},
        "sides": tally.sides(config, players),
        "draws": {"games": draws, "rate": draws / count if count else 0.0},
        "cut_short": tally.cut_short(),
        "endings": tally.endings(players),
        "length": tally.length(),
        "progress": tally.progress(),
        "cards": {
            "deck": tally.cards(seat, players[seat], config.deck.cards, names),
            "opponent": tally.cards(opponent_seat, players[opponent_seat],
                                    config.opponent.cards, names),
            "note": CARD_NOTE,
        },
        "precision": {
            "deck_win_rate_half_width": rate.half_width,
            "planning_rate": planning,
            "targets": [
                {"precision": target,
                 "games_needed": games_needed(planning, target),
                 "games_needed_worst_case": games_needed(0.5, target)}
                for target in targets
            ],
        },
        "baseline": _baseline(run),
        # which build played (compiled or plain) and, when plain, how to get the faster one
        "build": build_facts(),
    }


# -- words -----------------------------------------------------------------------------------
def points_text(value: float) -> str:
    """0.04 -> "4", 0.052 -> "5.2"."""
    text = f"{abs(100 * value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def verdict(first: str, second: str, difference: Mapping[str, float]) -> str:
    """The difference `first` minus `second` in words: "B wins 4 points less often than A,
    between 1 and 7 points, 95%: A is better", or not told apart."""
    estimate = difference["estimate"]
    # a difference of win rates lies in [-1, 1], whatever the normal approximation says
    low, high = max(-1.0, difference["low"]), min(1.0, difference["high"])
    amount = points_text(estimate)
    amount += " point" if amount == "1" else " points"
    if estimate > 0:
        said = f"{first} wins {amount} more often than {second}"
    elif estimate < 0:
        said = f"{first} wins {amount} less often than {second}"
    else:
        said = f"{first} and {second} win equally often"
    if low > 0 or high < 0:
        near, far = sorted((abs(low), abs(high)))
        better = first if low > 0 else second
        return (f"{said}, between {points_text(near)} and {points_text(far)} points, 95%: "
                f"{better} is better")
    return (f"{said}, between {points_text(low)} points less and {points_text(high)} more, "
            "95%: not told apart (more games would tell them apart, if they differ)")


def count_percent(successes: int, trials: int, small: int = SMALL_SAMPLE) -> str:
    """A percentage, with its count when the sample is small: "80% (4/5)"; "-" for none."""
    if trials <= 0:
        return "-"
    text = f"{100 * successes / trials:.0f}%" if trials < small else \
        f"{100 * successes / trials:.1f}%"
    return f"{text} ({successes}/{trials})" if trials < small else text


# -- text ------------------------------------------------------------------------------------
def rate(value: float | None) -> str:
    """A rate as the reports print it, text and page: one decimal."""
    return "-" if value is None else f"{100 * value:.1f}%"


def interval_text(interval: Mapping[str, float] | None) -> str:
    return f"[{rate(interval['low'])}, {rate(interval['high'])}]" if interval else "-"


def _ci(interval: Mapping[str, float]) -> str:
    return f"{rate(interval['estimate'])} {interval_text(interval)}"


def modules_text(modules: Sequence[str], titles: Mapping[str, str] | None) -> str:
    """The modules played, by title and id, or "none"."""
    titles = titles or {}
    return ", ".join(f"{titles[module]} ({module})" if titles.get(module, module) != module
                     else module for module in modules) or "none"


def switches_text(switches: Mapping[str, str]) -> str:
    return ", ".join(f"{key}={value}" for key, value in switches.items()) \
        or "none (the ruleset's readings)"


def settings_rows(report: SimulationReport) -> list[tuple[str, str]]:
    """Every setting that changes the games: the same rows play the same games."""
    deck, opponent = report["deck"], report["opponent"]
    rows = [("game", str(report.get("title", report["game"]))),
            ("deck", f"{deck['name']} ({deck['faction']}), bot {deck['bot']}"),
            ("opponent", f"{opponent['name']} ({opponent['faction']}), bot {opponent['bot']}")]
    baseline = report.get("baseline")
    if baseline:
        rows.append(("baseline", f"{baseline['deck']} ({deck['faction']}), bot "
                                 f"{baseline['bot']}, on the same seeds"))
    rows += [("ruleset", str(report["ruleset"])),
             ("rule switches", switches_text(report.get("switches", {}))),
             ("modules", modules_text(report.get("modules", []), report.get("module_names"))),
             ("seed", f"{report['seed']} (each game's seed follows from it: the same seed "
                      "plays the same games)"),
             ("games", str(report["games"])),
             *(_turn_cap(report["max_turns"]) if "max_turns" in report else [])]
    return rows


def _turn_cap(max_turns: int) -> list[tuple[str, str]]:
    return [("turn cap", f"{max_turns} turns (a longer game is stopped and counted as a draw)")]


def optimize_settings_rows(data: OptimizeReport) -> list[tuple[str, str]]:
    return [("deck", f"{data.deck}, bot {data.bot}"),
            ("opponent", f"{data.opponent}, bot {data.opponent_bot}"),
            ("ruleset", str(data.ruleset)), ("rule switches", switches_text(data.switches)),
            ("modules", modules_text(data.modules, data.module_names)),
            ("seed", f"{data.seed} (the same seed plays the same search)"),
            ("budget", f"{data.budget} games"), ("supply", data.supply),
            *_turn_cap(data.max_turns)]


def summary(report: SimulationReport) -> str:
    """The games played in a sentence: the text's first line and the page's."""
    deck, opponent = report["deck"], report["opponent"]
    return (f"{report['games']} games of {deck['name']} ({deck['faction']}, bot {deck['bot']}) "
            f"against {opponent['name']} ({opponent['faction']}, bot {opponent['bot']}); "
            f"game {report.get('title', report['game'])}, ruleset {report['ruleset']}, "
            f"seed {report['seed']}.")


def game_length(report: SimulationReport) -> str:
    turns, decisions = report["length"]["turns"], report["length"]["decisions"]
    return (f"{turns['mean']:.1f} turns on average (median {turns['median']:g}, 10-90% "
            f"{turns['p10']:g}-{turns['p90']:g}, range {turns['min']:g}-{turns['max']:g}); "
            f"{decisions['mean']:.0f} decisions per game.")


def unreproducible(how: str = "") -> str:
    """The warning of a run whose bot has a time budget (`how`: which option sets it)."""
    return (f"Warning: a bot has a time budget{how}, so these results depend on the "
            "machine's speed and are not reproducible from the seed.")


def print_report(console: Console, report: SimulationReport, card_limit: int = 40) -> None:
    deck = report["deck"]
    console.print(summary(report), markup=False)
    cap = f"; at most {report['max_turns']} turns a game" if "max_turns" in report else ""
    console.print(f"Rule switches: {switches_text(report.get('switches', {}))}; modules: "
                  f"{modules_text(report.get('modules', []), report.get('module_names'))}"
                  f"{cap}.", markup=False)
    console.print(_sides_table(report))
    console.print(text_table(ENDING_HEADERS, ending_rows(report), "How games ended"))
    console.print(f"Game length: {game_length(report)}")
    console.print(_cards_table(deck, report["cards"]["deck"][:card_limit]))
    console.print(report["cards"]["note"], markup=False)
    baseline = report.get("baseline")
    if baseline:
        console.print(
            f"Against baseline {baseline['deck']} (bot {baseline['bot']}) on the same seeds: "
            f"baseline wins {_ci(baseline['win_rate'])}; difference (deck minus baseline) "
            f"{points_interval(baseline['difference'])}; "
            f"{baseline['games_with_different_winner']} games had a different winner.",
            markup=False,
        )
        console.print(f"Verdict: {baseline['verdict']}.", markup=False)
    _print_caveats(console, report)


def text_table(headers: Sequence[str], rows: Iterable[Sequence[object]],
               title: str | None = None) -> Table:
    """The terminal's twin of `html_report._table`: one table's rows, drawn as text."""
    table = Table(*headers, title=title)
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    return table


def _sides_table(report: SimulationReport) -> Table:
    draws = report["draws"]
    return text_table(
        ("seat", "faction", "deck", "bot", "wins", "win rate [95% CI]"),
        [*([row["seat"], row["faction"], row["deck"], row["bot"], row["wins"],
            _ci(row["win_rate"])] for row in report["sides"]),
         ["", "draw", "", "", draws["games"], rate(draws["rate"])]],
        "Wins per side (Wilson 95% intervals)")


def ending_rows(report: SimulationReport) -> list[list[object]]:
    """How the games ended, a row each: the text report's table and the page's."""
    return [[row.get("words") or row["termination"], row["games"], rate(row["share"]),
             ", ".join(f"{who} {count}" for who, count in row["winners"].items())]
            for row in report["endings"]]


ENDING_HEADERS = ("how it ended", "games", "share", "won by")


def _cards_table(deck: PlayerJson, rows: Iterable[CardRowJson]) -> Table:
    cards = Table(title=f"Cards of {deck['name']} ({deck['faction']}), per game")
    cards.add_column("card", max_width=24, overflow="ellipsis", no_wrap=True)
    for header in ("copies", "drawn", "played", "games\nplayed", "win%\nplayed", "win%\nnot"):
        cards.add_column(header, justify="right", no_wrap=True)
    for row in rows:
        cards.add_row(row["name"], str(row["copies"]), f"{row['drawn_per_game']:.2f}",
                      f"{row['played_per_game']:.2f}", str(row["games_played"]),
                      count_percent(row["wins_when_played"], row["games_played"]),
                      count_percent(row["wins_when_not_played"], row["games_not_played"]))
    return cards


def _print_caveats(console: Console, report: SimulationReport) -> None:
    precision = report["precision"]
    needs = "; ".join(
        f"+-{100 * row['precision']:g} points: {row['games_needed']} games"
        for row in precision["targets"]
    )
    half_width = 100 * precision["deck_win_rate_half_width"]
    console.print(
        f"Precision: the deck's win rate is known to +-{half_width:.1f} points (95%). "
        f"Games needed for {needs} (at a win rate of {rate(precision['planning_rate'])}, "
        "the most demanding one inside the interval).",
        markup=False,
    )
    for line in verdict_lines(report):  # what the result rests on, whether it holds
        console.print(line, markup=False)
    for cut in report.get("cut_short", []):
        console.print(f"Warning: {cut['warning']}", markup=False)
    if not report["reproducible"]:
        console.print(unreproducible(" (ms=...)"))
    console.print(f"Note: {report['note']}", markup=False)
    if "build" in report:
        console.print(build_line(report["build"]), markup=False)

"""Whether a verdict holds with a stronger bot: the same question (which deck wins more,
which swap helps, how the decks rank) asked again with another bot on the run's first seeds,
and the two answers side by side.

A verdict *holds* when both bots tell it the same way, *changes* when they tell it opposite
ways or one bot's interval lies wholly apart from the other's, and *cannot be told* when
neither tells it or the intervals overlap. The results measure the decks and the bots
together; a verdict that changes with the bot is the bots', not the deck's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TypedDict, cast

from deckbuilder.build import compiled
from deckbuilder.sim.reports.sensitivity import (
    RestsOnJson,
    SwapRestsOnJson,
    points_interval,
    rests_on_lines,
)

#: The stronger bot a check plays with unless told otherwise (`--check-bot`).
CHECK_BOT = "search"
#: Games per pairing a check plays at most (the run's first seeds).
CHECK_GAMES = 100
#: A check runs unasked in the compiled build (where a search game cost 72 ms, 37 greedy
#: games, measured for issue 38; the plain build is some five times slower), for runs of at
#: least this many games per pairing, when it plays at most `AUTO_MOST` games in all.
AUTO_FROM = 200
AUTO_MOST = 400

Interval = Mapping[str, float]


class ComparedJson(TypedDict):
    """One question under both bots: each bot's interval and verdict, and whether it holds."""

    what: str
    centre: float  # 0.5 for a win rate, 0 for a difference (shown in points)
    first: dict[str, float]
    second: dict[str, float]
    first_says: str
    second_says: str
    holds: str  # "holds", "changes" or "cannot be told"


class AgreementJson(TypedDict):
    """How the decks of one side rank under both bots: pairs in the same order, of all."""

    side: str
    pairs: int
    agreeing: int
    flipped: list[list[str]]


class BotCheckJson(TypedDict):
    """A report's `bot_check`: the bots, the games and seconds the check cost, the answers."""

    bots: list[str]  # the run's bot, the check's
    games: int
    compared: list[ComparedJson]
    agreement: list[AgreementJson]


def wanted_check(asked: str | None, bot: str, games: int, check_games: int) -> str | None:
    """The bot a check plays with, or None: unasked, only when cheap and the run's bot is not
    already the check's."""
    if asked is not None:
        return None if asked.lower() == "none" else asked
    cheap = compiled() and games >= AUTO_FROM and check_games <= AUTO_MOST
    return CHECK_BOT if cheap and bot != CHECK_BOT else None


def not_checked(asked: str | None, bot: str, check_games: int) -> str:
    """Why a run was not checked, in one note."""
    if asked is not None:
        return "not checked with a stronger bot (--check-bot none)"
    if bot == CHECK_BOT:
        return f"not checked with a stronger bot: {bot} is the check's own bot"
    return (f"not checked with a stronger bot: a check runs unasked only in the compiled "
            f"build, for runs of {AUTO_FROM}+ games a pairing, at most {AUTO_MOST} check "
            f"games (a {CHECK_BOT} game costs some 37 greedy ones compiled); "
            f"`--check-bot {CHECK_BOT}` plays {check_games} games with it")


def _says(interval: Interval, centre: float, words: tuple[str, str]) -> str:
    if interval["low"] > centre:
        return words[0]
    if interval["high"] < centre:
        return words[1]
    return "not told apart"


def compare(what: str, first: Interval, second: Interval, centre: float,
            words: tuple[str, str]) -> ComparedJson:
    """`what` under the run's bot and the check's: above or below `centre`, and whether
    that holds."""
    says = (_says(first, centre, words), _says(second, centre, words))
    apart = first["high"] < second["low"] or second["high"] < first["low"]
    told = [said for said in says if said != "not told apart"]
    holds = ("holds" if len(told) == 2 and told[0] == told[1]
             else "changes" if (len(told) == 2 or apart) else "cannot be told")
    return {"what": what, "centre": centre, "first": dict(first), "second": dict(second),
            "first_says": says[0], "second_says": says[1], "holds": holds}


def agreement(side: str, first: Mapping[str, float], second: Mapping[str, float]
              ) -> AgreementJson:
    """The pairs of one side's decks that both bots' ratings (deck -> rating) order alike."""
    flipped = [[a, b] for a, b in combinations(sorted(first), 2)
               if (first[a] - first[b]) * (second[a] - second[b]) < 0]
    pairs = len(first) * (len(first) - 1) // 2
    return {"side": side, "pairs": pairs, "agreeing": pairs - len(flipped), "flipped": flipped}


def bot_check_lines(check: BotCheckJson | None) -> list[str]:
    """The check in words (the text, the page and the web simulator show the same)."""
    if not check:
        return []
    first, second = check["bots"]
    lines = [f"Checked with {second} in place of {first}: {check['games']} games on the "
             "run's first seeds."]
    for row in check["compared"]:
        said = (f"both: {row['first_says']}" if row["first_says"] == row["second_says"]
                else f"{first}: {row['first_says']}, {second}: {row['second_says']}")
        shown = points_interval if row["centre"] == 0 else _rate
        lines.append(f"{row['what']}: {first} {shown(row['first'])}, {second} "
                     f"{shown(row['second'])} ({said}): the verdict {row['holds']}.")
    for side in check["agreement"]:
        flips = "; ".join(" and ".join(pair) for pair in side["flipped"])
        lines.append(f"The ranks within {side['side']} agree on {side['agreeing']} of "
                     f"{side['pairs']} pairs" + (f" (swapped: {flips})." if flips else "."))
    return lines


def verdict_lines(report: Mapping[str, object]) -> list[str]:
    """What a report's verdict rests on and whether it holds, each line headed so (the text,
    the page and the web simulator show the same)."""
    gain = cast("SwapRestsOnJson | None", report.get("gain_rests_on"))
    return [*(f"Rests on: {line}"
              for line in rests_on_lines(cast("RestsOnJson | None", report.get("rests_on")))),
            *([f"Rests on: {gain['sentence']} ({gain['games']} games)."] if gain else []),
            *(f"Holds? {line}"
              for line in bot_check_lines(cast("BotCheckJson | None",
                                               report.get("bot_check"))))]


def _rate(interval: Interval) -> str:
    return f"{interval['estimate']:.1%} [{interval['low']:.1%}, {interval['high']:.1%}]"


def rated(standings: Sequence[Mapping[str, object]], side: str) -> dict[str, float]:
    """Deck -> rating estimate of one side's standings (a tournament report's rows)."""
    found: dict[str, float] = {}
    for row in standings:
        rating = row["rating"]
        if row["faction"] == side and isinstance(rating, Mapping):
            found[str(row["deck"])] = float(rating["estimate"])
    return found

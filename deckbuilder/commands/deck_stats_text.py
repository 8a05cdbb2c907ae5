"""`deck stats` in words for an 80-column terminal: counts, the cost curve as bars, firepower
by chip colour, the changes against the base deck, and the odds table (percent by turn)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from deckbuilder.deck_stats import DeckStats, Odds, Tally, percent_text

NAME_WIDTH = 24
LINE_WIDTH = 79
BAR_WIDTH = 40


def _tallies(rows: Iterable[Tally]) -> str:
    return ", ".join(f"{row.key} {row.count}" for row in rows) or "none"


def _clip(name: str, width: int = NAME_WIDTH) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def _odds_rows(odds: Iterable[Odds], turns: int) -> list[str]:
    return [f"{_clip(row.name):<{NAME_WIDTH}} {row.copies:>3} " + "".join(
        f"{percent_text(float(step.chance)):>7}" for step in row.by_turn[:turns + 1])
        for row in odds]


def stats_lines(stats: DeckStats, wanted_cards: set[str] | None = None) -> list[str]:
    """The lines `deck stats` prints; `wanted_cards` (ids) narrows the named-card odds."""
    lines = [f"{stats.name} ({stats.faction}, {stats.game}): {stats.total} cards", "",
             f"by category:  {_tallies(stats.by_category)}",
             f"by play type: {_tallies(stats.by_play)}",
             f"by set:       {_tallies(stats.by_set)}", "",
             "cost curve (cost: copies)"]
    most = max((row.count for row in stats.cost_curve), default=0) or 1
    for row in stats.cost_curve:
        bar = "#" * round(row.count * BAR_WIDTH / most)
        lines.append(f"  {row.key:>2}: {row.count:>3} {bar}")
    lines += ["", "firepower by chip colour"]
    for chip in stats.firepower_by_chip:
        values = ", ".join(f"{value.count}x {value.key}" for value in chip.values)
        lines.append(f"  {chip.chip}: {chip.cards} cards, total {chip.total} ({values})")
    if not stats.firepower_by_chip:
        lines.append("  no firepower cards")
    lines += ["", "against the base deck"]
    changes = stats.changes
    if changes is None:
        lines.append("  the faction's base deck is not installed: nothing to compare")
    elif changes.is_base_deck:
        lines.append("  the base deck as it comes")
    else:
        lines += [f"  out: {row.count}x {row.name}" for row in changes.out]
        lines += [f"  in:  {row.count}x {row.name}" for row in changes.into]
        lines += [f"  replacement: {pair.out_name} -> {pair.in_name}"
                  + (" (location/open-range)" if pair.wildcard else "")
                  for pair in changes.replacements]
        lines += [f"  unpaired: {row.count}x {row.name}" for row in changes.unpaired]
    rules = stats.draw_rules
    turns = max((len(row.by_turn) for row in stats.odds), default=1) - 1
    header = f"{'at least one':<{NAME_WIDTH}} {'#':>3} " + "".join(
        f"{'hand' if turn == 0 else f'turn {turn}':>7}" for turn in range(turns + 1))
    opening = rules.opening_hand + rules.extra_opening
    lines += ["", f"odds of at least one (exact; opening hand {opening} cards, "
                  f"{rules.draws_per_turn} drawn each turn)", header]
    categories = [row for row in stats.odds if row.kind == "category"]
    named = [row for row in stats.odds if row.kind == "card"
             and (not wanted_cards or row.key in wanted_cards)]
    lines += _odds_rows(categories, turns)
    lines.append("")
    lines += _odds_rows(named, turns)
    lines.append("")
    for text in rules.assumptions:
        if text.startswith("Revolver 2") and stats.game != "revolver2":
            continue
        lines += textwrap.wrap(f"assumed: {text}", LINE_WIDTH, subsequent_indent="  ")
    return lines

"""Who may read a line of the engine's log. A line that names something one player may not
know is a `SecretLine`: its owner reads it whole, anyone else its `others` text (or nothing).
`visible_log` is the one reading of a log for a viewer, so no face matches the log's wording
to hide a card. A `SecretLine` is a `str` (its whole text), so an omniscient reader (a golden
transcript, `play` between bots) reads the log as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

#: `visible_log`'s viewer for a spectator: every secret line is read as the others read it.
SPECTATOR: Final = -1


class SecretLine(str):
    """A log line only `player` may read whole; `others` is what anyone else reads ("" :
    nothing). `run` names lines that read together when several follow each other: a run of
    `others` "colty draws a card" reads "colty draws 3 cards" (one: "colty draws 1 card")."""

    player: int
    others: str
    run: str

    def __new__(cls, text: str, player: int, others: str = "", run: str = "") -> SecretLine:
        line = super().__new__(cls, text)
        line.player = player
        line.others = others
        line.run = run
        return line

    def __reduce__(self) -> tuple[object, ...]:  # pickles (a record sent to a worker) keep it
        return (SecretLine, (str(self), self.player, self.others, self.run))


def secret_draw(player: int, who: str, card: str) -> SecretLine:
    """"colty draws Cowboy", which the opponent reads as one of a run of draws."""
    return SecretLine(f"{who} draws {card}", player, f"{who} draws a card", run=f"{who} draws")


def visible_log(lines: Iterable[str], viewer: int | None) -> list[str]:
    """The log as `viewer` may read it: None, everything; a player (0, 1), his own secret
    lines whole and the other's as their `others` text; `SPECTATOR`, every secret line as the
    others read it. A run of the same `run` lines reads as one ("mcready draws 5 cards")."""
    if viewer is None:  # everything, each line still knowing whose it is
        return list(lines)
    shown: list[str] = []
    run_key, count = "", 0

    def flush() -> None:
        nonlocal run_key, count
        if count:
            shown.append(f"{run_key} {count} card{'s' if count > 1 else ''}")
        run_key, count = "", 0

    for line in lines:
        if isinstance(line, SecretLine) and line.player != viewer:
            if line.run and line.run == run_key:
                count += 1
                continue
            flush()
            if line.run:
                run_key, count = line.run, 1
            elif line.others:
                shown.append(line.others)
            continue
        flush()
        shown.append(str(line))
    flush()
    return shown

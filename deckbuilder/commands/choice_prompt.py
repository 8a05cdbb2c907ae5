"""A decision's choices in the terminal, for `play --human` and `join` alike: by kind, each
kind under its label (`sim.records.choices`), each choice with its number and its key (the
card it names, kept from one decision to the next while the card is offered). An answer is a
number or a key; a choice that gives up one's own card is asked once more."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deckbuilder.sim.records.choices import GIVING_UP, kind_words


def choice_lines(listed: Sequence[tuple[str, str, str]]) -> list[str]:
    """The choices (kind, key, words), numbered from 1, each kind under its label."""
    width = len(str(len(listed)))
    lines: list[str] = []
    last = None
    for number, (group, key, words) in enumerate(listed, start=1):
        if kind_words(group) != last:
            last = kind_words(group)
            lines.append(f"{last}:")
        lines.append(f"  {number:>{width}}. [{key}] {words}")
    return lines


def chosen(answer: str, keys: Sequence[str]) -> int | None:
    """The index of the choice an answer names: its number (ASCII digits only: `str.isdigit`
    also says yes to '²', and `int` refuses more than 4,300 digits) or its key; None."""
    typed = answer.strip().lower()
    digits = typed.lstrip("0")
    if typed.isascii() and typed.isdigit() and len(digits) <= len(str(len(keys))):
        number = int(digits or "0")
        return number - 1 if 1 <= number <= len(keys) else None
    lowered = [key.lower() for key in keys]
    return lowered.index(typed) if typed and typed in lowered else None


#: The question asked once more before a choice that gives up one's own card.
GIVE_UP_QUESTION = "give it up? [y/N]> "


def confirmed(group: str, words: str, ask: Callable[[str], str], say: Callable[[str], None]
              ) -> bool:
    """True unless the choice gives up one of one's own cards and the person, asked once
    more, does not say yes (Enter keeps the card)."""
    if group not in GIVING_UP:
        return True
    say(f"that gives up one of your own cards: {words}")
    return ask(GIVE_UP_QUESTION).strip().lower() in ("y", "yes")

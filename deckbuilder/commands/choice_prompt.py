"""A decision's choices in the terminal, for `play --human` and `join` alike: by kind, each
kind under its label (`sim.records.choices`), each choice with its number and its key (the
card it names, kept from one decision to the next while the card is offered). An answer is a
number or a key; a choice that gives up one's own card is asked once more. `w` says why each
card in hand that is not offered cannot be played now (`why_lines`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

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


#: What a person types to hear why the cards in his hand not offered cannot be played now.
WHY_ANSWERS = ("w", "why")


def why_hint(view: Mapping[str, Any]) -> list[str]:
    """Under a play phase's choices, when cards in hand are not offered: that `w` says why."""
    count = len(view.get("not_offered") or ())
    if not count or view.get("decision") != "play phase":
        return []
    cards = "1 card in your hand is" if count == 1 else f"{count} cards in your hand are"
    return [f"(w: why {cards} not offered)"]


def why_lines(view: Mapping[str, Any]) -> list[str]:
    """Why each card in hand not offered cannot be played now (a seat's view's `not_offered`):
    the engine's words, then the rules' words and their document, or its note that it is the
    engine's reading of the card (the rule documents do not word it)."""
    if not view.get("not_offered"):
        return ["every card in your hand is offered now"]
    lines = ["why the other cards in your hand are not offered:"]
    for why in view["not_offered"]:
        reason = str(why["reason"])
        named = reason.startswith(why["name"])  # most reasons start with the card's name
        lines.append(f"  {reason}" if named else f"  {why['name']}: {reason}")
        lines += [f"    the rules: \"{rule['words']}\" ({rule['source']})" for rule in why["rules"]]
        if why.get("note"):
            lines.append(f"    ({why['note']})")
    return lines

"""A decision asked in the terminal, for `play --human` and `join` alike: the choices by kind
(`sim.records.choices`), each with its number and its key (the card it names, kept from one
decision to the next); an answer is a number or a key, and a choice that gives up one's own
card is asked once more. `w` says why a card in hand is not offered (`why_lines`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from deckbuilder.app.card_details import find_records
from deckbuilder.app.table_words import worded_line
from deckbuilder.card_face import face, face_text
from deckbuilder.catalog import Catalog
from deckbuilder.commands.card_detail import text_width
from deckbuilder.commands.common import say
from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.records.choices import GIVING_UP, kind_words
from deckbuilder.sim.records.session import Event

#: What a prompt line ends with (the pseudo-terminal tests read up to it).
PROMPT_END = "> "
#: What a person types to leave.
LEAVE_WORDS = ("q", "quit", "exit")
#: How much of a wrong answer the prompt repeats (a pasted page is not echoed back whole).
SHOWN_ANSWER = 40
#: The question asked once more before a choice that gives up one's own card.
GIVE_UP_QUESTION = "give it up? [y/N]> "


class Listed(Protocol):
    """A choice as either face holds it (a session's, or a table's answer)."""

    @property
    def action(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def record(self) -> str | None: ...


def say_events(events: Iterable[Event]) -> None:
    """Events as `play` prints a game, their endings in words."""
    for event in events:
        for line in event.text_lines():
            say(worded_line(line))


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


def decision_lines(position: Sequence[str], decision: str,
                   listed: Sequence[tuple[str, str, str]]) -> list[str]:
    """The position's lines, the decision and its choices (`choice_lines`), indented."""
    return ["", *(f"  {line}" for line in position), f"your decision: {decision}",
            *(f"  {line}" for line in choice_lines(listed))]


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


def confirmed(group: str, words: str, ask: Callable[[str], str], say: Callable[[str], None]
              ) -> bool:
    """False when the choice gives up one's own card and, asked once more, the person keeps it."""
    if group not in GIVING_UP:
        return True
    say(f"that gives up one of your own cards: {words}")
    return ask(GIVE_UP_QUESTION).strip().lower() in ("y", "yes")


def ask_action(prompt: str, choices: Sequence[Listed], view: Mapping[str, Any],
               read: Callable[[str], str], say: Callable[[str], None], *,
               show: Callable[[], None], show_card: Callable[[str], None],
               commands: Mapping[str, Callable[[], str | None]], wrong: str,
               declined: Callable[[], None] = lambda: None) -> int | str:
    """Read answers until one names an action (its int) or one of `commands` (checked first)
    gives its word; `?` shows the position again, `?X` a card, `w` why one is not offered."""
    for line in why_hint(view):
        say(f"  {line}")
    keys = [choice.key for choice in choices]
    while True:
        answer = read(prompt).strip()
        word = answer.lower()
        if word in commands:
            done = commands[word]()
            if done is not None:
                return done
        elif word in ("?", "h", "help"):
            show()
        elif answer.startswith("?"):
            show_card(answer[1:].strip())
        elif word in ("w", "why"):
            for line in why_lines(view):
                say(f"  {line}")
        elif (at := chosen(answer, keys)) is not None:
            if confirmed(choices[at].group, choices[at].text, read, say):
                return int(choices[at].action)
            declined()
        elif answer:
            shown = answer if len(answer) <= SHOWN_ANSWER else answer[:SHOWN_ANSWER] + "..."
            say(f"'{shown}' is not one of the actions: give a number from 1 to {len(choices)} "
                f"or a key in [ ] ({wrong})")


def show_card(asked: str, choices: Sequence[Listed], catalog: Catalog,
              say: Callable[[str], None], game: str | None = None) -> None:
    """`? N` (or `? KEY`): the face of the card action N names; with `game`, `?NAME` the card
    NAME names in it (a unique start will do). A wrong one says why; the game goes on."""
    at = chosen(asked, [choice.key for choice in choices])
    if at is not None:
        entry = catalog.entries.get(choices[at].record or "")
        if entry is None:
            say(f"action {at + 1} ({choices[at].text}) names no card")
            return
    elif game is None:
        say(f"? N shows the card of action N (1 to {len(choices)}), or ? KEY")
        return
    else:
        try:
            found = find_records(catalog, asked, game)
        except DeckbuilderError as error:
            say(str(error))
            return
        if not found:
            return
        entry = found[0]
    say("")
    for line in face_text(face(entry, catalog), max(text_width() - 2, 40)):
        say(f"  {line}")


def why_hint(view: Mapping[str, Any]) -> list[str]:
    """Under a play phase's choices, when cards in hand are not offered: that `w` says why."""
    count = len(view.get("not_offered") or ())
    if not count or view.get("decision") != "play phase":
        return []
    cards = "1 card in your hand is" if count == 1 else f"{count} cards in your hand are"
    return [f"(w: why {cards} not offered)"]


def why_lines(view: Mapping[str, Any]) -> list[str]:
    """Why each card in hand not offered cannot be played now: the engine's words, then the
    rules' words and their document, or its note that it is the engine's reading."""
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

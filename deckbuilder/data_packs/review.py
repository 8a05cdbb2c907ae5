"""A review of cards against the printed ones, without any I/O: which values to ask about, and
what an answer means (the printed value, `=` to confirm, Enter to skip, `q` to quit; engine
data can only be confirmed). The terminal and the web page ask the same questions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from deckbuilder.catalog import Entry
from deckbuilder.data_packs.layers import value_refused
from deckbuilder.data_packs.model import MAX_NAME
from deckbuilder.data_packs.standing import Standing, ValueStanding, value_standings
from deckbuilder.errors import DeckbuilderError
from deckbuilder.yamlio import parse_yaml, to_plain

CONFIRM = "="
QUIT = ("q", "quit")
_YES = ("yes", "y", "true")
_NO = ("no", "n", "false")
#: Unconfirmed values no answer can change: which set a record belongs to is not a field.
NOT_ASKED = frozenset({"set"})
MAX_ANSWER = 500
#: How a value of each type is typed (the first type it is wins: a bool is an int too).
_ANSWERS: tuple[tuple[type, str], ...] = (
    (bool, "yes or no"), (list, "a list like [a, b] ([] for none)"), (int, "a number"))


@dataclass(frozen=True)
class Question:
    """One unconfirmed value to read off the printed card."""

    record_id: str
    name: str  # the card's name as the catalog has it now
    field: str
    current: JsonValue  # the current reading
    engine_data: bool

    @property
    def label(self) -> str:
        return self.field.replace("_", " ")

    def hint(self) -> str:
        """How to answer, in a few words."""
        if self.engine_data:
            return "= if the card does what the text says, Enter skips"
        return next((words for kind, words in _ANSWERS if isinstance(self.current, kind)),
                    "the printed value") + ", = as shown, Enter skips"


@dataclass(frozen=True)
class CardReview:
    entry: Entry
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class Answer:
    """What a line typed means: `action` is value, confirm, skip or quit (`value` set for
    value and confirm), or refused (`reason` says why, in one line: ask again)."""

    action: str
    value: object = None
    reason: str = ""


def review_rows(entry: Entry, standings: frozenset[Standing]) -> list[ValueStanding]:
    """The record's values of these standings a player can read off the card, name first."""
    rows = [row for row in value_standings(entry)
            if row.standing in standings and row.field not in NOT_ASKED]
    return sorted(rows, key=lambda row: row.field != "name")


def questions_for(entry: Entry) -> tuple[Question, ...]:
    """The record's unconfirmed values a player can read off the card, the name first."""
    return tuple(Question(entry.id, entry.name, row.field, row.value, row.engine_data)
                 for row in review_rows(entry, frozenset({Standing.UNCONFIRMED})))


def cards_to_review(entries: Iterable[Entry]) -> list[CardReview]:
    """The cards among `entries` with something to ask, in the order given, each once."""
    first: dict[str, Entry] = {}
    for entry in entries:
        first.setdefault(entry.id, entry)
    return [CardReview(entry, questions) for entry in first.values()
            if (questions := questions_for(entry))]


def read_answer(entry: Entry, question: Question, text: str) -> Answer:
    """What `text` (one typed line) answers to `question` about `entry`'s record."""
    typed = text.strip()
    if not typed:
        return Answer("skip")
    if typed.lower() in QUIT:
        return Answer("quit")
    if typed == CONFIRM:
        return Answer("confirm", question.current)
    if len(typed) > MAX_ANSWER:
        return Answer("refused", reason=f"an answer is at most {MAX_ANSWER} characters")
    if question.engine_data:
        return Answer("refused", reason=(
            f"{question.label} is engine data (what the card does): type = if the card does "
            "what the text says, or Enter to skip; `deckbuilder overlay set` can change it"))
    try:
        value = _typed_value(question, typed)
    except DeckbuilderError as error:
        return Answer("refused", reason=error.message)
    reason = value_refused(entry.record, question.field, value,
                           "only = (as shown) confirms it here")
    return Answer("value", value) if reason is None else Answer("refused", reason=reason)


def _typed_value(question: Question, typed: str) -> object:
    if question.field == "name":
        if len(typed) > MAX_NAME:
            raise DeckbuilderError(f"a name is at most {MAX_NAME} characters")
        return typed  # a name is text as typed ("No", "3:15 Express")
    if isinstance(question.current, bool):
        if typed.lower() in _YES:
            return True
        if typed.lower() in _NO:
            return False
        raise DeckbuilderError("answer yes or no")
    value = to_plain(parse_yaml(typed, Path("answer")))
    if isinstance(value, dict) or (isinstance(value, list) and not all(
            isinstance(item, str | int) for item in value)):
        raise DeckbuilderError("give one value, or a list like [a, b]")
    return value


def shown(value: object) -> str:
    """A value as an answer would type it: `3`, `yes`, `[true-grit]`, `Deputy`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "[" + ", ".join(value) + "]"
    return json.dumps(value)

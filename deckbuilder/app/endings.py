"""How a game ended, in words a player uses: "the guardians are wiped out", not
`guardians_wiped_out`. Records and reports keep the engine's values; the faces (the web
table, the simulator's endings table) show these words.
"""

from __future__ import annotations

from deckbuilder.declared import DECLARATIONS

#: The engine's terminations as sentences: each game declares its own (its declaration's
#: `ending_words`); the two the table itself ends a game with are here. A value not listed (a
#: new game's that declares none) is shown with its underscores as spaces, never raw.
TABLE_ENDING_WORDS: dict[str, str] = {
    "card_effect": "a card says the other side has lost",
    "turn_cap": "the turn limit was reached",
}
ENDING_WORDS: dict[str, str] = {
    **TABLE_ENDING_WORDS,
    **{value: words for declaration in DECLARATIONS for value, words in declaration.ending_words},
}


def ending_words(termination: str | None) -> str:
    """`termination` (an engine value) as words; "" for none.

    >>> ending_words("guardians_wiped_out")
    'the guardians are wiped out'
    """
    if not termination:
        return ""
    text = str(termination)
    return ENDING_WORDS.get(text, text.replace("_", " "))


_SIDE_TITLES = {side.id: side.title for declaration in DECLARATIONS
                for side in declaration.sides}


def side_title(side: str | None) -> str:
    """A side as players name it ("the Colty gang"), "nobody" for no winner."""
    if side is None or side in ("", "nobody", "None"):
        return "nobody"
    return _SIDE_TITLES.get(side, side)


def outcome_sentence(winner: str | None, termination: str | None,
                     turns: int | None = None) -> str:
    """"General Mapache wins: the guardians are wiped out (after 23 turns)"; a game without
    a winner is a draw.

    >>> outcome_sentence(None, "turn_cap", 200)
    'a draw: the turn limit was reached (after 200 turns)'
    """
    head = f"{side_title(winner)} wins" if winner not in (None, "", "nobody", "None") else "a draw"
    words = ending_words(termination)
    after = f" (after {turns} turn{'s' if turns != 1 else ''})" if turns is not None else ""
    return f"{head}: {words}{after}" if words else f"{head}{after}"

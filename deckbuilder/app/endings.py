"""How a game ended, in words a player uses: "the guardians are wiped out", not
`guardians_wiped_out`. Records and reports keep the engine's values; the faces (the web
table, the simulator's endings table) show these words.
"""

from __future__ import annotations

from deckbuilder.declared import DECLARATIONS
from deckbuilder.sim.records.transcript import TABLE_ENDINGS

#: The engine's terminations as sentences: each game declares its own (its declaration's
#: `ending_words`); the two the table itself ends a game with are here. A value not listed (a
#: new game's that declares none) is shown with its underscores as spaces, never raw.
TABLE_ENDING_WORDS: dict[str, str] = {
    "card_effect": "a card says the other side has lost",
    "turn_cap": "the turn limit was reached",
    "resigned": "a player resigned",
    "abandoned": "both players left the table",
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
    a winner is a draw; a game a table ended says so (`table_ending_sentence`).

    >>> outcome_sentence(None, "turn_cap", 200)
    'a draw: the turn limit was reached (after 200 turns)'
    """
    if termination in TABLE_ENDINGS:
        return table_ending_sentence(winner, termination, turns)
    head = f"{side_title(winner)} wins" if winner not in (None, "", "nobody", "None") else "a draw"
    words = ending_words(termination)
    after = f" (after {turns} turn{'s' if turns != 1 else ''})" if turns is not None else ""
    return f"{head}: {words}{after}" if words else f"{head}{after}"


#: Each side's opponent, by side id (every game has two sides).
_OPPONENT = {side.id: other.id for declaration in DECLARATIONS
             for side, other in zip(declaration.sides, reversed(declaration.sides), strict=True)}


def table_ending_sentence(winner: str | None, termination: str | None,
                          turns: int | None = None) -> str:
    """How a table ended a game the engine had not ended (`sim.records.transcript.TABLE_ENDINGS`),
    with the sides as the table names them.

    >>> table_ending_sentence("colty", "resigned", 7)
    'mcready resigned at turn 7: colty wins'
    >>> table_ending_sentence(None, "abandoned", 3)
    'both players left the table at turn 3: nobody wins'
    >>> table_ending_sentence("mapache", "resigned", 0)  # Revolver 2's poker tournament
    'esteban resigned before the first turn: mapache wins'
    """
    at = "" if turns is None else " before the first turn" if turns == 0 else f" at turn {turns}"
    if termination == "resigned" and winner:
        return f"{_OPPONENT.get(winner, 'the other player')} resigned{at}: {winner} wins"
    return f"{ending_words(termination)}{at}: " + (f"{winner} wins" if winner else "nobody wins")

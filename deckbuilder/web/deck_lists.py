"""Text deck lists pasted into the editor: read with `deck import`'s parser, every line
labelled (`ok`, `merged`, `unknown` ...), and a typo offered its closest names as
replacement lines the user can accept by a click.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckbuilder.catalog import Catalog, normalise_name
from deckbuilder.decklists import (
    LineStatus,
    list_refusal,
    list_value,
    parse_text_or_json,
)
from deckbuilder.decks import FACTION_GAMES, game_of_faction
from deckbuilder.errors import DeckError, Location
from deckbuilder.web.deck_state import DeckState

#: The name errors about a pasted list give it (there is no file).
PASTED = Path("pasted list")
#: A list longer than this is no deck list (a deck has 62 cards; comments and headers aside).
MAX_LIST_LINES = 2000


@dataclass
class LabelledLine:
    number: int
    text: str
    status: str
    message: str
    suggestions: list[dict[str, str]] = field(default_factory=list)  # {name, line}


@dataclass
class ImportedList:
    state: DeckState | None  # None when the list makes no deck (no faction, no cards)
    lines: list[LabelledLine]
    problems: int
    error: str = ""


def _faction(text: str | None) -> str | None:
    """The faction chosen beside the list, folded as `deck import --faction` folds it."""
    if not text:
        return None
    folded = normalise_name(text).replace(" ", "")
    game_of_faction(folded if folded in FACTION_GAMES else text[:40], Location(PASTED))
    return folded


def import_text(catalog: Catalog, text: str, faction: str | None = None) -> ImportedList:
    """Read a pasted list as `deck import` reads a file; a list that makes no deck still
    comes back labelled, with `deck import`'s one-line error."""
    if text.count("\n") > MAX_LIST_LINES:
        raise DeckError(f"the list has more than {MAX_LIST_LINES} lines", Location(PASTED),
                        "paste one deck list")
    chosen = _faction(faction)
    deck_list = parse_text_or_json(text, catalog, chosen, PASTED)
    game = FACTION_GAMES.get(deck_list.faction or "")
    lines = []
    for line in deck_list.lines:
        if line.status in (LineStatus.BLANK, LineStatus.COMMENT):
            continue
        labelled = LabelledLine(line.number, line.text, str(line.status), line.message)
        if line.status == LineStatus.UNKNOWN and line.card:
            # the very call the importer makes for its "did you mean" (decklists._CardReader)
            labelled.suggestions = [
                {"name": name, "line": f"{line.count}x {list_value(name)}"}
                for name in catalog.suggest(line.card, kind="card", game=game,
                                            faction=deck_list.faction)]
        lines.append(labelled)
    problems = len(deck_list.problems)
    refused = list_refusal(deck_list, PASTED, "choose the faction")
    if refused is not None or deck_list.faction is None:
        return ImportedList(None, lines, problems, str(refused))
    state = DeckState(name=deck_list.name or "imported deck", game=FACTION_GAMES[
        deck_list.faction], faction=deck_list.faction, cards=list(deck_list.cards.items()),
        sets=deck_list.sets, description=deck_list.description)
    state.model()  # what the list held must make a deck file (as `deck import` checks)
    return ImportedList(state, lines, problems)


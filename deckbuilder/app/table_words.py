"""The game table in a player's words: endings ("the guardians are wiped out", not
`guardians_wiped_out`), the marker's space, the characters with their survival ratings, hand
cards and actions with their cost and firepower (`card_face.one_line`). Records and reports
keep the engine's values: only what a player reads is worded here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from deckbuilder.app.endings import outcome_sentence
from deckbuilder.card_face import one_line
from deckbuilder.card_face.text import player_mark
from deckbuilder.catalog import Catalog
from deckbuilder.engine.observe import EVERYTHING
from deckbuilder.engine.state import State
from deckbuilder.sim.records.choices import action_card_id
from deckbuilder.sim.records.session_view import ViewWords, position_view, view_lines, whose_hand

_GAME_OVER = re.compile(
    r"^(?P<indent>\s*)game over: (?P<winner>\S+) wins \((?P<ending>[a-z0-9_]+)\)$")


def worded_line(line: str) -> str:
    """A log line with the engine's "game over: mcready wins (gang_wiped_out)" in words;
    any other line as it is."""
    found = _GAME_OVER.match(line)
    if found is None:
        return line
    return f"{found['indent']}game over: {outcome_sentence(found['winner'], found['ending'])}"


def space_words(space: str, characters: Sequence[Mapping[str, object]] = ()) -> str:
    """The marker's space: "space 3", "the extra space (-)", or a face space by the
    character whose face it is ("\"Skinny\" Landell's face space")."""
    if space.isdigit():
        return f"space {space}"
    if space in ("-", ""):
        return "the extra space (-)"
    for character in characters:
        if space in str(character.get("id", "")).split("-"):
            return f"{character['name']}'s face space"
    return f"the {space.replace('-', ' ').title()} face space"


def card_summary(catalog: Catalog | None, card_id: str, mark: str | None = None) -> str:
    """`one_line` without the name: "cost 1 discard, firepower 2 (white)"; "" for a record
    the catalog (None: none) does not hold. `mark` marks a value a player confirmed (None:
    `player_mark`, what standard output can write)."""
    entry = catalog.entries.get(card_id) if catalog is not None else None
    if entry is None:
        return ""
    line = one_line(entry, player_mark() if mark is None else mark)
    cut = line.find(" - ", len(entry.record.name))
    return line[cut + 3:] if cut >= 0 else ""


class PlayerWords(ViewWords):
    """`session_view.view_lines` in a player's words: the marker's space, the characters
    with survival ratings, the hand and the poker cards with their costs, firepower and
    values (`card_summary`, unconfirmed values marked), the ending in words."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog

    def marker(self, view: dict[str, Any]) -> str:
        marker = view["marker"]
        return (f"marker: {marker['name']}, "
                f"{space_words(str(marker['space']), view['characters']['list'])}")

    def character(self, character: dict[str, Any]) -> str:
        """A character of the view with its survival rating and tokens."""
        extras = [f"survival {character['survival']}"]
        extras += [f"{kind.replace('_', ' ')} {character[kind]}"
                   for kind in ("true_grit", "power") if character.get(kind)]
        return f"{character['name']} ({', '.join(extras)})"

    def hand(self, view: dict[str, Any]) -> list[str]:
        """The person's hand, a line per card (copies counted) with its cost and firepower."""
        counts = Counter(card["id"] for card in view["hand"])
        names = {card["id"]: card["name"] for card in view["hand"]}
        symbols = "".join(f"; {kind} in hand: {count}"
                          for kind, count in view.get("symbols_in_hand", {}).items())
        lines = [f"{whose_hand(view)} ({len(view['hand'])}{symbols}){':' if counts else ': -'}"]
        for card_id, count in counts.items():
            summary = card_summary(self.catalog, card_id)
            lines.append(f"  {names[card_id]}{f' x{count}' if count > 1 else ''}"
                         + (f" - {summary}" if summary else ""))
        return lines

    def piece(self, piece_id: str, name: str) -> str:
        summary = card_summary(self.catalog, piece_id)
        return f"{name} ({summary})" if summary else name

    def outcome(self, view: dict[str, Any]) -> str:
        outcome = view["outcome"]
        return f"game over: {outcome_sentence(outcome['winner'], outcome['termination'])}"


def choice_words(state: State, action: int, text: str, catalog: Catalog | None) -> str:
    """An action as the person reads it: one that plays a card adds its cost and firepower,
    one that shows a card of the game's own (a poker card) its value and effect."""
    layout = state.spec.layout
    if not (layout.play_base <= action < layout.pay_base
            or layout.game_base <= action < layout.size):
        return text
    card_id = action_card_id(state, action)
    summary = card_summary(catalog, card_id) if card_id else ""
    return f"{text} - {summary}" if summary else text


def named_position_lines(state: State, catalog: Catalog | None = None) -> list[str]:
    """The whole position with everything open (both hands, the cards face down), as
    `view_lines` draws a seat's, in a player's words: `play`'s final position and the replay
    viewers' "everything". The omniscient record (`engine.position`) keeps its ids and
    numbers for scenario files and golden transcripts."""
    return view_lines(position_view(state, EVERYTHING), PlayerWords(catalog))

"""The game table in a player's words (endings, the marker's space, survival ratings, cards'
costs and firepower); records and reports keep the engine's values.
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
    """A log line with the engine's "game over: ... (gang_wiped_out)" in words."""
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
    """`one_line` without the name ("cost 1 discard, firepower 2 (white)"); "" for a record
    the catalog does not hold. `mark` marks a confirmed value (None: `player_mark`)."""
    entry = catalog.entries.get(card_id) if catalog is not None else None
    if entry is None:
        return ""
    line = one_line(entry, player_mark() if mark is None else mark)
    cut = line.find(" - ", len(entry.record.name))
    return line[cut + 3:] if cut >= 0 else ""


class PlayerWords(ViewWords):
    """`session_view.view_lines` in a player's words (unconfirmed values marked)."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog

    def marker(self, view: dict[str, Any]) -> str:
        marker = view["marker"]
        return (f"marker: {marker['name']}, "
                f"{space_words(str(marker['space']), view['characters']['list'])}")

    def character(self, character: dict[str, Any]) -> str:
        extras = [f"survival {character['survival']}"]
        extras += [f"{kind.replace('_', ' ')} {character[kind]}"
                   for kind in ("true_grit", "power") if character.get(kind)]
        return f"{character['name']} ({', '.join(extras)})"

    def hand(self, view: dict[str, Any]) -> list[str]:
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
    """An action as the person reads it, with the card it plays or shows summarised."""
    layout = state.spec.layout
    if not (layout.play_base <= action < layout.pay_base
            or layout.game_base <= action < layout.size):
        return text
    card_id = action_card_id(state, action)
    summary = card_summary(catalog, card_id) if card_id else ""
    return f"{text} - {summary}" if summary else text


def named_position_lines(state: State, catalog: Catalog | None = None) -> list[str]:
    """The whole position with everything open, in a player's words."""
    return view_lines(position_view(state, EVERYTHING), PlayerWords(catalog))

"""A new friend table from the page's form or the API's JSON, read as `deckbuilder play` reads
its options. A deck that breaks the deck-building rules is taken only when the server allows
it (`WebConfig.allow_illegal`): the friend should not meet a deck the rules forbid unless
whoever runs the server said so.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from deckbuilder.sim.records.session import GameSession
from deckbuilder.web.config import WebConfig
from deckbuilder.web.simulator import SimulationInputError
from deckbuilder.web.table_form import form_game, form_setup

#: A table's seed is drawn by the server from this range and shown to nobody until the
#: end: whoever knew it could deal the game out and read the other seat's hand.
SEED_RANGE = 10**15


class FormOfJson:
    """The API's JSON body read like the page's form (`get`, `getlist`, the form's names);
    `switches`/`modules` lists are taken too."""

    def __init__(self, data: Mapping[str, JsonValue]) -> None:
        self.data = dict(data)
        for plural, single in (("switches", "switch"), ("modules", "module")):
            if plural in self.data:
                self.data.setdefault(single, self.data[plural])

    def get(self, name: str, default: object = None) -> Any:
        value = self.data.get(name, default)
        if isinstance(value, list):
            return value[0] if value else default
        if isinstance(value, bool):
            return "on" if value else ""
        return value

    def getlist(self, name: str) -> list[Any]:
        value = self.data.get(name)
        if value is None:
            return []
        if isinstance(value, Mapping):  # switches as {id: value}
            return [f"{key}={each}" for key, each in value.items()]
        return list(value) if isinstance(value, list) else [value]


@dataclass
class NewTable:
    """What `TableStore.create` needs."""

    session: GameSession
    creator: str
    heading: str
    deck_names: dict[str, str]


def new_table(config: WebConfig, form: Any) -> NewTable:
    """The form's table, set up as `deckbuilder play --human A --human B` would set it up."""
    from deckbuilder.sim.records.session import HUMAN

    name, game = form_game(form)
    sides = game.side_names
    seat = str(form.get("seat") or sides[0]).strip().lower()
    if seat not in sides:
        raise SimulationInputError(f"unknown seat '{seat[:40]}'",
                                   fix=f"take {' or '.join(sides)}")
    seed = secrets.randbelow(SEED_RANGE)  # never the creator's: a known seed tells the deal
    wants_illegal = str(form.get("allow_illegal") or "") in ("on", "true", "1")
    if wants_illegal and not config.allow_illegal:
        raise SimulationInputError(
            "this server does not allow decks that break the deck-building rules at a "
            "friend's table", fix="choose decks that keep the deck-building rules (whoever "
                                  "runs the server may allow others)")
    setup = form_setup(config, form, name, game, wants_illegal)
    session = setup.session(seed, [HUMAN, HUMAN], viewer=None)
    names = {side: deck.name for side, deck in zip(sides, setup.decks, strict=True)}
    return NewTable(session, seat, setup.heading(["", ""]), names)

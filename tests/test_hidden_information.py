"""Hidden information is the engine's: at every step of many random and greedy games of both
games, with every module, nothing a player is shown (the position, the log, the action texts)
names a card he could not know: the opponent's hand and deck, a card lying face down that is
not his, the guardian pile, the opponent's poker cards.

A name counts as known once a card of that name has lain where the player sees it (his hand,
the table face up, the discard piles: read from the state, not from a view under test) or is
in his own deck list; a hidden card's name that he has never seen must
not reach him. Names that are part of another, known name are left out (no false alarms)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.engine.addons import is_hidden
from deckbuilder.games import get_game
from deckbuilder.sim.records.session import GameSession

REVOLVER_MODULES = [(), ("ambushes",), ("san-manzanillo-prison-rules",), ("saloon-duel",),
                    ("saloon-duel", "mcreadys-choice"), ("frontier-deck",),
                    ("frontier-deck-cards",),
                    ("silver-dollars",), ("ambushes", "saloon-duel", "silver-dollars")]
CONFIGS = ([("revolver", modules) for modules in REVOLVER_MODULES]
           + [("revolver2", ())])


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


def _hidden_from(state: Any, player: int) -> set[str]:
    """The names of what `player` cannot see now: the opponent's hand and deck, cards face
    down that are not his, the opponent's poker cards. (The guardian pile's characters are
    known, as the box's; its order is not a name: `observe` keeps it, tested elsewhere.)"""
    spec = state.spec
    opponent = 1 - player
    uids = [*state.hands[opponent], *state.decks[opponent]]
    uids += [uid for uid in range(len(spec.card_def))
             if state.placed[uid] is not None and is_hidden(state, uid)
             and spec.owner[uid] != player]
    names = {spec.card_def[uid].name for uid in uids}
    tournament = state.game_data
    poker = getattr(getattr(spec, "facts", None), "poker", ())
    if poker and hasattr(tournament, "hands") and getattr(tournament, "winner", 0) < 0:
        played = set(tournament.played[opponent])
        names |= {poker[card].name for card in tournament.hands[opponent] if card not in played}
        names.add(poker[tournament.set_aside[opponent]].name)
    return names


def _own_deck_names(state: Any, player: int) -> set[str]:
    """What a player knows before the first card: his own deck list, and the game's own
    pieces and characters as the box has them (the poker cards each side may hold, not who
    holds which; the guardians, not the pile's order)."""
    spec = state.spec
    poker = getattr(getattr(spec, "facts", None), "poker", ())
    return ({spec.card_def[uid].name for uid in range(len(spec.card_def))
             if spec.owner[uid] == player} | {card.name for card in poker}
            | {character.name for character in spec.characters})


def _seen_by(state: Any, player: int) -> set[str]:
    """The names of the cards lying where `player` sees them now (read from the state, not
    from any view under test): his hand, the cards in play that are not face down (or are
    his), both discard piles, the removed cards, the characters out of the pile."""
    spec = state.spec
    uids = [*state.hands[player], *state.discards[0], *state.discards[1],
            *state.removed[0], *state.removed[1], *state.limbo]  # limbo: being played
    uids += [uid for row in state.rows for uid in row
             if not is_hidden(state, uid) or spec.owner[uid] == player]
    names = {spec.card_def[uid].name for uid in uids}
    return names


def _check_games(catalog: Any, game: str, modules: tuple[str, ...],
                 runs: tuple[tuple[int, str], ...]) -> int:
    """Play `runs` (seed, bot) and check both players at every step; the checks made."""
    sides = get_game(game).side_names
    decks = [catalog.base_deck(game, side) for side in sides]
    checked = 0
    for seed, bots in runs:
        session = GameSession(decks, seed, [bots, bots], catalog=catalog, game=game,
                              modules=modules, max_turns=60)
        known = [_own_deck_names(session.state, player) for player in (0, 1)]
        read = [0, 0]
        while True:
            for player in (0, 1):
                view = session.view(player)
                view.pop("piece_names", None)  # every poker card's name: the box's contents
                for reason in view.get("not_offered", []):
                    reason.pop("rules")  # the rule documents' own words, which name leaders
                known[player] |= _seen_by(session.state, player)
                events = session.events(player, read[player])
                read[player] += len(events)
                shown = json.dumps(view) + "\n" + "\n".join(
                    line for event in events
                    for line in (*event.lines, event.action or ""))
                if session.to_move() == player and session.decision() == "name a card":
                    # naming a card offers every card the opponent could hold: his deck list,
                    # which this engine treats as known (not where his cards lie)
                    known[player] |= {choice.text.removeprefix("name ")
                                      for choice in session.choices()}
                elif session.to_move() == player:
                    shown += "\n" + "\n".join(choice.text for choice in session.choices())
                secret = {name for name in _hidden_from(session.state, player) - known[player]
                          if not any(name in other for other in known[player])}
                leaked = sorted(name for name in secret if name in shown)
                assert not leaked, (f"{game} {modules} seed {seed}, {sides[player]} is shown "
                                    f"{leaked} at turn {session.state.turn}")
                checked += 1
            if session.is_over():
                break
            session.advance(max_steps=1)
    return checked


@pytest.mark.parametrize(("game", "modules"), CONFIGS,
                         ids=[f"{game}-{'+'.join(modules) or 'none'}" for game, modules in CONFIGS])
def test_nothing_shown_names_a_card_the_player_cannot_know(catalog: Any, game: str,
                                                           modules: tuple[str, ...]) -> None:
    runs = ((1, "random"), (2, "random"), (3, "random"), (4, "greedy"))
    assert _check_games(catalog, game, modules, runs) > 200


def test_the_check_catches_a_log_that_shows_the_opponents_draws(
        catalog: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: with every log line shown to both players (no visibility), the
    opponent's drawn cards are caught at once."""
    from deckbuilder.sim.records import session as session_module

    monkeypatch.setattr(session_module, "visible_log", lambda lines, viewer: list(lines))
    with pytest.raises(AssertionError, match="is shown"):
        _check_games(catalog, "revolver", (), ((1, "random"),))

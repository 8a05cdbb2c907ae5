"""One view of a position per viewer: the engine's `observe` is the only source of what a seat,
a spectator or "everything" sees, and every face (the terminal's lines, the web tables' JSON,
the replay viewer's JSON and its "everything" lines, `join`'s lines of the JSON API's view)
shows the same public values.

Along seeded games of both games (greedy bots), at a few hundred positions: the firepower at
each battlefield, the marker, the battlefield row (or that it is not chosen yet, before
Revolver 2's poker tournament chose it), the countdown, the pieces used and the characters
alive agree between every viewer and every face, and with the engine's own state.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from deckbuilder.app.table_answers import SeatView
from deckbuilder.app.table_words import PlayerWords
from deckbuilder.catalog import build_catalog
from deckbuilder.engine.board import firepower
from deckbuilder.engine.log_lines import SPECTATOR
from deckbuilder.games import get_game
from deckbuilder.sim.records.replay_steps import ReplaySteps
from deckbuilder.sim.records.session import GameSession
from deckbuilder.sim.records.session_view import view_lines
from deckbuilder.web.friends.seats import seat_view
from deckbuilder.web.friends.tables import SPECTATOR as SPECTATOR_ROLE
from deckbuilder.web.replays import Replay, step_state

GAMES = [("revolver", 3), ("revolver2", 5), ("revolver2", 8)]
#: positions looked at in each game (the first ones all: Revolver 2's poker tournament)
POSITIONS = 150
REPLAY_POSITIONS = 25
#: a battlefield's line in the terminal: "> Name (defence 2; firepower esteban 2, mapache 3)"
HEAD = re.compile(r"^[> ] (?P<name>.+?) \(defence (?P<defence>\d+); firepower (?P<fp>[^)]*)\)")


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


def public_values(view: dict[str, Any]) -> dict[str, Any]:
    """What every viewer of a position sees alike."""
    known = view["row_known"]
    return {
        "turn": view["turn"], "to_act": view["to_act"], "row_known": known,
        "row_choices": view.get("row_choices"),
        "firepower": {bf["id"]: bf["firepower"] for bf in view["battlefields"]},
        "defence": {bf["id"]: bf["defence"] for bf in view["battlefields"]},
        "marker": (view["marker"]["battlefield"], view["marker"]["space"]) if known else None,
        "marked": [bf["id"] for bf in view["battlefields"] if bf["marker"]],
        "countdown": view["countdown"]["tokens"],
        "pieces_used": view["pieces_used"],
        "alive": sorted(c["id"] for c in view["characters"]["list"] if c["alive"]),
        "decks": view["decks"],
    }


def engine_values(state: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The same values read from the engine's state itself."""
    names = state.spec.game_rules.side_names
    shown = {bf["id"] for bf in view["battlefields"]}
    return {
        "firepower": {bf.id: {names[p]: firepower(state, bf.idx, p) for p in (0, 1)}
                      for bf in state.spec.bfs if bf.id in shown},
        "countdown": state.countdown,
        "alive": sorted(c.id for c in state.spec.characters if state.alive[c.idx]),
    }


def terminal_values(lines: list[str], view: dict[str, Any]) -> dict[str, Any]:
    """The firepower and the marker as the terminal's lines say them."""
    by_name = {bf["name"]: bf["id"] for bf in view["battlefields"]}
    found: dict[str, Any] = {}
    marked = []
    for line in lines:
        head = HEAD.match(line)
        if head is None:
            continue
        bf_id = by_name[head["name"]]
        found[bf_id] = {who: int(n) for who, n in
                        (part.rsplit(" ", 1) for part in head["fp"].split(", "))}
        if line.startswith(">"):
            marked.append(bf_id)
    return {"firepower": found, "marked": marked}


def check_lines(lines: list[str], view: dict[str, Any]) -> None:
    """The terminal's lines carry the view's numbers, and no other firepower."""
    said = terminal_values(lines, view)
    values = public_values(view)
    for bf_id, fp in said["firepower"].items():
        assert fp == values["firepower"][bf_id], (bf_id, lines)
    assert said["marked"] == values["marked"], lines
    assert not any("firepower here" in line for line in lines), lines
    chosen_line = any(line.startswith("marker:") for line in lines)
    assert chosen_line == view["row_known"], lines
    assert any("not chosen yet" in line for line in lines) == (not view["row_known"]), lines
    assert f"tokens: {values['countdown']}" in lines[1]


def live_positions(catalog: Any, game: str, seed: int) -> tuple[Any, dict[int, dict]]:
    """A game of two greedy bots, one step at a time; at the positions looked at, every
    viewer's view from every face that serves one live."""
    decks = [catalog.base_deck(game, side) for side in get_game(game).side_names]
    session = GameSession(decks, seed, ["greedy", "greedy"], catalog=catalog, game=game,
                          viewer=None)
    names = session.names
    seen: dict[int, dict] = {}
    while True:
        position = len(session.record.steps)
        if position < 12 or position % 3 == 0:
            views = {viewer: session.view(viewer) for viewer in (0, 1, None, SPECTATOR)}
            views["friend spectator"] = seat_view(session, SPECTATOR_ROLE)
            views["friend seat"] = seat_view(session, names[1])
            views["engine"] = engine_values(session.state, views[0])
            seen[position] = views
        if session.is_over() or len(seen) >= POSITIONS:
            return session, seen
        session.advance(max_steps=1)


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_every_viewer_and_every_face_shows_one_position_alike(catalog: Any, game: str,
                                                              seed: int) -> None:
    session, seen = live_positions(catalog, game, seed)
    assert len(seen) >= 40
    if game == "revolver2":  # the poker tournament was looked at, and the row after it
        assert {views[0]["row_known"] for views in seen.values()} == {False, True}
    words = PlayerWords(catalog)
    for position, views in seen.items():
        engine = views.pop("engine")
        expected = public_values(views[0])
        for viewer, view in views.items():
            assert public_values(view) == expected, (position, viewer)
            check_lines(view_lines(view, words), view)
        for seat in (0, 1):  # `join` draws the JSON API's view as `play --human` draws its own
            answer = SeatView.model_validate(json.loads(json.dumps(views[seat])))
            assert view_lines(answer.model_dump(by_alias=True), words) == \
                view_lines(views[seat], words), (position, seat)
        assert {key: expected[key] for key in engine} == engine, position
        if not expected["row_known"]:
            assert expected["marked"] == [] and expected["marker"] is None
            assert views[0]["row_choices"], position
    # the replay viewer's JSON (each viewer's view and the lines of everything)
    steps = ReplaySteps(session.record, catalog)
    replay = Replay("test", steps, "a test", catalog)
    looked = sorted(seen)[:: max(1, len(seen) // REPLAY_POSITIONS)]
    for position in looked:
        expected = public_values(seen[position][0])
        for viewer in (0, 1, None):
            answer = step_state(replay, position, viewer)
            assert public_values(answer["view"]) == expected, (position, viewer)
            if viewer is None:
                whole = ["".join(text for text, _ in line) for line in answer["whole"]]
                check_lines(whole, answer["view"])


def test_everything_sees_both_hands_and_the_cards_face_down_a_seat_does_not(
        catalog: Any) -> None:
    _, seen = live_positions(catalog, "revolver2", 5)
    position = max(seen)
    everything, first, second = seen[position][None], seen[position][0], seen[position][1]
    assert everything["hand"] == first["hand"] and everything["other_hand"] == second["hand"]
    spectator = seen[position][SPECTATOR]
    assert "other_hand" not in first and "other_hand" not in spectator
    # what no player saw: each deck's next cards, the pile in the order it comes
    assert set(everything["deck_tops"]) == set(first["players"])
    assert all(len(top) == min(3, everything["decks"][who])
               for who, top in everything["deck_tops"].items())
    assert "deck_tops" not in first and "deck_tops" not in spectator
    assert sorted(everything["characters"]["in_pile"]) == first["characters"]["in_pile"]
    assert spectator["player"] is None and spectator["hand"] == []
    assert spectator["hand_sizes"] == {name: len(view["hand"]) for name, view in
                                       zip(first["players"], (first, second), strict=True)}

"""`GameSession`: the step-wise game that `play --human` and the web table drive. A session of
two bots is `play_game`'s game; a human's answers are checked; what a human is shown keeps
the opponent's hand secret; the record replays."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game
from deckbuilder.sim.records.session import (
    GameOverError,
    GameSession,
    IllegalChoiceError,
    OutOfTurnError,
    play_game,
    replay_record,
)
from deckbuilder.sim.records.session_view import view_lines
from deckbuilder.sim.records.transcript import read_record


@pytest.fixture(scope="module")
def catalog():
    return build_catalog()


def base_decks(catalog, game: str) -> list[dict[str, int]]:
    return [catalog.base_deck(game, side) for side in get_game(game).side_names]


def play_randomly(session: GameSession, seed: int = 0) -> list:
    """Answer every human decision at random; every event the session returned."""
    rng = random.Random(seed)
    shown = list(session.advance())
    while not session.is_over():
        assert session.waiting_for() is not None
        # in the engine's order: the path does not hang on the order the faces list them
        shown += session.act(rng.choice(sorted(session.choices(), key=lambda c: c.action))
                             .action)
    return shown


@pytest.mark.parametrize(("game", "bots", "seed"), [
    ("revolver", ("greedy", "random"), 4), ("revolver", ("random", "random"), 11),
    ("revolver2", ("random", "greedy"), 3),
])
def test_a_session_of_two_bots_is_the_game_play_plays(catalog, game, bots, seed) -> None:
    decks = base_decks(catalog, game)
    _, expected = play_game(decks, seed, bots, catalog=catalog, game=game)
    session = GameSession(decks, seed, bots, catalog=catalog, game=game)
    assert session.waiting_for() is None
    session.advance()
    assert session.is_over()
    got = session.record
    assert [(s.player, s.action, s.text) for s in got.steps] == \
        [(s.player, s.action, s.text) for s in expected.steps]
    assert (got.winner, got.termination, got.turns) == \
        (expected.winner, expected.termination, expected.turns)
    assert session.record_jsonl().splitlines()[1:] == expected.to_jsonl().splitlines()[1:]
    assert session.outcome_text().startswith(f"{got.winner or 'nobody'} wins")



def test_play_game_seats_bots_only(catalog) -> None:
    """`play_game` plays through a session, but a "human" seat is no bot there: refused as
    `make_bot` refuses an unknown bot, before anything is narrated."""
    from deckbuilder.bots import BotSpecError

    told: list[object] = []
    with pytest.raises(BotSpecError, match="unknown bot 'human'"):
        play_game(base_decks(catalog, "revolver"), 1, ("human", "random"), catalog=catalog,
                  narrate=lambda *given: told.append(given))
    assert told == []

def test_a_bot_seat_draws_the_same_stream_whoever_sits_opposite(catalog) -> None:
    """A human who answers as the bot would have keeps the bot on the other side playing
    the very same game: the bots' seeded streams do not depend on the other seat."""
    decks = base_decks(catalog, "revolver")
    _, expected = play_game(decks, 8, ("random", "random"), catalog=catalog)
    moves = iter([(s.player, s.action) for s in expected.steps])
    session = GameSession(decks, 8, ["random", "human"], catalog=catalog)
    session.advance()
    played = 0
    while not session.is_over():
        _, action = next(m for m in moves if m[0] == "mcready")
        session.act(action)
        played += 1
    assert played > 5
    assert [(s.player, s.action) for s in session.record.steps] == \
        [(s.player, s.action) for s in expected.steps]


@pytest.mark.parametrize(("game", "human"), [("revolver", "mcready"), ("revolver", "colty"),
                                            ("revolver2", "esteban"), ("revolver2", "mapache")])
def test_a_human_game_records_and_replays(catalog, tmp_path: Path, game, human) -> None:
    names = get_game(game).side_names
    seats = ["human" if side == human else "random" for side in names]
    session = GameSession(base_decks(catalog, game), 21, seats, catalog=catalog, game=game)
    assert session.viewer == names.index(human)
    play_randomly(session, seed=5)
    assert session.choices() == []
    path = tmp_path / "game.jsonl"
    path.write_text(session.record_jsonl(), encoding="utf-8")
    record = read_record(path)
    assert record.bots[human] == "human"
    assert record.bots[names[1 - names.index(human)]] == "random"
    assert len(record.steps) == len(session.record.steps) > 10
    result = replay_record(record, catalog)
    assert result.mismatch is None
    assert result.steps == len(record.steps)


def test_answers_out_of_turn_illegal_or_after_the_end_are_refused(catalog) -> None:
    session = GameSession(base_decks(catalog, "revolver"), 2, ["random", "human"],
                          catalog=catalog)
    assert session.to_move() == 0 and session.waiting_for() is None
    with pytest.raises(OutOfTurnError, match="colty is a bot"):
        session.act(0)
    session.advance()
    assert session.waiting_for() == 1
    steps = len(session.record.steps)
    legal = {choice.action for choice in session.choices()}
    for bad in (max(legal) + 1, -1, True, "0", 0.0):
        with pytest.raises(IllegalChoiceError) as refused:
            session.act(bad)  # type: ignore[arg-type]
        assert "\n" not in str(refused.value) and "not legal" in str(refused.value)
        assert isinstance(refused.value, DeckbuilderError)
    with pytest.raises(OutOfTurnError, match="mcready's decision, not colty's"):
        session.act(min(legal), player="colty")
    assert len(session.record.steps) == steps  # nothing was applied by the refusals
    assert session.waiting_for() == 1
    session.act(min(legal), player="mcready")
    assert len(session.record.steps) > steps
    play_randomly(session)
    with pytest.raises(GameOverError):
        session.act(0)


def test_advance_can_step_two_bots_one_action_at_a_time(catalog) -> None:
    session = GameSession(base_decks(catalog, "revolver"), 3, ["random", "random"],
                          catalog=catalog)
    first = session.advance(max_steps=1)
    assert [event.index for event in first] == [None, 0]  # the set-up, then one action
    assert len(session.record.steps) == 1 and not session.is_over()
    second = session.advance(max_steps=2)
    assert [event.index for event in second] == [1, 2]
    assert session.viewer is None  # nobody is human: nothing is hidden from the onlooker
    assert any("colty draws " in line and "cards" not in line
               for event in first for line in event.lines)


def test_choices_are_the_legal_actions_with_their_texts(catalog) -> None:
    session = GameSession(base_decks(catalog, "revolver"), 2, ["human", "random"],
                          catalog=catalog)
    session.advance()
    choices = session.choices()
    state = session.state
    assert sorted(c.action for c in choices) == state.legal_actions()
    assert all(c.text == state.action_to_string(c.action) for c in choices)
    groups = {c.text.split()[0]: c.group for c in choices}
    assert groups["end"] == "pass" and groups["play"] == "play"
    assert session.decision() == "play phase"
    # by kind (plays, then passing: the pass is the engine's first action, the faces' last),
    # each with a key naming its card
    assert [c.group for c in choices] == ["play"] * (len(choices) - 1) + ["pass"]
    assert [c.key for c in choices if c.group == "play"] == [c.record for c in choices
                                                             if c.group == "play"]
    assert choices[-1].key == "pass" and len({c.key for c in choices}) == len(choices)


def test_a_card_keeps_its_key_and_a_give_up_comes_after_the_plays(catalog) -> None:
    """Across a whole game's decisions: a key always names the same card's same kind of
    choice, and the kinds come in one order (plays, abilities, giving up, passing)."""
    from deckbuilder.sim.records.choices import KIND_RANK

    session = GameSession(base_decks(catalog, "revolver2"), 5, ["human", "random"],
                          catalog=catalog, game="revolver2")
    session.advance()
    meaning: dict[str, tuple[str, str]] = {}
    rng = random.Random(5)
    gave_up = 0
    while not session.is_over():
        choices = session.choices()
        ranks = [KIND_RANK.get(c.group, 0) for c in choices]
        assert ranks == sorted(ranks), [c.group for c in choices]
        for choice in choices:
            assert meaning.setdefault(choice.key, (choice.group, choice.record)) == \
                (choice.group, choice.record), choice.key
        gave_up += any(c.group == "discard-own" for c in choices)
        session.act(rng.choice(sorted(choices, key=lambda c: c.action)).action)
    assert gave_up and len(meaning) > 10


#: A log line that shows a card: played (it may come back to hand unseen before a human
#: decides again), reacted with or turned over.
PLAYED = re.compile(r"^\S+ (?:plays|reacts with) (.+?)(?: at once)?$")


def _hand_names(session: GameSession, player: int) -> set[str]:
    state = session.state
    return {state.spec.card_def[uid].name for uid in state.hands[player]}


def _public_names(session: GameSession, player: int) -> set[str]:
    """Names of `player`'s cards that lie open now: in play, discarded, removed."""
    state = session.state
    defs = state.spec.card_def
    uids = [*state.discards[player], *state.removed[player]]
    uids += [uid for row in state.rows for uid in row if state.spec.owner[uid] == player]
    return {defs[uid].name for uid in uids}


@pytest.mark.parametrize(("game", "human", "seed"), [("revolver", "mcready", 6),
                                                     ("revolver", "colty", 9),
                                                     ("revolver2", "mapache", 4)])
def test_what_a_human_is_shown_never_names_a_card_hidden_in_the_opponents_hand(
        catalog, game, human, seed) -> None:
    names = get_game(game).side_names
    me = names.index(human)
    them = 1 - me
    seats = ["human" if side == human else "random" for side in names]
    session = GameSession(base_decks(catalog, game), seed, seats, catalog=catalog, game=game)
    spec = session.state.spec
    # names of theirs that are also words of the table anyone may read: not a leak
    innocent = " ".join([*(d.name for u, d in enumerate(spec.card_def)
                           if spec.owner[u] != them), *(b.name for b in spec.characters),
                         *(bf.name for bf in spec.bfs)])
    revealed: set[str] = set()  # theirs that lay open at some time, or were played
    shown_text = ""
    leaks_unredacted = 0
    rng = random.Random(seed)
    events = session.advance()
    while True:
        revealed |= _public_names(session, them)
        revealed |= {match[1] for event in events for line in event.lines
                     if (match := PLAYED.match(line))}
        shown_text += "\n".join(line for event in events for line in
                                [*(event.text_lines()), json.dumps(event.to_dict())])
        if session.waiting_for() is not None:
            shown_text += json.dumps(session.view(me)) + "\n".join(view_lines(session.view(me)))
            shown_text += "\n".join(c.text for c in session.choices())
        secret = {name for name in _hand_names(session, them) - revealed
                  if name not in innocent}
        leaked = sorted(name for name in secret if name in shown_text)
        assert not leaked, f"shown to {human} while still in {names[them]}'s hand: {leaked}"
        everything = "\n".join(line for e in session.events(None) for line in e.lines)
        leaks_unredacted += any(name in everything for name in secret)
        if session.is_over():
            break
        events = session.act(rng.choice(session.choices()).action)
    # the check has teeth: the onlooker's log does name cards that were hidden from the human
    assert leaks_unredacted > 0
    assert f"{names[them]} draws " in shown_text


def test_the_guardians_poker_card_stays_face_down_until_both_have_chosen(catalog) -> None:
    session = GameSession(base_decks(catalog, "revolver2"), 5, ["random", "human"],
                          catalog=catalog, game="revolver2")
    events = session.advance()
    chosen = [event for event in events if event.player == "esteban"]
    assert [event.action for event in chosen] == ["chooses a poker card face down"]
    full = session.events(None)[chosen[0].index + 1]  # the onlooker's copy of the step
    assert full.action is not None and "poker card" in full.action \
        and full.action != chosen[0].action
    view = session.view("mapache")
    assert view["game_pieces"]["poker_face_down"] == "chosen"
    assert "Esteban poker card" not in json.dumps(view["game_pieces"]["poker_hand"])
    texts = [choice.text for choice in session.choices()]
    assert texts and all(text.startswith("show ") and "Esteban" not in text for text in texts)


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_the_view_is_the_table_as_one_player_sees_it(catalog, game) -> None:
    names = get_game(game).side_names
    session = GameSession(base_decks(catalog, game), 7, ["random", "random"], catalog=catalog,
                          game=game)
    session.advance(max_steps=12)
    state = session.state
    for me in (0, 1):
        view = session.view(names[me])
        json.dumps(view)  # JSON-ready
        assert view["player"] == names[me]
        assert view["opponent_hand"] == len(state.hands[1 - me])
        assert sorted(card["id"] for card in view["hand"]) == \
            sorted(state.spec.card_def[u].id for u in state.hands[me])
        assert view["decks"] == {names[p]: len(state.decks[p]) for p in (0, 1)}
        assert sum(bf["marker"] for bf in view["battlefields"]) == 1
        assert view["battlefields"][view["marker"]["index"]]["id"] == \
            view["marker"]["battlefield"]
        assert view["countdown"]["tokens"] == state.countdown
        in_play = sum(len(bf["cards"][names[p]]) for bf in view["battlefields"] for p in (0, 1))
        assert in_play == sum(len(row) for row in state.rows[:-2])
        assert view["characters"]["list"]
    view = session.view(0)
    if game == "revolver":
        assert view["countdown"]["name"] == "border" and view["characters"]["pile"] is None
        assert view["characters"]["name"] == "bandits"
    else:
        assert view["countdown"]["name"] == "Mexican Army"
        assert view["characters"]["name"] == "guardians"
        assert view["characters"]["pile"] == len(state.pile)
        assert set(view["symbols_in_hand"]) == {"kegs"}  # the guardians' decks have kegs
        assert set(session.view(1)["symbols_in_hand"]) == {"ammunition"}
    text = "\n".join(view_lines(view))
    assert f"{names[1]}'s hand: {view['opponent_hand']} card" in text


def test_the_opponents_draws_lose_their_names_and_are_counted() -> None:
    """The engine marks a draw as its drawer's (engine.log_lines): the other reads a count.
    A line the engine writes for everyone (a Frontier draw, face up) is read as it is."""
    from deckbuilder.engine.log_lines import secret_draw, visible_log

    lines = [secret_draw(0, "colty", "Gatling Gun"), secret_draw(0, "colty", "Sandstorm"),
             secret_draw(1, "mcready", "Cowboy"), "-- turn 1: colty",
             secret_draw(0, "colty", "Hail of Bullets"),
             "colty draws a card from the Frontier deck (a new battlefield)"]
    assert visible_log(lines, 1) == [
        "colty draws 2 cards", "mcready draws Cowboy", "-- turn 1: colty",
        "colty draws 1 card", "colty draws a card from the Frontier deck (a new battlefield)"]
    assert visible_log(lines, None) == lines
    assert visible_log(lines, 0)[:3] == [
        "colty draws Gatling Gun", "colty draws Sandstorm", "mcready draws 1 card"]


def test_seats_are_checked(catalog) -> None:
    decks = base_decks(catalog, "revolver")
    with pytest.raises(DeckbuilderError, match="two seats"):
        GameSession(decks, 1, ["human"], catalog=catalog)
    with pytest.raises(DeckbuilderError):
        GameSession(decks, 1, ["human", "nonsense-bot"], catalog=catalog)
    both = GameSession(decks, 1, ["Human", "HUMAN"], catalog=catalog)
    assert both.humans == (0, 1) and both.viewer is None
    assert both.waiting_for() == 0
    assert both.record.bots == {"colty": "human", "mcready": "human"}


@pytest.mark.parametrize(("modules", "neutral"), [
    (("saloon-duel",), "puts a card face down on the duel card"),
    (("frontier-deck", "frontier-deck-cards"), "hides the token in one hand"),
])
def test_the_opponents_secret_choices_read_neutrally(catalog, modules, neutral) -> None:
    session = GameSession(base_decks(catalog, "revolver"), 1, ["random", "human"],
                          catalog=catalog, modules=modules)
    shown = play_randomly(session, seed=1)
    secret = [event for event in shown if event.player == "colty" and event.action == neutral]
    assert secret, "the game played no secret choice of the gang's"
    for event in secret:
        truth = session.events(None)[event.index + 1]  # +1: the set-up comes first
        assert truth.index == event.index and truth.action != neutral
        assert truth.action not in "\n".join(line for e in shown for line in e.text_lines())

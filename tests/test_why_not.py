"""Why a card in hand is not offered: the engine's reason, the game's rules' words, and that a
card has a reason exactly when it is not offered (over random positions of both games)."""

from __future__ import annotations

import random

import pytest
from engine_cards import hand, in_play, ready, synthetic_game

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.actions import K_MAIN
from deckbuilder.engine.state import State
from deckbuilder.engine.why_not import ENGINE_READING, not_offered
from deckbuilder.games import games, get_game, new_game
from deckbuilder.sim.records.session import GameSession

GANG = 0


def _base_game(game: str, seed: int) -> State:
    catalog = default_catalog()
    return new_game([catalog.base_deck(game, side) for side in get_game(game).side_names], seed,
                    game=game)


@pytest.mark.parametrize("game", [*sorted(games()), "synthetic"])
def test_a_card_has_a_reason_exactly_when_it_is_not_offered(game: str) -> None:
    """Over random games of both games (and Revolver's synthetic card pool, whose cards
    forbid, need conditions and waive costs)."""
    checked = 0
    for seed in range(12):
        state = synthetic_game(seed) if game == "synthetic" else _base_game(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            spec = state.spec
            refused = {spec.defs.index(next(d for d in spec.defs if d.id == why.card))
                       for why in not_offered(state, player)}
            for definition in {spec.def_of[uid] for uid in state.hands[player]}:
                offered = spec.play_action[definition] in state.legal
                assert offered != (definition in refused), (spec.defs[definition].name,
                                                            state.pending_kind)
                checked += state.pending_kind == K_MAIN
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    assert checked > 100  # the play phase was asked about often


def test_the_gangs_limit_is_said_in_the_rulebooks_words() -> None:
    state = ready(synthetic_game(3), GANG)
    in_play(state, GANG, "38-special", "38-special", "38-special")
    hand(state, GANG, "38-special", "lightning-reflexes")
    (why,) = [why for why in not_offered(state, GANG) if why.card == "38-special"]
    assert "three-card limit" in why.reason and not why.engine_reading
    words, source = why.rules[0]
    assert words.startswith("The Colty Gang player has a three card limit")
    assert source == "rulebook-en, Turn sequence, 3. Play cards"


def test_a_reason_the_documents_do_not_word_is_the_engines_reading() -> None:
    state = ready(synthetic_game(3), GANG)
    hand(state, GANG, "lightning-reflexes", "38-special")
    (why,) = not_offered(state, GANG)
    assert why.reason == "Lightning Reflexes is played only in reaction to the opponent"
    assert why.engine_reading and why.rules == ()


def _at_the_limit() -> GameSession:
    """A game whose gang (a person) has three .38 Specials at the battlefield and one in hand."""
    catalog = default_catalog()
    decks = [catalog.base_deck("revolver", side) for side in ("colty", "mcready")]
    session = GameSession(decks, seed=1, seats=["human", "random"])
    session.advance()
    state = ready(session.state, GANG)
    in_play(state, GANG, "38-special", "38-special", "38-special")
    hand(state, GANG, "38-special", "lightning-reflexes")
    return session


def test_w_at_the_terminal_says_the_limit_in_the_rulebooks_words(monkeypatch) -> None:
    from deckbuilder.commands import human_play

    session = _at_the_limit()
    answers = iter(["w", "pass"])
    said: list[str] = []
    monkeypatch.setattr(human_play, "_read", lambda prompt: next(answers))
    monkeypatch.setattr(human_play, "_say", said.append)
    human_play._ask(session, GANG, False, default_catalog())
    assert "  (w: why 2 cards in your hand are not offered)" in said  # under the choices
    why = "\n".join(said[said.index("  why the other cards in your hand are not offered:"):])
    assert ".38 Special cannot be played: the column is full (the three-card limit)" in why
    assert 'the rules: "The Colty Gang player has a three card limit.' in why
    assert "(rulebook-en, Turn sequence, 3. Play cards)" in why
    assert "Lightning reflexes is played only in reaction to the opponent\n      " \
           f"({ENGINE_READING})" in why


def test_the_web_board_folds_the_reasons_under_the_hand() -> None:
    pytest.importorskip("jinja2")
    from deckbuilder.web.table_view import board_fragment

    session = _at_the_limit()
    view = session.view(GANG)
    html = board_fragment(view, default_catalog(), watching=False, outcome="")
    fold = html[html.index('<details class="why-not"'):]
    fold = fold[:fold.index("</details>")]
    assert "Why can't I play these 2 cards?" in fold
    assert "the column is full (the three-card limit)" in fold
    assert 'data-face="38-special" data-game="revolver">.38 Special</span> cannot be played' \
        in fold  # the card's name once, its face behind it
    assert "<cite>rulebook-en, Turn sequence, 3. Play cards</cite>" in fold
    assert f"({ENGINE_READING})".replace("'", "&#39;") in fold  # escaped, as all data
    assert 'why-not' not in board_fragment(view, default_catalog(), watching=True, outcome="")
    assert view["not_offered"][0]["rules"][0]["source"].startswith("rulebook-en")  # the JSON


def test_w_in_join_says_why_from_the_tables_json() -> None:
    """`join` reads the reasons from the table's JSON (a seat's view), as the web does."""
    pytest.importorskip("httpx")
    from test_join_hostile import FakeTable, answer, run_join, seat_view, table_state

    reasons = _at_the_limit().view(GANG)["not_offered"]
    fake = FakeTable({"POST /api/tables/INV/join": answer(table_state(
        view={**seat_view(), "not_offered": reasons}))})
    try:
        result = run_join(fake.link(), typed="w\nq\n")
    finally:
        fake.stop()
    assert result.exit_code == 130, result.output
    assert ".38 Special cannot be played: the column is full (the three-card limit)" \
        in result.stdout
    assert '"The Colty Gang player has a three card limit.' in result.stdout
    assert "(w: why 2 cards in your hand are not offered)" in result.stdout


def test_the_bot_tables_json_carries_the_reasons_its_board_shows(tmp_path) -> None:
    testclient = pytest.importorskip("starlette.testclient")
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    config = WebConfig(deck_folder=tmp_path, tables_folder=tmp_path / "tables")
    with testclient.TestClient(create_app(config), base_url="http://localhost") as client:
        started = client.post("/api/play", data={"game": "revolver", "human": "colty",
                                                 "seed": "2"},
                              headers={"accept": "application/json"}).json()
        state = client.get(f"/api/play/{started['session']}").json()
    assert state["not_offered"], "seed 2 deals the gang a card it cannot play at once"
    fold = state["board"][state["board"].index('<details class="why-not"'):]
    for why in state["not_offered"]:
        assert why["reason"][len(why["name"]):] in fold

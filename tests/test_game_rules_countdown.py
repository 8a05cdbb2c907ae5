"""The countdown lives once, on the rules base class (`GameRules.end_turn`, `count_down`): every
game counts down the same way and names it in its own words; a game adds only its own moments.
So do the start of a turn and the endings every game has (`turn_task`, `countdown_ending`)."""

from __future__ import annotations

from deckbuilder.catalog import build_catalog
from deckbuilder.engine import game_rules, state
from deckbuilder.engine.game_rules import GameRules
from deckbuilder.engine.state import State
from deckbuilder.games import games, new_game


def test_the_rules_read_the_states_own_codes() -> None:
    assert (game_rules._DEFENDER, game_rules._ATTACKER, game_rules._PHASE_END) == (
        state.DEFENDER, state.ATTACKER, state.PHASE_END)


def test_no_game_writes_its_own_countdown_or_turn_start() -> None:
    for game in games().values():
        for moment in ("count_down", "countdown_empty", "start_turn"):
            assert getattr(type(game.rules), moment) is getattr(GameRules, moment), game.name


def _end_attackers_turn(game: str, sides: tuple[str, str], killed: bool) -> State:
    catalog = build_catalog(use_user_data=False)
    played: State = new_game([catalog.base_deck(game, side) for side in sides], 1, catalog=catalog,
                      verbose=True)
    played.countdown = 1
    played.killed_this_turn = killed
    played.log.clear()
    played.spec.game_rules.count_down(played)
    return played


def test_the_last_token_ends_the_game_in_the_games_words() -> None:
    for game, sides, note, ending in (
            ("revolver", ("colty", "mcready"), "no bandit killed this turn: a border token goes",
             "border_emptied"),
            ("revolver2", ("esteban", "mapache"),
             "no guardian killed this turn: a Mexican Army token goes", "army_arrived")):
        played = _end_attackers_turn(game, sides, killed=False)
        assert played.countdown == 0
        assert any(note in line for line in played.log), played.log
        assert played.outcome().termination.value == ending


def test_a_death_this_turn_keeps_the_token() -> None:
    played = _end_attackers_turn("revolver", ("colty", "mcready"), killed=True)
    assert played.countdown == 1
    assert not played.is_terminal()

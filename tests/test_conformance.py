"""The game protocol holds for every game, every ruleset and every bundled deck: random games
from both seats, every state's invariants, every action listed legal and nothing else; and a
recorded game's actions mean the same after an unrelated card set is installed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog, default_catalog
from deckbuilder.decks import load_deck
from deckbuilder.engine.compiled import compiled_catalog
from deckbuilder.games import games, get_game, new_game
from deckbuilder.protocol import TERMINAL, IllegalActionError
from deckbuilder.rulesets import list_rulesets

DECKS = Path(__file__).resolve().parent.parent / "deckbuilder" / "data" / "decks"
GAMES_PER_CASE = 6
NOT_ACTIONS = ("1", None, 1.0, True, b"\x01", -1, 10**9)


def _cases() -> list[tuple[str, str, str]]:
    """(game, ruleset, bundled deck file) for every combination."""
    catalog = default_catalog()
    cases = []
    for name in sorted(games()):
        rulesets = [r.id for r in list_rulesets(catalog, name)] or [get_game(name).default_ruleset]
        deck_files = sorted(p.name for p in DECKS.glob("*.yaml")
                            if load_deck(p, catalog).game == name)
        assert deck_files, name
        cases.extend((name, ruleset, deck) for ruleset in rulesets for deck in deck_files)
    return cases


def _seated(game: str, deck_file: str) -> list[dict[str, int]]:
    """The bundled deck in its faction's seat, the other faction's base deck opposite."""
    catalog = default_catalog()
    deck = load_deck(DECKS / deck_file, catalog)
    sides = get_game(game).side_names
    seat = sides.index(deck.faction)
    other = catalog.base_deck(game, sides[1 - seat])
    cards = deck.counts()
    return [cards, other] if seat == 0 else [other, cards]


def test_every_game_has_cases_for_each_ruleset() -> None:
    cases = _cases()
    for name in games():
        assert any(case[0] == name for case in cases)
    assert {case[1] for case in cases if case[0] == "revolver2"} >= {"rulebook-es",
                                                                     "review-ameritrash-nl"}


@pytest.mark.parametrize(("game", "ruleset", "deck"), _cases())
def test_random_games_keep_the_protocol(game: str, ruleset: str, deck: str) -> None:
    decks = _seated(game, deck)
    rng = random.Random(f"{game}/{ruleset}/{deck}")
    for index in range(GAMES_PER_CASE):
        state = new_game(decks, seed=rng.randrange(1 << 30), ruleset=ruleset)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal, (game, steps)
            player = state.current_player()
            assert player in (0, 1)
            if steps % 17 == index:
                before = state.snapshot()
                for wrong in (*NOT_ACTIONS, max(legal) + 1):
                    with pytest.raises(IllegalActionError):
                        state.apply(wrong)  # type: ignore[arg-type]
                assert state.snapshot() == before
                state.check_invariants()
                copy = state.clone()
                assert copy.snapshot() == before
            action = legal[rng.randrange(len(legal))]
            assert isinstance(state.action_to_string(action), str)
            state.apply(action)
            steps += 1
            assert steps < 5000
        assert state.current_player() == TERMINAL
        outcome = state.outcome()
        assert outcome is not None
        assert isinstance(outcome.termination, get_game(game).terminations)
        with pytest.raises(IllegalActionError):
            state.apply(0)


HOMEBREW = """\
id: a-unrelated-homebrew
name: An unrelated homebrew card
version: "1.0"
game: {game}
kind: homebrew
cards:
  - id: a-unrelated-{game}-card
    name: Unrelated {game} card
    faction: {faction}
    category: firepower
    play: firepower
    copies: 1
    cost: 0
    firepower: 1
"""


@pytest.mark.parametrize("game", ["revolver", "revolver2"])
def test_a_record_means_the_same_after_an_unrelated_set_is_installed(
        game: str, tmp_path: Path) -> None:
    plain = build_catalog(use_user_data=False)
    sides = get_game(game).side_names
    decks = [plain.base_deck(game, side) for side in sides]
    state = new_game(decks, 11, catalog=plain)
    rng = random.Random(11)
    actions, texts = [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        texts.append(state.action_to_string(action))
        state.apply(action)
    home_set = tmp_path / "homebrew.yaml"
    home_set.write_text(HOMEBREW.format(game=game, faction=sides[0]), encoding="utf-8")
    extended = build_catalog(user_sets=[home_set], overlay=tmp_path / "no-overlay.yaml")
    assert len(list(extended.cards())) == len(list(plain.cards())) + 1
    # The game's catalog holds one card more (a numbering over it would shift the actions
    # that pay, retrieve or name cards); the decks' own numbering does not move.
    hooks = get_game(game).hooks
    assert len(compiled_catalog(extended, hooks).defs) == \
        len(compiled_catalog(plain, hooks).defs) + 1
    replayed = new_game(decks, 11, catalog=extended)
    assert replayed.spec.layout.size == state.spec.layout.size
    for action, text in zip(actions, texts, strict=True):
        assert replayed.action_to_string(action) == text
        replayed.apply(action)
    assert replayed.outcome() == state.outcome()

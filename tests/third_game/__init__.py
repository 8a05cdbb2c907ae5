"""A toy third game, Standoff, that plugs into deckbuilder from outside its package: the
measure of issue 20 ("a game is one class and one declaration"). See
docs/maintainers/new-game.md and tests/test_third_game.py."""

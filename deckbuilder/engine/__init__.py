"""The table both Revolver games share (see `deckbuilder.engine.game_rules` and DESIGN.md).

A game is set up through the game registry (`deckbuilder.games.new_game`); this package knows
no faction and no victory.
"""

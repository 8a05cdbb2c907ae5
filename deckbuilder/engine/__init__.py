"""The table both Revolver games share (see `deckbuilder.engine.hooks` and DESIGN.md).

A game is set up through the game registry (`deckbuilder.games.new_game`); this package knows
no faction and no victory.
"""

"""The table both Revolver games share (`engine.game_rules`, DESIGN.md): it knows no faction
and no victory; a game is set up through the registry (`deckbuilder.games.new_game`).
"""

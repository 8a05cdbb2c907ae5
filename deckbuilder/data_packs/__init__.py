"""Card data players complete: values read from printed cards, kept in the player's overlay
and shared as data packs. Imports nothing: the catalog imports `layers`.
"""

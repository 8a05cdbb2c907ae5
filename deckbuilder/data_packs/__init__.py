"""Card data players complete: the values read from printed cards, kept in the player's
overlay (`data review`) and shared as data packs (`data export|import|remove`).

This module imports nothing: `catalog.build_catalog` imports `layers`, which must not import
the catalog back.
"""

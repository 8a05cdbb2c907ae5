"""Decks ranked against a field: gauntlets, round-robin tournaments and their ratings."""

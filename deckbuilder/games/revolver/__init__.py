"""Revolver (the base game and its expansions 1.1-1.4): Colonel McReady's lawmen against the
Colty gang. Its rules over the table (`RevolverRules`) are in `rules.py`; its endings in
`endings.py`; Derail the Train in `derail.py`; its bots' heuristics under `bots/`."""

"""Revolver 2: Last Stand at Malpaso: General Mapache's raiders against Padre Esteban's
guardians, on the table Revolver shares. The All Rivers Poker tournament is in `poker.py`,
the powder kegs and ammunition (the bridge, the mine, the Gatling Gun) in `pieces.py`, the
turn with recruitment and optional spaces in `rules.py`, the endings in `endings.py`."""

"""What a game builds its scenario format and staging from (below the games, so a game's own
`scenario.py` can use it): the format's shared parts (`parts`, `sides`, `generic`), laying out
ids, the marker and the forbidden cards (`layout`), and what a game hands the registry
(`staging.ScenarioParts`). `deckbuilder.scenarios` loads, stages, plays and checks through it
and names no game."""

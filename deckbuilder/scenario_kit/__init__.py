"""What a game builds its scenario format and staging from, below the games: the format's
shared parts, laying out ids, and what a game hands the registry (`staging.ScenarioParts`).
"""

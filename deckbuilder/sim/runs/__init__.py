"""Seeded games in batches on an executor, and the statistics kept as they come in."""

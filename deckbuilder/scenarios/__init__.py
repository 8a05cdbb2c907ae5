"""Scenario files: a position set up by card id, actions played, expectations checked (one
model per game: `model.py` for Revolver, `revolver2_model.py` for Revolver 2)."""

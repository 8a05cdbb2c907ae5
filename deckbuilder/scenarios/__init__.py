"""Scenario files: a position set up by card id, actions played, expectations checked. Each
game's format and staging live in its package, found through the registry (`model.PARTS`); this
package loads, stages, plays and checks, and names no game."""

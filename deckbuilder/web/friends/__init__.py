"""Play a friend across the network: a table for two people, each at their own link.

- `tables`: the store (tables in memory and on disk, replayed after a restart; links'
  tokens kept as hashes), and the rules of acting (whose seat, which step);
- `lifespan`: what is kept of an ended table (its file and links on disk, not memory),
  for how long, and how many open tables one client may keep;
- `setup`: a new table from the page's form or the API's JSON;
- `seats`: what each link is shown (a seat its own view, a spectator the public one);
- `events`: the table's changes as Server-Sent Events;
- `routes`: the pages and the JSON API (docs/reference/table-api.md).
"""

from __future__ import annotations

from deckbuilder.web.friends.routes import ROUTES, store_of

__all__ = ["ROUTES", "store_of"]

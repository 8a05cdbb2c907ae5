"""Play a friend across the network: a table for two people, each at their own link (the
store: `tables`; the pages and API: `routes`, docs/reference/table-api.md)."""

from __future__ import annotations

from deckbuilder.web.friends.routes import ROUTES, store_of

__all__ = ["ROUTES", "store_of"]

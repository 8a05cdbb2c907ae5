"""The links of a friend table: unguessable tokens (a seat's alone lets a person act for it),
kept on disk only as their SHA-256, so the tables folder (a backup, a shared disk) lets nobody
sit at a table.
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: Random bytes in a link's token (144 bits: 24 URL-safe characters).
TOKEN_BYTES = 18
#: What a token may look like: anything else is refused before it is hashed or looked up.
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def new_token() -> str:
    """A fresh link token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The token as the table's file keeps it.

    >>> len(token_hash("abc")), token_hash("abc") == token_hash("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def looks_like_token(text: str) -> bool:
    """True for a string shaped like a link token (no path tricks, no huge strings)."""
    return bool(TOKEN_PATTERN.match(text))

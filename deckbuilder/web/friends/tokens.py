"""The links of a friend table: unguessable tokens, kept on disk only as their SHA-256.

A seat's link is the only thing that lets a person act for that seat, so it carries
`secrets.token_urlsafe(TOKEN_BYTES)` (128 bits and more); the table's file holds its hash, so
reading the tables folder (a backup, a shared disk) does not let anyone sit at a table.
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: Random bytes in a link's token (22 URL-safe characters at 16).
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

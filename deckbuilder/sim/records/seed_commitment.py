"""A commitment to a game's seed, shown to both seats at the start and checked at the end: a
friend table's seed deals every card, so whoever knew it could read the other hand. The salt
(128 random bits) keeps the commitment from being reversed by trying every seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Random bytes of a commitment's salt (hex-encoded in files and answers).
SALT_BYTES = 16


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def seed_commitment(seed: int, salt: str) -> str:
    """The SHA-256 (hex) a seat is shown before the deal: binds the seed without telling it."""
    return hashlib.sha256(f"deckbuilder-seed:{salt}:{seed}".encode()).hexdigest()


def commitment_matches(seed: int, salt: str, commitment: str) -> bool:
    """True when `seed` and `salt` are what `commitment` was made from (compared in constant
    time; a commitment of another shape never matches)."""
    return hmac.compare_digest(seed_commitment(seed, salt), commitment.strip().lower())

"""Seeds for batches: a hash of (master seed, game index), not the n-th draw of a shared
generator, so any worker computes it alone and results do not depend on how many workers ran
the batch. The same index gives two decks the same seed, as a paired comparison needs.

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
"""

from __future__ import annotations

import hashlib

SEED_BITS = 63


def _hash(*parts: object) -> int:
    text = ":".join(str(part) for part in parts).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def game_seed(master: int, index: int) -> int:
    """The seed of game number `index` of a batch started with `master`."""
    return _hash("deckbuilder-game", master, index)


def game_seeds(master: int, count: int) -> list[int]:
    return [game_seed(master, index) for index in range(count)]


def bot_seed(game: int, player: int) -> int:
    """The seed of the bot playing `player` in the game seeded `game` (its own stream)."""
    return _hash("deckbuilder-bot", game, player)

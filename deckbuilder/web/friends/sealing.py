"""The server's own key for its friend tables (docs/players/trust.md, "Friend tables").

A table's seed deals every card, so its file holds the seed XOR a pad (HMAC-SHA256 of the key
over the commitment salt), and the key lies beside the tables folder, never in it: the folder
alone (a backup, a shared disk) tells nobody the deal. An unsealed seed is checked against the
commitment: a replaced key or an edited seal is refused.

The invitation and the spectator's link keep no secret from the creator, so they are derived
from the key and the table's id instead of stored: the creator's page still shows them after a
restart, and a second opener of a spent invitation is sent to the spectator's view. The seats'
own links stay random: nothing but their holder knows them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path

from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.set_cache import make_key_file, read_key_file
from deckbuilder.sim.records.seed_commitment import commitment_matches

#: Bits of the pad a seed is sealed with (seeds are below 10**15 < 2**50).
SEAL_BITS = 64
#: Characters of a derived link's token (as long as a random one).
DERIVED_TOKEN_CHARS = 24


class SealError(DeckbuilderError):
    """The server's key is missing, cannot be made, or does not open a table's seed."""


def key_file_for(tables_folder: Path) -> Path:
    """Where the key of a tables folder lies: beside it, never inside it."""
    return tables_folder.with_name(f"{tables_folder.name}.key")


class ServerKey:
    """The key of one tables folder, read (or made, for a new table) when first needed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key: bytes | None = None

    def _bytes(self, create: bool) -> bytes:
        if self._key is None:
            self._key = read_key_file(self.path)
        if self._key is None and create:
            try:
                self._key = make_key_file(self.path)
            except OSError as error:
                raise SealError(f"the server's table key cannot be written "
                                f"({error.strerror or error})", Location(self.path),
                                "make the folder writable") from None
        if self._key is None:
            raise SealError("the server's table key is missing or damaged",
                            Location(self.path), "restore the key file the table was made "
                            "with, or start a new table")
        return self._key

    def _mac(self, message: str, create: bool = False) -> bytes:
        return hmac.new(self._bytes(create), message.encode("utf-8"), hashlib.sha256).digest()

    def _pad(self, salt: str, create: bool) -> int:
        return int.from_bytes(self._mac(f"seed-seal:{salt}", create)[:SEAL_BITS // 8], "big")

    def seal(self, seed: int, salt: str) -> str:
        """The seed as the table's file holds it (hex); the key is made if there is none."""
        return f"{seed ^ self._pad(salt, create=True):016x}"

    def unseal(self, sealed: str, salt: str, commitment: str) -> int:
        """The seed a seal holds, checked against the table's commitment."""
        try:
            seed = int(sealed, 16) ^ self._pad(salt, create=False)
        except (TypeError, ValueError):
            raise SealError("the table's sealed seed is not a seal", Location(self.path),
                            "restore the table's file") from None
        if not commitment_matches(seed, salt, commitment):
            raise SealError("the server's table key does not open this table's seed (the key "
                            "was replaced, or the file edited)", Location(self.path),
                            "restore the key file the table was made with")
        return seed

    def derived_token(self, purpose: str, table_id: str, create: bool = False) -> str:
        """A link's token made from the key, the table and what the link is for."""
        digest = self._mac(f"link:{purpose}:{table_id}", create)
        return base64.urlsafe_b64encode(digest).decode("ascii")[:DERIVED_TOKEN_CHARS]

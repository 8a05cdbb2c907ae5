"""The validated-JSON cache of card-set files (round-trip YAML costs ~100x more), keyed by the
file's bytes and the models' source, and believed only when its HMAC seal with this
installation's secret key holds. A cache that cannot be used makes commands slower, never fail.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path

from pydantic import ValidationError

from deckbuilder import models, paths
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models import CardSet
from deckbuilder.reading import read_bounded
from deckbuilder.writing import atomic_write_text
from deckbuilder.yamlio import MAX_FILE_BYTES

#: Cache entries are ours, but the read is bounded like any other.
_MAX_CACHE_BYTES = 8 * MAX_FILE_BYTES
_KEY_FILE = "key"
_SEAL_PREFIX = b"deckbuilder-cache-1 "


def source_digest(raw: bytes) -> str:
    """The cache key of a set file's bytes: they and the models' source, hashed."""
    return hashlib.sha256(raw + _models_fingerprint().encode()).hexdigest()


def entry_file(digest: str) -> Path:
    """Where the cache entry of a source with this digest lies."""
    return paths.cache_dir() / "sets" / f"{digest[:32]}.json"


def _seal(key: bytes, digest: str, payload: bytes) -> bytes:
    return hmac.new(key, digest.encode() + b"\n" + payload, hashlib.sha256).hexdigest().encode()


def cached_set(cache_file: Path, digest: str) -> CardSet | None:
    """The cached set when its entry is intact and sealed for this source, else None."""
    key = _cache_key(create=False)
    if key is None or not cache_file.is_file():
        return None
    try:
        content = read_bounded(cache_file, _MAX_CACHE_BYTES, "cache entry")
        header, _, payload = content.partition(b"\n")
        if not header.startswith(_SEAL_PREFIX) or not hmac.compare_digest(
                header[len(_SEAL_PREFIX):], _seal(key, digest, payload)):
            return None  # edited, damaged, or written for another source: rebuilt by the caller
        card_set = CardSet.model_validate_json(payload)
    except (DeckbuilderError, ValidationError, ValueError):
        return None
    with contextlib.suppress(OSError):
        if time.time() - cache_file.stat().st_mtime > _MARK_USED_SECONDS:
            os.utime(cache_file)  # marked as used (see CACHE_UNUSED_DAYS)
    return card_set


def store_cached_set(cache_file: Path, digest: str, card_set: CardSet) -> None:
    """Write a sealed entry; a cache that cannot be written is only slower, never an error."""
    key = _cache_key(create=True)
    if key is None:
        return
    payload = card_set.model_dump_json(exclude_unset=True).encode()
    text = (_SEAL_PREFIX + _seal(key, digest, payload) + b"\n" + payload).decode()
    with contextlib.suppress(DeckbuilderError, OSError):
        atomic_write_text(cache_file, text)
    prune_cache(cache_file.parent)


#: An entry unused this long is removed when the cache grows: it is shared by every
#: DECKBUILDER_HOME, so "no set uses it" is known only by its age.
CACHE_UNUSED_DAYS = 30
#: An entry is marked as used (its modification time) at most this often.
_MARK_USED_SECONDS = 24 * 3600


def prune_cache(folder: Path) -> None:
    """Remove the cache entries in `folder` unused for `CACHE_UNUSED_DAYS`."""
    cutoff = time.time() - CACHE_UNUSED_DAYS * 24 * 3600
    with contextlib.suppress(OSError):
        for entry in folder.glob("*.json"):
            with contextlib.suppress(OSError):
                if entry.stat().st_mtime < cutoff:
                    entry.unlink()


def _cache_key(create: bool) -> bytes | None:
    """This installation's secret cache key, created on first use (owner-only); None when it
    can be neither read nor made: then nothing is cached."""
    key_file = paths.cache_dir() / _KEY_FILE
    key = read_key_file(key_file)
    if key is not None or not create:
        return key
    try:
        return make_key_file(key_file)
    except OSError:
        return None


def read_key_file(key_file: Path) -> bytes | None:
    """A 32-byte key kept as hex in its own file; None when missing or damaged."""
    try:
        text = read_bounded(key_file, 1024, "cache key").decode("ascii").strip()
        return bytes.fromhex(text) if len(text) == 64 else None
    except (DeckbuilderError, ValueError):
        return None


def make_key_file(key_file: Path) -> bytes:
    """A new key, written whole before it takes the key file's name (a failed write leaves
    no empty key); one another process has just made wins."""
    key = secrets.token_bytes(32)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    temporary = key_file.with_name(f".{_KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            data = memoryview(key.hex().encode("ascii"))
            while data:
                data = data[os.write(descriptor, data):]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        try:
            os.link(temporary, key_file)  # only where there is none
        except FileExistsError:
            found = read_key_file(key_file)
            if found is not None:
                return found  # another process made it just now
            os.replace(temporary, key_file)  # empty or damaged: replaced
        except OSError:  # a file system without hard links
            os.replace(temporary, key_file)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return key


@functools.cache
def _models_fingerprint() -> str:
    digest = hashlib.sha256()
    for source in sorted(Path(models.__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]

"""The derived-data cache is verified, never simply believed (issue 12, 2.4).

Parsed sets are cached as JSON. An entry is sealed with an HMAC under this installation's
secret key, over the digest of the source file and the entry's bytes: an edited entry (a
packaged card's firepower changed by hand) is detected and rebuilt from the source, so it
changes nothing, and an entry copied over another source's name does not apply either.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from deckbuilder import paths
from deckbuilder.catalog import load_set_file

SET_FILE = Path(__file__).parent / "fixtures" / "sets" / "homebrew-base.yaml"


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(paths.CACHE_VARIABLE, str(folder))
    return folder


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "sets").glob("*.json"))


def _firepower(card_set: object, card_id: str) -> int | None:
    return next(card.firepower for card in card_set.cards if card.id == card_id)  # type: ignore


def _edit_entry(entry: Path, card_id: str, firepower: int) -> None:
    header, _, payload = entry.read_bytes().partition(b"\n")
    data = json.loads(payload)
    for card in data["cards"]:
        if card["id"] == card_id:
            card["firepower"] = firepower
    entry.write_bytes(header + b"\n" + json.dumps(data).encode())


def test_an_edited_cache_entry_is_rebuilt_not_believed(own_cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "homebrew-base.yaml"
    source.write_bytes(SET_FILE.read_bytes())
    first = load_set_file(source)
    assert first.parsed is not None  # parsed from the YAML, then cached
    original = _firepower(first.card_set, "test-deputy")
    assert original is not None
    (entry,) = _entries(own_cache)
    assert load_set_file(source).parsed is None  # an intact entry is used
    _edit_entry(entry, "test-deputy", 9)
    loaded = load_set_file(source)
    assert _firepower(loaded.card_set, "test-deputy") == original
    assert loaded.parsed is not None  # the broken entry was not used: the file was parsed
    assert load_set_file(source).parsed is None  # ...and the entry rebuilt intact
    assert b'"firepower":9' not in entry.read_bytes().replace(b" ", b"")


def test_an_entry_without_its_seal_is_not_used(own_cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "homebrew-base.yaml"
    source.write_bytes(SET_FILE.read_bytes())
    load_set_file(source)
    (entry,) = _entries(own_cache)
    _, _, payload = entry.read_bytes().partition(b"\n")
    data = json.loads(payload)
    data["cards"][0]["name"] = "Forged Name"
    entry.write_text(json.dumps(data))  # a plain JSON entry, as an older cache held
    loaded = load_set_file(source)
    assert "Forged Name" not in {card.name for card in loaded.card_set.cards}
    assert loaded.parsed is not None


def test_a_seal_from_another_installation_does_not_hold(own_cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "homebrew-base.yaml"
    source.write_bytes(SET_FILE.read_bytes())
    load_set_file(source)
    key_file = own_cache / "key"
    assert key_file.is_file() and oct(key_file.stat().st_mode & 0o077) == "0o0"
    key_file.write_text(os.urandom(32).hex())  # another key: every seal is now foreign
    assert load_set_file(source).parsed is not None


def test_an_unwritable_cache_only_costs_time(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(paths.CACHE_VARIABLE, str(blocker / "cache"))
    loaded = load_set_file(SET_FILE)
    assert loaded.card_set.id == "test-frontier-town"

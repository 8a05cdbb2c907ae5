"""An overlay corrects values of any shape: a battlefield's turn spaces, not only numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckbuilder.catalog import build_catalog
from deckbuilder.errors import DataFileError

SPACES = (
    "corrections:\n"
    "  whiskey-canyon:\n"
    "    source: my copy of the card\n"
    "    values:\n"
    "      spaces: [{label: '1'}, {label: '2'}, {label: '3'}, {label: '4'}, {label: '5'}]\n"
)


def test_turn_spaces_can_be_corrected(user_home: Path) -> None:
    user_home.mkdir(parents=True, exist_ok=True)
    (user_home / "overlay.yaml").write_text(SPACES, encoding="utf-8")
    catalog = build_catalog()
    canyon = catalog.entries["whiskey-canyon"].record
    assert [space.label for space in canyon.spaces] == ["1", "2", "3", "4", "5"]
    assert "spaces" not in canyon.provenance.unconfirmed
    assert canyon.provenance.source_of("spaces").endswith("my copy of the card")


def test_a_wrongly_shaped_correction_names_its_line(user_home: Path) -> None:
    user_home.mkdir(parents=True, exist_ok=True)
    broken = SPACES.replace("{label: '5'}", "{lable: '5'}")
    (user_home / "overlay.yaml").write_text(broken, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        build_catalog()
    assert "overlay.yaml:" in str(caught.value)
    assert "spaces" in str(caught.value)

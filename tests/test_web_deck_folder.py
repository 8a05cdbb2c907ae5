"""The web app's deck folder list (`web.config.deck_files`): decks a few folders deep are
found; a virtual environment, caches and folders too deep are not walked, so `serve` started
in a home or temporary folder answers at once."""

from __future__ import annotations

from pathlib import Path

from deckbuilder.web.config import DECK_FOLDER_DEPTH, WebConfig, deck_files


def test_decks_are_found_and_environments_are_not_walked(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "colty.yaml").write_text("name: x\n", encoding="utf-8")
    (tmp_path / "top.yaml").write_text("name: y\n", encoding="utf-8")
    venv = tmp_path / "env"
    (venv / "lib" / "site").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    (venv / "lib" / "site" / "data.yaml").write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "cached.yaml").write_text("a: 1\n", encoding="utf-8")
    deep = tmp_path.joinpath(*(f"d{level}" for level in range(DECK_FOLDER_DEPTH + 1)))
    deep.mkdir(parents=True)
    (deep / "too-deep.yaml").write_text("name: z\n", encoding="utf-8")
    found = deck_files(WebConfig(deck_folder=tmp_path))
    assert found == ["top.yaml", "mine/colty.yaml"]


def test_a_huge_folder_is_cut_short(tmp_path: Path) -> None:
    from deckbuilder.web import config

    for index in range(30):
        folder = tmp_path / f"f{index:02d}"
        folder.mkdir()
        for file in range(10):
            (folder / f"n{file}.bin").write_text("", encoding="utf-8")
        (folder / "deck.yaml").write_text("name: x\n", encoding="utf-8")
    original = config.MOST_ENTRIES_LOOKED_AT
    config.MOST_ENTRIES_LOOKED_AT = 100
    try:
        found = deck_files(WebConfig(deck_folder=tmp_path))
    finally:
        config.MOST_ENTRIES_LOOKED_AT = original
    assert 0 < len(found) < 30

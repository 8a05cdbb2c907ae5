"""The README's "What is in the box" table states counts the packaged data holds (issue 35: it
said 27 Tarnished Star cards while `deckbuilder sets list` said 26), so it cannot drift again:
every "N cards", "N bandits", "N battlefields" or "modules A-D" it states is counted in the
catalog, and every packaged set has its row."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.models import CardSet

README = Path(__file__).resolve().parent.parent / "README.md"
#: What each counted word counts in a row's sets (`sets list` counts cards the same way).
COUNTED: dict[str, Callable[[CardSet], int]] = {
    "cards": lambda card_set: len(card_set.cards),
    "bandits": lambda card_set: len(card_set.characters),
    "guardians": lambda card_set: len(card_set.characters),
    "battlefields": lambda card_set: len(card_set.battlefields),
}
#: A count: digits not part of a product number ("1.4 The ..."), then a lower-case word.
COUNT = re.compile(r"(?<![\d.])(\d+) ([a-z]+)")
MODULE_LETTERS = re.compile(r"\bmodules ([A-Z])-([A-Z])\b")


def box_rows(readme: str) -> list[tuple[list[str], str]]:
    """(set ids, product text) of each row of the "What is in the box" table."""
    section = readme.split("## What is in the box", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue  # the header, its rule, the text around the table
        rows.append((re.findall(r"`([a-z0-9-]+)`", cells[0]), cells[1]))
    return rows


def stated_counts(product: str) -> list[tuple[int, str]]:
    return [(int(number), word) for number, word in COUNT.findall(product)]


ROWS = box_rows(README.read_text(encoding="utf-8"))


def test_the_table_is_found_and_names_every_packaged_set() -> None:
    packaged = {set_id for set_id, loaded in default_catalog().sets.items()
                if loaded.origin == "package"}
    named = [set_id for set_ids, _ in ROWS for set_id in set_ids]
    assert len(named) == len(set(named)) and set(named) == packaged


@pytest.mark.parametrize(("set_ids", "product"), ROWS, ids=[ids[0] for ids, _ in ROWS])
def test_every_count_the_row_states_is_the_datas(set_ids: list[str], product: str) -> None:
    sets = [default_catalog().sets[set_id].card_set for set_id in set_ids]
    for number, word in stated_counts(product):
        assert word in COUNTED, f"the README counts {word!r}: teach this test to count them"
        found = sum(COUNTED[word](card_set) for card_set in sets)
        assert number == found, f"README: {number} {word} in {', '.join(set_ids)}; data: {found}"
    for first, last in MODULE_LETTERS.findall(product):
        modules = sum(len(card_set.modules) for card_set in sets)
        assert ord(last) - ord(first) + 1 == modules, f"README: modules {first}-{last}"


def test_the_counts_are_read_as_a_reader_reads_them() -> None:
    assert stated_counts("1.4 The Tarnished Star: 27 cards, modules A-D") == [(27, "cards")]
    assert stated_counts("Revolver 2: Mapache and Esteban decks, 19 guardians, 9 battlefields"
                         ) == [(19, "guardians"), (9, "battlefields")]
    assert stated_counts("expansions 1.1-1.3") == []

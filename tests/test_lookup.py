"""Name lookup across games: namesakes resolve to the deck's game, other games still resolve."""

from __future__ import annotations

import pytest

from deckbuilder.catalog import Catalog, build_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog(use_user_data=False)


def test_namesakes_resolve_to_the_game_asked_for(catalog: Catalog) -> None:
    in_revolver = catalog.find("Gatling Gun", "revolver")
    in_revolver2 = catalog.find("Gatling Gun", "revolver2")
    assert in_revolver is not None and in_revolver.game == "revolver"
    assert in_revolver2 is not None and in_revolver2.game == "revolver2"
    assert in_revolver.id != in_revolver2.id


def test_a_card_of_the_other_game_is_still_found(catalog: Catalog) -> None:
    mapache_card = next(
        entry for entry in catalog.cards()
        if entry.game == "revolver2" and entry.record.faction == "mapache"
    )
    found = catalog.find(mapache_card.name, "revolver")
    assert found is not None and found.id == mapache_card.id


def test_spelling_variants_fold(catalog: Catalog) -> None:
    adios = catalog.find("Adios, Amigos!")
    assert adios is not None and adios.id == catalog.find("adios amigo").id

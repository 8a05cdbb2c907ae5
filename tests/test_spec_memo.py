"""`SpecMemo`: a bot's per-game table is worked out once per game, the right one for each game,
and a long-running process holds a bounded number of games' tables."""

from __future__ import annotations

from typing import Any, cast

from deckbuilder.catalog import default_catalog
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.games import new_game
from deckbuilder.games.revolver.bots.evaluate_tables import tables_for
from deckbuilder.games.revolver2.bots.evaluate import track_of


class _Stand:
    """A stand-in spec: SpecMemo reads nothing of it but its identity."""


def _stand_in() -> SpecFields:
    return cast("SpecFields", _Stand())


def _counting() -> tuple[SpecMemo[tuple[int, int]], list[Any]]:
    made: list[Any] = []

    def make(spec: Any) -> tuple[int, int]:
        made.append(spec)
        return (id(spec), len(made))

    return SpecMemo(make, keep=3), made


def test_a_value_is_made_once_per_spec_and_each_spec_gets_its_own() -> None:
    memo, made = _counting()
    first, second = _stand_in(), _stand_in()
    assert memo.of(first) is memo.of(first)
    assert made == [first]
    assert memo.of(second) == (id(second), 2)
    assert memo.of(first) == (id(first), 1)  # kept, not remade
    assert made == [first, second]


def test_it_holds_at_most_keep_specs_and_remakes_one_it_let_go() -> None:
    memo, made = _counting()
    specs = [_stand_in() for _ in range(5)]
    for spec in specs:
        memo.of(spec)
        assert len(memo._recent) <= 3
    assert len(made) == 5
    memo.of(specs[0])  # let go when the fourth came
    assert len(made) == 6 and made[-1] is specs[0]


def test_a_recycled_id_is_never_taken_for_the_spec_that_had_it() -> None:
    memo, made = _counting()
    old = _stand_in()
    memo.of(old)
    other = _stand_in()
    memo.of(other)
    memo._recent[id(other)] = (old, "a value of another spec")  # as if id(other) was old's
    memo._last_spec = None
    assert memo.of(other) == (id(other), 3) and made[-1] is other


def test_the_bots_tables_follow_the_game_they_are_asked_about() -> None:
    catalog = default_catalog()
    revolver = [catalog.base_deck("revolver", side) for side in ("mcready", "colty")]
    malpaso = [catalog.base_deck("revolver2", side) for side in ("mapache", "esteban")]
    one = new_game(revolver, 1, catalog=catalog).spec
    two = new_game(malpaso, 1, catalog=catalog).spec
    assert tables_for(one) is tables_for(one)
    track = track_of(two)
    assert track is track_of(two)
    assert track.kegs == tuple(card.kegs for card in two.card_def)

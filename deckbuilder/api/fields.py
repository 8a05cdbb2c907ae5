"""`deckbuilder.gauntlet` and `deckbuilder.tournament` as typed results, answered by the
service the command line uses (`app.field_runs`): the same seed gives the same numbers.

    >>> result = tournament(["colty", "mcready"], games=2, seed=1, bot="random")
    >>> len(result.standings), result.pairings[0].games
    (2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from deckbuilder.api.keywords import SimulateKeywords, TournamentKeywords, asked
from deckbuilder.app.bot_checks import check_gauntlet, check_tournament, checked
from deckbuilder.app.field_runs import (
    plan_gauntlet,
    plan_tournament,
    run_gauntlet_plan,
    run_tournament_plan,
)
from deckbuilder.app.results import GauntletResult, TournamentResult
from deckbuilder.app.running import games_on
from deckbuilder.decks import DeckSource, deck_text


def listed(decks: DeckSource | Sequence[DeckSource], what: str) -> list[DeckSource]:
    """One deck (or folder) given bare, or several, as a list."""
    if isinstance(decks, Sequence) and not isinstance(decks, str):
        return list(decks)
    deck_text(decks, what)  # a value that is no deck is refused here, by name
    return [decks]


def gauntlet(deck: DeckSource, field: DeckSource | Sequence[DeckSource], *,
             weights: Sequence[float] | None = None,
             **given: Unpack[SimulateKeywords]) -> GauntletResult:
    """Play `deck` against each opponent of `field` (decks as `simulate`'s `against`, or
    folders of deck files), `games` games each on the same seeds, weighed into the field's
    win rate (`weights`: one per entry, default all alike). Other settings as `simulate`."""
    run = asked(given, SimulateKeywords, "gauntlet")
    plan = plan_gauntlet(run.catalog, deck, listed(field, "field"), run.options,
                         weights=weights, option="field")
    with games_on(run.workers, run.executor) as runner:
        return checked(run_gauntlet_plan(plan, runner, run.on_result), check_gauntlet, plan,
                       run.check_bot, runner)


def tournament(decks: DeckSource | Sequence[DeckSource],
               **given: Unpack[TournamentKeywords]) -> TournamentResult:
    """Play every deck of one side against every deck of the other, `games` (200) games
    per pairing on shared seeds, and rank them; given decks of one side only, the other
    side's base deck plays them all. Other settings as `simulate`."""
    run = asked(given, TournamentKeywords, "tournament", games=200)
    plan = plan_tournament(run.catalog, listed(decks, "decks"), run.options, "decks")
    with games_on(run.workers, run.executor) as runner:
        return checked(run_tournament_plan(plan, runner, run.on_result), check_tournament,
                       plan, run.check_bot, runner)

"""`deckbuilder.simulate`: a deck against one opponent, as a typed result of the service the
command line and the web simulator use (`app.simulation_plan`); `report` keeps the
`simulate --json` report whole.

    >>> result = simulate("mcready", games=4, seed=1, bot="random")
    >>> result.side, result.opponent_side, result.wins + result.draws + result.losses
    ('mcready', 'colty', 4)
"""

from __future__ import annotations

from typing import Unpack

from deckbuilder.api.keywords import SimulateKeywords, asked
from deckbuilder.app.bot_checks import check_simulation
from deckbuilder.app.results import SimulationResult, simulation_result
from deckbuilder.app.running import games_on
from deckbuilder.app.simulation_plan import (
    add_sensitivity,
    plan_simulation,
    planned_sensitivity,
    simulation_report,
)
from deckbuilder.decks import DeckSource


def simulate(deck: DeckSource, against: DeckSource | None = None,
             **given: Unpack[SimulateKeywords]) -> SimulationResult:
    """Play `deck` against `against` (default: the other side's base deck) `games` times on
    seeds that follow from `seed`. Decks: a loaded deck, a `Deck`, a path, a packaged deck's
    name or a faction (its base deck); the seat follows from the faction. Defaults:
    `games=1000`, `seed=1`, `bot="greedy"`, `max_turns=200`; the other settings are
    `api.keywords.RunKeywords`. Bad input raises a `DeckbuilderError` whose `str()` is one
    line."""
    run = asked(given, SimulateKeywords, "simulate")
    plan = plan_simulation(run.catalog, deck, against, None, run.options, vs_option="against")
    with games_on(run.workers, run.executor) as runner:
        report = simulation_report(plan, runner, run.on_result)
        check_simulation(plan, report, run.check_bot, runner)  # whether the verdict holds
    games, cards = planned_sensitivity(plan, report, None)  # what it rests on, where cheap
    if games:
        add_sensitivity(plan, report, games, run.workers if run.executor is None else 1,
                        cards=cards)
    return simulation_result(report, plan.settings)

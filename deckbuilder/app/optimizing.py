"""`optimize`'s search read and run one way for the command line and the Python API: the deck
and its field as a gauntlet reads them, the swaps narrowed to known cards and sets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deckbuilder.app.card_search import resolve_set
from deckbuilder.app.field_runs import GauntletPlan, plan_gauntlet
from deckbuilder.app.play_decks import search_template, side_of_deck
from deckbuilder.app.running import PlayOptions
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource
from deckbuilder.errors import DeckError
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize import OptimizeResult
from deckbuilder.sim.optimiser.optimize import optimize as search_decks
from deckbuilder.sim.optimiser.optimize_table import Opponent, OptimizeSettings
from deckbuilder.sim.optimiser.racing import Round
from deckbuilder.sim.runs.runner import Executor


@dataclass(frozen=True)
class SearchPlan:
    """The deck and its field read, the search's settings, the cards and sets it may swap."""

    field: GauntletPlan
    template: Deck
    settings: OptimizeSettings
    options: PlayOptions
    sets: list[str] | None
    only_out: list[str]
    only_in: list[str]


def card_ids(cards: Sequence[str], catalog: Catalog, game: str, what: str) -> list[str]:
    """Cards by id or printed name, as ids; an unknown one is one line."""
    found = []
    for card in [cards] if isinstance(cards, str) else cards:
        entry = catalog.find(card, game)
        if entry is None:
            raise DeckError(f"{what}: unknown card '{card}'",
                            fix="name cards by id or printed name (see `deckbuilder cards`)")
        found.append(entry.id)
    return found


def plan_search(catalog: Catalog, deck: DeckSource, field: Sequence[DeckSource] | None,
                options: PlayOptions, *, sets: Sequence[str] | None = None,
                only: tuple[Sequence[str], Sequence[str]] = ((), ()),
                weights: Sequence[float] | None = None,
                options_named: tuple[str, str, str] = ("--vs", "--out", "--in")) -> SearchPlan:
    """`only`: the cards to take out and put in; `options_named`: how the field and those
    cards are named in messages."""
    plan = plan_gauntlet(catalog, deck, field, options, weights=weights,
                         option=options_named[0])
    played, wanted = plan.deck, plan.settings
    searched = OptimizeSettings(
        side=side_of_deck(played)[0], field=[Opponent(entry.label, entry.cards, entry.weight)
                                            for entry in plan.opponents.entries],
        bot=wanted.bot, opponent_bot=wanted.opponent_bot, budget=options.games,
        seed=wanted.seed, game=played.game, ruleset=wanted.ruleset,
        switches=dict(wanted.switches), modules=wanted.modules, max_turns=wanted.max_turns)
    return SearchPlan(
        plan, search_template(deck, catalog, played), searched, options,
        None if sets is None else [known for set_id in sets
                                   if (known := resolve_set(catalog, set_id))],
        card_ids(only[0], catalog, played.game, options_named[1]),
        card_ids(only[1], catalog, played.game, options_named[2]))


def run_search(plan: SearchPlan, executor: Executor,
               progress: Callable[[Round], None] | None = None) -> OptimizeResult:
    catalog = plan.field.catalog
    return search_decks(plan.template, catalog, plan.settings, sets=plan.sets,
                        supply=plan.options.supply(catalog), only_out=plan.only_out,
                        only_in=plan.only_in, executor=executor, progress=progress)

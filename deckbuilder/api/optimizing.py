"""`deckbuilder.optimize`: the best legal deck near a deck, as a typed result.

A thin wrapper over the optimiser (`sim.optimiser.optimize.optimize`): the deck and its
opponents are read as `deckbuilder optimize` reads them, and the answer is the best deck found, its
difference from the deck confirmed on fresh seeds, whether that tells it apart, the swaps by
name and what the budget bought. (The search itself, its racing and its confirmation, is
described in `sim.optimiser.optimize`.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Unpack

from deckbuilder.api.fields import listed
from deckbuilder.api.keywords import OptimizeKeywords, asked
from deckbuilder.app.bot_checks import check_optimized
from deckbuilder.app.field_runs import plan_gauntlet
from deckbuilder.app.play_decks import search_template, side_of_deck
from deckbuilder.app.results import OptimizeResult, Swap
from deckbuilder.app.running import check_count, games_on
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource, load_collection, owned_copies, read_deck
from deckbuilder.errors import DeckError
from deckbuilder.models import Collection, Deck
from deckbuilder.sim.optimiser.optimize import OptimizeSettings, Round
from deckbuilder.sim.optimiser.optimize import optimize as search_decks
from deckbuilder.sim.optimiser.optimize_candidates import card_name
from deckbuilder.sim.optimiser.optimize_table import Opponent
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.optimize_report import advice

__all__ = ["CollectionSource", "optimize"]

#: Fewer games than this cannot race and confirm anything (`optimize --budget` says the same).
LEAST_BUDGET = 20


#: What a player owns, as the API takes it: a collection file, a `Collection` model, or
#: card (id or name) -> copies. It is all the player owns: the deck's own cards included.
CollectionSource = Mapping[str, int] | Collection | str | os.PathLike[str]


def _owned(collection: CollectionSource | None, catalog: Catalog,
           game: str) -> dict[str, int] | None:
    if collection is None:
        return None
    if isinstance(collection, Collection):
        return owned_copies(collection, catalog)
    if isinstance(collection, str | os.PathLike):
        return load_collection(os.fspath(collection), catalog)
    owned: dict[str, int] = {}
    for card, copies in collection.items():
        [card_id] = _card_ids([card], catalog, game, "collection")
        owned[card_id] = owned.get(card_id, 0) + check_count(f"copies of {card}", copies, 0)
    return owned


def _card_ids(cards: Sequence[str], catalog: Catalog, game: str, what: str) -> list[str]:
    """Cards by id or printed name, as ids; an unknown one is one line."""
    if isinstance(cards, str):
        cards = [cards]
    found = []
    for card in cards:
        entry = catalog.find(card, game)
        if entry is None:
            raise DeckError(f"{what}: unknown card '{card}'",
                            fix="name cards by id or printed name (see `deckbuilder cards`)")
        found.append(entry.id)
    return found


def optimize(deck: DeckSource, *, against: DeckSource | Sequence[DeckSource] | None = None,
             weights: Sequence[float] | None = None, collection: CollectionSource | None = None,
             sets: Sequence[str] | None = None, only_out: Sequence[str] = (),
             only_in: Sequence[str] = (), budget: int = 4000,
             progress: Callable[[Round], None] | None = None,
             **given: Unpack[OptimizeKeywords]) -> OptimizeResult:
    """Search the legal decks near `deck` for a better one against `against` (one opponent
    or a weighted field, as `gauntlet` takes it; default: the other side's base deck),
    playing `budget` games in all. Only cards the `collection` owns (a collection file, a
    `Collection`, or card -> copies: everything owned, the deck's cards included; without
    one, `boxes` of each product, one by default) and, given `sets` (ids), only cards of
    those sets go in; `only_out`/`only_in` (ids or names) narrow
    the swaps to those cards.

    The result's `is_better` is true only when the best deck's difference, measured on fresh
    seeds after the search chose it, lies above zero; otherwise `best` is a guess and
    `advice` says about what budget would tell.
    """
    check_count("budget", budget, LEAST_BUDGET)
    run = asked(given, OptimizeKeywords, "optimize", games=budget)
    found = run.catalog
    owned = _owned(collection, found, read_deck(deck, found).loaded.game)
    options = run.options if owned is None else replace(run.options, collection=owned)
    plan = plan_gauntlet(found, deck, None if against is None else listed(against, "against"),
                         options, weights=weights, option="field")
    played, wanted = plan.deck, plan.settings
    template = search_template(deck, found, played)
    searched = OptimizeSettings(
        side=side_of_deck(played)[0], field=[Opponent(entry.label, entry.cards, entry.weight)
                                            for entry in plan.opponents.entries],
        bot=wanted.bot, opponent_bot=wanted.opponent_bot, budget=budget, seed=wanted.seed,
        game=played.game, ruleset=wanted.ruleset, switches=dict(wanted.switches),
        modules=wanted.modules, max_turns=wanted.max_turns)
    with games_on(run.workers, run.executor) as runner:
        result = search_decks(template, found, searched, sets=sets,
                              supply=options.supply(found),
                              only_out=_card_ids(only_out, found, played.game, "only_out"),
                              only_in=_card_ids(only_in, found, played.game, "only_in"),
                              executor=runner, progress=progress)
        checks = check_optimized(result, found, run.check_bot, runner,
                                 run.workers if run.executor is None else 1)
    best = result.best
    swaps = () if best is None else tuple(
        Swap(swap.out, card_name(found, swap.out), swap.into, card_name(found, swap.into),
             swap.count) for swap in best.swaps)
    best_deck = template if best is None else Deck(
        name=f"{played.name} (optimised)", game=played.game, faction=played.faction,
        sets=template.sets, cards=dict(best.cards))
    return OptimizeResult(
        played.name, best_deck, swaps, None if best is None else result.difference(best),
        result.improved, len(result.candidates), result.games, advice(result),
        replace(wanted, games=result.games), budget, tuple(played.warnings),
        (*plan.opponents.notes, *checks["notes"], *verdict_lines(checks)))

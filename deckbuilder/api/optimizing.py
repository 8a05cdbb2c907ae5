"""`deckbuilder.optimize`: the best legal deck near a deck, as a typed result, searched by the
service `deckbuilder optimize` uses (`app.optimizing`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Unpack

from deckbuilder.api.fields import listed
from deckbuilder.api.keywords import OptimizeKeywords, asked
from deckbuilder.app.bot_checks import check_optimized
from deckbuilder.app.optimizing import card_ids, plan_search, run_search
from deckbuilder.app.results import OptimizeResult, Swap
from deckbuilder.app.running import check_count, games_on
from deckbuilder.decks import DeckSource, read_deck
from deckbuilder.models import Collection, Deck
from deckbuilder.sim.optimiser.optimize_candidates import card_name
from deckbuilder.sim.optimiser.racing import Round
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.optimize_report import advice

#: Fewer games than this cannot race and confirm anything (`optimize --budget` says the same).
LEAST_BUDGET = 20
#: What a player owns, as the API takes it: a collection file, a `Collection` model, or
#: card (id or name) -> copies. It is all the player owns: the deck's own cards included.
CollectionSource = Mapping[str, int] | Collection | str | os.PathLike[str]


def optimize(deck: DeckSource, *, against: DeckSource | Sequence[DeckSource] | None = None,
             weights: Sequence[float] | None = None, collection: CollectionSource | None = None,
             sets: Sequence[str] | None = None, only_out: Sequence[str] = (),
             only_in: Sequence[str] = (), budget: int = 4000,
             progress: Callable[[Round], None] | None = None,
             **given: Unpack[OptimizeKeywords]) -> OptimizeResult:
    """Search the legal decks near `deck` for a better one against `against` (as `gauntlet`
    takes its field), in `budget` games. Only cards the `collection` owns (else `boxes` of
    each product) and of `sets` go in; `only_out`/`only_in` narrow the swaps. `is_better`
    only when the difference confirmed on fresh seeds lies above zero; else `best` is a
    guess and `advice` says what budget would tell."""
    check_count("budget", budget, LEAST_BUDGET)
    run = asked(given, OptimizeKeywords, "optimize", games=budget)
    found = run.catalog
    options = run.options
    if isinstance(collection, Mapping):  # by id or name; a file or model is read as given
        game = read_deck(deck, found).loaded.game
        owned: dict[str, int] = {}
        for card, copies in collection.items():
            [card_id] = card_ids([card], found, game, "collection")
            owned[card_id] = owned.get(card_id, 0) + check_count(f"copies of {card}", copies, 0)
        options = replace(options, collection=owned)
    elif collection is not None:
        options = replace(options, collection=collection if isinstance(collection, Collection)
                          else os.fspath(collection))
    plan = plan_search(found, deck, None if against is None else listed(against, "against"),
                       options, sets=sets, only=(only_out, only_in), weights=weights,
                       options_named=("field", "only_out", "only_in"))
    played, wanted, template = plan.field.deck, plan.field.settings, plan.template
    with games_on(run.workers, run.executor) as runner:
        result = run_search(plan, runner, progress)
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
        (*plan.field.opponents.notes, *checks["notes"], *verdict_lines(checks)))

"""What every result says about the data it rests on (an overlay in use, values no document
states, the cards that matter most, the packs by content hash), so that a result resting on
a correction or a guess is never taken for one resting on the printed cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from deckbuilder.app.card_details import OVERLAY_SOURCE
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.sim.optimiser.optimize import OptimizeResult, replay_gain
from deckbuilder.sim.reports.sensitivity import (
    SwapRestsOnJson,
    data_in_force,
    moved_scores,
    planned_moves,
    range_sentence,
    report_plays,
    rests_on,
    value_range,
    values_in_play,
)

#: Cards a deck's note names, review-first order.
NAMED_CARDS = 5
#: Confirmation units an optimiser's best swap replays per moved value, at most, and the
#: share of the search's budget those games may cost.
SWAP_UNITS = 100
SWAP_SHARE = 0.25


def deck_data_notes(cards: Mapping[str, int], catalog: Catalog) -> list[str]:
    """An overlay in use, and the deck's unconfirmed values, naming the cards to review
    first (as `data status` ranks them)."""
    entries = [catalog.entries[card] for card in cards if card in catalog.entries]
    counts, ranked = values_in_play(catalog, [cards])
    notes = []
    if catalog.overlay_path is not None:
        corrected = _overlaid(catalog.entries.values())
        notes.append(
            f"the overlay {catalog.overlay_path} is in use: it corrects {_values(corrected)} "
            f"({_overlaid(entries)} on this deck's cards; see `deckbuilder overlay show`)"
        )
    unconfirmed = counts.unconfirmed
    if unconfirmed:
        names = [card.name for card in ranked]
        shown = ", ".join(names[:NAMED_CARDS]) + (", ..." if len(names) > NAMED_CARDS else "")
        confirmed = (f"; {_values(counts.player)} confirmed by a player" if counts.player
                     else "")
        notes.append(
            f"{_values(unconfirmed)} of this deck's cards "
            f"{'is' if unconfirmed == 1 else 'are'} unconfirmed (no document states "
            f"{'it' if unconfirmed == 1 else 'them'}), on {len(ranked)} of its "
            f"{len(entries)} cards: {shown}{confirmed}; see `deckbuilder cards show NAME`, "
            "and review them first with `deckbuilder data review`"
        )
    return notes


def _overlaid(entries: Iterable[Entry]) -> int:
    return sum(1 for entry in entries for source in entry.record.provenance.sources.values()
               if source.startswith(OVERLAY_SOURCE))


def _values(count: int) -> str:
    return f"{count} value{'' if count == 1 else 's'}"


# -- a result's report ------------------------------------------------------------------------
def result_data(catalog: Catalog, decks: Sequence[Mapping[str, int]],
                report: Mapping[str, object] | None = None) -> dict[str, object]:
    """The `rests_on` and `data` fields of a result's report (the cards that matter most
    ranked by the report's own plays per game when it has them)."""
    plays = report_plays(report) if report is not None and report.get("cards") else None
    return {"rests_on": rests_on(catalog, decks, plays), "data": data_in_force(catalog)}


def swap_rests_on(result: OptimizeResult, catalog: Catalog, workers: int = 1
                  ) -> SwapRestsOnJson | None:
    """The best swap's gain over its first confirmation units with each unconfirmed value
    of the swapped cards moved one down and one up, in one sentence."""
    best = result.best
    if best is None:
        return None
    cards = list(dict.fromkeys(card for swap in best.swaps for card in (swap.into, swap.out)))
    per_unit = 2 * len(result.settings.opponents()) * (len(planned_moves(catalog, cards)) + 1)
    units = max(1, min(len(best.confirmed), SWAP_UNITS,
                       int(result.settings.budget * SWAP_SHARE) // per_unit))
    unmoved, rows = moved_scores(
        catalog, cards, lambda executor: replay_gain(result, best, executor, units), workers)
    span = value_range(catalog, sum(unmoved) / units, rows, 0.0)
    said = range_sentence(f"{100 * span['unmoved']:+.1f} points on the first {units} "
                          "confirmation units", span, lambda gain: f"{100 * gain:+.1f}")
    return {**span, "units": units, "sentence": said, "games": units * per_unit}


# -- game records -----------------------------------------------------------------------------
def record_data_note(recorded: Mapping[str, Any] | None, catalog: Catalog) -> str | None:
    """One line when the card data in force now differ from a record's (`replay`); None
    when they agree or the record names no data (written before records did)."""
    if not recorded or "sha256" not in recorded:
        return None
    now = data_in_force(catalog)
    if now["sha256"] == recorded["sha256"]:
        return None
    differences = []
    before_packs = dict(recorded.get("packs") or {})
    now_packs = now["packs"]
    for pack in sorted(set(before_packs) | set(now_packs)):
        if pack not in now_packs:
            differences.append(f"pack {pack} is no longer installed")
        elif pack not in before_packs:
            differences.append(f"pack {pack} was not installed then")
        elif before_packs[pack] != now_packs[pack]:
            differences.append(f"pack {pack} has changed")
    if recorded.get("overlay") != now["overlay"]:
        differences.append("the overlay it was played with is gone" if now["overlay"] is None
                           else "there was no overlay then" if recorded.get("overlay") is None
                           else "the overlay has changed")
    said = "; ".join(differences) or "the packs and overlay differ"
    return (f"the card data in force differ from the record's ({said}): a game that no longer "
            "replays the same may owe it to the data, not the engine")

"""What `validate`, `simulate`, `optimize`, gauntlets, tournaments, the web pages and `replay`
say about the data a result rests on: an overlay in use, values no document states (counted
as `data status` counts them, `data_packs.status`), the cards that matter most
(`sim.reports.sensitivity`), and the packs and overlay by content hash. A result resting on a
correction or a guess is never taken for one resting on the printed cards."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckbuilder.app.card_details import OVERLAY_SOURCE
from deckbuilder.catalog import Catalog
from deckbuilder.sim.reports.sensitivity import (
    CHECKED_CARDS,
    Setup,
    check_sensitivity,
    data_in_force,
    planned_moves,
    report_plays,
    rests_on,
    values_in_play,
)
from deckbuilder.sim.runs.batch import Contestant
from deckbuilder.sim.runs.runner import GameResult

#: Cards a deck's note names, review-first order.
NAMED_CARDS = 5


def deck_data_notes(cards: Mapping[str, int], catalog: Catalog) -> list[str]:
    """Notes about the data a deck's verdict or simulation rests on: whether a local overlay
    is in use (and how many of the deck's values it changes), and how many of the deck's
    values no document states and no player confirmed, naming the cards to review first
    (the most unconfirmed values times copies, as `data status`). `cards` maps card ids to
    copies (unknown ids are skipped)."""
    entries = [catalog.entries[card] for card in cards if card in catalog.entries]
    overlaid = sum(1 for entry in entries for source in entry.record.provenance.sources.values()
                   if source.startswith(OVERLAY_SOURCE))
    counts, ranked = values_in_play(catalog, [cards])
    notes = []
    if catalog.overlay_path is not None:
        corrected = sum(
            1 for entry in catalog.entries.values()
            for source in entry.record.provenance.sources.values()
            if source.startswith(OVERLAY_SOURCE)
        )
        notes.append(
            f"the overlay {catalog.overlay_path} is in use: it corrects {_values(corrected)} "
            f"({overlaid} on this deck's cards; see `deckbuilder overlay show`)"
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


def _values(count: int) -> str:
    return f"{count} value{'' if count == 1 else 's'}"


# -- a result's report ------------------------------------------------------------------------
def result_data(catalog: Catalog, decks: Sequence[Mapping[str, int]],
                report: Mapping[str, object] | None = None) -> dict[str, object]:
    """The fields a result's report adds (`report.update(...)`): `rests_on`, the values of
    the decks' cards by standing and the cards that matter most (ranked by the report's own
    plays per game when it has per-card figures), and `data`, the packs and overlay in force
    by content hash (as a game record names them)."""
    plays = report_plays(report) if report is not None and report.get("cards") else None
    return {"rests_on": rests_on(catalog, decks, plays), "data": data_in_force(catalog)}


def sensitivity_setup(plan: Any) -> Setup:
    """A `simulate` plan's games (`app.simulation_plan.SimulationPlan`) for the check."""
    wanted = plan.settings
    return Setup(Contestant(plan.deck.name, plan.deck.cards, wanted.bot),
                 Contestant(plan.opponent.name, plan.opponent.cards, wanted.opponent_bot),
                 plan.side, wanted.seed, wanted.ruleset, plan.deck.game, wanted.max_turns,
                 dict(wanted.switches), tuple(sorted(wanted.modules)))


def checked_cards(report: Mapping[str, Any]) -> list[str]:
    """The cards a sensitivity check moves: the first of the report's `matter_most`."""
    return [card["id"] for card in report["rests_on"]["matter_most"][:CHECKED_CARDS]]


def sensitivity_cost(plan: Any, report: Mapping[str, Any], games: int) -> int:
    """The games `simulate --sensitivity N` plays on top of the run (said before playing)."""
    return games * (len(planned_moves(plan.catalog, checked_cards(report))) + 1)


def add_sensitivity(plan: Any, report: dict[str, Any], games: int, workers: int = 1,
                    on_result: Callable[[GameResult], None] | None = None) -> dict[str, Any]:
    """Run the sensitivity check of a `simulate` report (`result_data` added) and put it
    into `report["rests_on"]["sensitivity"]`."""
    checked = check_sensitivity(plan.catalog, sensitivity_setup(plan), checked_cards(report),
                                games, workers, on_result)
    report["rests_on"]["sensitivity"] = checked
    return checked


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

"""What `validate`, `simulate` and the web pages say about the data a deck's result rests on:
an overlay in use, values no document states. A result resting on a correction or a guess
is never taken for one resting on the printed cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deckbuilder.app.card_details import OVERLAY_SOURCE
from deckbuilder.models.common import UNCONFIRMED


def deck_data_notes(cards: Mapping[str, int], catalog: Any) -> list[str]:
    """Notes about the data a deck's verdict or simulation rests on: whether a local overlay
    is in use (and how many of the deck's values it changes), and how many of the deck's
    values no document states. `cards` maps card ids to copies (unknown ids are skipped)."""
    entries = [catalog.entries[card] for card in cards if card in catalog.entries]
    overlaid = unconfirmed = 0
    guessed_cards = []
    for entry in entries:
        provenance = entry.record.provenance
        overlaid += sum(1 for source in provenance.sources.values()
                        if source.startswith(OVERLAY_SOURCE))
        guessed = [name for name in provenance.unconfirmed if name != "set"]
        guessed += [name for name, source in provenance.sources.items()
                    if source == UNCONFIRMED and name not in guessed]
        if guessed:
            unconfirmed += len(guessed)
            guessed_cards.append(entry.name)
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
    if unconfirmed:
        shown = ", ".join(guessed_cards[:5]) + (", ..." if len(guessed_cards) > 5 else "")
        notes.append(
            f"{_values(unconfirmed)} of this deck's cards "
            f"{'is' if unconfirmed == 1 else 'are'} unconfirmed (no document states "
            f"{'it' if unconfirmed == 1 else 'them'}), on {len(guessed_cards)} of its "
            f"{len(entries)} cards: {shown}; see `deckbuilder cards show NAME`"
        )
    return notes


def _values(count: int) -> str:
    return f"{count} value{'' if count == 1 else 's'}"

"""`deckbuilder cards show NAME` (everything about one record) and the data notes that
`validate` and `simulate` print about a deck: an overlay in use, values no document states.

A player should never take a guess for a fact: every value is shown with the document that
states it, or marked unconfirmed, and a value corrected by the overlay says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import typer

from deckbuilder.commands.common import console, guarded, load_catalog_for_cli, print_json, safe

#: Fields shown apart (the heading, the text) or not values at all.
_NOT_VALUES = ("id", "name", "aliases", "text", "provenance")
OVERLAY_SOURCE = "overlay "  # how catalog.apply_overlay_document labels a corrected value


def find_records(catalog: Any, name: str, game: str | None = None) -> list[Any]:
    """Every record the id, name or alias names (a name printed in both games gives both,
    unless `game` chooses); raises with the plausible names for a typo."""
    from deckbuilder.errors import DeckbuilderError

    games = [game] if game else sorted({entry.game for entry in catalog.entries.values()})
    found: list[Any] = []
    for each in games:
        entry = catalog.find(name, each)
        if entry is not None and (game is None or entry.game == game) and entry not in found:
            found.append(entry)
    if not found:
        hint = catalog.suggest(name, prefer_game=game)
        raise DeckbuilderError(
            f"no card or other record is named '{safe(name)}'",
            fix=f"did you mean {' or '.join(hint)}?" if hint
            else "search names and texts with `deckbuilder cards --search WORDS`",
        )
    return found


def _shown_value(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, list):
        return [_shown_value(item) for item in value]
    return value.value if hasattr(value, "value") else value


def record_details(catalog: Any, entry: Any) -> dict[str, Any]:
    """Everything known about one record: values with their sources, what is unconfirmed,
    what the overlay changed, and whether the engine plays it (and why not)."""
    from deckbuilder.models.common import UNCONFIRMED

    record = entry.record
    provenance = record.provenance
    fields = type(record).model_fields
    values = []
    for name in fields:
        if name in _NOT_VALUES:
            continue
        explicit = (name in record.model_fields_set or name in provenance.unconfirmed
                    or name in provenance.sources)
        source = provenance.source_of(name)
        values.append({
            "field": name,
            "value": _shown_value(getattr(record, name)),
            "source": source if explicit else "default (the data does not set it)",
            "unconfirmed": explicit and source == UNCONFIRMED,
            "overlay": source.startswith(OVERLAY_SOURCE),
        })
    loaded = catalog.sets[entry.set_id]
    details: dict[str, Any] = {
        "id": entry.id,
        "name": record.name,
        "aliases": list(record.aliases),
        "kind": entry.kind,
        "game": entry.game,
        "set": entry.set_id,
        "set_name": loaded.card_set.name,
        "set_source": provenance.source_of("set"),
        "text": record.text,
        "text_source": provenance.source_of("text"),
        "values": values,
        "unconfirmed": list(provenance.unconfirmed),
        "note": provenance.note,
    }
    if entry.kind == "card":
        details["base_copies"] = catalog.base_copies(entry.id)
    details["engine"] = engine_support(entry)
    return details


def engine_support(entry: Any) -> dict[str, Any]:
    """Whether the engine plays the record, and the reasons when it does not."""
    from deckbuilder.engine.support import unimplemented_reasons
    from deckbuilder.games import games

    if entry.game not in games():
        return {"plays": False, "reasons": [f"the engine does not play {entry.game}"]}
    if entry.kind not in ("card", "character", "special"):
        return {"plays": True, "reasons": []}
    reasons = unimplemented_reasons(entry.record, game_steps(entry.game))
    return {"plays": not reasons, "reasons": reasons}


def game_steps(game: str) -> dict:
    """The game's own effect steps (Derail the Train ...), beside the table's."""
    from deckbuilder.games import games

    found = games().get(game)
    return dict(found.hooks.steps) if found is not None else {}


def _one_line(value: Any) -> str:
    import json

    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def print_details(details: dict[str, Any]) -> None:
    from deckbuilder.models.common import UNCONFIRMED

    say = console.print
    say(f"[bold]{safe(details['name'], markup=True)}[/] ({safe(details['id'], markup=True)})")
    say(safe(f"  {details['kind']} of {details['game']}, set {details['set']} "
             f"({details['set_name']})", markup=True))
    if details["aliases"]:
        say(f"  also called: {safe(', '.join(details['aliases']), markup=True)}")
    if details["text"]:
        say(f"  text: {safe(details['text'], markup=True)}")
        source = details["text_source"]
        say("        [dim]" + (f"source: {safe(source, markup=True)}" if source != UNCONFIRMED
                              else "a paraphrase; no document is named for it") + "[/]")
    say("  values:")
    width = max(len(row["field"]) for row in details["values"])
    for row in details["values"]:
        if row["source"].startswith("default"):
            continue
        mark = "[yellow]unconfirmed[/]" if row["unconfirmed"] else (
            f"[cyan]{safe(row['source'], markup=True)}[/]" if row["overlay"]
            else f"[dim]{safe(row['source'], markup=True)}[/]")
        say(f"    {row['field']:<{width}}  {safe(_one_line(row['value']), markup=True)}  "
            f"{mark}")
    defaults = [row["field"] for row in details["values"] if row["source"].startswith("default")]
    if defaults:
        say(f"  [dim]left at their defaults: {', '.join(defaults)} (see --json)[/]")
    if details["unconfirmed"]:
        say(f"  [yellow]unconfirmed[/] (no document states them): "
            f"{safe(', '.join(details['unconfirmed']), markup=True)}")
    if details["note"]:
        say(f"  note: {safe(details['note'], markup=True)}")
    if "base_copies" in details:
        say(f"  copies in its base deck: {details['base_copies']}")
    engine = details["engine"]
    if engine["plays"]:
        say("  engine: plays it")
    else:
        say(f"  engine: [red]cannot play it[/]: {safe('; '.join(engine['reasons']), markup=True)}")


def show(
    name: Annotated[str, typer.Argument(metavar="NAME", help="a card's id, name or alias",
                                        show_default=False)],
    game: Annotated[str | None, typer.Option(help="revolver or revolver2 (for namesakes)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Everything about one card (or character, battlefield ...): text, values with the
    document stating each, unconfirmed values, and whether the engine plays it."""
    guarded(_show)(name, game, as_json)


def _show(name: str, game: str | None, as_json: bool) -> None:
    catalog = load_catalog_for_cli()
    found = [record_details(catalog, entry) for entry in find_records(catalog, name, game)]
    if as_json:
        print_json(found[0] if len(found) == 1 else found)
        return
    for index, details in enumerate(found):
        if index:
            console.print()
        print_details(details)


# -- what validate and simulate say about a deck's data -------------------------------------
def deck_data_notes(cards: Mapping[str, int], catalog: Any) -> list[str]:
    """Notes about the data a deck's verdict or simulation rests on: whether a local overlay
    is in use (and how many of the deck's values it changes), and how many of the deck's
    values no document states. `cards` maps card ids to copies (unknown ids are skipped).

    Validate and simulate print these, so that a result resting on a correction or a guess
    is never taken for one resting on the printed cards.
    """
    from deckbuilder.models.common import UNCONFIRMED

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

"""`deckbuilder data`: card data players complete (`review`, `status`) and share as data
packs (`export`, `import`, `remove`); the logic is `deckbuilder.data_packs`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from deckbuilder.app.card_details import find_records
from deckbuilder.app.card_search import chosen_records, refuse_unknown_sets
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.card_face import face
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.commands import completion
from deckbuilder.commands.card_detail import detail_lines, text_width
from deckbuilder.commands.choices import SET
from deckbuilder.commands.common import (
    EXIT_FAILED,
    AsJson,
    fail,
    guarded,
    print_answer,
    print_json,
    typed_line,
)
from deckbuilder.commands.common import say as _say
from deckbuilder.data_packs.answers import AS_SHOWN, AnswerRefused, check_player_name, save_answer
from deckbuilder.data_packs.exchange import PackRefused, export_pack, import_pack, remove_pack
from deckbuilder.data_packs.review import (
    CardReview,
    Question,
    cards_to_review,
    read_answer,
    shown,
)
from deckbuilder.data_packs.status import data_status
from deckbuilder.decks import DECK_ARGUMENT_HELP, packaged_deck_names, read_deck
from deckbuilder.errors import DeckbuilderError
from deckbuilder.writing import refuse_overwrite

data_app = typer.Typer(
    help="Complete the card data from your printed cards: review, status, and data packs "
         "to share (export, import, remove).",
    no_args_is_help=True,
)

#: The exit code of a review left with Ctrl-C (every answer before it is saved).
EXIT_INTERRUPTED = 130


# -- review -----------------------------------------------------------------------------------
@data_app.command("review")
@guarded
def review(
    deck: Annotated[str | None, typer.Argument(
        metavar="[DECK]", help=DECK_ARGUMENT_HELP, show_default=False,
        autocompletion=completion.complete_deck)] = None,
    set_id: Annotated[str | None, typer.Option(
        "--set", metavar="ID", help="review a card set's cards",
        autocompletion=SET.complete)] = None,
    card: Annotated[str | None, typer.Option(
        "--card", metavar="NAME", help="review one card (id, name or alias)",
        autocompletion=completion.complete_record)] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="your name, saved with each answer (optional)")] = None,
) -> None:
    """Read the unconfirmed values of a deck's cards (or a set's, or one card's) off your
    printed cards. For each value type the printed value, = when the card shows the current
    reading, Enter to skip, q to quit. Each answer is saved at once into your overlay,
    sourced "read from the printed card" with the date (and --name)."""
    player = check_player_name(name)
    catalog = project_catalog()
    if sum(each is not None for each in (deck, set_id, card)) > 1:
        raise DeckbuilderError("name a deck, a set or a card, not several",
                               fix="data review DECK | --set ID | --card NAME")
    reviews = cards_to_review(chosen_records(catalog, deck, set_id, card)[1])
    questions = sum(len(each.questions) for each in reviews)
    if not reviews:
        _say("Nothing to review: every value of these cards is stated by a document or "
             "confirmed by a player.")
        return
    _say(f"{questions} unconfirmed values on {len(reviews)} cards. For each: type the "
         "printed value, = if the card shows the current reading, Enter to skip, q to quit. "
         "Each answer is saved at once.")
    saved = skipped = 0
    try:
        for number, item in enumerate(reviews, 1):
            outcome = _review_card(catalog, item, number, len(reviews), player)
            saved += outcome[0]
            skipped += outcome[1]
            if outcome[2]:
                break
    except KeyboardInterrupt:
        _say("")
        _say(f"Interrupted: {saved} answers saved, {skipped} skipped.")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    from deckbuilder import paths

    _say(f"{saved} answers saved to {paths.overlay_path()}, {skipped} skipped; "
         f"{questions - saved} values of these cards are still unconfirmed.")


def down_the_face(catalog: Catalog, entry: Entry, questions: Iterable[Question]
                  ) -> list[Question]:
    """The questions in the order the card's face shows their rows, the order the page asks
    them (`CardFace.field_order`); a value the face does not show comes last."""
    order = face(entry, catalog).field_order()
    return sorted(questions, key=lambda asked: order.index(asked.field)
                  if asked.field in order else len(order))


def _review_card(catalog: Catalog, item: CardReview, number: int, count: int,
                 player: str | None) -> tuple[int, int, bool]:
    """Ask one card's questions: (saved, skipped, quit)."""
    entry = item.entry
    width = text_width()
    _say("")
    _say(f"-- Card {number} of {count}: {entry.name} ({entry.id}, {entry.set_id}) --")
    for shown_line in detail_lines(catalog, entry, width):
        _say(shown_line)
    _say("")
    saved = skipped = 0
    for question in down_the_face(catalog, entry, item.questions):
        while True:
            line = typed_line(f"{question.label} (now {shown(question.current)}; "
                              f"{question.hint()}) > ")
            if not line:  # the end of the input
                _say("")
                return saved, skipped, True
            answer = read_answer(entry, question, line)
            if answer.action == "refused":
                _say(f"  not saved: {answer.reason}")
                continue
            if answer.action == "quit":
                return saved, skipped, True
            if answer.action == "skip":
                skipped += 1
                break
            value = AS_SHOWN if answer.action == "confirm" else answer.value
            try:
                result = save_answer(entry.id, question.field, value, player)
            except AnswerRefused as error:
                _say(f"  not saved: {error.message}")
                continue
            also = f" (the old name stays an alias: {result.alias})" if result.alias else ""
            _say(f"  saved: {question.label} {shown(result.after)}"
                 + (" (as shown)" if answer.action == "confirm" else
                    f" (was {shown(result.before)})") + also)
            saved += 1
            break
    return saved, skipped, False


# -- status -----------------------------------------------------------------------------------
@data_app.command("status")
@guarded
def status(
    deck: Annotated[str | None, typer.Argument(
        metavar="[DECK]", help="a deck to count (default: the packaged decks)",
        show_default=False, autocompletion=completion.complete_deck)] = None,
    as_json: AsJson = False,
) -> None:
    """Per set and per deck: how many values a document states, a player confirmed (a pack
    or your overlay), or are still unconfirmed; the cards to review first."""
    catalog = project_catalog()
    names = [deck] if deck is not None else packaged_deck_names()
    loaded = [read_deck(each, catalog).loaded for each in names]
    found = data_status(catalog, [(deck.name, deck.counts()) for deck in loaded])
    if as_json:
        print_json(found)
        return
    _say("Values: stated by a document / confirmed by a player / unconfirmed")
    for row in found["sets"]:
        _say(f"  {row['set']}: {row['stated']} / {row['player']} / {row['unconfirmed']}")
    whole = found["catalog"]
    _say(f"  all sets: {whole['stated']} / {whole['player']} / {whole['unconfirmed']}")
    for row in found["decks"]:
        _say(f"{row['deck']}: {row['stated']} / {row['player']} / {row['unconfirmed']}")
        if row["review_first"]:
            _say("  review first: " + ", ".join(
                f"{card['name']} ({card['unconfirmed']} unknown, {card['copies']} copies)"
                for card in row["review_first"]))
    for pack in found["packs"]:
        _say(f"pack {pack['id']} {pack['version']} in force ({pack['path']})")
    for notice in found["pack_notices"]:
        _say(f"  {notice}")
    if found["overlay"]:
        _say(f"your overlay is in force: {found['overlay']}")


# -- packs ------------------------------------------------------------------------------------
@data_app.command("export")
@guarded
def export(
    output: Annotated[Path, typer.Option("-o", "--output", help="the pack file to write",
                                         show_default=False)],
    set_ids: Annotated[list[str] | None, typer.Option(
        "--set", metavar="ID", help="only values of this set (repeatable)",
        autocompletion=SET.complete)] = None,
    cards: Annotated[list[str] | None, typer.Option(
        "--card", metavar="NAME", help="only values of this card (repeatable)",
        autocompletion=completion.complete_record)] = None,
    pack_id: Annotated[str, typer.Option("--id", help="the pack's id (kebab-case)")
                       ] = "my-card-data",
    version: Annotated[str, typer.Option("--version", help="the pack's version")] = "1",
    force: Annotated[bool, typer.Option("--force", help="replace an existing file")] = False,
    as_json: AsJson = False,
) -> None:
    """Write your own values (your overlay's: what you reviewed or corrected) as a data pack
    that names the card-set versions they were read for."""
    refuse_overwrite(output, force)
    catalog = project_catalog()
    card_ids = [entry.id for name in cards or [] for entry in find_records(catalog, name)]
    set_ids = set_ids or []
    refuse_unknown_sets(catalog, set_ids)
    try:
        exported = export_pack(output, pack_id, version, set_ids, card_ids)
    except ValueError as error:  # the pack model refuses the id or version given
        raise DeckbuilderError(f"--id/--version: {str(error).splitlines()[-2].strip()}",
                               fix="a pack id is kebab-case (my-homebrew-cards)") from None
    count = sum(len(values) for values in exported.pack.values.values())
    print_answer({"path": str(output), "id": pack_id, "version": version, "values": count,
                  "records": len(exported.pack.values),
                  "applies_to": exported.pack.applies_to, "left_out": exported.left_out},
                 as_json, f"wrote {count} values of {len(exported.pack.values)} records to "
                 f"{output} (pack {pack_id} {version}, for " + ", ".join(
                     f"{key} {value}" for key, value in exported.pack.applies_to.items()) + ")",
                 *(f"  left out {line}" for line in exported.left_out))


@data_app.command("import")
@guarded
def import_(
    file: Annotated[Path, typer.Argument(help="a data pack file", show_default=False)],
    upgrade: Annotated[bool, typer.Option("--upgrade", help="replace the installed pack of "
                                                            "the same id")] = False,
    as_json: AsJson = False,
) -> None:
    """Check a data pack (schema, ids, set versions, each value) and install it above the
    packaged data and below your overlay; says every value it changes and every conflict."""
    try:
        report = import_pack(file, upgrade)
    except PackRefused as refused:  # a pack (a file that is one) refused, as `sets import`
        raise fail(str(refused), EXIT_FAILED) from None
    data = report.as_json()
    replaced = f" (replaced version {report.replaced_version})" if report.replaced_version \
        else ""
    print_answer(
        data, as_json,
        f"installed pack {report.pack_id} {report.version}{replaced} as {report.path}",
        *(f"  {change['id']}.{change['field']}: {shown(change['before'])} -> "
          f"{shown(change['after'])} (was {change['before_source']})"
          for change in data["changes"]),
        *(f"  conflict: {line}" for line in data["conflicts"]),
        *(f"  warning: {line}" for line in data["warnings"]),
        *(f"  {line}" for line in data["overlay_wins"]),
        f"{len(data['changes'])} values changed, {len(data['conflicts'])} conflicts, "
        f"{len(data['overlay_wins'])} overridden by your overlay.")


@data_app.command("remove")
@guarded
def remove(
    pack_id: Annotated[str, typer.Argument(
        metavar="ID", help="an installed pack's id", autocompletion=completion.complete_pack)],
    as_json: AsJson = False,
) -> None:
    """Take an installed data pack out: its values go back to the packaged ones."""
    path, gone = remove_pack(pack_id)
    print_answer({"id": pack_id, "path": str(path), "values": len(gone)}, as_json,
                 f"removed pack {pack_id} ({path}): {len(gone)} values back to the packaged data")


def register(app: typer.Typer) -> None:
    app.add_typer(data_app, name="data")

"""`deckbuilder cards show NAME`: one record's face, then what the face leaves out
(`app.card_details`), every value with its document or marked unconfirmed.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from deckbuilder.app.card_details import find_records, record_details
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.card_face import face, face_text
from deckbuilder.catalog import Catalog, Entry
from deckbuilder.commands import completion
from deckbuilder.commands.choices import GAME
from deckbuilder.commands.common import AsJson, console, guarded, print_json
from deckbuilder.data_packs.standing import Standing, standing_of_source, standing_words
from deckbuilder.models.common import UNCONFIRMED
from deckbuilder.printable import wrap_columns


def detail_lines(catalog: Catalog, entry: Entry, width: int) -> list[str]:
    """One record as a player reads it, plain text of at most `width` columns."""
    details = record_details(catalog, entry)
    lines = face_text(face(entry, catalog), width)
    lines.append("")
    also = f"; also called {', '.join(details['aliases'])}" if details["aliases"] else ""
    lines += _wrap(f"id {details['id']}{also}", width)
    if "base_copies" in details:
        lines += _wrap(f"copies in its base deck: {details['base_copies']}", width)
    engine = details["engine"]
    lines += _wrap("engine: plays it" if engine["plays"] else
                   f"engine: cannot play it: {'; '.join(engine['reasons'])}", width)
    sources = [row for row in details["values"]
               if not row["unconfirmed"] and not row["source"].startswith("default")]
    if details["text"] and details["text_source"] != UNCONFIRMED:
        sources.insert(0, {"field": "text", "source": details["text_source"],
                           "overlay": False})
    if sources:
        lines.append("Sources")
        label = max(len(row["field"]) for row in sources)
        indent = " " * (label + 4)
        for row in sources:
            source = _standing(row["source"], row["field"])
            lines += _wrap(source, width, f"  {row['field'].replace('_', ' '):<{label}}  ",
                           indent)
    if details["note"]:
        lines.append("Note")
        lines += _wrap(details["note"], width, "  ", "  ")
    return lines


def _standing(source: str, field: str) -> str:
    """A document's source as it is; a player's value as "confirmed by a player (pack X /
    your overlay): what they said" (`data_packs.standing`)."""
    standing, _ = standing_of_source(source)
    return standing_words(source, field) if standing is Standing.PLAYER else source


#: The width of prose (card texts, notes) written to a pipe or a file, when COLUMNS is unset.
PIPE_TEXT_WIDTH = 80


def text_width() -> int:
    """How wide to wrap prose: the terminal's width; in a pipe or a file, COLUMNS when set,
    else 80 (the console's own pipe width is for tables, not for paragraphs)."""
    if console.is_terminal:
        return int(console.width)
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else PIPE_TEXT_WIDTH


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return wrap_columns(text, max(width, 20), first, rest)


@guarded
def show(
    name: Annotated[str, typer.Argument(
        metavar="NAME", help="a card's id, name or alias, or the start of one (volcanic)",
        show_default=False, autocompletion=completion.complete_record)],
    game: Annotated[str | None, typer.Option(
        help="revolver or revolver2 (for namesakes)", autocompletion=GAME.complete)] = None,
    as_json: AsJson = False,
) -> None:
    """One card (or character, battlefield ...) as its face: values and text in words, each
    value no document states marked `?`; then the document stating each value, and whether
    the engine plays it. A unique start of a name finds the card (`cards show volcanic`)."""
    catalog = project_catalog()
    entries = find_records(catalog, name, game)
    if as_json:
        found = [record_details(catalog, entry) for entry in entries]
        print_json(found[0] if len(found) == 1 else found)
        return
    for index, entry in enumerate(entries):
        if index:
            console.print()
        for line in detail_lines(catalog, entry, text_width()):
            console.print(line, markup=False, highlight=False, soft_wrap=True)

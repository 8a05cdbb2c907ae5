"""A deck sheet made to print (`deck export --format html|pdf`, the web editor's "Printable
sheet"): one self-contained HTML page, no script, every value escaped; the PDF is printed by
headless Chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from html import escape
from pathlib import Path

from deckbuilder.app.table_words import card_summary
from deckbuilder.catalog import Catalog
from deckbuilder.deck_stats import deck_stats
from deckbuilder.decks import DeckEntry, LoadedDeck
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.legality import validate_deck
from deckbuilder.models.common import Category
from deckbuilder.writing import atomic_write_bytes

#: `$DECKBUILDER_CHROMIUM` names a Chromium to print with; else the first of these found.
CHROMIUM_VARIABLE = "DECKBUILDER_CHROMIUM"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PRINT_SECONDS = 90

_SHEET_CSS = """
body { font: 11pt/1.35 system-ui, sans-serif; color: #111; margin: 1.5rem; max-width: 60rem; }
h1 { font-size: 18pt; margin: 0 0 0.2rem; }
h2 { font-size: 13pt; margin: 1rem 0 0.3rem; border-bottom: 1px solid #999; }
.meta { color: #444; margin: 0 0 0.6rem; }
.verdict { font-weight: 700; padding: 0 0.4rem; border: 2px solid; }
.legal { color: #165c16; } .illegal { color: #9b1c1c; }
.groups { columns: 2 20rem; column-gap: 2rem; }
.group { break-inside: avoid; margin: 0 0 0.6rem; }
.group h3 { font-size: 11.5pt; margin: 0 0 0.2rem; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
td { padding: 0.05rem 0.3rem; vertical-align: top; }
td.count { width: 2.2rem; text-align: right; font-weight: 600; }
td.facts { color: #444; font-size: 9.5pt; width: 42%; }
ul { margin: 0.2rem 0; padding-left: 1.2rem; }
.fix { color: #444; }
.small { color: #555; font-size: 9pt; }
@page { size: A4; margin: 12mm; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; text-decoration: none; } }
"""


def _groups(deck: LoadedDeck) -> list[tuple[str, list[DeckEntry]]]:
    grouped: dict[str, list[DeckEntry]] = {}
    for entry in deck.entries:
        found = entry.entry
        category = (str(found.record.category) if found is not None and found.kind == "card"
                    else "other")
        grouped.setdefault(category, []).append(entry)
    order = [str(category) for category in Category] + ["other"]
    return [(category, grouped[category]) for category in order if category in grouped]


def deck_sheet_html(deck: LoadedDeck, catalog: Catalog) -> str:
    """The deck sheet as a whole HTML page, ready to print (A4, two columns of cards)."""
    report = validate_deck(deck, catalog)
    word = "LEGAL" if report.is_legal else "ILLEGAL"
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(deck.name)}: deck sheet</title>",
        f"<style>{_SHEET_CSS}</style></head><body>",
        f'<h1 id="sheet-name">{escape(deck.name)}</h1>',
        f'<p class="meta">{escape(deck.faction)} · {escape(deck.game)} · '
        f'<span id="sheet-total">{deck.total()} cards</span> · Module D verdict: '
        f'<span class="verdict {word.lower()}" id="sheet-verdict">{word}</span></p>',
    ]
    if report.violations:
        parts.append('<ul id="sheet-violations">' + "".join(
            f"<li><strong>{escape(v.code)}</strong> {escape(v.message)}"
            + (f' <span class="fix">fix: {escape(v.fix)}</span>' if v.fix else "")
            + "</li>" for v in report.violations) + "</ul>")
    parts.append('<h2>Cards</h2><div class="groups" id="sheet-cards">')
    for category, entries in _groups(deck):
        parts.append(f'<section class="group"><h3>{escape(category.capitalize())} '
                     f'({sum(entry.count for entry in entries)})</h3><table>')
        for entry in entries:  # each with the card face's one-line summary
            facts = (card_summary(catalog, entry.entry.id) if entry.entry is not None
                     else "not a known card")
            parts.append(f'<tr><td class="count">{entry.count}×</td><td>'
                         f'{escape(entry.display_name)}</td>'
                         f'<td class="facts">{escape(facts)}</td></tr>')
        parts.append("</table></section>")
    parts.append("</div><h2>Replacements <span class=\"small\">(base card out → card in)"
                 "</span></h2>")
    if report.pairs:
        parts.append('<ul id="sheet-replacements">' + "".join(
            f"<li>{pair.count}× {escape(pair.replacement.out_name)} → "
            f"<strong>{escape(pair.replacement.in_name)}</strong> "
            f'<span class="small">({pair.rule})</span></li>'
            for pair in report.pairs) + "</ul>")
    else:
        parts.append('<p id="sheet-replacements">none: the base deck\'s cards as they come</p>')
    curve = ", ".join(f"{row.key}: {row.count}"
                      for row in deck_stats(deck, catalog, turns=0).cost_curve)
    parts.append(f'<p class="small">Cost curve (cost: copies): {escape(curve)}</p>')
    parts.append('<p class="small">Made by deckbuilder. Values marked ? in the card data are '
                 "unconfirmed.</p></body></html>")
    return "\n".join(parts) + "\n"


def find_chromium() -> str | None:
    """`$DECKBUILDER_CHROMIUM`, else one on the PATH (or Debian's /usr/bin/chromium)."""
    chosen = os.environ.get(CHROMIUM_VARIABLE, "").strip()
    if chosen:
        return chosen if Path(chosen).is_file() else None
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))),
                "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None)


def print_pdf(html: str, out: Path) -> None:
    """Print an HTML page to `out` as PDF; no Chromium is one line saying what to do."""
    chromium = find_chromium()
    where = Location(out)
    if chromium is None:
        raise DeckbuilderError(
            "no Chromium to print the PDF with", where,
            f"install chromium (or set ${CHROMIUM_VARIABLE}), or use --format html and print "
            "it from a browser")
    with tempfile.TemporaryDirectory(prefix="deckbuilder-sheet-") as folder:
        page, pdf = Path(folder) / "sheet.html", Path(folder) / "sheet.pdf"
        page.write_text(html, encoding="utf-8")
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                   "--no-first-run", "--disable-background-networking",
                   f"--user-data-dir={Path(folder) / 'profile'}", "--no-pdf-header-footer",
                   f"--print-to-pdf={pdf}", page.as_uri()]
        try:
            subprocess.run(command, capture_output=True, timeout=PRINT_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise DeckbuilderError(f"Chromium could not print the PDF: {error}", where,
                                   "use --format html and print it from a browser") from None
        if not pdf.is_file() or not pdf.read_bytes().startswith(b"%PDF"):
            raise DeckbuilderError("Chromium did not print the PDF", where,
                                   "use --format html and print it from a browser")
        atomic_write_bytes(out, pdf.read_bytes())

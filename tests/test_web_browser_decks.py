"""The card browser and the deck editor driven in a real headless Chromium, as a player
would: build a deck from the base deck, make it illegal and read the violation, fix it and
see LEGAL; paste a list with a typo and accept the suggestion; browse the cards. Each page
is kept as a screenshot (build/screenshots/ or $DECKBUILDER_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import browser_support

# W2's fixtures, found by pytest among this module's names (`_chromium` is the one browser
# of the module behind `browser_page`)
_chromium = browser_support._chromium
browser_page = browser_support.browser_page
live_server = browser_support.live_server
screenshot = browser_support.screenshot

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the fixtures then fail (or skip) with one line saying what is missing
    Page = Any  # type: ignore[misc,assignment]
    expect = None  # type: ignore[assignment]

#: The McReady base deck as a text list with two Deputies swapped for two misspelt Rangers.
TYPO_LIST = """\
# name: Rangers with a typo
# faction: mcready
1x Colonel Ned McReady
1x Josie "Dead-eye" Logan
3x Apache scout
1x Quincey 'The Spider' Whitmore
2x Cactus Field
2x Narrow pass
2x Indian Reservation
2x Rickety Bridge
3x You keep makin' the same mistakes, pilgrim
3x You didn't see this comin'
2x You just ran outta bullets, my friend
3x He shot my hat clean off!
3x It's about time you turned up, partner
3x Shucks - was only a flesh wound
8x Deputy
2x Texas Rangr
10x Cowboy
1x First Deputy Charlie Weathers
3x Buffalo Stampede
4x Bounty Hunter
3x Get the Rope Ready, Boys
"""


def test_build_a_deck_break_it_and_fix_it(live_server: str, browser_page: Page) -> None:
    page = browser_page
    page.goto(live_server + "/deck")
    page.click("a[data-base=mcready]")
    verdict = page.locator("#verdict-word")
    expect(verdict).to_have_text("LEGAL")
    expect(page.locator("#deck-total")).to_have_text("62 cards")
    screenshot(page, "deck-editor-legal")

    page.fill("#card-search", "texas")
    page.click("#search-results button[aria-label='add Texas Ranger']")
    expect(verdict).to_have_text("ILLEGAL")
    violation = page.locator("#verdict .violation[data-code=deck-size]")
    expect(violation).to_contain_text("the deck has 63 cards, not 62")
    expect(violation).to_contain_text("fix:")
    screenshot(page, "deck-editor-illegal")

    page.click("#deck-table button[data-remove=deputy]")
    expect(verdict).to_have_text("LEGAL")
    expect(page.locator("#pairs")).to_contain_text("1× Deputy → Texas Ranger")

    share = page.locator("#share-link").input_value()
    assert "/deck?share=" in share
    page.fill("#save-name", "rangers.yaml")
    page.click("#save-button")
    expect(page.locator("#save-message")).to_have_text("wrote rangers.yaml")
    saved = Path(live_server.deck_folder) / "rangers.yaml"  # type: ignore[attr-defined]
    assert "texas-ranger: 1" in saved.read_text(encoding="utf-8")

    page.goto(share)  # the link alone brings the deck back
    expect(page.locator("#verdict-word")).to_have_text("LEGAL")
    expect(page.locator("#pairs")).to_contain_text("1× Deputy → Texas Ranger")


def test_paste_a_list_with_a_typo_and_accept_the_suggestion(live_server: str,
                                                            browser_page: Page) -> None:
    page = browser_page
    page.goto(live_server + "/deck")
    page.fill("#import-text", TYPO_LIST)
    page.click("#import-button")
    unknown = page.locator("#import-problems .import-line[data-status=unknown]")
    expect(unknown).to_contain_text("Texas Rangr")
    expect(page.locator("#verdict-word")).to_have_text("ILLEGAL")
    expect(page.locator("#verdict .violation[data-code=unknown-card]")).to_be_visible()
    screenshot(page, "deck-editor-import")

    unknown.locator("button", has_text="use Texas Ranger").click()
    expect(page.locator("#import-problems .import-line[data-status=unknown]")).to_have_count(0)
    expect(page.locator("#verdict-word")).to_have_text("LEGAL")
    expect(page.locator("#pairs")).to_contain_text("2× Deputy → Texas Ranger")
    assert "2x Texas Ranger" in page.locator("#import-text").input_value()


def test_browse_the_cards(live_server: str, browser_page: Page) -> None:
    page = browser_page
    page.goto(live_server + "/cards")
    expect(page.locator("#card-list tbody tr").first).to_be_visible()
    screenshot(page, "cards")
    page.fill("input[name=q]", "texs rangr")
    page.press("input[name=q]", "Enter")
    expect(page.locator("#search-note")).to_contain_text("the closest names are shown")
    page.locator("#card-list a", has_text="Texas Ranger").click()
    expect(page.locator("h1")).to_contain_text("Texas Ranger")
    expect(page.locator("#engine-answer")).to_contain_text("the engine plays it")
    screenshot(page, "card-detail")
    page.goto(live_server + "/cards?kind=battlefield")
    expect(page.locator("#card-list tbody tr").first).to_be_visible()


def test_save_after_deck_swap_keeps_both_changes(live_server: str, browser_page: Page) -> None:
    """Open a file, change it in the page, change it with `deck swap` meanwhile, Save: the
    page refuses and says so, keeps the deck, and saves it as a copy on request; the file
    keeps the swap. A reload of the tab still refuses; Reload shows the file as it is."""
    from typer.testing import CliRunner

    from deckbuilder.cli import app as cli_app

    folder = Path(live_server.deck_folder)  # type: ignore[attr-defined]
    path = folder / "conflict.yaml"
    path.write_text("# my notes\nname: Conflict\ngame: revolver\nfaction: mcready\ncards:\n"
                    "  deputy: 10\n  cowboy: 10\n", encoding="utf-8")
    page = browser_page
    response = page.goto(live_server + "/deck?file=conflict.yaml")
    assert response is not None and response.headers["x-frame-options"] == "DENY"
    page.click("#deck-table button[data-add=cowboy]")
    expect(page.locator("#deck-table")).to_contain_text("11")
    assert "version=" in page.url  # a reload of the tab keeps the version the deck came from

    swapped = CliRunner().invoke(cli_app, ["deck", "swap", str(path), "--out", "deputy",
                                           "--in", "texas-ranger"])
    assert swapped.exit_code == 1, swapped.output  # written; a 20-card deck is not legal
    after_swap = path.read_text(encoding="utf-8")

    page.click("#save-button")
    conflict = page.locator("#save-conflict")
    expect(conflict).to_be_visible()
    expect(page.locator("#save-conflict-text")).to_contain_text(
        "not saved: the file changed since the editor read it")
    expect(page.locator("#conflict-copy")).to_contain_text("conflict-copy.yaml")
    expect(page.locator("#save-message")).to_be_hidden()
    screenshot(page, "deck-editor-save-conflict")
    assert path.read_text(encoding="utf-8") == after_swap

    page.click("#conflict-copy")
    expect(page.locator("#save-message")).to_have_text("wrote conflict-copy.yaml")
    expect(conflict).to_be_hidden()
    copy = (folder / "conflict-copy.yaml").read_text(encoding="utf-8")
    assert "cowboy: 11" in copy and "texas-ranger" not in copy
    assert path.read_text(encoding="utf-8") == after_swap

    page.goto(live_server + "/deck?file=conflict.yaml")
    page.click("#deck-table button[data-add=cowboy]")
    expect(page.locator("#deck-table")).to_contain_text("11")
    path.write_text(after_swap.replace("# my notes", "# edited elsewhere"), encoding="utf-8")
    page.reload()  # the address holds the deck, the file and the version it came from
    expect(page.locator("#verdict-word")).to_be_visible()
    page.click("#save-button")
    expect(conflict).to_be_visible()
    page.click("#conflict-reload")
    expect(page.locator("#deck-table")).to_contain_text("Texas Ranger")
    expect(page.locator("#save-conflict")).to_be_hidden()
    page.click("#save-button")
    expect(page.locator("#save-message")).to_have_text("updated conflict.yaml")
    assert path.read_text(encoding="utf-8").startswith("# edited elsewhere\n")

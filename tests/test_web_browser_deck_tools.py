"""The deck editor's tools in a real headless Chromium (issue 21): the statistics panel and
its odds, a sample opening hand, a card's face on pointing at or focusing its name, renaming
and saving, the print view and the printable sheet; at desktop width and at 390 px. Each
state is kept as a screenshot (build/screenshots/ or $DECKBUILDER_SCREENSHOTS)."""

from __future__ import annotations

from typing import Any

import browser_support

_chromium = browser_support._chromium
browser_page = browser_support.browser_page
live_server = browser_support.live_server
screenshot = browser_support.screenshot

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the fixtures then fail (or skip) with one line saying what is missing
    Page = Any  # type: ignore[misc,assignment]
    expect = None  # type: ignore[assignment]


def test_statistics_hand_and_faces(live_server: str, browser_page: Page) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/deck?base=mcready")
    stats = page.locator("#stats-panel")
    expect(stats.locator("#stats-curve")).to_contain_text("cost 0")
    expect(stats.locator("#stats-changes")).to_contain_text("the base deck as it comes")
    page.locator("#deck-table button[data-remove='deputy']").click()
    # The table is drawn again after each change: the second click waits for the first's.
    expect(page.locator("#deck-total")).to_have_text("61 cards")
    page.locator("#deck-table button[data-remove='deputy']").click()
    expect(page.locator("#deck-total")).to_have_text("60 cards")
    expect(stats.locator("#stats-changes")).to_contain_text("− 2× Deputy")
    page.select_option("#odds-choice", "card:deputy")
    visible = page.locator("#odds-table tbody tr:visible")
    expect(visible).to_have_count(1)
    expect(visible).to_contain_text("Deputy")
    page.click("#draw-hand")
    expect(page.locator("#hand-cards li")).to_have_count(5)
    screenshot(page, "deck-tools-stats-desktop")

    name = page.locator("#deck-table a[data-face='cowboy']")
    name.hover()
    popover = page.locator("#face-popover")
    expect(popover).to_be_visible()
    expect(popover).to_contain_text("Cowboy")
    expect(popover).to_contain_text("firepower")
    screenshot(page, "deck-tools-face-hover-desktop")
    page.mouse.move(5, 5)
    expect(popover).to_be_hidden()
    page.locator("#deck-name").focus()  # then reach a card name by the keyboard
    name.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(popover).to_be_visible()
    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()


def test_phone_width_face_on_tap_and_print_view(live_server: str, browser_page: Page) -> None:
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server + "/deck?base=esteban")
    expect(page.locator("#odds-table")).to_be_visible()
    page.click("#draw-hand")
    expect(page.locator("#hand-cards li")).to_have_count(5)
    page.locator("#hand-cards [data-face]").first.click()
    expect(page.locator("#face-popover")).to_be_visible()
    # the editor fits (the odds table scrolls inside its own box); the top bar is base.html's
    right = page.evaluate("""() => Math.max(...[...document.querySelectorAll('#editor *')]
        .filter((e) => !e.closest('.table-scroll') && e.offsetParent !== null)
        .map((e) => e.getBoundingClientRect().right))""")
    assert right <= 390, f"the editor reaches {right} px at 390 px"
    screenshot(page, "deck-tools-phone")
    page.keyboard.press("Escape")
    page.emulate_media(media="print")
    expect(page.locator("#start")).to_be_hidden()
    expect(page.locator("#verdict-word")).to_be_visible()
    expect(page.locator("#card-search")).to_be_hidden()
    screenshot(page, "deck-tools-print-view-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "deck-tools-print-view-desktop")


def test_rename_in_the_editor_and_the_printable_sheet(live_server: str, browser_page: Page
                                                     ) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    folder = live_server.deck_folder  # type: ignore[attr-defined]
    page.goto(live_server + "/deck?base=colty")
    page.fill("#save-name", "gang.yaml")
    page.click("#save-button")
    expect(page.locator("#save-message")).to_have_text("wrote gang.yaml")
    (folder / "gang.yaml").write_text(
        (folder / "gang.yaml").read_text(encoding="utf-8") + "# keep me\n", encoding="utf-8")
    page.goto(live_server + "/deck?file=gang.yaml")
    page.fill("#deck-name", "Night riders")
    page.locator("#deck-name").press("Enter")
    page.locator("#deck-name").blur()
    expect(page.locator("#rename-note")).to_contain_text("Save writes the new name into gang.yaml")
    page.click("#save-button")
    expect(page.locator("#save-message")).to_have_text("updated gang.yaml")
    saved = (folder / "gang.yaml").read_text(encoding="utf-8")
    assert "name: Night riders" in saved and "# keep me" in saved
    href = page.locator("#sheet-link").get_attribute("href")
    assert href and href.startswith("/deck/sheet?share=")
    page.goto(live_server + href)
    expect(page.locator("#sheet-name")).to_have_text("Night riders")
    expect(page.locator("#sheet-verdict")).to_have_text("LEGAL")
    expect(page.locator("#sheet-total")).to_have_text("62 cards")
    screenshot(page, "deck-tools-sheet-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "deck-tools-sheet-phone")

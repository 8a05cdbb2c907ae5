"""Card faces in a real headless Chromium (browser_support): a card name shows its face on
hover, on keyboard focus and on tap, Escape closes it, and it reads at 390 px; the Revolver 2
table before the poker tournament (the pile a pile, no row yet) and after a round.
Screenshots at desktop and phone width: build/screenshots/ or $DECKBUILDER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest

browser_page = browser_support.browser_page
live_server = browser_support.live_server
screenshot = browser_support.screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PHONE = browser_support.PHONE
phone_page = browser_support.phone_page



def test_a_card_name_shows_its_face_on_hover_and_by_keyboard(live_server: str,
                                                             browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/cards?q=texas+ranger")
    popover = page.locator("#face-popover")
    name = page.locator('a[data-face="texas-ranger"]')
    name.hover()
    expect(popover).to_be_visible()
    expect(popover.locator(".card-face__title")).to_have_text("Texas Ranger")
    expect(popover).to_contain_text("Cost")
    assert name.get_attribute("aria-describedby") == "face-popover"
    screenshot(page, "faces-cards-hover")
    # a face the pointer brought up is a tooltip: what lies under it takes the clicks (a face
    # over the game table's buttons once kept a click from them), and pointing at it closes it
    box = popover.bounding_box()
    assert box is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert not page.evaluate("([x, y]) => document.getElementById('face-popover')"
                             ".contains(document.elementFromPoint(x, y))", list(middle))
    page.mouse.move(*middle)
    expect(popover).to_be_hidden()
    name.hover()
    expect(popover).to_be_visible()
    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()
    page.mouse.move(5, 5)
    # the keyboard: Tab to the name shows the face, Escape closes it; a face asked for so
    # stays under the pointer
    name.focus()
    expect(popover).to_be_visible()
    assert page.evaluate("getComputedStyle(document.getElementById('face-popover'))"
                         ".pointerEvents") != "none"
    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()
    # a card page shows the face itself, no JSON
    page.goto(live_server + "/cards/texas-ranger")
    expect(page.locator(".card-face-page .card-face h2")).to_have_text("Texas Ranger")
    expect(page.locator("code.json")).to_have_count(0)
    screenshot(page, "faces-card-page")


def test_the_revolver2_table_at_phone_width(live_server: str, phone_page: Any) -> None:
    from playwright.sync_api import expect

    page = phone_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver2")
    page.select_option("#play-seat", "esteban")
    page.fill("#play-seed", "1")
    page.click("#play-start")
    expect(page.locator("#row-pending")).to_be_visible()
    expect(page.locator(".characters")).to_contain_text("12 face down in the pile")
    expect(page.locator("#characters-dead")).to_have_count(0)
    expect(page.locator(".character.in-play")).to_have_count(7)
    # nothing wider than the phone: the page does not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    screenshot(page, "faces-revolver2-before-poker-390")
    # a tap on a poker card's name shows its face as a sheet; a second tap closes it
    poker_card = page.locator('#poker [data-face="all-rivers-poker-esteban-1"]')
    poker_card.tap()
    popover = page.locator("#face-popover")
    expect(popover).to_be_visible()
    expect(popover).to_contain_text("Poker value")
    box = popover.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "faces-revolver2-poker-face-390")
    poker_card.tap()
    expect(popover).to_be_hidden()
    # play a round: what each side showed and why
    page.locator("#actions button.action").last.click()
    expect(page.locator(".poker-round").first).to_contain_text("cheats")
    # the log's names show faces too
    log_name = page.locator("#log [data-face]").first
    expect(log_name).to_be_visible()
    screenshot(page, "faces-revolver2-after-a-round-390")


def test_the_table_at_desktop_width_after_the_tournament(live_server: str,
                                                         browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver2")
    page.select_option("#play-seat", "esteban")
    page.fill("#play-seed", "1")
    page.click("#play-start")
    screenshot(page, "faces-revolver2-before-poker")
    for _ in range(8):
        if page.locator('.board[data-row-known="true"]').count():
            break
        page.locator("#actions button.action").last.click()
        page.wait_for_function("document.querySelector('#actions button.action:not([disabled])')"
                               " || document.querySelector('.board[data-row-known=\"true\"]')")
    expect(page.locator(".board[data-row-known=\"true\"]")).to_have_count(1)
    expect(page.locator("#board .battlefield")).to_have_count(6)
    hand_card = page.locator("#my-hand [data-face]").first
    hand_card.focus()
    expect(page.locator("#face-popover")).to_be_visible()
    expect(page.locator("#face-popover .card-face")).to_have_count(1)
    screenshot(page, "faces-revolver2-table-hand-face")
    page.keyboard.press("Escape")
    expect(page.locator("#face-popover")).to_be_hidden()


def test_an_action_button_shows_the_face_of_its_card(live_server: str,
                                                     browser_page: Any) -> None:
    """Pointing at (or tabbing to) a button that plays a card shows that card's face; the
    click still acts."""
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver")
    page.select_option("#play-seat", "mcready")
    page.fill("#play-seed", "2")
    page.click("#play-start")
    button = page.locator("#actions button.action[data-face]").first
    expect(button).to_be_visible()
    card_id = button.get_attribute("data-face")
    name = page.evaluate("(id) => fetch('/api/cards/' + encodeURIComponent(id))"
                         ".then(r => r.json()).then(d => d.name)", card_id)
    assert name and name in button.inner_text()
    button.hover()
    popover = page.locator("#face-popover")
    expect(popover).to_be_visible()
    expect(popover.locator(".card-face__title")).to_have_text(name)
    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()
    log_lines = page.locator("#log li").count()
    button.click()
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {log_lines}")


def test_a_tap_on_an_action_button_acts_on_a_phone(live_server: str, phone_page: Any) -> None:
    from playwright.sync_api import expect

    page = phone_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver")
    page.select_option("#play-seat", "mcready")
    page.fill("#play-seed", "2")
    page.click("#play-start")
    button = page.locator("#actions button.action[data-face]").first
    expect(button).to_be_visible()
    log_lines = page.locator("#log li").count()
    button.tap()
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {log_lines}")


@pytest.mark.parametrize("path", ["/", "/cards", "/cards/deputy", "/deck", "/simulate", "/play"])
def test_no_page_scrolls_sideways_on_a_phone(live_server: Any, phone_page: Any,
                                             path: str) -> None:
    """At 390 px every page keeps to the screen, even with a long file name in the deck
    folder (a select is as wide as its longest option unless told otherwise)."""
    long_name = "a-deck-with-a-very-long-file-name-that-a-player-might-well-give-it.yaml"
    (live_server.deck_folder / long_name).write_text(
        "name: a long one\ngame: revolver\nfaction: colty\ncards: {}\n", encoding="utf-8")
    (live_server.deck_folder / long_name.replace(".yaml", ".txt")).write_text(
        "1x Deputy\n", encoding="utf-8")
    phone_page.goto(live_server + path)
    phone_page.wait_for_load_state("networkidle")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, (path, width)
    screenshot(phone_page, f"phone-{path.strip('/').replace('/', '-') or 'home'}-390")


def test_a_whole_revolver2_game_at_phone_width_by_tapping(live_server: str,
                                                          phone_page: Any) -> None:
    """A new player's whole game of Revolver 2 on a phone: every step by a tap, the page never
    wider than the screen, the hand's cards with their numbers, the end in words."""
    from playwright.sync_api import expect

    page = phone_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver2")
    page.select_option("#play-seat", "esteban")
    page.fill("#play-seed", "4")
    page.click("#play-start")
    outcome = page.locator("#outcome")
    taps = 0
    while True:
        page.wait_for_function("document.querySelector('#outcome') || "
                               "document.querySelector('#actions button.action:not([disabled])')")
        if outcome.count():
            break
        assert taps < 400, "the game did not end"
        buttons = page.locator("#actions button.action")
        (buttons.nth(taps % buttons.count()) if taps < 20 else buttons.last).tap()
        taps += 1
        if taps in (3, 15):
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
            screenshot(page, f"phone-revolver2-game-{taps}")
        if taps == 15 and page.locator("#my-hand [data-face]").count():
            expect(page.locator("#my-hand").first).to_contain_text("firepower")
    text = outcome.inner_text()
    assert " wins: " in text or text.startswith("a draw"), text
    assert "_" not in text and "after" in text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    screenshot(page, "phone-revolver2-game-over")

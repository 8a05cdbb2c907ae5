"""Every page of the web app at a phone's width (390x844), with content, in both games where
a page has one: nothing scrolls sideways and no column is cut (a wide table scrolls inside a
box of its own); and the deck editor's verdict and card count stay in view while its list
scrolls, at desktop and phone width (issue 37).
Screenshots: phone-*.png in build/screenshots/ or $DECKBUILDER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest

browser_page = browser_support.browser_page
live_server = browser_support.live_server
phone_page = browser_support.phone_page
fits = browser_support.assert_fits_the_screen

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAMES, GAME_IDS = browser_support.GAMES, browser_support.GAME_IDS


def test_every_page_of_the_navigation_fits_a_phone(live_server: Any, phone_page: Any) -> None:
    """The pages of browser_support.navigation_pages."""
    for name in browser_support.navigation_pages(phone_page, live_server):
        fits(phone_page, f"phone-{name}")


@pytest.mark.parametrize("tour", browser_support.GAME_TOURS,
                         ids=[tour.__name__ for tour in browser_support.GAME_TOURS])
@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_the_pages_of_a_game_fit_a_phone(live_server: Any, phone_page: Any, tour: Any,
                                         game: str, faction: str) -> None:
    """The cards and the deck editor, a simulation, the tables, a replay and the card data
    (browser_support.GAME_TOURS), each stop of each in both games."""
    for name in tour(phone_page, live_server, game, faction):
        fits(phone_page, f"phone-{name}")


def in_view(page: Any, selector: str) -> bool:
    """Whether the element's whole box lies inside the viewport as the page is scrolled."""
    return bool(page.evaluate(
        """selector => { const box = document.querySelector(selector).getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
            && box.left >= 0 && box.right <= document.documentElement.clientWidth; }""",
        selector))


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, browser_support.PHONE],
                         ids=["desktop", "phone"])
@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_the_deck_editors_verdict_stays_in_view(live_server: Any, browser_page: Any,
                                                viewport: dict[str, int], game: str,
                                                faction: str) -> None:
    """After `+` on the last card of the list (the page scrolled down to it, the verdict's
    panel off the screen), the card count and the verdict as they now stand are on it."""
    from playwright.sync_api import expect

    page = browser_page
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}/deck?base={faction}")
    total = page.locator("#deck-total").inner_text()
    expect(page.locator("#bar-total")).to_have_text(total)
    expect(page.locator("#bar-verdict")).to_have_text("LEGAL")
    page.locator("#deck-table button[data-add]").last.click()
    expect(page.locator("#deck-total")).not_to_have_text(total)
    assert page.evaluate("window.scrollY") > 0  # the list scrolled by
    assert not in_view(page, "#verdict-word")  # the verdict's own panel is off the screen
    expect(page.locator("#bar-total")).to_have_text(page.locator("#deck-total").inner_text())
    expect(page.locator("#bar-verdict")).to_have_text(
        page.locator("#verdict-word").inner_text())
    assert in_view(page, "#bar-total") and in_view(page, "#bar-verdict")
    name = "desktop" if viewport["width"] > 600 else "phone"
    page.screenshot(path=str(browser_support.screenshot_folder()
                             / f"deck-verdict-in-view-{game}-{name}.png"))

"""Accessibility of every page of the web app in a real Chromium (issue 37 item 5): axe-core
finds no serious or critical violation (colour contrast included) on any page, in both games
where a page has one, at 1280 and 390 px wide."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest

browser_page = browser_support.browser_page
live_server = browser_support.live_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
WIDTHS = pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900},
                                              browser_support.PHONE], ids=["desktop", "phone"])


@WIDTHS
def test_the_navigation_pages_have_no_serious_axe_violation(live_server: Any, browser_page: Any,
                                                            viewport: dict[str, int]) -> None:
    browser_page.set_viewport_size(viewport)
    problems = [problem for name in browser_support.navigation_pages(browser_page, live_server)
                for problem in browser_support.axe_problems(browser_page, name)]
    assert not problems, "\n".join(problems)


@WIDTHS
@pytest.mark.parametrize("tour", browser_support.GAME_TOURS,
                         ids=[tour.__name__ for tour in browser_support.GAME_TOURS])
@pytest.mark.parametrize(("game", "faction"), browser_support.GAMES, ids=browser_support.GAME_IDS)
def test_the_pages_of_a_game_have_no_serious_axe_violation(
        live_server: Any, browser_page: Any, tour: Any, game: str, faction: str,
        viewport: dict[str, int]) -> None:
    browser_page.set_viewport_size(viewport)
    problems = [problem for name in tour(browser_page, live_server, game, faction)
                for problem in browser_support.axe_problems(browser_page, name)]
    assert not problems, "\n".join(problems)

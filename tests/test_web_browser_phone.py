"""Every page of the web app at a phone's width (390x844), with content, in both games where
a page has one: nothing scrolls sideways and no column is cut (a wide table scrolls inside a
box of its own); and the deck editor's verdict and card count stay in view while its list
scrolls, at desktop and phone width (issue 37).
Screenshots: phone-*.png in build/screenshots/ or $DECKBUILDER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app
from deckbuilder.web.pages import NAVIGATION

browser_page = browser_support.browser_page
live_server = browser_support.live_server
phone_page = browser_support.phone_page
fits = browser_support.assert_fits_the_screen

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()

#: Each game with one of its factions: the deck opened, simulated and played.
GAMES = (("revolver", "mcready"), ("revolver2", "esteban"))
GAME_IDS = [game for game, _ in GAMES]


def test_every_page_of_the_navigation_fits_a_phone(live_server: Any, phone_page: Any) -> None:
    """The home page, each page of the navigation bar as it first opens, with a long file name
    in the deck folder (a select is as wide as its longest option unless told), and the page
    of an error."""
    long_name = "a-deck-with-a-very-long-file-name-that-a-player-might-well-give-it.yaml"
    (live_server.deck_folder / long_name).write_text(
        "name: a long one\ngame: revolver\nfaction: colty\ncards: {}\n", encoding="utf-8")
    (live_server.deck_folder / long_name.replace(".yaml", ".txt")).write_text(
        "1x Deputy\n", encoding="utf-8")
    for path in ["/", *(path for path, _ in NAVIGATION), "/cards/no-such-card"]:
        phone_page.goto(live_server + path)
        phone_page.wait_for_load_state("networkidle")
        fits(phone_page, f"phone-{path.strip('/').replace('/', '-') or 'home'}")


@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_the_cards_and_the_deck_editor_fit_a_phone(live_server: Any, phone_page: Any,
                                                   game: str, faction: str) -> None:
    """The game's cards, a card's page, the deck editor with a base deck open (its statistics
    and the whole odds table shown), its printable sheet, the deck checked against a
    collection (one more column) and a pasted list naming a card that is not there."""
    from playwright.sync_api import expect

    page = phone_page
    page.goto(f"{live_server}/cards?game={game}")
    fits(page, f"phone-cards-{game}")
    page.locator(".card-list a[data-face]").first.click()
    page.wait_for_url(lambda url: "/cards/" in url)
    fits(page, f"phone-card-{game}")
    page.goto(f"{live_server}/deck?base={faction}")
    expect(page.locator("#odds-table")).to_be_visible()
    page.locator("#deck-table button[data-add]").first.click()
    expect(page.locator("#deck-total")).not_to_have_text("")
    fits(page, f"phone-deck-{game}")
    page.goto(live_server + page.locator("#sheet-link").get_attribute("href"))
    fits(page, f"phone-deck-sheet-{game}")
    collection = "my-whole-collection-of-cards-bought-over-the-years.yaml"
    (live_server.deck_folder / collection).write_text("name: mine\ncards:\n  deputy: 3\n",
                                                      encoding="utf-8")
    page.goto(f"{live_server}/deck?base={faction}&collection={collection}")
    expect(page.locator("#deck-cards th", has_text="owned")).to_be_visible()
    fits(page, f"phone-deck-collection-{game}")
    page.goto(live_server + "/deck")
    page.fill("#import-text", f"# faction: {faction}\n"
              "3x Acardwhosenamerunsonandonwithoutaspacelongerthanthescreen\n")
    page.click("#import-button")
    expect(page.locator("#import-problems")).to_contain_text("unknown")
    fits(page, f"phone-deck-pasted-{game}")


@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_a_simulation_and_its_result_fit_a_phone(live_server: Any, phone_page: Any,
                                                 game: str, faction: str) -> None:
    from playwright.sync_api import expect

    page = phone_page
    page.goto(live_server + "/simulate")
    page.select_option("#sim-game", game)
    page.select_option("#sim-deck", f"base:{faction}")
    page.fill("#sim-bot", "random")
    page.fill("#sim-games", "40")
    page.fill("#sim-seed", "3")
    fits(page, f"phone-simulate-form-{game}")
    page.click("#sim-run")
    expect(page.locator("table.sim-wins")).to_be_visible(timeout=60_000)
    expect(page.locator("#chart-cards svg")).to_be_visible()
    fits(page, f"phone-simulate-result-{game}")


@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_the_tables_fit_a_phone(live_server: Any, phone_page: Any, game: str, faction: str) -> None:
    """A table against a bot once started, a friend table's form, the table it made (with its
    invitation), the invitation's own page and the friend's seat it gives."""
    from playwright.sync_api import expect

    page = phone_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", faction)
    page.fill("#play-seed", "2")
    page.click("#play-start")
    expect(page.locator("#actions button.action").first).to_be_visible()
    fits(page, f"phone-play-table-{game}")
    page.goto(live_server + "/friends")
    page.select_option("#friend-game", game)
    page.select_option("#friend-seat", faction)
    fits(page, f"phone-friends-form-{game}")
    page.click("#friend-create")
    expect(page.locator("#invitations")).to_be_visible()
    fits(page, f"phone-friend-table-{game}")
    invitation = page.locator("input.invitation-link").first.input_value()
    page.goto(invitation)
    expect(page.locator("#take-seat")).to_be_visible()
    fits(page, f"phone-friend-invitation-{game}")
    page.click("#take-seat")
    page.wait_for_url(lambda url: url != invitation)
    expect(page.locator(".table-heading")).to_contain_text("you play")
    fits(page, f"phone-friend-seat-{game}")


@pytest.mark.parametrize(("game", "faction"), GAMES, ids=GAME_IDS)
def test_a_replay_and_the_card_data_fit_a_phone(live_server: Any, phone_page: Any,
                                                game: str, faction: str) -> None:
    """The replays page listing a record of the deck folder, the viewer of that record at its
    start and its end, and the card-data page with a base deck's cards to confirm."""
    from playwright.sync_api import expect

    record = live_server.deck_folder / f"a_{game}_game_recorded_under_a_name_with_no_break.jsonl"
    played = runner.invoke(cli_app, ["play", "--game", game, "--bots", "random", "--seed", "3",
                                     "--quiet", "--record", str(record)])
    assert played.exit_code == 0, played.output
    page = phone_page
    page.goto(live_server + "/replays")
    fits(page, f"phone-replays-{game}")
    page.locator("#replay-files a", has_text=record.name).click()
    expect(page.locator("#replay[data-ready='true']")).to_have_count(1)
    fits(page, f"phone-replay-start-{game}")
    page.keyboard.press("End")
    expect(page.locator("#board #game-over")).to_be_visible()
    fits(page, f"phone-replay-end-{game}")
    page.goto(live_server + "/data")
    page.select_option("#data-cards", f"base:{faction}")
    page.locator("#data-choose button[type=submit]").click()
    expect(page.locator("#data-progress")).to_be_visible()
    fits(page, f"phone-data-{game}")


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

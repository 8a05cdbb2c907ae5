"""The decision at a glance (issue 37, item 2), measured in a real Chromium (browser_support):
at every table (a bot's, a friend's from both seats, the one-screen table, the replay
viewer) the current decision and its first button lie inside the first screen at 1280x800
and at 390x844, at the first decision and at a later one (after a few plays, and in
Revolver 2 after the poker tournament, whose panel is then folded); the friend's invitation
is gone once the friend sat down; a card's face opened on the board never covers a button
(the point at each button's centre is the button)."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest

chromium_browser = browser_support.chromium_browser
live_server = browser_support.live_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: The two first screens every table is measured at (CSS pixels).
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": browser_support.PHONE}
#: Each game's two sides.
SIDES = {"revolver": ("colty", "mcready"), "revolver2": ("mapache", "esteban")}
#: Plays before the later decision is measured (Revolver 2 also waits for the poker winner).
LATER = 6
MOST_CLICKS = 60

#: Where the decision's text and the first action button lie, the page scrolled to its top.
_MEASURE = """() => {
  window.scrollTo(0, 0);
  const box = (selector) => {
    const element = document.querySelector(selector);
    if (!element || !element.getClientRects().length) return null;
    const rect = element.getBoundingClientRect();
    return {top: Math.round(rect.top), bottom: Math.round(rect.bottom)};
  };
  return {height: window.innerHeight,
          decision: box('#actions .decision, #waiting, #replay-where'),
          button: box('#actions button.action, #replay-next')};
}"""


def measure(page: Any) -> dict[str, Any]:
    """The decision's and the first button's top and bottom (px) on the first screen."""
    return dict(page.evaluate(_MEASURE))


def assert_in_view(page: Any, where: str, shot: str = "") -> dict[str, Any]:
    """Fail unless the decision's text (and the first button, where the page has one to
    press) lies whole inside the first screen at each of SCREENS; the figures by screen.
    With `shot`, the first screen is saved as `<shot>-<screen>.png` (browser_support's
    folder; docs/screenshots/ keeps copies)."""
    figures = {}
    problems = []
    for name, size in SCREENS.items():
        page.set_viewport_size(size)
        found = measure(page)
        if shot:
            folder = browser_support.screenshot_folder()
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"{shot}-{name}.png"))
        figures[name] = found
        print(f"{where} {name}: decision {found['decision']}, button {found['button']}")
        if found["decision"] is None:
            problems.append(f"{name}: no decision shown")
        for part in ("decision", "button"):
            place = found[part]
            if place is not None and not 0 <= place["top"] <= place["bottom"] <= size["height"]:
                problems.append(f"{name}: the {part} lies at {place} outside the first screen "
                                f"of {size['height']} px")
    page.set_viewport_size(SCREENS["desktop"])
    assert not problems, f"{where}: " + "; ".join(problems)
    return figures


#: The action buttons inside the screen whose centre shows something else (a face over them).
def new_page(browser: Any) -> Any:
    context = browser.new_context(viewport=SCREENS["desktop"])
    context.set_default_timeout(browser_support.PAGE_TIMEOUT_MS)
    return context.new_page()


def poker_won(page: Any) -> bool:
    """No poker panel (Revolver), or its tournament has a winner."""
    panel = page.locator("#poker")
    return panel.count() == 0 or "won by" in panel.locator("h3, summary").first.inner_text()


def play_on(page: Any, clicks: int) -> None:
    """Press the first play (else the first button) `clicks` times on a bot's table."""
    for _ in range(clicks):
        if page.locator("#outcome").count():
            return
        plays = page.locator('#actions .action-group[data-group="play"] button.action')
        button = plays.first if plays.count() else page.locator("#actions button.action").first
        button.click()
        page.wait_for_function(
            "document.querySelector('#outcome') || "
            "document.querySelector('#actions button.action:not([disabled])')")


@pytest.mark.parametrize("game", sorted(SIDES))
@pytest.mark.parametrize("seat", [0, 1])
def test_the_bot_table_shows_the_decision_first(live_server: str, chromium_browser: Any,
                                                game: str, seat: int) -> None:
    from playwright.sync_api import expect

    page = new_page(chromium_browser)
    page.goto(live_server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", SIDES[game][seat])
    page.fill("#play-seed", "7")
    page.click("#play-start")
    expect(page.locator("#actions button.action").first).to_be_visible()
    if game == "revolver2":  # open while the tournament is played
        assert page.locator("#poker").evaluate("panel => panel.matches('details[open]')")
    assert_in_view(page, f"bot {game} {SIDES[game][seat]} first")
    clicks = 0
    while clicks < LATER or not poker_won(page):
        assert clicks < MOST_CLICKS, "the poker tournament did not end"
        play_on(page, 1)
        clicks += 1
    if game == "revolver2":  # the tournament's panel is folded once it is won
        assert page.locator("#poker").evaluate("panel => panel.matches('details:not([open])')")
    assert_in_view(page, f"bot {game} {SIDES[game][seat]} later", f"glance-bot-{game}-{seat}")
    page.context.close()


def mover_of(pages: list[Any]) -> Any:
    """The page whose seat is to decide (it shows the action buttons), waiting for one."""
    pages[0].wait_for_function("document.querySelector('#outcome') || "
                               "document.querySelector('#actions button.action, #waiting')")
    for page in pages:
        if page.locator("#actions button.action:not([disabled])").count():
            return page
    pages[-1].wait_for_function("document.querySelector('#actions button.action')")
    return pages[-1]


def play_at_the_friend_table(pages: list[Any], clicks: int) -> None:
    """The seat to move presses its first play (else its first button), `clicks` times,
    each page waiting for the move to reach it."""
    for _ in range(clicks):
        if pages[0].locator("#outcome").count():
            return
        page = mover_of(pages)
        step = int(page.locator("#table").get_attribute("data-step"))
        plays = page.locator('#actions .action-group[data-group="play"] button.action')
        (plays.first if plays.count() else page.locator("#actions button.action").first).click()
        for each in pages:
            each.wait_for_function(
                "step => Number(document.getElementById('table').dataset.step) > step",
                arg=step)


def measure_each_seat(pages: list[Any], where: str) -> None:
    """Play on until each page (creator, friend) has had a decision of its own, measuring it
    there (assert_in_view) and the other page's word on whom it waits for."""
    decided: set[int] = set()
    for _ in range(MOST_CLICKS):
        mover = mover_of(pages)
        seat = pages.index(mover)
        if seat not in decided:
            assert_in_view(mover, f"{where} {('creator', 'friend')[seat]}")
            assert_in_view(pages[1 - seat], f"{where} {('creator', 'friend')[1 - seat]} waits")
            decided.add(seat)
        if len(decided) == len(pages):
            return
        play_at_the_friend_table(pages, 1)
    raise AssertionError(f"{where}: a seat never had a decision")


@pytest.mark.parametrize(("game", "seat"), [("revolver", "colty"), ("revolver2", "esteban")])
def test_both_seats_of_a_friend_table_show_the_decision_first(
        live_server: str, chromium_browser: Any, game: str, seat: str) -> None:
    from playwright.sync_api import expect

    creator = new_page(chromium_browser)
    creator.goto(live_server + "/friends")
    creator.select_option("#friend-game", game)
    creator.select_option("#friend-seat", seat)
    creator.click("#friend-create")
    expect(creator.locator("#invitations")).to_be_visible()
    assert_in_view(creator, f"friend {game} {seat} before the friend came")
    invitation = creator.locator("input.invitation-link").input_value()
    friend = new_page(chromium_browser)
    friend.goto(invitation)
    friend.click("#take-seat")
    expect(friend.locator(".table-heading")).to_contain_text("you play")
    expect(creator.locator("#invitations")).to_have_count(0)  # spent: it goes
    pages = [creator, friend]
    measure_each_seat(pages, f"friend {game} first")
    clicks = 0
    while clicks < LATER or not all(poker_won(page) for page in pages):
        assert clicks < MOST_CLICKS, "the poker tournament did not end"
        play_at_the_friend_table(pages, 1)
        clicks += 1
    assert_in_view(mover_of(pages), f"friend {game} later", f"glance-friend-{game}")
    if game == "revolver2":  # folded once won
        for page in pages:
            assert page.locator("#poker").evaluate("panel => panel.matches('details:not([open])')")
    measure_each_seat(pages, f"friend {game} later")
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("game", sorted(SIDES))
def test_the_one_screen_table_shows_the_decision_first(live_server: str,
                                                       chromium_browser: Any, game: str) -> None:
    from playwright.sync_api import expect

    page = new_page(chromium_browser)
    page.goto(live_server + "/friends")
    page.select_option("#friend-game", game)
    page.check("#friend-one-screen")
    page.click("#friend-create")
    page.wait_for_url("**/friends/*")
    seen = 0
    while seen < 3:  # the first decision, and two after the device was passed
        page.wait_for_function(
            "!document.getElementById('pass-device').hidden || "
            "document.querySelector('#actions button.action:not([disabled])')")
        if page.locator("#pass-device").is_visible():
            page.click("#pass-device-continue")
            page.wait_for_url("**/friends/*")
            continue
        expect(page.locator("#invitations")).to_have_count(0)
        assert_in_view(page, f"one screen {game} decision {seen}")
        seen += 1
        step = int(page.locator("#table").get_attribute("data-step"))
        page.locator("#actions button.action").first.click()
        page.wait_for_function(
            "step => Number(document.getElementById('table').dataset.step) > step || "
            "!document.getElementById('pass-device').hidden", arg=step)
    page.context.close()


@pytest.mark.parametrize("game", sorted(SIDES))
def test_the_replay_viewer_shows_its_controls_first(live_server: str, chromium_browser: Any,
                                                    game: str) -> None:
    from playwright.sync_api import expect

    page = new_page(chromium_browser)
    page.goto(live_server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", "watch")
    page.fill("#play-seed", "7")
    page.click("#play-start")
    while not page.locator("#outcome").is_visible():
        page.click("#watch-turn")
        page.wait_for_function("document.querySelector('#outcome') || "
                               "document.querySelector('#watch-turn:not([disabled])')")
    page.click("#watch-replay")
    expect(page.locator("#replay[data-ready='true']")).to_have_count(1)
    assert_in_view(page, f"replay {game} start")
    page.goto(page.url.split("?")[0] + "?step=" + page.locator("#replay").get_attribute(
        "data-last"))
    assert_in_view(page, f"replay {game} end")
    page.context.close()

"""Whole games by keyboard alone in a real Chromium (issue 37 item 5): Revolver and Revolver 2
against a bot, and a friend table, played to their end with Tab, Enter and the table's keys
(static/table_keys.js) only, never a click. After each move the focus is back on the decision
(with a visible outline), Tab goes from it to the choices, the live region says what happened
and what is asked, every button has a name, and axe-core finds nothing serious on the way."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import browser_support
import pytest

from deckbuilder.web.friends import routes

browser_page = browser_support.browser_page
chromium_browser = browser_support.chromium_browser
live_server = browser_support.live_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
#: Key presses allowed for one game (mostly passes: a random bot's game lasts some 40 turns).
MOST_MOVES = 400
#: The first moves are made by Tab and Enter (the focus order), the rest by the keys.
TABBED_MOVES = 6

#: Buttons (and elements acting as buttons) with no accessible name, as "tag text".
_NAMELESS = """() => [...document.querySelectorAll('button, [role=button]')]
  .filter(e => e.getClientRects().length && !(e.textContent.trim() || e.getAttribute('aria-label')
    || e.getAttribute('aria-labelledby') || e.title))
  .map(e => e.outerHTML.slice(0, 300))"""
#: Board signs a screen reader would read as a bare number (firepower "3", tokens "+1", "TG
#: 2") or battlefields with no name of their own: none.
_UNSAID = """() => [...document.querySelectorAll('#board .fp, #board .token.power, #board .grit')]
  .filter(e => !e.querySelector('.visually-hidden')).map(e => e.outerHTML)
  .concat([...document.querySelectorAll('#board .battlefield:not([aria-label^="battlefield "])')]
    .map(e => e.dataset.battlefield))"""
#: The focused element's outline, as `style width colour`.
_OUTLINE = """() => { const style = getComputedStyle(document.activeElement);
  return [style.outlineStyle, style.outlineWidth, style.outlineColor].join(' '); }"""
#: The page's decision (the panel's words), or its end, holds the focus.
_AT_THE_DECISION = ("() => !document.querySelector('#actions [data-old]') && "
                    "document.activeElement.matches('#actions .decision, #actions #outcome, "
                    "#actions #waiting')")


def check_the_table(page: Any, name: str) -> None:
    """Every button named, the board's numbers and battlefields said in words; no serious
    axe-core violation."""
    assert page.evaluate(_NAMELESS) == [], name
    assert page.evaluate(_UNSAID) == [], name
    problems = browser_support.axe_problems(page, name)
    assert not problems, "\n".join(problems)


def move(page: Any, moves: int) -> None:
    """One move by the keyboard: Tab from the decision to the first choice and Enter (the
    first moves), else `p` to pass where a pass is offered and `1` where none is; then wait
    for the buttons drawn anew and the focus back on the decision."""
    if moves < TABBED_MOVES:
        if not page.evaluate(_AT_THE_DECISION):
            page.keyboard.press("d")  # a page just opened: to the decision, as its keys say
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.closest('#actions') !== null")
        assert focused, "Tab from the decision left the choices"
        assert page.evaluate(_OUTLINE).startswith("solid 3px"), "no visible focus"
        while page.evaluate("!document.activeElement.matches('button.action')"):
            page.keyboard.press("Tab")  # past "take back"
        page.evaluate("document.querySelector('#actions > *').dataset.old = 'true'")
        page.keyboard.press("Enter")
    else:
        page.evaluate("document.querySelector('#actions > *').dataset.old = 'true'")
        passing = page.locator('#actions [data-group="pass"] button').count()
        page.keyboard.press("p" if passing else "1")
    page.wait_for_function(_AT_THE_DECISION)


def play_to_the_end(page: Any, opponent: str, name: str) -> list[str]:
    """Move by the keyboard until the game is over; what the live region said."""
    from playwright.sync_api import expect

    news = page.locator("#table-news")
    said: list[str] = []
    moves = 0
    while not page.locator("#outcome").count():
        assert moves < MOST_MOVES, "the game did not end"
        move(page, moves)
        moves += 1
        expect(page.locator("#table-error")).to_be_hidden()
        said.append(news.text_content() or "")
        asked = page.locator("#actions .decision strong, #outcome").first.inner_text()
        assert said[-1].endswith(asked.strip()), "the live region did not say the decision"
        if moves == 3:
            check_the_table(page, f"{name} after 3 moves")
    assert moves > 10
    assert any(opponent in words for words in said), "the opponent's moves were not said"
    check_the_table(page, f"{name} over")
    return said


@pytest.mark.parametrize(("game", "seat", "bot_side"),
                         [("revolver", "colty", "mcready"), ("revolver2", "esteban", "mapache")],
                         ids=["revolver", "revolver2"])
def test_a_game_against_a_bot_by_keyboard_alone(live_server: Any, browser_page: Any, game: str,
                                                 seat: str, bot_side: str) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", seat)
    page.locator(".side-bot input:enabled").fill("random")
    page.fill("#play-seed", "12")
    page.locator("#play-start").press("Enter")
    expect(page.locator("#actions .decision")).to_be_visible()
    expect(page.locator("#table-news")).to_contain_text("Your decision")
    # the keys are listed on the page, and `?` shows them
    help_panel = page.locator("#keys-help")
    expect(help_panel).to_contain_text("Keys")
    page.keyboard.press("?")
    expect(help_panel.locator("li").first).to_be_visible()
    expect(help_panel).to_contain_text("pass")
    page.keyboard.press("d")  # to the decision
    check_the_table(page, f"{game} first decision, keys shown")
    play_to_the_end(page, bot_side, game)
    expect(page.locator("#outcome")).to_contain_text("after")


def _held_back(events: Callable[..., AsyncIterator[str]], role: str,
               until: threading.Event) -> Callable[..., AsyncIterator[str]]:
    """The table's event stream, with `role`'s states held back until `until` is set (a
    server too busy to send them sooner)."""
    async def stream(store: Any, table: Any, listener: str, *rest: Any) -> AsyncIterator[str]:
        async for chunk in events(store, table, listener, *rest):
            while listener == role and chunk.startswith("id:") and not until.is_set():
                await asyncio.sleep(0.05)
            yield chunk

    return stream


def test_a_friend_table_by_keyboard_alone(live_server: Any, chromium_browser: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Both seats of a Revolver table (a turn cap of 14: a draw if nobody has won by then),
    made, joined and played by the keyboard; each seat hears the other's moves. A state of
    the decision already drawn, late (the stream's first, the friend's arrival), leaves the
    focus on the choice the keyboard is on, so its Enter is not lost."""
    from playwright.sync_api import expect

    late = threading.Event()
    monkeypatch.setattr(routes, "table_events", _held_back(routes.table_events, "colty", late))
    pages = []
    for _ in range(2):
        context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(browser_support.PAGE_TIMEOUT_MS)
        pages.append(context.new_page())
    creator, friend = pages
    creator.goto(live_server + "/friends")
    creator.select_option("#friend-game", "revolver")
    creator.select_option("#friend-seat", "colty")
    creator.locator("#friend-form details.sim-rules summary").press("Enter")
    creator.fill("#friend-max-turns", "14")
    creator.locator("#friend-create").press("Enter")
    friend.goto(creator.locator("input.invitation-link").input_value())
    friend.locator("#take-seat").press("Enter")
    expect(friend.locator(".table-heading")).to_contain_text("you play mcready")
    creator.keyboard.press("d")
    while creator.evaluate("!document.activeElement.matches('button.action')"):
        creator.keyboard.press("Tab")
    creator.evaluate("document.activeElement.dataset.chosen = 'true'")
    late.set()
    expect(creator.locator("#seats")).to_contain_text("mcready: at the table")
    assert creator.evaluate("document.activeElement.dataset.chosen === 'true'"), "focus lost"
    said: dict[Any, list[str]] = {creator: [], friend: []}
    moves = 0
    while not creator.locator("#outcome").count():
        assert moves < MOST_MOVES, "the game did not end"
        step = int(creator.locator("#table").get_attribute("data-step"))
        mover = creator if creator.locator("#actions .decision").count() else friend
        expect(mover.locator("#actions .decision")).to_be_visible()
        move(mover, moves)
        moves += 1
        for page in pages:  # the other seat moves on by the event stream (slow on a busy CI)
            page.wait_for_function(
                "step => Number(document.getElementById('table').dataset.step) > step", arg=step,
                timeout=2 * browser_support.PAGE_TIMEOUT_MS)
            page.wait_for_function(_AT_THE_DECISION)
            said[page].append(page.locator("#table-news").text_content() or "")
    assert moves > 10
    assert any("mcready" in words for words in said[creator])
    assert any("colty" in words for words in said[friend])
    for page in pages:
        expect(page.locator("#outcome")).to_be_visible()
        check_the_table(page, "friend table over")
        page.context.close()


#: The decision's buttons a shown face overlaps (issue 37 item 2: none), as their text.
_COVERED = """() => { const face = document.getElementById('face-popover');
  if (face.hidden) return [];
  const f = face.getBoundingClientRect();
  return [...document.querySelectorAll('#actions button')].filter(button => {
    const b = button.getBoundingClientRect();
    return button.getClientRects().length && b.left < f.right && f.left < b.right
      && b.top < f.bottom && f.top < b.bottom;
  }).map(button => button.textContent.trim().slice(0, 40)); }"""
#: Card names of the board whose faces a test opens: the first ones and the hand's last.
FACES_OPENED = 5


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize(("game", "seat"), [("revolver", "colty"), ("revolver2", "esteban")],
                         ids=["revolver", "revolver2"])
def test_a_face_never_covers_the_decisions_buttons(live_server: Any, chromium_browser: Any,
                                                    game: str, seat: str, screen: str) -> None:
    """A face opened on the board (a click, or a tap on a phone), on a choice by keyboard
    focus, or with the page scrolled, leaves every button of the decision uncovered; on a
    phone a second tap on the name closes it."""
    from playwright.sync_api import expect

    phone = screen == "phone"
    context = chromium_browser.new_context(
        **({"viewport": browser_support.PHONE, "has_touch": True, "is_mobile": True}
           if phone else {"viewport": {"width": 1280, "height": 800}}))
    context.set_default_timeout(browser_support.PAGE_TIMEOUT_MS)
    page = context.new_page()
    page.goto(live_server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", seat)
    page.fill("#play-seed", "3")
    page.locator("#play-start").press("Enter")
    expect(page.locator("#actions button.action").first).to_be_visible()
    popover = page.locator("#face-popover")
    names = page.locator("#board [data-face]:visible")
    for index in [*range(min(FACES_OPENED, names.count())), names.count() - 1]:
        name = names.nth(index)
        name.tap() if phone else name.click()
        expect(popover).to_be_visible()
        assert page.evaluate(_COVERED) == [], f"{screen}: face {index} covers a button"
        if index == 0:  # the face itself reads well: colours, names
            problems = browser_support.axe_problems(page, f"{game} {screen} face shown")
            assert not problems, "\n".join(problems)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(_COVERED) == [], f"{screen}: face {index}, page scrolled up"
        if phone:
            name.tap()  # a second tap on its name closes it
        else:
            page.keyboard.press("Escape")
        expect(popover).to_be_hidden()
    page.keyboard.press("d")
    page.keyboard.press("Tab")
    while page.evaluate("!document.activeElement.matches('#actions button[data-face]')"):
        page.keyboard.press("Tab")
    expect(popover).to_be_visible()  # a choice's face, by keyboard focus
    assert page.evaluate(_COVERED) == [], f"{screen}: a choice's face covers a button"
    context.close()

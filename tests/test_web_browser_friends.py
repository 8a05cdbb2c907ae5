"""Two people at one friend table, in two Chromium contexts (browser_support): the creator
makes the table with the form, the friend opens the invitation link and takes the seat, and
they play a whole game of each game by clicking, each page following the other's moves by
itself; no seat's page ever holds a card of the other seat's hand, nor the spectator's page
any hand. A resignation asks first and ends the table on both pages. The friend's seat is
his alone: nothing the creator's browser receives names its secret, a third browser that
opens the invitation is sent to watch, and a second device of the friend's is announced on
both pages."""

from __future__ import annotations

import re
from typing import Any

import browser_support
import pytest

from deckbuilder.catalog import default_catalog
from deckbuilder.web.faces import face_fragment
from deckbuilder.web.friends import store_of

chromium_browser = browser_support.chromium_browser
live_server = browser_support.live_server
screenshot = browser_support.screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
#: Clicks allowed for one game (mostly "end play phase": some 25 to 40 turns).
MOST_CLICKS = 300


def new_page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(browser_support.PAGE_TIMEOUT_MS)
    return context.new_page()


def short_game(page: Any) -> None:
    """A turn cap of 14 (a draw if nobody has won by then): a whole game, in less time."""
    page.click("#friend-form details.sim-rules summary")
    page.fill("#friend-max-turns", "14")


def make_table(live_server: Any, browser: Any, game: str, seat: str,
               creator: Any = None) -> tuple[Any, Any, str, str]:
    """The creator's page (after the form) and the friend's (by the invitation link, its
    seat taken with the button); the spectator's link and the invitation."""
    from playwright.sync_api import expect

    creator = creator or new_page(browser)
    creator.goto(live_server + "/friends")
    expect(creator.locator("#network-note")).to_contain_text("--allow-host NAME")
    creator.select_option("#friend-game", game)
    creator.select_option("#friend-seat", seat)
    short_game(creator)
    creator.click("#friend-create")
    expect(creator.locator("#invitations")).to_be_visible()
    (friend_seat,) = [role for role in creator.locator("input.invitation-link").evaluate_all(
        "inputs => inputs.map(input => input.dataset.role)")]
    invitation = creator.locator("input.invitation-link").input_value()
    spectator_link = creator.locator("#link-spectator").input_value()
    friend = new_page(browser)
    take_seat(friend, invitation)
    expect(friend.locator(".table-heading")).to_contain_text(f"you play {friend_seat}")
    # the creator's page hears the friend arrive, and no longer invites anyone
    expect(creator.locator(f'.seat-presence[data-side="{friend_seat}"]')).to_contain_text(
        "at the table")
    expect(creator.locator("#invitations")).to_have_count(0)
    return creator, friend, spectator_link, invitation


def take_seat(page: Any, invitation: str) -> None:
    """Open an invitation (which takes nothing) and press its button."""
    from playwright.sync_api import expect

    page.goto(invitation)
    expect(page.locator("h1")).to_contain_text("An invitation to play")
    page.click("#take-seat")
    page.wait_for_url(lambda url: url != invitation)


def _ids_in(value: Any) -> set[str]:
    """Every card id a view names (its hand, its battlefields, its pieces)."""
    if isinstance(value, dict):
        own = {value["id"]} if isinstance(value.get("id"), str) else set()
        return own | {found for item in value.values() for found in _ids_in(item)}
    if isinstance(value, list):
        return {found for item in value for found in _ids_in(item)}
    return set()


def hidden_names(session: Any, seat: int) -> set[str]:
    """Cards in the other seat's hand whose names nothing `seat` is shown mentions: not the
    view, not the log, and not the face of a card the view holds, which the page shows when
    the pointer rests on its name (McReady's "You just ran outta bullets" says "Gatling Gun"
    on its face)."""
    view = session.view(seat)
    catalog = default_catalog()
    faces = [face_fragment(catalog, catalog.entries[card_id])
             for card_id in _ids_in(view) if card_id in catalog.entries]
    shown = " ".join(str(value) for value in view.values()) + " ".join(
        line for event in session.events(seat) for line in event.text_lines()) + " ".join(faces)
    return {card["name"] for card in session.view(1 - seat)["hand"]
            if card["name"] not in shown}


def step_of(page: Any) -> int:
    return int(page.locator("#table").get_attribute("data-step"))


def watch(browser: Any, link: str, session: Any) -> set[str]:
    """The spectator's page: both hands as face-down cards, no card of either hand named
    that a seat keeps from the other; the names it kept hidden."""
    from playwright.sync_api import expect

    page = new_page(browser)
    page.goto(link)
    expect(page.locator(".table-heading")).to_contain_text("you are watching")
    expect(page.locator("#resign")).to_have_count(0)
    secret = hidden_names(session, 0) | hidden_names(session, 1)
    content = page.content()
    assert not [name for name in secret if name in content]
    assert page.locator("#my-hand li").count() == len(session.view(0)["hand"])
    assert page.locator("#my-hand li").all_inner_texts() == (
        ["face-down card"] * len(session.view(0)["hand"]))
    page.context.close()
    return secret


@pytest.mark.parametrize(("game", "seat"), [("revolver", "colty"), ("revolver2", "mapache")])
def test_two_browsers_play_a_whole_game_through_the_invitation(
        live_server: Any, chromium_browser: Any, game: str, seat: str) -> None:
    from playwright.sync_api import expect

    creator, friend, spectator_link, _ = make_table(live_server, chromium_browser, game,
                                                    seat)
    token = creator.url.rsplit("/", 1)[1]
    table, _ = store_of(live_server.app).find(token)
    session = table.session
    sides = list(session.names)
    pages = {seat: creator, next(side for side in sides if side != seat): friend}
    clicks = 0
    kept_secret: set[str] = set()
    spectator_saw: set[str] = set()
    while not creator.locator("#outcome").is_visible():
        assert clicks < MOST_CLICKS, "the game did not end"
        for side, page in pages.items():
            secret = hidden_names(session, sides.index(side))
            kept_secret |= secret
            content = page.content()
            assert not [name for name in secret if name in content], side
        mover = session.waiting_for()
        page = pages[sides[mover]]
        other = pages[sides[1 - mover]]
        expect(other.locator("#waiting")).to_contain_text(f"Waiting for {sides[mover]}")
        step = step_of(page)
        buttons = page.locator("#actions button.action")
        (buttons.nth(clicks % buttons.count()) if clicks < 10 else buttons.last).click()
        clicks += 1
        if clicks == 8:
            screenshot(page, f"friend-table-{game}")
            spectator_saw = watch(chromium_browser, spectator_link, session)
        for each in (page, other):  # both pages move on: the other by the event stream
            each.wait_for_function(
                "step => Number(document.getElementById('table').dataset.step) > step",
                arg=step)
        expect(page.locator("#table-error")).to_be_hidden()
    expect(friend.locator("#outcome")).to_have_text(creator.locator("#outcome").inner_text())
    assert clicks > 10 and kept_secret
    assert spectator_saw
    screenshot(creator, f"friend-table-{game}-over")
    for page in (creator, friend):
        page.context.close()


def test_a_resignation_asks_first_and_ends_the_table_on_both_pages(
        live_server: Any, chromium_browser: Any) -> None:
    from playwright.sync_api import expect

    creator, friend, _, _ = make_table(live_server, chromium_browser, "revolver", "colty")
    friend.once("dialog", lambda dialog: dialog.dismiss())
    friend.click("#resign")
    expect(friend.locator("#resign")).to_be_visible()  # dismissed: nothing happened
    friend.once("dialog", lambda dialog: dialog.accept())
    friend.click("#resign")
    for page in (friend, creator):
        expect(page.locator("#outcome")).to_have_text(
            re.compile(r"^mcready resigned (at turn \d+|before the first turn): colty wins$"))
    for page in (creator, friend):
        page.context.close()


@pytest.mark.parametrize(("game", "seat"), [("revolver", "mcready"), ("revolver2", "esteban")])
def test_two_people_at_one_screen_in_the_browser(live_server: Any, chromium_browser: Any,
                                                 game: str, seat: str) -> None:
    """One browser tab, two people: between their turns the table is hidden and the device
    passed; each then sees his own hand, never the other's."""
    from playwright.sync_api import expect

    page = new_page(chromium_browser)
    page.goto(live_server + "/friends")
    page.select_option("#friend-game", game)
    page.select_option("#friend-seat", seat)
    page.check("#friend-one-screen")
    short_game(page)
    page.click("#friend-create")
    page.wait_for_url("**/friends/*")
    token = page.url.rsplit("/", 1)[1]
    table, _ = store_of(live_server.app).find(token)
    session = table.session
    sides = list(session.names)
    passes = clicks = 0
    while not page.locator("#outcome").is_visible():
        assert clicks < MOST_CLICKS, "the game did not end"
        page.wait_for_function(
            "document.querySelector('#outcome') || !document.getElementById('pass-device')"
            ".hidden || document.querySelector('#actions button.action:not([disabled])')")
        if page.locator("#outcome").is_visible():
            break
        if page.locator("#pass-device").is_visible():
            mover = sides[session.waiting_for()]
            expect(page.locator("#pass-device-to")).to_have_text(mover)
            assert not page.locator("#table").is_visible()  # the last hand is hidden
            if passes == 1:
                screenshot(page, f"friend-one-screen-{game}")
            page.click("#pass-device-continue")
            page.wait_for_url("**/friends/*")
            expect(page.locator(".table-heading")).to_contain_text(f"you play {mover}")
            passes += 1
            continue
        mover = session.waiting_for()
        assert mover is not None
        secret = hidden_names(session, mover)
        content = page.inner_text("#table")
        assert not [name for name in secret if name in content], sides[mover]
        step = step_of(page)
        buttons = page.locator("#actions button.action")
        passing = page.locator('#actions [data-group="pass"] button.action')
        # a few plays, then on to the end: passing where one may (it comes last now)
        chosen = buttons.nth(clicks % buttons.count()) if clicks < 10 else (
            passing.first if passing.count() else buttons.first)
        chosen.click()
        clicks += 1
        page.wait_for_function(
            "step => Number(document.getElementById('table').dataset.step) > step || "
            "!document.getElementById('pass-device').hidden", arg=step)
    assert passes >= 4 and clicks > 10
    page.context.close()


def record_answers(context: Any) -> list[str]:
    """Everything the context's pages receive from now on: each answer's body, and each
    event its pages' streams deliver (read inside the page: a stream's body never ends)."""
    seen: list[str] = []

    def keep(response: Any) -> None:
        if "text/event-stream" in (response.headers.get("content-type") or ""):
            return
        try:
            seen.append(response.text())
        except Exception:  # a redirect or an answer the page left: no body to read
            seen.append(response.url)

    context.on("response", keep)
    context.add_init_script("""
        const Original = window.EventSource;
        window.__events = [];
        window.EventSource = function (url, options) {
          const stream = new Original(url, options);
          stream.addEventListener("state", (event) => window.__events.push(event.data));
          return stream;
        };
    """)
    return seen


def test_the_friends_seat_is_his_alone_in_the_browser(live_server: Any,
                                                      chromium_browser: Any) -> None:
    """The creator's browser never receives the friend's secret; a third browser opening
    the used invitation is sent to watch; the friend's second device is announced."""
    from playwright.sync_api import expect

    creator = new_page(chromium_browser)
    seen = record_answers(creator.context)
    creator, friend, spectator_link, invitation = make_table(
        live_server, chromium_browser, "revolver", "colty", creator)
    secret = friend.url.rsplit("/", 1)[1]
    assert secret not in invitation
    # the friend's page offers its own resume link, with words on keeping it
    expect(friend.locator("#seat-link")).to_have_value(friend.url)
    expect(friend.locator("#table-links")).to_contain_text("keep it secret")
    # a third browser: the invitation is spent, the seat is taken, watching is offered
    third = new_page(chromium_browser)
    third.goto(invitation)
    expect(third.locator("h1")).to_have_text("This seat is taken")
    expect(third.locator("#take-seat")).to_have_count(0)
    third.click("#watch-table")
    expect(third.locator(".table-heading")).to_contain_text("you are watching")
    assert third.url == spectator_link
    # the friend goes on from a second device, by his resume link, when it is his turn
    second = new_page(chromium_browser)
    second.goto(friend.url)
    expect(second.locator(".table-heading")).to_contain_text("you play mcready")
    table, _ = store_of(live_server.app).find(creator.url.rsplit("/", 1)[1])
    session = table.session
    while session.names[session.waiting_for()] != "mcready":
        step = step_of(creator)
        creator.locator("#actions button.action").first.click()
        creator.wait_for_function(
            "step => Number(document.getElementById('table').dataset.step) > step", arg=step)
    second.locator("#actions button.action").first.click()
    for page in (creator, friend, second):
        expect(page.locator("#notices .seat-notice")).to_contain_text(
            "mcready acted from a device or browser that had not played this seat before")
    screenshot(creator, "friend-table-new-device")
    events = creator.evaluate("window.__events")
    assert len(events) >= 2, "the creator's page heard nothing"
    everything = [*seen, *events, creator.content()]
    assert len(seen) > 10 and not [text for text in everything if secret in text]
    assert invitation not in creator.content() and invitation not in events[-1]
    for page in (creator, friend, second, third):
        page.context.close()

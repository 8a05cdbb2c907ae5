"""The replay viewer in a real headless Chromium (Debian's, see browser_support): a game two
bots played at /play is watched again from its "watch the replay" link, stepped with the
arrow keys, Home and End, jumped to a turn and seen by each player and with everything open;
an uploaded record opens the same way; at 390 px the page is no wider than the screen.
Screenshots: replay-desktop.png and replay-phone.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import browser_support
import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app

browser_page = browser_support.browser_page
live_server = browser_support.live_server
screenshot = browser_support.screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()


def step_shown(page: Any) -> int:
    return int(page.locator("#replay-step").inner_text())


def test_a_finished_bot_game_is_watched_again_step_by_step(live_server: str,
                                                           browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver")
    page.select_option("#play-seat", "watch")
    page.fill("#play-seed", "7")
    page.click("#play-start")
    for _ in range(200):
        if page.locator("#outcome").is_visible():
            break
        page.click("#watch-turn")
        page.wait_for_function("document.querySelector('#outcome') || "
                               "document.querySelector('#watch-turn:not([disabled])')")
    page.click("#watch-replay")
    expect(page.locator("#replay-step")).to_have_text("0")
    expect(page.locator("#replay[data-ready='true']")).to_have_count(1)
    last = int(page.locator("#replay").get_attribute("data-last"))
    assert last > 20
    expect(page.locator("#board .board")).to_be_visible()
    hidden_at_start = page.locator("#log li[hidden]").count()
    assert hidden_at_start > 0  # the log of later steps is not shown yet

    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("1")
    expect(page.locator("#replay-done")).to_contain_text("step 0:")
    assert page.locator("#log li[hidden]").count() < hidden_at_start
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_text("1")
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_have_text(str(last))
    expect(page.locator("#board #game-over")).to_be_visible()
    assert page.locator("#log li[hidden]").count() == 0
    page.keyboard.press("Home")
    expect(page.locator("#replay-step")).to_have_text("0")

    page.select_option("#replay-turn-select", label="turn 3")
    expect(page.locator("#replay-turn")).to_have_text("turn 3")
    at_turn = step_shown(page)
    assert 0 < at_turn < last

    # the whole position, every hidden card: both hands on the board, the decks' tops
    expect(page.locator("#replay-whole")).to_be_visible()
    page.click("#replay-whole summary")
    expect(page.locator("#replay-whole-lines")).to_contain_text("top:")
    page.click("a.viewer[data-viewer='mcready']")
    expect(page.locator("#replay-whole")).to_be_hidden()
    expect(page.locator("#board .opponent-hand")).to_contain_text("hand:")
    expect(page.locator(".table-log h2")).to_contain_text("as mcready")
    assert step_shown(page) == at_turn  # the same step, another viewer
    assert "viewer=mcready" in page.url and f"step={at_turn}" in page.url
    # a card name shows its face, as at the table
    assert page.locator("#board [data-face]").count() > 5
    screenshot(page, "replay-desktop")

    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text(str(at_turn + 1))
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the page is {wide} px wide at 390 px"
    screenshot(page, "replay-phone")


def test_an_uploaded_record_opens_in_the_viewer(live_server: str, browser_page: Any,
                                                tmp_path: Path) -> None:
    from playwright.sync_api import expect

    record = tmp_path / "game.jsonl"
    played = runner.invoke(cli_app, ["play", "--game", "revolver2", "--bots", "random",
                                     "--seed", "3", "--quiet", "--record", str(record)])
    assert played.exit_code == 0, played.output
    page = browser_page
    page.goto(live_server + "/replays")
    page.set_input_files("#replay-file", str(record))
    page.click("#replay-open")
    expect(page.locator("#replay-step")).to_have_text("0")
    expect(page.locator("#replay[data-ready='true']")).to_have_count(1)
    expect(page.locator(".table-heading")).to_contain_text("uploaded game.jsonl")
    page.keyboard.press("End")
    expect(page.locator("#board #game-over")).to_be_visible()
    # a broken file: one line on the page, no navigation
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{nope\n", encoding="utf-8")
    page.goto(live_server + "/replays")
    page.set_input_files("#replay-file", str(broken))
    page.click("#replay-open")
    expect(page.locator("#replay-error")).to_contain_text("broken.jsonl:1:")


def test_take_back_at_the_table_restores_the_decision(live_server: str,
                                                      browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver")
    page.select_option("#play-seat", "colty")
    page.fill("#play-bot1", "random")
    page.fill("#play-seed", "12")
    page.click("#play-start")
    expect(page.locator("#actions button.action").first).to_be_visible()
    expect(page.locator("#take-back")).to_have_count(0)  # nothing to take back yet
    before = page.locator("#actions .action-buttons").text_content()
    hand = page.locator("#my-hand").text_content()
    log_lines = page.locator("#log li").count()
    page.locator("#actions button.action").last.click()
    expect(page.locator("#take-back")).to_be_visible()
    page.click("#take-back")
    expect(page.locator("#take-back")).to_have_count(0)
    assert page.locator("#actions .action-buttons").text_content() == before
    assert page.locator("#my-hand").text_content() == hand
    expect(page.locator("#log li")).to_have_count(log_lines)
    expect(page.locator("#table-error")).to_be_hidden()

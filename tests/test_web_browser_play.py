"""The simulator and the game table in a real headless Chromium (Debian's, see
browser_support): a 200-game simulation whose chart appears with the command line's numbers,
and a game against the random bot played to its end by clicking, whose record replays.
Screenshots of both pages are kept (build/screenshots/ or $DECKBUILDER_SCREENSHOTS)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import browser_support
import pytest
from typer.testing import CliRunner

from deckbuilder.cli import app as cli_app

# the fixtures, found by pytest among this module's names
browser_page = browser_support.browser_page
live_server = browser_support.live_server
screenshot = browser_support.screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()
#: Clicks allowed for one game (a random bot's game lasts some 40 turns).
MOST_CLICKS = 400


def test_a_field_of_opponents_plays_the_gauntlet_the_command_line_plays(
        live_server: str, browser_page: Any) -> None:
    """The simulator's field mode: the deck against each chosen opponent (the other side's
    decks only are offered), with the command line's numbers for the same seed."""
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/simulate")
    page.check('input[name="mode"][value="field"]')
    expect(page.locator("#sim-vs")).to_be_hidden()
    page.select_option("#sim-game", "revolver")
    page.select_option("#sim-deck", "base:mcready")
    offered = page.locator("#sim-field option:not([disabled])")
    assert offered.count() >= 2 and "mcready" not in " ".join(
        offered.evaluate_all("options => options.map(o => o.dataset.faction)"))
    page.select_option("#sim-field", ["base:colty", "packaged:example-colty-fan-the-gun"])
    page.fill("#sim-bot", "random")
    page.fill("#sim-games", "20")
    page.fill("#sim-seed", "4")
    page.click("#sim-run")
    expect(page.locator(".sim-field h2")).to_contain_text("against the field", timeout=60_000)
    cli = json.loads(runner.invoke(cli_app, [
        "simulate", "mcready", "--vs", "colty", "--vs", "example-colty-fan-the-gun",
        "--games", "20", "--seed", "4", "--bot", "random", "--json"]).stdout)
    rows = page.locator(".sim-field-rows tbody tr")
    expect(rows).to_have_count(2)
    for index, row in enumerate(cli["opponents"]):
        cells = rows.nth(index).locator("td")
        assert cells.nth(0).inner_text() == row["name"]
        assert cells.nth(3).inner_text() == str(row["wins"])
    screenshot(page, "simulate-field")


def test_a_200_game_simulation_draws_its_chart(live_server: str, browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/simulate")
    page.select_option("#sim-game", "revolver")
    page.select_option("#sim-deck", "base:colty")
    page.fill("#sim-bot", "random")
    page.fill("#sim-games", "200")
    page.fill("#sim-seed", "9")
    page.click("#sim-run")
    expect(page.locator("#chart-win-rate svg")).to_be_visible(timeout=60_000)
    expect(page.locator("#sim-status")).to_contain_text("200 of 200 games played")
    # the live chart followed the games: its line ends at the last progress (all 200 games)
    live_line = page.locator("#sim-live path.estimate")
    expect(live_line).to_have_count(1)
    assert live_line.get_attribute("d").startswith("M")
    assert page.locator("#sim-live polygon.band").count() == 1
    result = runner.invoke(cli_app, ["simulate", "colty", "--games", "200", "--seed", "9",
                                     "--bot", "random", "--json"])
    assert result.exit_code == 0, result.output
    cli = json.loads(result.stdout)
    deck = next(side for side in cli["sides"] if side["is_deck_under_test"])
    row = page.locator("table.sim-wins tr.deck-under-test")
    expect(row).to_contain_text(f"{100 * deck['win_rate']['estimate']:.1f}%")
    expect(row).to_contain_text(f"{100 * deck['win_rate']['low']:.1f}%")
    expect(row.locator("td.num").first).to_have_text(str(deck["wins"]))
    assert page.locator("#chart-cards svg text").count() > 10  # a row per card played
    screenshot(page, "simulate")


def test_a_game_against_the_random_bot_by_clicking(live_server: str, browser_page: Any,
                                                   tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(live_server + "/play")
    page.select_option("#play-game", "revolver")
    page.select_option("#play-seat", "colty")
    page.fill("#play-bot1", "random")
    page.fill("#play-seed", "12")
    screenshot(page, "play-new-game")
    page.click("#play-start")
    expect(page.locator("#board .battlefield")).to_have_count(5)
    expect(page.locator("#board .opponent-hand")).to_contain_text("hand:")
    clicks = 0
    outcome = page.locator("#outcome")
    while not outcome.is_visible():
        assert clicks < MOST_CLICKS, "the game did not end"
        turn = page.locator("#board .board").get_attribute("data-turn")
        buttons = page.locator("#actions button.action")
        # a bit of everything (pass, play, pay) for the picture, then mostly the last (pass)
        (buttons.nth(clicks % buttons.count()) if clicks <= 12 else buttons.last).click()
        clicks += 1
        if clicks == 12:
            screenshot(page, "play-table")
        # the answer replaces the buttons: wait for it before the next click
        page.wait_for_function(
            "([turn, clicks]) => document.querySelector('#outcome') || "
            "document.querySelector('#actions button.action:not([disabled])')",
            arg=[turn, clicks])
        expect(page.locator("#table-error")).to_be_hidden()
    expect(outcome).to_contain_text("after")
    assert clicks > 10
    assert page.locator("#log li").count() > clicks
    # the log folds away under its heading, and opens again
    expect(page.locator("#log")).to_be_visible()
    page.click("#log-fold summary")
    expect(page.locator("#log")).to_be_hidden()
    page.click("#log-fold summary")
    expect(page.locator("#log")).to_be_visible()
    screenshot(page, "play-table-over")
    with page.expect_download() as download:
        page.click("#download-record")
    path = tmp_path / "game.jsonl"
    download.value.save_as(path)
    replayed = runner.invoke(cli_app, ["replay", str(path), "--quiet"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(path.read_text().splitlines()[0])["bots"]["colty"] == "human"

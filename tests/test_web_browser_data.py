"""Issue 24 in a real headless Chromium at phone width (browser_support): "Confirm card
data" lists the McReady base deck's cards as faces with every unconfirmed value editable on
the face; a few values are confirmed (as shown, and typed), a bad value is refused beside
its input, and after a reload the answers are still there, shown as confirmed by a player on
the card's face, on the card page and in `deckbuilder cards show`.
Screenshots: build/screenshots/ or $DECKBUILDER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import browser_support
import pytest
from typer.testing import CliRunner

from deckbuilder import paths
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.data_packs.status import deck_status
from deckbuilder.yamlio import load_yaml

live_server = browser_support.live_server
screenshot = browser_support.screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PHONE = browser_support.PHONE
phone_page = browser_support.phone_page



def mcready_unconfirmed() -> int:
    """The McReady base deck's unconfirmed values, as `data status` counts them."""
    catalog = build_catalog()
    return deck_status(catalog, "mcready", catalog.base_deck("revolver", "mcready")
                       ).counts.unconfirmed


def test_a_player_confirms_mcready_values_in_the_browser_and_they_persist(
        live_server: str, phone_page: Any) -> None:
    from playwright.sync_api import expect

    page = phone_page
    total = mcready_unconfirmed()
    assert total > 50  # the deck still rests on many readings
    page.goto(live_server + "/cards")
    page.locator('.topbar a[href="/data"]').click()
    page.select_option("#data-cards", "base:mcready")
    page.fill("#data-player", "Ann Reader")
    page.locator("#data-choose button[type=submit]").click()
    progress = page.locator("#data-progress")
    expect(progress).to_have_text(f"0 of {total} values reviewed")
    deputy = page.locator("#card-deputy")
    expect(deputy.locator(".card-face__title")).to_have_text("Deputy")
    # every unconfirmed value of the deck has its form on a face
    expect(page.locator("form.data-edit")).to_have_count(total)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    screenshot(page, "data-review-mcready-390")

    # as shown: the reading is confirmed; the card is redrawn with the value a player's
    deputy.locator('form[data-field="cost"] button[value="as-shown"]').click()
    expect(progress).to_have_text(f"1 of {total} values reviewed")
    cost = deputy.locator("dd", has=page.locator('form[data-field="cost"]'))
    expect(cost).to_have_class("player-confirmed")
    expect(deputy.locator('form[data-field="cost"] .data-edit__message')).to_contain_text(
        "saved")
    # a typed value the model refuses: one line beside the input, nothing saved
    copies = deputy.locator('form[data-field="copies"]')
    copies.locator("input[name=value]").fill("99")
    copies.locator('button[value="save"]').click()
    expect(copies.locator(".data-edit__message")).to_contain_text("not saved: copies")
    expect(copies.locator("input[name=value]")).to_have_attribute("aria-invalid", "true")
    expect(progress).to_have_text(f"1 of {total} values reviewed")
    # a typed value it takes
    copies.locator("input[name=value]").fill("9")
    copies.locator('button[value="save"]').click()
    expect(progress).to_have_text(f"2 of {total} values reviewed")
    # engine data (what the card does) is confirmed as it stands
    engine_form = page.locator("form.data-edit[data-engine=true]").first
    engine_card = engine_form.get_attribute("data-id")
    engine_form.locator('button[value="as-shown"]').click()
    expect(progress).to_have_text(f"3 of {total} values reviewed")
    screenshot(page, "data-review-mcready-saved-390")

    # the answers persist: the page read afresh
    page.reload()
    expect(progress).to_have_text(f"3 of {total} values reviewed")
    expect(page.locator("#data-player")).to_have_value("Ann Reader")
    deputy = page.locator("#card-deputy")
    expect(deputy.locator("dd.player-confirmed")).to_have_count(2)
    title = deputy.locator("dd.player-confirmed").first.get_attribute("title") or ""
    assert "your overlay" in title and "read from the printed card" in title
    assert "by Ann Reader" in title
    expect(page.locator(f"#card-{engine_card} .card-face__text.player-confirmed")
           ).to_have_count(1)

    # the card's own page and `cards show` say the same
    page.goto(live_server + "/cards/deputy")
    face = page.locator(".card-face-page .card-face")
    expect(face.locator("dd.player-confirmed")).to_have_count(2)
    expect(face.locator(".card-face__legend").last).to_contain_text(
        "confirmed by a player, not by a document: your overlay")
    expect(page.locator("table.values")).to_contain_text("confirmed by a player (your overlay)")
    overlay = load_yaml(paths.overlay_path())
    assert overlay["corrections"]["deputy"]["values"]["copies"] == 9
    shown = CliRunner().invoke(app, ["cards", "show", "deputy"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    cost_line = next(line for line in lines if line.strip().startswith("Cost"))
    assert cost_line.rstrip().endswith(("\u2713", "+")), cost_line
    assert any("confirmed by a player (your overlay)" in line for line in lines)

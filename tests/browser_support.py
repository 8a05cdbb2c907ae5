"""Fixtures for tests that drive the web app in a real headless Chromium.

Bind them in the test module, where pytest looks for fixtures (tests/ is on the import
path, like `toy_game`):

    import browser_support

    browser_page = browser_support.browser_page
    live_server = browser_support.live_server
    screenshot = browser_support.screenshot

    def test_cards_page(live_server: str, browser_page: Page) -> None:
        browser_page.goto(live_server + "/cards")
        screenshot(browser_page, "cards")

- `live_server` (module scope): the app of `create_app(WebConfig(deck_folder=...))` served by
  uvicorn in a background thread on a free port of 127.0.0.1; the value is the base URL
  ("http://127.0.0.1:PORT", no trailing slash), a `str` that also carries `.deck_folder` (an
  empty temporary folder the test may fill) and `.app`. Stopped when the module's tests end.
- `browser_page` (function scope): a fresh page in a fresh browser context of the module's
  one Chromium (started for its first browser test, closed after its last): Debian's
  `/usr/bin/chromium`, or `$DECKBUILDER_CHROMIUM` (browser builds cannot be downloaded here,
  so Playwright is always pointed at the system one).
- `screenshot(page, name)`: the whole page as `<name>.png` in `$DECKBUILDER_SCREENSHOTS`, else
  `build/screenshots/` of the repository; returns the path (CI keeps them as artefacts).

A missing Chromium or Playwright skips the browser tests with one line saying what to
install, so `python -m pytest` on a machine without a browser still tells the truth about
everything else. CI sets `DECKBUILDER_REQUIRE_BROWSER=1` (`.ci/run`), which turns a missing
browser into a failure: there, a skip would hide a broken CI.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from deckbuilder import paths

#: Where Debian's package puts Chromium; `$DECKBUILDER_CHROMIUM` names another one.
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_VARIABLE = "DECKBUILDER_CHROMIUM"
REQUIRE_VARIABLE = "DECKBUILDER_REQUIRE_BROWSER"
SCREENSHOTS_VARIABLE = "DECKBUILDER_SCREENSHOTS"
#: No GPU, no sandbox (containers), and nothing that talks to the network on its own
#: (QUIC, background updates, sync): the tests must not depend on, or wait for, the internet.
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
#: How long a page action or expectation may wait (ms): generous for a 2-core machine that CI
#: loads with the compiled build and the lowest-deps check beside the tests.
PAGE_TIMEOUT_MS = 30_000
SERVER_START_SECONDS = 20.0
REPOSITORY = Path(__file__).resolve().parent.parent


class LiveServer(str):
    """The base URL of a running app, with the deck folder it serves and the app itself."""

    deck_folder: Path
    app: Any

    def __new__(cls, url: str, deck_folder: Path, app: Any) -> LiveServer:
        server = super().__new__(cls, url)
        server.deck_folder = deck_folder
        server.app = app
        return server


def _missing(reason: str) -> NoReturn:
    """Skip with one line, or fail with it where a browser is required (CI)."""
    if os.environ.get(REQUIRE_VARIABLE, "").strip() in ("", "0"):
        pytest.skip(f"browser tests skipped: {reason}")
    pytest.fail(f"{reason} ({REQUIRE_VARIABLE} is set: the browser tests must run)",
                pytrace=False)


def chromium_path() -> str:
    """The Chromium executable to drive: `$DECKBUILDER_CHROMIUM`, else Debian's."""
    wanted = os.environ.get(CHROMIUM_VARIABLE) or DEFAULT_CHROMIUM
    found = shutil.which(wanted)
    if found is None:
        _missing(f"no Chromium at {wanted} (apt-get install chromium, or set "
                 f"{CHROMIUM_VARIABLE})")
    return str(found)


def _free_socket() -> socket.socket:
    """A listening socket on a free port, handed to uvicorn (no race for the port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


class ServerThread:
    """uvicorn serving `app` in a daemon thread until `stop()`."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.socket = _free_socket()
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]},
                                       name="live-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The web app on a free port of 127.0.0.1 for this module's tests, with an empty deck
    folder and its own empty DECKBUILDER_HOME (the per-test `user_home` fixture comes later,
    and the app may read the catalog before it)."""
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    deck_folder = tmp_path_factory.mktemp("web-decks")
    home = tmp_path_factory.mktemp("web-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(paths.HOME_VARIABLE, str(home))
        app = create_app(WebConfig(deck_folder=deck_folder))
        server = ServerThread(app)
        server.start()
        try:
            yield LiveServer(server.url, deck_folder, app)
        finally:
            server.stop()


#: The Chromium of each test module that uses one: (Playwright driver, browser) by module name.
_BROWSERS: dict[str, tuple[Any, Any]] = {}


def module_browser(request: pytest.FixtureRequest) -> Any:
    """The test module's one Chromium, started for its first browser test and closed when
    the module's tests end. Playwright starts it with a new temporary user data dir (it
    refuses a --user-data-dir flag) and deletes that folder when the browser closes."""
    module = request.node.getparent(pytest.Module)
    key = module.nodeid if module is not None else "session"
    if key not in _BROWSERS:
        executable = chromium_path()
        try:
            from playwright.sync_api import expect, sync_playwright
        except ImportError:
            _missing("Playwright is not installed (pip install -e \".[test]\")")
        # `expect(...)` has a clock of its own (5 s unless told): the same as a page's
        expect.set_options(timeout=PAGE_TIMEOUT_MS)
        driver = sync_playwright().start()
        try:
            browser = driver.chromium.launch(executable_path=executable, headless=True,
                                             args=list(CHROMIUM_FLAGS))
        except Exception:
            driver.stop()
            raise
        _BROWSERS[key] = (driver, browser)

        def close() -> None:
            driver_, browser_ = _BROWSERS.pop(key)
            try:
                browser_.close()
            finally:
                driver_.stop()

        (module or request.session).addfinalizer(close)
    return _BROWSERS[key][1]


@pytest.fixture
def chromium_browser(request: pytest.FixtureRequest) -> Any:
    """The module's one Chromium (for a test that wants its own contexts)."""
    return module_browser(request)


def _page_in_new_context(request: pytest.FixtureRequest, **context: Any) -> Iterator[Any]:
    """A page in a context of its own (no cookies or storage from other tests), closed after
    the test."""
    made = module_browser(request).new_context(**context)
    made.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        yield made.new_page()
    finally:
        made.close()


@pytest.fixture
def browser_page(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page (new context: no cookies or storage from other tests), 1280x900."""
    yield from _page_in_new_context(request, viewport={"width": 1280, "height": 900},
                                    accept_downloads=True)


#: A phone's viewport (CSS pixels): pages must not scroll sideways within its width.
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone_page(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in a 390 px wide touch context, as a phone shows it."""
    yield from _page_in_new_context(request, viewport=PHONE, has_touch=True, is_mobile=True,
                                    device_scale_factor=2)


#: The name the browser fixture had at first (tests/test_web_browser_decks.py binds it).
_chromium = chromium_browser


def screenshot_folder() -> Path:
    folder = os.environ.get(SCREENSHOTS_VARIABLE)
    return Path(folder) if folder else REPOSITORY / "build" / "screenshots"


def screenshot(page: Any, name: str) -> Path:
    """Save the whole page as `<name>.png` (see `screenshot_folder`) and return the path."""
    folder = screenshot_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    # A whole page under the load of CI (the compiled build beside two test workers) has
    # taken longer than the default 30 s to capture; the content is already in place.
    page.screenshot(path=str(path), full_page=True, timeout=90_000)
    return path


#: What a page at its viewport's width makes its reader scroll sideways for, or cuts: the page
#: wider than the viewport, the innermost elements (or their text) that reach past it outside
#: a box that scrolls sideways, and every element that hides part of its content sideways
#: (`overflow-x` hidden or clip with content wider than its box: a table or a cell clipped).
#: A box that scrolls sideways on its own (`overflow-x: auto`) is allowed, and so is a form
#: field (its text scrolls inside it); an element one pixel wide or less is left out (the
#: visually hidden text of screen readers).
_SIDEWAYS_SCRIPT = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const wide = document.documentElement.scrollWidth;
  if (wide > width + 1) problems.push(`the page is ${wide} px wide at ${width} px`);
  const name = element => element.tagName.toLowerCase()
    + (element.id ? '#' + element.id : '')
    + [...element.classList].map(c => '.' + c).join('');
  for (const element of [document.documentElement, ...document.querySelectorAll('body, body *')]) {
    const overflow = getComputedStyle(element).overflowX;
    if (overflow !== 'hidden' && overflow !== 'clip') continue;
    if (element.clientWidth <= 1 || element.matches('input, textarea, select')) continue;
    const cut = element.scrollWidth - element.clientWidth;
    if (cut > 1) problems.push(`${name(element)} cuts ${cut} px of its content`);
  }
  const beyond = new Map();  // element -> how far right it, or its own text, reaches
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0) continue;
    const field = element.matches('input, textarea, select');  // their text scrolls in them
    const visible = !field && getComputedStyle(element).overflowX === 'visible';
    const reach = visible ? Math.max(box.right, box.left + element.scrollWidth) : box.right;
    if (reach <= width + 1) continue;
    let scroller = element.parentElement;
    while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) {
      scroller = scroller.parentElement;
    }
    if (!scroller || scroller === document.documentElement || scroller === document.body) {
      beyond.set(element, reach);
    }
  }
  // the innermost ones: an element reaches as far as what overflows it
  for (const [element, reach] of beyond) {
    if (![...beyond.keys()].some(inner => inner !== element && element.contains(inner))) {
      problems.push(`${name(element)} reaches ${Math.round(reach)} px`);
    }
  }
  return problems;
}"""


def sideways_problems(page: Any) -> list[str]:
    """What `page` makes its reader scroll sideways for, or cuts (see `_SIDEWAYS_SCRIPT`),
    as lines; none for a page that keeps to its viewport's width."""
    return list(page.evaluate(_SIDEWAYS_SCRIPT))


def assert_fits_the_screen(page: Any, name: str) -> None:
    """Fail if `page` scrolls sideways or cuts a column at its viewport's width; save its
    screenshot as `<name>.png` either way (the failing one shows what is wrong)."""
    screenshot(page, name)
    problems = sideways_problems(page)
    assert not problems, f"{name}: " + "; ".join(problems[:12])


# -- every page of the app, with content ----------------------------------------------------
# Tours of the app's pages that the phone test (fits the screen) and the accessibility test
# (axe-core) both take: each one drives a page from stop to stop and yields the stop's name
# there, for the caller to check the page as it stands.

#: Each game with one of its factions: the deck opened, simulated and played.
GAMES = (("revolver", "mcready"), ("revolver2", "esteban"))
GAME_IDS = [game for game, _ in GAMES]


def navigation_pages(page: Any, server: Any) -> Iterator[str]:
    """The home page, each page of the navigation bar as it first opens, with a long file name
    in the deck folder (a select is as wide as its longest option unless told), and the page
    of an error."""
    from deckbuilder.web.pages import NAVIGATION

    long_name = "a-deck-with-a-very-long-file-name-that-a-player-might-well-give-it.yaml"
    (server.deck_folder / long_name).write_text(
        "name: a long one\ngame: revolver\nfaction: colty\ncards: {}\n", encoding="utf-8")
    (server.deck_folder / long_name.replace(".yaml", ".txt")).write_text(
        "1x Deputy\n", encoding="utf-8")
    for path in ["/", *(path for path, _ in NAVIGATION), "/cards/no-such-card"]:
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        yield path.strip("/").replace("/", "-") or "home"


def card_and_deck_pages(page: Any, server: Any, game: str, faction: str) -> Iterator[str]:
    """The game's cards, a card's page, the deck editor with a base deck open (its statistics
    and the whole odds table shown), its printable sheet, the deck checked against a
    collection (one more column) and a pasted list naming a card that is not there."""
    from playwright.sync_api import expect

    page.goto(f"{server}/cards?game={game}")
    yield f"cards-{game}"
    page.locator(".card-list a[data-face]").first.click()
    page.wait_for_url(lambda url: "/cards/" in url)
    yield f"card-{game}"
    page.goto(f"{server}/deck?base={faction}")
    expect(page.locator("#odds-table")).to_be_visible()
    page.locator("#deck-table button[data-add]").first.click()
    expect(page.locator("#deck-total")).not_to_have_text("")
    yield f"deck-{game}"
    page.goto(server + page.locator("#sheet-link").get_attribute("href"))
    yield f"deck-sheet-{game}"
    collection = "my-whole-collection-of-cards-bought-over-the-years.yaml"
    (server.deck_folder / collection).write_text("name: mine\ncards:\n  deputy: 3\n",
                                                 encoding="utf-8")
    page.goto(f"{server}/deck?base={faction}&collection={collection}")
    expect(page.locator("#deck-cards th", has_text="owned")).to_be_visible()
    yield f"deck-collection-{game}"
    page.goto(server + "/deck")
    page.fill("#import-text", f"# faction: {faction}\n"
              "3x Acardwhosenamerunsonandonwithoutaspacelongerthanthescreen\n")
    page.click("#import-button")
    expect(page.locator("#import-problems")).to_contain_text("unknown")
    yield f"deck-pasted-{game}"


def simulation_pages(page: Any, server: Any, game: str, faction: str) -> Iterator[str]:
    """The simulator's form filled in, and the result of its 40 games."""
    from playwright.sync_api import expect

    page.goto(server + "/simulate")
    page.select_option("#sim-game", game)
    page.select_option("#sim-deck", f"base:{faction}")
    page.fill("#sim-bot", "random")
    page.fill("#sim-games", "40")
    page.fill("#sim-seed", "3")
    yield f"simulate-form-{game}"
    page.click("#sim-run")
    expect(page.locator("table.sim-wins")).to_be_visible(timeout=60_000)
    expect(page.locator("#chart-cards svg")).to_be_visible()
    yield f"simulate-result-{game}"


def table_pages(page: Any, server: Any, game: str, faction: str) -> Iterator[str]:
    """A table against a bot once started, a friend table's form, the table it made (with its
    invitation), the invitation's own page and the friend's seat it gives."""
    from playwright.sync_api import expect

    page.goto(server + "/play")
    page.select_option("#play-game", game)
    page.select_option("#play-seat", faction)
    page.fill("#play-seed", "2")
    page.click("#play-start")
    expect(page.locator("#actions button.action").first).to_be_visible()
    yield f"play-table-{game}"
    page.goto(server + "/friends")
    page.select_option("#friend-game", game)
    page.select_option("#friend-seat", faction)
    yield f"friends-form-{game}"
    page.click("#friend-create")
    expect(page.locator("#invitations")).to_be_visible()
    yield f"friend-table-{game}"
    invitation = page.locator("input.invitation-link").first.input_value()
    page.goto(invitation)
    expect(page.locator("#take-seat")).to_be_visible()
    yield f"friend-invitation-{game}"
    page.click("#take-seat")
    page.wait_for_url(lambda url: url != invitation)
    expect(page.locator(".table-heading")).to_contain_text("you play")
    yield f"friend-seat-{game}"


def replay_and_data_pages(page: Any, server: Any, game: str, faction: str) -> Iterator[str]:
    """The replays page listing a record of the deck folder, the viewer of that record at its
    start and its end, and the card-data page with a base deck's cards to confirm."""
    from playwright.sync_api import expect
    from typer.testing import CliRunner

    from deckbuilder.cli import app as cli_app

    record = server.deck_folder / f"a_{game}_game_recorded_under_a_name_with_no_break.jsonl"
    if not record.exists():
        played = CliRunner().invoke(cli_app, ["play", "--game", game, "--bots", "random",
                                              "--seed", "3", "--quiet", "--record", str(record)])
        assert played.exit_code == 0, played.output
    page.goto(server + "/replays")
    yield f"replays-{game}"
    page.locator("#replay-files a", has_text=record.name).click()
    expect(page.locator("#replay[data-ready='true']")).to_have_count(1)
    yield f"replay-start-{game}"
    page.keyboard.press("End")
    expect(page.locator("#board #game-over")).to_be_visible()
    yield f"replay-end-{game}"
    page.goto(server + "/data")
    page.select_option("#data-cards", f"base:{faction}")
    page.locator("#data-choose button[type=submit]").click()
    expect(page.locator("#data-progress")).to_be_visible()
    yield f"data-{game}"


#: The tours of a game's pages, each taken once per game.
GAME_TOURS: tuple[Callable[[Any, Any, str, str], Iterator[str]], ...] = (
    card_and_deck_pages, simulation_pages, table_pages, replay_and_data_pages)


#: The axe-core impacts that fail a page (issue 37: none serious or critical, anywhere).
FAILING_IMPACTS = ("serious", "critical")


def axe_problems(page: Any, name: str) -> list[str]:
    """The serious and critical axe-core violations of `page` as it stands (WCAG 2 A and AA
    and best practice), one line each naming the rule, the page and the first nodes."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        _missing("axe-playwright-python is not installed (pip install -e \".[test]\")")

    results = Axe().run(page).response
    return [f"{name}: {rule['id']} ({rule['impact']}): {rule['help']}: "
            + " | ".join(" ".join(node["target"]) + " " + node.get("failureSummary", "")
                         .replace("\n", " ")[:160] for node in rule["nodes"][:3])
            for rule in results["violations"] if rule["impact"] in FAILING_IMPACTS]

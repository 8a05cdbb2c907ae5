"""Rendering: one Jinja2 environment with autoescape on (no template marks user text
`|safe`), and the command line's one-line errors as a page or `{"error": line}`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import games
from deckbuilder.printable import printable
from deckbuilder.sim.records.choices import GIVING_UP, kind_words

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: The pages of the navigation bar: (path, label). W2's pages are listed here too, so every
#: page shows the same bar.
NAVIGATION = (("/cards", "Cards"), ("/deck", "Deck"), ("/simulate", "Simulate"), ("/play", "Play"),
              ("/friends", "Play a friend"), ("/replays", "Replays"), ("/data", "Card data"))
#: What each page of the bar is for: the home page has a tile for each (a page without one
#: is an error there, so the home page leads to every feature).
PAGE_SUMMARIES = {
    "/cards": "Search every card, character and battlefield of the installed sets: texts, "
              "values, sources, and whether the engine plays it.",
    "/deck": "Start from a base deck, open a deck file or paste a list; swap cards by click "
             "and see the Module D verdict as you go.",
    "/simulate": "Play hundreds of games between bots, or a deck against a field, and read "
                 "the win rate with its interval.",
    "/play": "Sit at the table against a bot, or watch two bots play.",
    "/friends": "Play a friend: on one screen, or at two devices through an invitation link.",
    "/replays": "Step through a recorded game, as either seat saw it or with everything open.",
    "/data": "Review the card values no document states, and confirm those you can read on "
             "your own cards.",
}


class GameTemplates(jinja2.BaseLoader):
    """A game's own templates, `<game id>/<file>`: the file from the `templates` folder of the
    package its rules come from (its declaration's `entry`), so a game's panel on the board
    lives in its package, a plug-in's too."""

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str | None, Callable[[], bool] | None]:
        game_id, _, name = template.partition("/")
        game = games().get(game_id)
        if game is None or not name or "/" in name or name.startswith("."):
            raise jinja2.TemplateNotFound(template)
        package = game.declaration.entry.partition(":")[0].rpartition(".")[0]
        found = resources.files(package) / "templates" / name
        if not found.is_file():
            raise jinja2.TemplateNotFound(template)
        return found.read_text(encoding="utf-8"), None, lambda: True


environment = jinja2.Environment(
    loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(TEMPLATES), GameTemplates()]),
    autoescape=True,  # every template, whatever its name: user text is always escaped
    undefined=jinja2.StrictUndefined,  # a misspelt variable is an error in the tests, not ""
    trim_blocks=True,
    lstrip_blocks=True,
)
environment.globals.update(navigation=NAVIGATION, page_summaries=PAGE_SUMMARIES,
                           kind_words=kind_words, giving_up=GIVING_UP)


#: The command line's advice inside the library's error lines, as the web pages give it:
#: (pattern, replacement). A page never tells its reader to type a command.
WEB_ADVICE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement) for pattern, replacement in (
        (r"\s*\(?see `deckbuilder rules[^`]*`\)?", " (the Rules, modules and limits section of "
         "the form lists them)"),
        (r"`deckbuilder validate [^`]*`", "the Deck page (open the deck: its verdict lists them)"),
        (r"(?:add |with )?--allow-illegal", "tick \"play a deck that breaks the deck-building "
         "rules\""),
        (r"`deckbuilder cards --search`", "the Cards page's search"),
        (r"`deckbuilder cards show ([^`]*)`", "the Cards page"),
        (r"--module ", "module "),
        (r"--switch ", "rule switch "),
        (r"--vs\b", "the opponent"),
        (r"--baseline\b", "the baseline deck"),
        (r"--opponent-bot\b", "the opponent's bot"),
        (r"--bot\b", "the bot"),
    ))


def web_advice(line: str) -> str:
    """`line` with the command line's advice put as the web pages give it.

    >>> web_advice("--module 'x' is no module (see `deckbuilder rules --game revolver`)")
    "module 'x' is no module (the Rules, modules and limits section of the form lists them)"
    """
    for pattern, replacement in WEB_ADVICE:
        line = pattern.sub(replacement, line)
    return line


def error_line(error: DeckbuilderError) -> str:
    """The one line the command line prints for this error (without its `error: `), its
    advice put in the web's terms (`web_advice`)."""
    return web_advice(printable(str(error)))


def fragment(template: str, **context: object) -> str:
    """A template rendered to text (a piece of a page for a script to put in place)."""
    return environment.get_template(template).render(**context)


def render(request: Request, template: str, status_code: int = 200, **context: object
           ) -> HTMLResponse:
    """A whole page: the template (extending base.html) with the request and the current
    path (for the navigation bar) in its context."""
    html = fragment(template, request=request, current_path=request.url.path, **context)
    return HTMLResponse(html, status_code=status_code)


def wants_json(request: Request | None) -> bool:
    """Calls from the page's scripts (`/api/...`, or asking for JSON) get JSON errors."""
    if request is None or request.url.path.startswith("/api/"):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def error_response(error: DeckbuilderError, status: int | None = None,
                   request: Request | None = None) -> Response:
    """The error's one line, as JSON for a script (or no request) or as a page; with the
    error's own `status` (else 400) unless `status` is given."""
    return message_response(request, error_line(error),
                            status or int(getattr(error, "status", 400)), "Something is wrong")


def offered_after_the_end(error_type: type[DeckbuilderError], what: str, end: str,
                          request: Request) -> Response:
    """409 for `what` ("the record", "the replay") asked for before `end` ("the game is
    over", "the table has ended"): it shows every hidden card, so it waits for the end."""
    return error_response(error_type(f"{what} is offered once {end} (it shows every hidden "
                                     "card)", fix="finish the game first"), 409, request)


def message_response(request: Request | None, message: str, status: int,
                     title: str | None = None) -> Response:
    """A plain message (not found, too large ...) in the same two shapes."""
    if wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    assert request is not None
    return render(request, "error.html", status_code=status, message=message,
                  title=title or message)

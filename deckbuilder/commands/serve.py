"""`deckbuilder serve`: the web app (card browser, deck editor, simulator, game table) on
this computer, over one deck folder.

The web stack (starlette, jinja2, uvicorn) is an optional extra: it is imported only when the
command runs, so every other command works without it, and without it this command says in
one line how to install it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.commands.common import EXIT_BAD_INPUT, console, fail, guarded, safe

NO_WEB_EXTRA = ("the web app needs the web extra: pip install 'revolver-deckbuilder[web]'")
#: Hosts that only this computer can reach.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (127.0.0.1: this computer "
                                      "only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8765,
    decks: Annotated[Path | None, typer.Option(
        "--decks", help="the deck folder: the only folder the app reads and writes "
        "(default: the current folder)", show_default=False)] = None,
) -> None:
    """Start the web app: browse cards, build decks with a live verdict, simulate, play.

    The app reads and writes deck files only inside the deck folder; stop it with Ctrl-C.
    """
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise fail(NO_WEB_EXTRA, EXIT_BAD_INPUT) from None
    app = guarded(_app)(decks)
    address = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    console.print(safe(f"deckbuilder web app on {address} (deck folder: "
                       f"{app.state.config.deck_folder}); Ctrl-C stops it"), markup=False)
    if host not in LOOPBACK:
        console.print(safe(f"note: {host} can be reached from other computers, and the app "
                           "has no login: anyone who can reach it can edit the deck folder"),
                      markup=False)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    except KeyboardInterrupt:
        raise fail("interrupted", 130) from None
    except (OSError, SystemExit) as error:  # the port is taken, or not ours to use
        raise fail(f"cannot listen on {host}:{port}: {error}", EXIT_BAD_INPUT) from None


def _app(decks: Path | None) -> Any:
    from deckbuilder.errors import DeckbuilderError, Location
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig

    folder = (decks if decks is not None else Path.cwd()).expanduser()
    if not folder.is_dir():
        raise DeckbuilderError("the deck folder is not a folder" if folder.exists()
                               else "the deck folder does not exist", Location(folder),
                               "pass --decks with an existing folder")
    return create_app(WebConfig(deck_folder=folder.absolute()))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)

"""`deckbuilder serve`: the web app on this computer, over one deck folder. The web stack is
an optional extra, imported only when the command runs (without it: one line on installing).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckbuilder.commands.common import EXIT_BAD_INPUT, console, fail, guarded, safe
from deckbuilder.errors import DeckbuilderError, Location

if TYPE_CHECKING:  # the web extra is imported only when the command runs
    from starlette.applications import Starlette

NO_WEB_EXTRA = ("the web app needs the web extra: pip install 'revolver-deckbuilder[web]'")
#: Hosts that only this computer can reach.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: `--table-retention` is in days.
DAY_SECONDS = 24 * 60 * 60.0
#: Hosts that listen on every address of this computer.
WILDCARD_HOSTS = ("0.0.0.0", "::")


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (127.0.0.1: this computer "
                                      "only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8765,
    decks: Annotated[Path | None, typer.Option(
        "--decks", help="the deck folder: the only folder the app reads and writes "
        "(default: the current folder)", show_default=False)] = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", metavar="NAME",
        help="also answer requests for this host name (repeatable); the app answers only "
        "127.0.0.1, localhost, [::1] and --host, which stops DNS-rebinding pages",
        show_default=False)] = None,
    allow_illegal: Annotated[bool, typer.Option(
        "--allow-illegal", help="let a table for two people play decks that break the "
                                "deck-building rules (a home-made deck, play-tested)")] = False,
    table_idle: Annotated[float, typer.Option(
        "--table-idle", min=1, metavar="MINUTES",
        help="end a table for two people once both have been away this long")] = 30,
    table_retention: Annotated[float, typer.Option(
        "--table-retention", min=0, metavar="DAYS",
        help="delete an ended table's file (its record, its links) this long after the "
             "end")] = 7,
    tables_per_client: Annotated[int, typer.Option(
        "--tables-per-client", min=1, metavar="N",
        help="unfinished tables one address may keep at once (this computer's own count "
             "only in the server's 200)")] = 10,
) -> None:
    """Start the web app: browse cards, build decks with a live verdict, simulate, play.

    It reads and writes only inside the deck folder and answers only its host names."""
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise fail(NO_WEB_EXTRA, EXIT_BAD_INPUT) from None
    app = guarded(_app)(decks, host, port, allow_host or [], allow_illegal, table_idle * 60,
                        table_retention * DAY_SECONDS, tables_per_client)
    address = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    console.print(safe(f"deckbuilder web app on {address} (deck folder: "
                       f"{app.state.config.deck_folder}); Ctrl-C stops it"), markup=False)
    if host not in LOOPBACK:
        console.print(safe(f"note: {host} can be reached from other computers, and the app "
                           "has no login: anyone who can reach it can edit the deck folder"),
                      markup=False)
    if host in LOOPBACK:
        console.print("note: only this computer can reach it; to play a friend on another "
                      "computer, start it with --host 0.0.0.0 --allow-host NAME (this "
                      "computer's name on your network) and make the table at "
                      f"http://NAME:{port}/friends", markup=False)
    if host in WILDCARD_HOSTS and not allow_host:
        console.print("note: other computers reach it by this computer's name or address: "
                      "add --allow-host NAME for each, or the app refuses their requests",
                      markup=False)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    except KeyboardInterrupt:
        raise fail("interrupted", 130) from None
    except (OSError, SystemExit) as error:  # the port is taken, or not ours to use
        raise fail(f"cannot listen on {host}:{port}: {error}", EXIT_BAD_INPUT) from None


def _app(decks: Path | None, host: str, port: int, allow_host: list[str],
         allow_illegal: bool = False, table_idle_seconds: float = 1800.0,
         table_retention_seconds: float = 7 * DAY_SECONDS, tables_per_client: int = 10
         ) -> Starlette:
    # The web face needs the optional web extra (checked in `serve`): imported only here.
    from deckbuilder.web.app import create_app
    from deckbuilder.web.config import WebConfig
    from deckbuilder.web.trust import host_name

    for name in allow_host:
        bare = host_name(name)
        if (not bare or len(bare) > 253 or not bare.isprintable()
                or any(character in bare for character in " /\\*@?#")):
            shown = name[:80] if name.isprintable() else repr(name[:80])
            raise DeckbuilderError(f"'{shown}' is not a host name", Location("--allow-host"),
                                   "give a name or address, e.g. --allow-host mybox.local")

    folder = (decks if decks is not None else Path.cwd()).expanduser()
    if not folder.is_dir():
        raise DeckbuilderError("the deck folder is not a folder" if folder.exists()
                               else "the deck folder does not exist", Location(folder),
                               "pass --decks with an existing folder")
    return create_app(WebConfig(deck_folder=folder.absolute(), listen_host=host,
                                extra_hosts=tuple(allow_host), port=port,
                                allow_illegal=allow_illegal,
                                table_idle_seconds=table_idle_seconds,
                                table_retention_seconds=table_retention_seconds,
                                tables_per_client=tables_per_client))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)

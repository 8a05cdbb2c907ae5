"""`deckbuilder simulate`: play a deck many times against an opponent and report the odds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.commands.choices import BOT, RULESET
from deckbuilder.commands.common import (
    an,
    error_console,
    guarded,
    load_catalog_for_cli,
    parse_switches,
    plain_console,
    print_json,
    safe,
)


@dataclass(frozen=True)
class SimDeck:
    """A deck ready to play: resolved card ids, and what the user should know about it."""

    name: str
    game: str
    faction: str
    cards: dict[str, int]
    warnings: list[str] = field(default_factory=list)


#: Games from which `simulate` uses every core unless told otherwise (a pool of processes
#: costs a fraction of a second to start; results are the same either way).
PARALLEL_FROM = 200

#: --report and --charts of `simulate` and `optimize` (deckbuilder.sim.report_files).
REPORT_HELP = ("write a self-contained HTML report with charts to this .html file (no "
               "extra needed)")
CHARTS_HELP = ("write the report's charts as PNG files into this folder (pip install "
               "\"revolver-deckbuilder[plots]\")")

#: The Dask options of `simulate` and `optimize` (deckbuilder.sim.dask_executor).
SCHEDULER_HELP = ("play the games on the Dask cluster at this scheduler address "
                  "(tcp://HOST:8786) or scheduler file; its workers need the same card sets "
                  "and overlay (results do not change)")
# (the help is rich markup: "\\[" shows a bracket that would otherwise be read as a tag)
DASK_HELP = ("play the games on a local Dask cluster of --workers processes "
             "(needs the dask extra: pip install \"revolver-deckbuilder\\[dask]\")")


def simulate(
    deck: Annotated[str, typer.Argument(
        help="a deck file, or a faction name (colty, mcready, esteban, mapache) for its base "
             "deck",
        show_default=False)],
    vs: Annotated[str | None, typer.Option(
        "--vs", help="the opponent's deck file or faction; default: the other base deck")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games to play")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="master seed: same seed, same results")] = 1,
    bot: Annotated[str, typer.Option(
        "--bot", **BOT.option(),
        help="the deck's bot: random, greedy, greedy:judge=playout, search, "
             "search:rollouts=200, search:ms=50")] = "greedy",
    opponent_bot: Annotated[str | None, typer.Option(
        "--opponent-bot", **BOT.option(),
        help="the opponent's bot; default: the same as --bot")] = None,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", help="a deck of the same faction to compare with, on the same seeds")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", min=0,
        help="processes; 0: one per core; default: one per core from "
             f"{PARALLEL_FROM} games, else 1 (results do not change)")] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help=SCHEDULER_HELP, show_default=False)] = None,
    local_dask: Annotated[bool, typer.Option("--dask", help=DASK_HELP)] = False,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", **RULESET.option(),
        help="rule variant id (see `deckbuilder rules`); default: the game's own "
                          "(rulebook-en for revolver, rulebook-es for revolver2)")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch over the ruleset (repeatable; see "
                         "`deckbuilder rules`)")] = None,
    module: Annotated[list[str] | None, typer.Option(
        "--module", help="a module to play with, by id (repeatable; see `deckbuilder rules`), "
                         "e.g. saloon-duel")] = None,
    max_turns: Annotated[int, typer.Option(
        "--max-turns", min=1, help="a game this long is stopped and counted as a draw")] = 200,
    precision: Annotated[float, typer.Option(
        "--precision", min=0.001, max=0.5,
        help="report the games needed for this +- precision of the win rate")] = 0.02,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    allow_illegal: Annotated[bool, typer.Option(
        "--allow-illegal", help="simulate a deck that breaks the deck-building rules (with a "
                                "warning) instead of refusing it")] = False,
    report_path: Annotated[Path | None, typer.Option(
        "--report", help=REPORT_HELP, show_default=False)] = None,
    charts_dir: Annotated[Path | None, typer.Option(
        "--charts", help=CHARTS_HELP, show_default=False)] = None,
) -> None:
    """Play DECK against an opponent over many seeded games; win rates with 95% intervals.

    The results measure the deck and the bots together. The same --seed gives the same
    results for any --workers.
    """
    if workers is None:
        workers = 0 if local_dask else default_workers(games)
    guarded(_simulate)(deck, vs, games, seed, bot, opponent_bot or bot, baseline,
                       workers, ruleset,
                       switch or [], max_turns, precision, as_json, allow_illegal,
                       module or [], scheduler=scheduler, local_dask=local_dask,
                       report_path=report_path, charts_dir=charts_dir)


def default_workers(games: int) -> int:
    """One process per core for a batch worth the start-up of a pool, else this process."""
    return 0 if games >= PARALLEL_FROM else 1


def load_sim_deck(text: str, catalog: Any, allow_illegal: bool = False) -> SimDeck:
    """Read a deck for play: a deck file, or a faction name meaning its base deck.

    A deck the engine cannot play (an unknown card, a card of another game, a record that is
    no deck card) is refused with the validator's first such violation. Any other illegal deck
    is refused too, with the validator's report, unless `allow_illegal` (--allow-illegal):
    then it gets a warning, so that a deck can be play-tested before it is legal.
    """
    from deckbuilder.decks import FACTION_GAMES, load_deck
    from deckbuilder.errors import DeckError, Location
    from deckbuilder.games import games
    from deckbuilder.legality import validate_deck
    from deckbuilder.yamlio import position

    path = Path(text)
    faction = text.strip().lower()
    if not path.exists() and faction in FACTION_GAMES:
        game = FACTION_GAMES[faction]
        cards = catalog.base_deck(game, faction)
        if not cards:
            raise DeckError(f"no base deck for '{faction}': the {game} base set is not installed",
                            fix="install the base set (see `deckbuilder sets`)")
        return SimDeck(f"{faction} base deck", game, faction, cards)
    loaded = load_deck(path, catalog)
    if loaded.game not in games():
        found = position(loaded.document, ["game"]) if loaded.document is not None else None
        raise DeckError(f"the engine does not play {loaded.game}",
                        Location(path, *(found or (None, None))),
                        f"play and simulate decks of {', '.join(games())}")
    report = validate_deck(loaded, catalog)
    refused = [violation for violation in report.violations
               if _is_unplayable(violation, loaded.game, catalog)]
    if refused:
        first = refused[0]
        more = (f" ({len(report.violations)} problems in all: `deckbuilder validate {path}`)"
                if len(report.violations) > 1 else "")
        raise DeckError(f"{first.code}: {first.message}{more}", _entry_location(loaded, first),
                        first.fix or f"see `deckbuilder validate {path}`")
    warnings = []
    if not report.is_legal and not allow_illegal:
        first = report.violations[0]
        more = (f" ({len(report.violations)} problems in all: `deckbuilder validate {path}`)"
                if len(report.violations) > 1 else "")
        raise DeckError(f"not a legal deck: {first.code}: {first.message}{more}",
                        _entry_location(loaded, first),
                        (first.fix or f"see `deckbuilder validate {path}`")
                        + "; or add --allow-illegal to play-test it anyway")
    if not report.is_legal:
        first = report.violations[0]
        where = f" (line {first.line})" if first.line is not None else ""
        warnings.append(
            f"{path} is not a legal deck ({len(report.violations)} problem(s), first: "
            f"{first.code}{where}: {first.message}); simulating it anyway (see "
            f"`deckbuilder validate {path}`)"
        )
    return SimDeck(loaded.name, loaded.game, loaded.faction, loaded.counts(), warnings)


def _entry_location(loaded: Any, violation: Any) -> Any:
    """file:line:col of the deck entry a violation names (file:line when it names none)."""
    from deckbuilder.errors import Location
    from deckbuilder.yamlio import position

    for entry in loaded.entries:
        if entry.line is not None and entry.line == violation.line \
                and loaded.document is not None:
            found = position(loaded.document, ["cards", entry.key])
            if found is not None and found[0] == entry.line:
                return Location(loaded.path, *found)
    return Location(loaded.path, violation.line)


def _is_unplayable(violation: Any, game: str, catalog: Any) -> bool:
    """Whether the violation names a card the engine refuses in a game of `game`."""
    from deckbuilder.legality import Code

    if violation.code == Code.UNKNOWN_CARD:
        return True
    for card in violation.cards:
        entry = catalog.entries.get(card)
        if entry is None or entry.kind != "card" or entry.game != game:
            return True
    return False


def side_error(option: str, wanted: str, game: str, deck: SimDeck) -> Any:
    """The one-line refusal of a deck given for the wrong side (or for another game)."""
    from deckbuilder.errors import DeckError

    if deck.game != game:
        return DeckError(f"{option} got {an(deck.game)} deck ({deck.faction}), but the game "
                         f"is {game}: both decks must be of one game",
                         fix=f"give {an(wanted)} deck for {option}")
    return DeckError(f"{option} must be {an(wanted)} deck, not {deck.faction}",
                     fix=f"give {an(wanted)} deck file, or leave {option} out")


def _simulate(
    deck_text: str, vs: str | None, games: int, seed: int, bot: str, opponent_bot: str,
    baseline_text: str | None, workers: int, ruleset: str | None, switch_texts: list[str],
    max_turns: int, precision: float, as_json: bool, allow_illegal: bool = False,
    modules: Sequence[str] = (), scheduler: str | None = None, local_dask: bool = False,
    report_path: Path | None = None, charts_dir: Path | None = None,
) -> None:
    from deckbuilder.commands.card_detail import deck_data_notes
    from deckbuilder.errors import DeckError
    from deckbuilder.games import dead_card_warnings, get_game
    from deckbuilder.sim import Contestant, build_report, print_report, simulate
    from deckbuilder.sim.executors import open_executor
    from deckbuilder.sim.report_files import check_outputs, write_outputs
    from deckbuilder.sim.runner import prime_catalog

    check_outputs(report_path, charts_dir)  # before the games: no waiting for an error
    catalog = load_catalog_for_cli()
    prime_catalog(catalog)
    deck = load_sim_deck(deck_text, catalog, allow_illegal)
    game = get_game(deck.game)
    players = game.side_names
    if deck.faction not in players:
        raise DeckError(f"'{deck.faction}' is not a side of {deck.game}: nothing to play",
                        fix=f"simulate a deck of {' or '.join(players)}")
    side = players.index(deck.faction)
    opponent = load_sim_deck(vs or players[1 - side], catalog, allow_illegal)
    if opponent.faction != players[1 - side]:
        raise side_error("--vs", players[1 - side], deck.game, opponent)
    baseline = None
    if baseline_text is not None:
        baseline = load_sim_deck(baseline_text, catalog, allow_illegal)
        if baseline.faction != deck.faction:
            raise side_error("--baseline", deck.faction, deck.game, baseline)
    ruleset = ruleset or game.default_ruleset
    switches = parse_switches(switch_texts, catalog, deck.game)
    warnings = [w for d in (deck, opponent, baseline) if d is not None for w in d.warnings]
    seated = [deck.cards, opponent.cards] if side == 0 else [opponent.cards, deck.cards]
    warnings += dead_card_warnings(seated, catalog, deck.game, modules)
    notes = deck_data_notes(deck.cards, catalog)  # H6: overlay in use, unconfirmed values
    for warning in warnings:
        error_console.print(f"warning: {safe(warning)}", markup=False)

    arguments: dict[str, Any] = {
        "side": side, "games": games, "seed": seed, "ruleset": ruleset, "game": deck.game,
        "max_turns": max_turns, "workers": workers,
        "baseline": None if baseline is None else Contestant(baseline.name, baseline.cards, bot),
        "switches": switches, "modules": tuple(modules),
    }
    total = games * (2 if baseline is not None else 1)
    show_progress = error_console.is_terminal  # on stderr: stdout may be piped, or JSON
    with open_executor(workers, scheduler, local_dask) as executor:
        run = _with_progress(
            simulate, show_progress, total,
            Contestant(deck.name, deck.cards, bot),
            Contestant(opponent.name, opponent.cards, opponent_bot),
            executor=executor, **arguments,
        )
    names = {entry.id: entry.name for entry in catalog.cards()}
    report = build_report(run, players, names, precision)
    report["title"] = game.title
    report["switches"] = switches
    report["modules"] = sorted(modules)
    report["terminations"] = [str(termination) for termination in game.terminations]
    report["warnings"] = warnings
    report["notes"] = notes
    for path in write_outputs("simulate", report, report_path, charts_dir):
        error_console.print(f"wrote {safe(path)}", markup=False, highlight=False)
    if as_json:
        print_json(report)
    else:
        print_report(plain_console, _shown(report))
        for note in notes:
            plain_console.print(f"note: {safe(note)}", markup=False)


def _with_progress(run: Any, show: bool, total: int, *args: Any, **kwargs: Any) -> Any:
    if not show:
        return run(*args, **kwargs)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=error_console,
                  transient=True) as progress:
        task = progress.add_task("playing", total=total)
        return run(*args, on_result=lambda _result: progress.advance(task), **kwargs)


def _shown(data: Any) -> Any:
    """The report with every string escaped for the terminal (deck and card names come from
    files); it is printed on a console that reads no markup."""
    if isinstance(data, str):
        return safe(data)
    if isinstance(data, dict):
        return {key: _shown(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_shown(item) for item in data]
    return data


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)

"""`deckbuilder optimize`: which legal swaps make my deck better (deckbuilder.sim.optimize)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.app.card_search import resolve_set
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.play_decks import load_side_deck, load_sim_deck
from deckbuilder.app.switches import module_titles, parse_switches, read_modules
from deckbuilder.commands.common import (
    console,
    error_console,
    guarded,
    print_json,
    safe,
)
from deckbuilder.commands.simulate import (
    CHARTS_HELP,
    DASK_HELP,
    MODULE_HELP,
    REPORT_HELP,
    SCHEDULER_HELP,
)
from deckbuilder.decks import deck_source_file, load_collection, load_deck, new_deck, swap_cards
from deckbuilder.errors import DeckError
from deckbuilder.games import get_game
from deckbuilder.models import Deck
from deckbuilder.sim.executors import open_executor
from deckbuilder.sim.optimize import OptimizeSettings, report_json
from deckbuilder.sim.optimize import optimize as search_decks
from deckbuilder.sim.report import modules_text, switches_text
from deckbuilder.sim.report_files import check_outputs, write_outputs
from deckbuilder.sim.runner import prime_catalog
from deckbuilder.user_schemas import deck_header
from deckbuilder.writing import atomic_write_text, refuse_overwrite


def optimize(
    deck: Annotated[str, typer.Argument(
        help="a deck file, or a faction name for its base deck", show_default=False)],
    vs: Annotated[str | None, typer.Option(
        "--vs", help="the opponent's deck file or faction; default: the other base deck")] = None,
    sets: Annotated[list[str] | None, typer.Option(
        "--sets", help="only put in cards of these sets (repeatable; default: the deck's "
                       "`sets:`, else every installed set)")] = None,
    collection: Annotated[Path | None, typer.Option(
        "--collection", help="a collection file: put in only what it owns")] = None,
    out_cards: Annotated[list[str] | None, typer.Option(
        "--out", help="only consider taking out this card (repeatable, or a comma-separated "
                      "list)")] = None,
    in_cards: Annotated[list[str] | None, typer.Option(
        "--in", help="only consider putting in this card (repeatable, or a comma-separated "
                     "list)")] = None,
    bot: Annotated[str, typer.Option("--bot", help="the deck's bot")] = "greedy",
    opponent_bot: Annotated[str | None, typer.Option(
        "--opponent-bot", help="the opponent's bot; default: the same as --bot")] = None,
    budget: Annotated[int, typer.Option(
        "--budget", min=20, help="games to play in all (the search and the confirmation)")] = 4000,
    seed: Annotated[int, typer.Option("--seed", help="same seed, same results")] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, help="processes; 0: one per core (results do not "
                                       "change)")] = 0,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help=SCHEDULER_HELP, show_default=False)] = None,
    local_dask: Annotated[bool, typer.Option("--dask", help=DASK_HELP)] = False,
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="rule variant id")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch (repeatable)")] = None,
    module: Annotated[list[str] | None, typer.Option(
        "--module", help=MODULE_HELP)] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1)] = 200,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="write the best deck found here (comments say what changed "
                               "and why)")] = None,
    force: Annotated[bool, typer.Option("--force", help="let -o replace a file")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    report_path: Annotated[Path | None, typer.Option(
        "--report", help=REPORT_HELP, show_default=False)] = None,
    charts_dir: Annotated[Path | None, typer.Option(
        "--charts", help=CHARTS_HELP, show_default=False)] = None,
) -> None:
    """Search the legal decks near DECK for better ones, by paired games on common seeds.

    Single swaps first, then combinations of the good ones; clearly worse candidates are
    dropped early and the finalists are confirmed on fresh seeds, so picking the best of many
    does not inflate the difference reported. Never an illegal deck.
    """
    guarded(_optimize)(deck, vs, sets, collection, _listed(out_cards), _listed(in_cards), bot,
                       opponent_bot or bot, budget, seed, workers, ruleset, switch or [],
                       module or [], max_turns, output, force, as_json,
                       scheduler=scheduler, local_dask=local_dask,
                       report_path=report_path, charts_dir=charts_dir)


def _listed(values: list[str] | None) -> list[str]:
    """Repeated options and comma-separated lists alike (`--in a,b --in c`)."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _known_set(catalog: Any, set_id: str) -> str:
    """The id of a set given by id or name; an unknown one refused as `cards --set` does."""
    known = resolve_set(catalog, set_id)
    assert known is not None  # None only for no set asked
    return known


def _optimize(deck_text: str, vs: str | None, sets: list[str] | None,
              collection_path: Path | None, out_cards: list[str], in_cards: list[str],
              bot: str, opponent_bot: str, budget: int, seed: int, workers: int,
              ruleset: str | None, switch_texts: list[str], modules: Sequence[str],
              max_turns: int, output: Path | None, force: bool, as_json: bool,
              scheduler: str | None = None, local_dask: bool = False,
              report_path: Path | None = None, charts_dir: Path | None = None) -> None:
    check_outputs(report_path, charts_dir)  # before the search: no waiting for an error
    if output is not None:
        refuse_overwrite(output, force)  # before the search, not after it
    catalog = project_catalog()
    prime_catalog(catalog)
    played = load_sim_deck(deck_text, catalog)
    game = get_game(played.game)
    side = game.side_names.index(played.faction)
    opponent = load_side_deck(vs or game.side_names[1 - side], game.side_names[1 - side],
                              played.game, "--vs", catalog)
    template = _template(deck_text, played, catalog)
    owned = load_collection(collection_path, catalog) if collection_path is not None else None
    for card in [*out_cards, *in_cards]:
        if catalog.find(card, played.game) is None:
            raise DeckError(f"unknown card '{card}'", fix="see `deckbuilder cards`")
    if sets is not None:  # an unknown set would leave no card to put in, silently
        sets = [_known_set(catalog, set_id) for set_id in sets]
    settings = OptimizeSettings(
        side=side, opponent=opponent.cards, bot=bot, opponent_bot=opponent_bot,
        budget=budget, seed=seed, game=played.game,
        ruleset=ruleset or game.default_ruleset,
        switches=parse_switches(switch_texts, catalog, played.game),
        modules=read_modules(modules, catalog, played.game), max_turns=max_turns)
    show = sys.stderr.isatty() and not as_json
    with open_executor(workers, scheduler, local_dask) as executor:
        result = search_decks(
            template, catalog, settings, sets=sets, collection=owned,
            only_out=[_id(catalog, c, played.game) for c in out_cards],
            only_in=[_id(catalog, c, played.game) for c in in_cards],
            executor=executor, progress=_progress(catalog) if show else None)
    written = output is not None and result.improved
    if written and output is not None:
        _write_best(deck_text, output, result, catalog, played.faction)
    data = {**report_json(result, catalog), "deck": played.name, "opponent": opponent.name,
            "ruleset": settings.ruleset, "switches": settings.switches,
            "modules": list(settings.modules),
            "module_names": module_titles(catalog, played.game, settings.modules),
            "max_turns": settings.max_turns, "output": str(output) if written else None}
    for path in write_outputs("optimize", data, report_path, charts_dir):
        error_console.print(f"wrote {safe(path)}", markup=False, highlight=False)
    if as_json:
        print_json(data)
        return
    _print(result, catalog, played.name, output, data)


def _id(catalog: Any, card: str, game: str) -> str:
    entry = catalog.find(card, game)
    return entry.id if entry is not None else card


def _template(deck_text: str, played: Any, catalog: Any) -> Any:
    path = Path(deck_text)
    if path.exists():
        return load_deck(path, catalog).deck
    return Deck(name=played.name, game=played.game, faction=played.faction,
                cards=dict(played.cards))


def _progress(catalog: Any) -> Any:
    def show(done: Any) -> None:
        best = ""
        if done.best is not None and done.best_difference is not None:
            interval = done.best_difference
            swaps = "; ".join(s.text(catalog) for s in done.best.swaps)
            best = (f", best so far: {swaps} {interval.estimate * 100:+.1f} points "
                    f"[{interval.low * 100:+.1f}, {interval.high * 100:+.1f}]")
        error_console.print(f"{done.stage}: {done.alive} candidates alive, {done.games} games"
                            f"{best}", markup=False, highlight=False)

    return show


def _points(value: float) -> str:
    return f"{value * 100:+.1f}"


def _print(result: Any, catalog: Any, name: str, output: Path | None,
           data: dict[str, Any]) -> None:
    settings = result.settings
    console.print(f"optimize {name}: {len(result.candidates)} legal candidates, "
                  f"{result.games} games (budget {settings.budget}), seed {settings.seed}",
                  markup=False, highlight=False)
    console.print(f"against {data['opponent']}; bots {settings.bot} against "
                  f"{settings.opponent_bot}; ruleset {settings.ruleset}; rule switches: "
                  f"{switches_text(data)}; modules: {modules_text(data)}; at most "
                  f"{settings.max_turns} turns a game", markup=False, highlight=False)
    if not result.finalists:
        console.print("no legal swap found near this deck (try --sets or a collection)",
                      markup=False)
        return
    console.print("best decks found: the difference in win rate against the deck, 95% "
                  "interval, measured on fresh seeds after the search chose them (the games "
                  "that chose them are not counted, so the best of many is not flattered):",
                  markup=False)
    for rank, candidate in enumerate(result.finalists, start=1):
        interval = result.difference(candidate)
        swaps = "; ".join(swap.text(catalog) for swap in candidate.swaps)
        verdict = ("better" if interval.low > 0 else "worse" if interval.high < 0
                   else "not told apart")
        console.print(f"  {rank}. {swaps}: {_points(interval.estimate)} points "
                      f"[{_points(interval.low)}, {_points(interval.high)}] over "
                      f"{len(candidate.confirmed)} paired games ({verdict})",
                      markup=False, highlight=False)
    if not result.improved:
        console.print("verdict: keep the deck: no swap found did better than it on the fresh "
                      "seeds (a larger --budget tells smaller differences apart)"
                      + ("; nothing written" if output is not None else ""), markup=False,
                      highlight=False)
    elif output is not None:
        console.print(f"wrote the best deck to {output}", markup=False, highlight=False)


def _write_best(deck_text: str, output: Path, result: Any, catalog: Any, faction: str) -> None:
    """The deck file with the best swaps applied (comments kept) and a header saying why."""
    best = result.finalists[0]
    # The deck's own text (a file here, or a packaged deck by name): a base deck rebuilt in its
    # place would carry the swaps onto the wrong cards.
    found = deck_source_file(deck_text)
    source = found if found is not None else Path(deck_text)
    if found is not None:
        atomic_write_text(output, found.read_text(encoding="utf-8"))
    else:
        new_deck(catalog, faction, output, force=True)
    for swap in best.swaps:
        swap_cards(output, catalog, swap.out, swap.into, swap.count)
    interval = result.difference(best)
    settings = result.settings
    header = [
        "# Written by `deckbuilder optimize`: the best deck it found near "
        f"{source.name if source.exists() else faction + ' base deck'}.",
        *(f"#   swapped: {swap.text(catalog)}" for swap in best.swaps),
        f"#   win rate {_points(interval.estimate)} points [{_points(interval.low)}, "
        f"{_points(interval.high)}] (95%) against the deck, over {len(best.confirmed)} "
        "paired games on fresh seeds",
        f"#   bots {settings.bot} vs {settings.opponent_bot}, seed {settings.seed}, "
        f"budget {settings.budget}; results measure the deck and the bots together",
    ]
    lines = output.read_text(encoding="utf-8").splitlines(keepends=True)
    if lines and lines[0].startswith("# yaml-language-server"):
        del lines[0]  # the source's line may not resolve where the output lies
    modeline = deck_header(output, catalog)  # one that resolves there, or "" (none)
    top = [modeline + "\n"] if modeline else []
    lines[:0] = [*top, *(line + "\n" for line in header)]
    atomic_write_text(output, "".join(lines))


def register(app: typer.Typer) -> None:
    app.command("optimize")(optimize)

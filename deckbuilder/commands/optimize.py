"""`deckbuilder optimize`: which legal swaps make my deck better
(deckbuilder.sim.optimiser.optimize)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.app.bot_checks import check_optimized
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.optimizing import plan_search, run_search
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.switches import module_titles
from deckbuilder.catalog import Catalog
from deckbuilder.commands import completion
from deckbuilder.commands import game_options as option
from deckbuilder.commands.choices import BOT, SET
from deckbuilder.commands.common import (
    AsJson,
    guarded,
    print_json,
    say,
    tell,
)
from deckbuilder.decks import new_deck, read_deck, swap_cards
from deckbuilder.sim.optimiser.optimize import OptimizeResult
from deckbuilder.sim.optimiser.racing import Round
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.optimize_json import OptimizeReport, json_of
from deckbuilder.sim.reports.optimize_report import (
    ReplayContext,
    advice,
    explanation_lines,
    report_json,
    swaps_text,
)
from deckbuilder.sim.reports.report import modules_text, switches_text
from deckbuilder.sim.reports.report_files import check_outputs, write_outputs
from deckbuilder.sim.reports.sensitivity import points_interval
from deckbuilder.sim.runs.runner import Executor
from deckbuilder.user_schemas import deck_header
from deckbuilder.writing import atomic_write_text, refuse_overwrite


@option.with_running
def optimize(
    deck: Annotated[str, typer.Argument(
        help="a deck file, or a faction name for its base deck", show_default=False,
        autocompletion=completion.complete_deck)],
    vs: Annotated[list[str] | None, typer.Option(
        "--vs", help="an opponent: a deck file, packaged deck, faction or folder, with "
                     "@WEIGHT if it counts more (repeatable: the deck is improved against "
                     "the weighted field); default: the other base deck",
        autocompletion=completion.complete_opponent)] = None,
    sets: Annotated[list[str] | None, typer.Option(
        "--sets", help="only put in cards of these sets (repeatable; default: the deck's "
                       "`sets:`, else every installed set)",
        autocompletion=SET.complete)] = None,
    collection: option.CollectionFile = None,
    boxes: option.Boxes = None,
    out_cards: Annotated[list[str] | None, typer.Option(
        "--out", help="only consider taking out this card (repeatable, or a comma-separated "
                      "list)", autocompletion=completion.complete_card_list)] = None,
    in_cards: Annotated[list[str] | None, typer.Option(
        "--in", help="only consider putting in this card (repeatable, or a comma-separated "
                     "list)", autocompletion=completion.complete_card_list)] = None,
    bot: Annotated[str, typer.Option(
        "--bot", help="the deck's bot", autocompletion=BOT.complete)] = "greedy",
    opponent_bot: Annotated[str | None, typer.Option(
        "--opponent-bot", help="the opponent's bot; default: the same as --bot",
        autocompletion=BOT.complete)] = None,
    budget: Annotated[int, typer.Option(
        "--budget", min=20, help="games to play in all (the search and the confirmation)")] = 4000,
    seed: Annotated[int, typer.Option("--seed", help="same seed, same results")] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, help="processes; 0: one per core (results do not "
                                       "change)")] = 0,
    *,
    running: option.Running,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="write the best deck found here, only when it is confirmed "
                               "better on fresh seeds (comments say what changed and why)")
    ] = None,
    write_guess: Annotated[bool, typer.Option(
        "--write-guess", help="let -o write the best deck found even when it is not "
                              "confirmed better (its header says it is a guess)")] = False,
    force: Annotated[bool, typer.Option("--force", help="let -o replace a file")] = False,
    as_json: AsJson = False,
    report_path: option.ReportPath = None,
    charts_dir: option.ChartsDir = None,
    check_bot: option.CheckBot = None,
) -> None:
    """Search the legal decks near DECK for better ones, by paired games on common seeds.

    Single swaps first, then combinations of the good ones; clearly worse candidates are
    dropped early and the finalists are confirmed on fresh seeds, so picking the best of many
    does not inflate the difference reported. Never an illegal deck, nor one beyond the
    supply: one copy of each product unless --boxes N, --collection FILE or --switch
    card-copies=any-number says otherwise.
    """
    options = running.play(budget, seed, bot, opponent_bot or bot, False, boxes, collection)
    guarded(_optimize)(deck, vs or [], options, sets, _listed(out_cards), _listed(in_cards),
                       workers, output, force, as_json, running=running, report_path=report_path,
                       charts_dir=charts_dir, write_guess=write_guess, check_bot=check_bot)


def _listed(values: list[str] | None) -> list[str]:
    """Repeated options and comma-separated lists alike (`--in a,b --in c`)."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _optimize(deck_text: str, vs: list[str], options: PlayOptions, sets: list[str] | None,
              out_cards: list[str], in_cards: list[str], workers: int,
              output: Path | None, force: bool, as_json: bool,
              running: option.Running,
              report_path: Path | None = None, charts_dir: Path | None = None,
              write_guess: bool = False, check_bot: str | None = None) -> None:
    check_outputs(report_path, charts_dir)  # before the search: no waiting for an error
    if output is not None:
        refuse_overwrite(output, force)  # before the search, not after it
    catalog = project_catalog()
    plan = plan_search(catalog, deck_text, vs or None, options, sets=sets,
                       only=(out_cards, in_cards))
    played, field, settings = plan.field.deck, plan.field.opponents, plan.settings
    show = sys.stderr.isatty() and not as_json
    with running.executor(workers) as executor:
        result = run_search(plan, executor, _progress(catalog) if show else None)
        checks = _checks(result, catalog, check_bot, executor,  # never on Dask
                         running.own_workers(workers))
    written = output is not None and result.best is not None and (
        result.improved or write_guess)
    if written and output is not None:
        _write_best(deck_text, output, result, catalog, played.faction)
    replay = ReplayContext(deck_text, [e.source for e in field.entries])
    opponent_name = (field.entries[0].label if len(field.entries) == 1
                     else f"a field of {len(field.entries)} decks")
    data = OptimizeReport(
        **vars(report_json(result, catalog, replay)), deck=played.name,
        opponent=opponent_name, field_notes=[*field.notes, *checks.pop("notes")],
        ruleset=settings.ruleset, switches=settings.switches or {},
        modules=list(settings.modules),
        module_names=module_titles(catalog, played.game, settings.modules),
        max_turns=settings.max_turns, output=str(output) if written else None,
        output_is_a_guess=bool(written and not result.improved),
        gain_rests_on=checks["gain_rests_on"], bot_check=checks["bot_check"])
    for path in write_outputs("optimize", data, report_path, charts_dir):
        tell(f"wrote {path}")
    if as_json:
        print_json(json_of(data))
        return
    _print(result, catalog, played.name, output, data)


def _checks(result: OptimizeResult, catalog: Catalog, check_bot: str | None,
            executor: Executor, workers: int) -> dict[str, Any]:
    """`check_optimized` (what the best swap rests on, whether it holds), its cost said on
    stderr (the report says what it found: no figure of the machine's)."""
    started = time.perf_counter()
    checks = check_optimized(result, catalog, check_bot, executor, workers)
    games = sum(part["games"] for part in (checks["bot_check"], checks["gain_rests_on"]) if part)
    if games:
        tell(f"checks of the best swap: {games} more games took "
             f"{time.perf_counter() - started:.1f} s")
    return checks


def _progress(catalog: Catalog) -> Callable[[Round], None]:
    def show(done: Round) -> None:
        best = ""
        if done.best is not None and done.best_difference is not None:
            best = (f", best so far: {swaps_text(done.best, catalog)} "
                    f"{points_interval(done.best_difference.as_dict())}")
        tell(f"{done.stage}: {done.alive} candidates alive, {done.games} games{best}")

    return show


def _print(result: OptimizeResult, catalog: Catalog, name: str, output: Path | None,
           data: OptimizeReport) -> None:
    settings = result.settings
    say(f"optimize {name}: {len(result.candidates)} legal candidates, {result.games} games "
        f"(budget {settings.budget}), seed {settings.seed}")
    field = data.opponents
    against = data.opponent if len(field) < 2 else "the field " + ", ".join(
        f"{o.name} ({o.weight * 100:.0f}%)" for o in field)
    say(f"against {against}; bots {settings.bot} against {settings.opponent_bot}; ruleset "
        f"{settings.ruleset}; rule switches: {switches_text(data.switches)}; modules: "
        f"{modules_text(data.modules, data.module_names)}; at most {settings.max_turns} turns "
        "a game")
    say(f"decks {result.supply}")
    for note in data.field_notes:
        say(f"note: {note}")
    for card in data.left_out:
        say(f"left out: every swap bringing in {card.name}, which can do nothing in this "
            f"set-up ({card.why})")
    if not result.finalists:
        say("no legal swap found near this deck (try --sets or a collection)")
        return
    say("best decks found: the difference in win rate against the deck, 95% interval, "
        "measured on fresh seeds after the search chose them (the games that chose them are "
        "not counted, so the best of many is not flattered):")
    for rank, candidate in enumerate(result.finalists, start=1):
        interval = result.difference(candidate)
        verdict = ("better" if interval.low > 0 else "worse" if interval.high < 0
                   else "not told apart")
        say(f"  {rank}. {swaps_text(candidate, catalog)}: {points_interval(interval.as_dict())} "
            f"over {len(candidate.confirmed)} paired units ({verdict})")
    say(f"what the budget bought: {advice(result)}")
    for line in verdict_lines(vars(data)):
        say(line)
    explanation = data.explanation  # there is one when there is a best deck
    if explanation and result.best is not None:
        say(f"why {swaps_text(result.best, catalog)} (the confirmation games):")
        for line in explanation_lines(explanation):
            say(f"  {line}")
        say(f"  ({explanation.replay_note})")
    if output is None:
        return
    if data.output is None:
        say(f"nothing written to {output}: no swap is confirmed better (--write-guess "
            "writes the best guess anyway)")
    elif data.output_is_a_guess:
        say(f"wrote the best guess to {output} (not confirmed better: its header says so)")
    else:
        say(f"wrote the best deck to {output}")


def _write_best(deck_text: str, output: Path, result: OptimizeResult, catalog: Catalog,
                faction: str) -> None:
    """The deck file with the best swaps applied (comments kept) and a header saying why."""
    best = result.finalists[0]
    # The deck's own text (a file here, or a packaged deck by name): a base deck rebuilt in its
    # place would carry the swaps onto the wrong cards.
    found = read_deck(deck_text, catalog).loaded.path  # None: a faction's base deck
    source = found if found is not None else Path(deck_text)
    if found is not None:
        atomic_write_text(output, found.read_text(encoding="utf-8"))
    else:
        new_deck(catalog, faction, output, force=True)
    for swap in best.swaps:
        swap_cards(output, catalog, swap.out, swap.into, swap.count)
    settings = result.settings
    guess = [] if result.improved else [
        "#   A GUESS (--write-guess): not told apart from the deck on the fresh seeds"]
    header = [
        "# Written by `deckbuilder optimize`: the best deck it found near "
        f"{source.name if source.exists() else faction + ' base deck'}.",
        *(f"#   swapped: {swap.text(catalog)}" for swap in best.swaps),
        f"#   win rate {points_interval(result.difference(best).as_dict())} (95%) against the "
        f"deck, over {len(best.confirmed)} paired units on fresh seeds",
        f"#   bots {settings.bot} vs {settings.opponent_bot}, seed {settings.seed}, "
        f"budget {settings.budget}; results measure the deck and the bots together",
        *guess,
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

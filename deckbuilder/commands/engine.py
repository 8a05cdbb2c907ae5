"""`deckbuilder play`, `replay` and `scenario`: watch one game, check a record, ask the rules."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated

import typer
from pydantic import JsonValue

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.data_notes import record_data_note
from deckbuilder.app.endings import outcome_sentence
from deckbuilder.app.play_decks import sides_of_decks
from deckbuilder.app.records import check_deal
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.spellings import side_ids
from deckbuilder.app.switches import describe_rules, parse_switches
from deckbuilder.app.table_words import named_position_lines
from deckbuilder.catalog import Catalog
from deckbuilder.commands import completion, play_setup
from deckbuilder.commands.choices import BOT_LIST, BOTS, GAME, RULESET, SIDE
from deckbuilder.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    AsJson,
    each_file,
    error_console,
    fail,
    guarded,
    print_json,
    safe,
)
from deckbuilder.commands.game_options import MaxTurns, Modules, Ruleset, Switches
from deckbuilder.commands.human_play import play_human
from deckbuilder.commands.play_setup import aligned_decks, choose_decks, split_bots
from deckbuilder.commands.play_setup import say as _say
from deckbuilder.commands.play_setup import say_worded as _say_worded
from deckbuilder.commands.play_setup import side_deck as _deck
from deckbuilder.declared import BY_ID, DECLARATIONS
from deckbuilder.engine.position import render, snapshot
from deckbuilder.errors import DeckbuilderError
from deckbuilder.games import get_game
from deckbuilder.scenarios.model import load_scenario
from deckbuilder.scenarios.run import run_scenario
from deckbuilder.sim.records.session import play_game, replay_record
from deckbuilder.sim.records.transcript import (
    TextNarrator,
    read_record,
    record_line,
)
from deckbuilder.sim.reports.sensitivity import data_in_force
from deckbuilder.writing import atomic_write_text, refuse_overwrite


def _with_deck_options(command: Callable[..., None]) -> Callable[..., None]:
    """`command` with its `**decks` read by typer (from `inspect.signature`, which honours
    `__signature__`) as one `--<side>` deck option per side of every declared game, after its
    first parameter; each is named for its side, as completion reads it."""
    signature = inspect.signature(command, eval_str=True)
    *named, _ = signature.parameters.values()  # the last: **decks
    options = [inspect.Parameter(
        side.id, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
        annotation=Annotated[str | None, typer.Option(
            f"--{side.id}", metavar="DECK", show_default=False,
            autocompletion=completion.deck_of_side(side.id),
            help=f"{side.title}'s deck ({declaration.title}): a deck file, or {side.id} for "
                 "its base deck (the default)")])
        for declaration in DECLARATIONS for side in declaration.sides]
    command.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[named[0], *options, *named[1:]])
    return command


@_with_deck_options
def play(
    deck_files: Annotated[list[str] | None, typer.Argument(
        metavar="[DECK]...", show_default=False,
        help="one deck or two, each played by the side its faction names (a deck file, a "
             "faction for its base deck, or a packaged deck): `play my-deck.yaml`",
        autocompletion=completion.complete_deck)] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help=f"{play_setup.either(list(BY_ID))}, when no deck is given (default: "
                       f"{play_setup.DEFAULT_GAME})",
        show_default=False, **GAME.option())] = None,
    bots: Annotated[str, typer.Option(
        "--bots", **BOTS.option(),
        help=f"PLAYER0_BOT,PLAYER1_BOT, {play_setup.FIRST_SIDES} first (or one bot for both): "
             f"{BOT_LIST}")] = "greedy,greedy",
    seed: Annotated[int, typer.Option("--seed", help="the game's seed (same seed, same game)")] = 1,
    ruleset: Ruleset = None,
    switch: Switches = None,
    module: Modules = None,
    max_turns: MaxTurns = 200,
    record: Annotated[Path | None, typer.Option(
        "--record", help="write the game as JSON lines to this file")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="let --record replace an existing file")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="print only the result, not the turn-by-turn account")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the record as JSON")] = False,
    allow_illegal: Annotated[bool, typer.Option(
        "--allow-illegal", help="play a deck that breaks the deck-building rules (with a "
                                "warning) instead of refusing it")] = False,
    swap: Annotated[list[str] | None, typer.Option(
        "--swap", help="OUT=IN[:COUNT]: play the deck holding OUT with COUNT copies of it "
                       "swapped for IN, laid out along the deck as given (as `optimize` pairs "
                       "its games: its listed games replay so); repeatable",
        autocompletion=completion.complete_swap)] = None,
    aligned_with: Annotated[str | None, typer.Option(
        "--aligned-with", help="a deck: lay the deck of its side out along it before the "
                               "shuffle (as `optimize` lays a changed deck along yours)",
        show_default=False, autocompletion=completion.complete_deck)] = None,
    human: Annotated[list[str] | None, typer.Option(
        "--human", **SIDE.option(),
        help=f"take this side yourself ({play_setup.either(side_ids())}) against the other side's "
             "--bots bot: the position, numbered actions, a prompt. Twice (--human "
             f"{' --human '.join(DECLARATIONS[0].side_ids)}): two people at one screen, "
             "which asks to pass the device between their turns")] = None,
    **decks: str | None,
) -> None:
    """Play one seeded game between two bots (or you and a bot) and print it turn by turn.

    With --human SIDE you play that side: the position as you see it (not the opponent's
    hand), the legal actions numbered, and a prompt (a number; ? shows the position again; q
    quits); --human for both sides: two people at one screen. --record keeps the game for
    `deckbuilder replay`.
    """
    if deck_files:
        decks = guarded(sides_of_decks)(deck_files, decks, project_catalog())
    if human and (swap or aligned_with is not None):
        raise fail("--swap and --aligned-with replay a bots' game of `optimize`; leave them "
                   "out with --human")
    if human:
        code = guarded(play_human)(decks, game, human, bots, seed, ruleset, switch or [],
                                    max_turns, record, quiet, as_json, allow_illegal,
                                    module or [], force)
        raise typer.Exit(code)
    guarded(_play)(decks, game, bots, seed, ruleset, switch or [], max_turns, record, quiet,
                   as_json, allow_illegal, module or [], force, swap or [], aligned_with)


def _play(given: Mapping[str, str | None], game_name: str | None, bots: str, seed: int,
          ruleset: str | None, switch_texts: list[str], max_turns: int,
          record_path: Path | None, quiet: bool, as_json: bool,
          allow_illegal: bool = False, modules: Sequence[str] = (), force: bool = False,
          swaps: Sequence[str] = (), aligned_with: str | None = None) -> None:
    if record_path is not None:
        if swaps or aligned_with is not None:
            raise DeckbuilderError("--record keeps no deck order, so a game with --swap or "
                                   "--aligned-with would not replay from its record",
                                   fix="leave --record out (the same command plays the "
                                       "game again)")
        refuse_overwrite(record_path, force)  # before the game, not after it

    catalog = project_catalog()
    name, texts = choose_decks(given, game_name)
    game = get_game(name)
    rules = PlayOptions(ruleset=ruleset, switches=switch_texts, modules=modules,
                        max_turns=max_turns).settings(catalog, name)
    decks, orders = aligned_decks(
        [_deck(texts[side], side, name, catalog, allow_illegal) for side in game.side_names],
        name, catalog, swaps, aligned_with, allow_illegal)
    bot_specs = split_bots(bots)
    show = not (quiet or as_json)
    heading = (f"{game.title}, seed {seed}, ruleset "
               f"{describe_rules(rules.ruleset, rules.switches)}: "
               + " against ".join(f"{side} ({deck_name}, bot {bot})" for side, (deck_name, _),
                                  bot in zip(game.side_names, decks, bot_specs, strict=True)))
    narrate = TextNarrator(_say_worded, heading=heading) if show else None
    state, record = play_game([deck_cards for _, deck_cards in decks], seed, bot_specs,
                              rules.ruleset, catalog, game=name, max_turns=rules.max_turns,
                              narrate=narrate, switches=rules.switches, modules=rules.modules,
                              orders=orders)
    if record_path is not None:
        atomic_write_text(record_path, record.to_jsonl())
    if as_json:
        print_json({**record.header(),
                    "steps": [{"i": s.index, "player": s.player, "action": s.action,
                               "text": s.text} for s in record.steps],
                    "outcome": {"winner": record.winner, "termination": record.termination},
                    "turns": record.turns, "record_file": str(record_path or "") or None})
        return
    if show:
        _say("final position:")
        for line in named_position_lines(state):
            _say(f"  {line}")
    _say(f"result: {outcome_sentence(record.winner, record.termination, record.turns)}, "
         f"{len(record.steps)} actions"
         + (f"; recorded to {record_path}" if record_path is not None else ""))


def replay(
    file: Annotated[Path, typer.Argument(help="a record written by `play --record`",
                                         show_default=False)],
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="only check the record; do not print the game")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print a summary as JSON: the game, decks, outcome, steps replayed "
                       "and whether the record matches")] = False,
    watch: Annotated[bool, typer.Option(
        "--watch", help="step through the game yourself: the position as either player saw "
                        "it, or everything, and each step's log (Enter/n next, p back, t N "
                        "turn N, v SIDE/all viewer, q quits)")] = False,
    step: Annotated[int | None, typer.Option(
        "--step", help="show the position after the game's first N actions (0: the set-up) "
                       "as --watch does; with --json, as the web replay viewer gives it; "
                       "with --watch, start watching there", show_default=False)] = None,
    viewer: Annotated[str | None, typer.Option(
        "--viewer", help="with --step: whose view, a side's name, 0, 1 or everything "
                         "(default: the only person at the table, else everything)",
        show_default=False, autocompletion=completion.complete_viewer)] = None,
    check_deal: Annotated[bool, typer.Option(
        "--check-deal", help="a friend table's record: check that it was dealt from the seed "
                             "the table committed to and played as recorded (against "
                             "COMMITMENT, the one the table showed; without it, against the "
                             "record's own, to compare with the table's)")] = False,
    commitment: Annotated[str | None, typer.Argument(
        metavar="[COMMITMENT]", show_default=False,
        help="with --check-deal: the seed commitment the table showed (64 hex digits)")] = None,
) -> None:
    """Step through a recorded game again and check the engine still plays it the same way.

    Exit 1 at the first step the engine now plays differently (or a different ending), 2 if
    the file is not a readable record. With --check-deal: exit 0 when the deal checks, 1
    with the reason when not.
    """
    if step is not None and not watch:
        from deckbuilder.commands.replay_watch import show_step

        raise typer.Exit(guarded(show_step)(file, step, viewer, as_json))
    if watch:
        from deckbuilder.commands.replay_watch import watch as watch_game

        raise typer.Exit(guarded(watch_game)(file, as_json, step or 0))
    if check_deal:
        raise typer.Exit(guarded(_check_deal)(file, commitment, as_json))
    if commitment is not None:
        raise fail(f"a second argument ('{commitment[:70]}') is read only with --check-deal "
                   "(the commitment to check the deal against): add --check-deal, or leave "
                   "it out")
    guarded(_replay)(file, quiet or as_json, as_json)


def _check_deal(path: Path, commitment: str | None, as_json: bool) -> int:
    """`replay FILE --check-deal [COMMITMENT]`: one line, exit 0 when the deal checks."""
    record = read_record(path)
    catalog = project_catalog()
    checked = check_deal(record, commitment, catalog)
    if as_json:
        print_json({"record_file": str(path), "deal_checks": checked.holds,
                    "reason": checked.reason, "commitment": checked.commitment,
                    "commitment_given": checked.given})
        return EXIT_OK if checked.holds else EXIT_FAILED
    if not checked.holds:
        note = record_data_note(record.data, catalog)
        if note is not None:
            _say(f"note: {note}")
        error_console.print(f"error: {safe(path)}: {safe(checked.reason)}", markup=False)
        return EXIT_FAILED
    if not checked.given:
        _say(f"note: no COMMITMENT given, so the record's own was used: {checked.commitment}; "
             "compare it with the commitment the table showed you")
    _say(checked.reason)
    return EXIT_OK


def _replay(path: Path, quiet: bool, as_json: bool = False) -> None:
    record = read_record(path)
    game = get_game(record.game)
    catalog = project_catalog()
    heading = None if quiet else (
        f"replaying {path}: {game.title}, seed {record.seed}, ruleset "
        f"{describe_rules(record.ruleset, record.switches)}, bots "
        + ", ".join(f"{who} {bot}" for who, bot in record.bots.items())
        + (f" (recorded with deckbuilder {record.version})" if record.version else ""))
    narrate = None if heading is None else TextNarrator(_say_worded, heading=heading)
    result = replay_record(record, catalog, narrate)
    data_note = record_data_note(record.data, catalog)  # the packs or overlay have changed
    if as_json:
        print_json({  # what the record says, and whether the engine still plays it so
            "record_file": str(path), "game": record.game, "seed": record.seed,
            "ruleset": record.ruleset, "switches": record.switches, "modules": record.modules,
            "max_turns": record.max_turns, "bots": record.bots, "decks": record.decks,
            "recorded_with": record.version or None,
            "outcome": {"winner": record.winner, "termination": record.termination},
            "turns": record.turns,
            "ending": outcome_sentence(record.winner, record.termination, record.turns),
            "steps": len(record.steps), "replayed_steps": result.steps,
            "matches": result.mismatch is None, "mismatch": result.mismatch,
            "mismatch_step": result.step if result.mismatch is not None else None,
            "data": record.data, "data_now": data_in_force(catalog), "data_note": data_note})
    elif data_note is not None:
        _say(f"note: {data_note}")
    if result.mismatch is not None:
        where = record_line(record, result.step or 0)
        raise fail(f"{where or path}: the engine no longer reproduces this game: "
                   f"{result.mismatch}", EXIT_FAILED)
    if not as_json:
        _say(f"replayed {result.steps} actions: the same game "
             f"({outcome_sentence(record.winner, record.termination, record.turns)})")


# -- scenario ---------------------------------------------------------------------------------
@guarded
def scenario(
    files: Annotated[list[Path], typer.Argument(
        help="scenario files (scenario.schema.json)", show_default=False)],
    as_json: AsJson = False,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", **RULESET.option(),
        help="play it under this ruleset instead of the file's")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch over the file's (repeatable)",
        autocompletion=completion.complete_switch)] = None,
    module: Annotated[list[str] | None, typer.Option(
        "--module", help="play it with these modules instead of the file's (repeatable)",
        autocompletion=completion.complete_module)] = None,
) -> None:
    """Set up each scenario's position, play its actions and check what it expects.

    Exit 0 when every expectation holds, 1 when one fails (with its file:line:col), 2 when a
    file cannot be read (the worst over the files).
    """
    catalog = project_catalog()
    started: list[Path] = []

    def run(path: Path) -> tuple[int, dict[str, JsonValue]]:
        if started and not as_json:
            _say("")
        started.append(path)
        data, passed = _scenario(catalog, path, as_json, ruleset, switch or [], module)
        return EXIT_OK if passed else EXIT_FAILED, data

    raise typer.Exit(each_file(files, run, lambda path, error: {
        "scenario": str(path), "passed": None, "error": error.message}, as_json))


def _scenario(catalog: Catalog, path: Path, as_json: bool, ruleset: str | None = None,
              switch_texts: Sequence[str] = (),
              modules: list[str] | None = None) -> tuple[dict[str, JsonValue], bool]:
    """One scenario: its JSON object and whether it passed (the text account is printed,
    and a failed expectation as one line on stderr)."""
    switches = None
    if switch_texts:
        game = load_scenario(path)[0].game
        switches = parse_switches(switch_texts, catalog, game)
    result = run_scenario(path, catalog, ruleset=ruleset, switches=switches, modules=modules)
    data = snapshot(result.state) if result.state is not None else None  # None: refused
    if not as_json:
        _say(f"scenario: {result.scenario.name}")
        for number, line in enumerate(result.scenario.rule.strip().splitlines()):
            _say(f"{'rule: ' if number == 0 else '      '}{line}")
        for step in result.steps:
            _say(f"  {step.index:>3}. {step.player}: {step.text}")
        _say("position:" if data is not None else "position: refused")
        for line in render(data) if data is not None else ():
            _say(f"  {line}")
        if result.checks:
            _say("expectations:")
        for check in result.checks:
            _say(f"  {check.line()}")
    if not result.passed:
        error_console.print(f"error: {safe(result.first_problem() or 'an expectation failed')}",
                            markup=False)
    return {
        "scenario": str(path), "name": result.scenario.name, "rule": result.scenario.rule,
        "passed": result.passed, "failure": result.first_problem(),
        "steps": [{"index": s.index, "player": s.player, "text": s.text}
                  for s in result.steps],
        "checks": [{"name": c.name, "ok": c.ok, "expected": c.expected,
                    "actual": c.actual, "where": c.where} for c in result.checks],
        "position": data,
    }, result.passed


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("scenario")(scenario)

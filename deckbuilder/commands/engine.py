"""`deckbuilder play`, `replay` and `scenario`: watch one game, check a record, ask the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.commands.common import (
    EXIT_FAILED,
    console,
    error_console,
    fail,
    guarded,
    load_catalog_for_cli,
    print_json,
)


def _say(line: str) -> None:
    console.print(line, markup=False)


# -- play -------------------------------------------------------------------------------------
def split_bots(text: str) -> tuple[str, str]:
    """`greedy,search:rollouts=50,horizon=3` -> ("greedy", "search:rollouts=50,horizon=3").

    Commas separate the two bots and also a bot's options; a part that is only `key=value`
    belongs to the bot before it. One bot plays both sides.
    """
    from deckbuilder.bots import BOT_HELP, BotSpecError

    specs: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and specs and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    if len(specs) == 1:
        specs.append(specs[0])
    if len(specs) != 2:
        raise BotSpecError(f"--bots '{text}' names {len(specs)} bots, not one or two",
                           fix=f"give COLTY_BOT,MCREADY_BOT; each one of: {BOT_HELP}")
    return specs[0], specs[1]


def _deck(text: str | None, faction: str, catalog: Any) -> tuple[str, dict[str, int]]:
    from deckbuilder.commands.simulate import load_sim_deck
    from deckbuilder.errors import DeckError

    deck = load_sim_deck(text or faction, catalog)
    if deck.faction != faction:
        raise DeckError(f"--{faction} must be a {faction} deck, not {deck.faction}",
                        fix=f"give a {faction} deck file, or leave --{faction} out")
    for warning in deck.warnings:
        error_console.print(f"warning: {warning}", markup=False)
    return deck.name, deck.cards


def play(
    colty: Annotated[str | None, typer.Option(
        "--colty", help="the gang's deck file (default: the base deck)")] = None,
    mcready: Annotated[str | None, typer.Option(
        "--mcready", help="McReady's deck file (default: the base deck)")] = None,
    bots: Annotated[str, typer.Option(
        "--bots", help="COLTY_BOT,MCREADY_BOT (or one bot for both): random, greedy, "
                       "greedy:judge=playout, search, search:rollouts=200")] = "greedy,greedy",
    seed: Annotated[int, typer.Option("--seed", help="the game's seed (same seed, same game)")] = 1,
    ruleset: Annotated[str, typer.Option("--ruleset", help="rule variant id")] = "rulebook-en",
    max_turns: Annotated[int, typer.Option(
        "--max-turns", min=1, help="stop the game (a draw) after this many turns")] = 200,
    record: Annotated[Path | None, typer.Option(
        "--record", help="write the game as JSON lines to this file")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="print only the result, not the turn-by-turn account")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the record as JSON")] = False,
) -> None:
    """Play one seeded game between two bots and print what happened, turn by turn.

    The account shows what was drawn, played and paid, every attack, who died, the border
    tokens left and the final position. --record keeps the game for `deckbuilder replay`.
    """
    guarded(_play)(colty, mcready, bots, seed, ruleset, max_turns, record, quiet, as_json)


def _play(colty: str | None, mcready: str | None, bots: str, seed: int, ruleset: str,
          max_turns: int, record_path: Path | None, quiet: bool, as_json: bool) -> None:
    from deckbuilder.engine.position import render, snapshot
    from deckbuilder.sim.transcript import TextNarrator, outcome_text, play_game
    from deckbuilder.yamlio import atomic_write_text

    catalog = load_catalog_for_cli()
    colty_name, colty_cards = _deck(colty, "colty", catalog)
    mcready_name, mcready_cards = _deck(mcready, "mcready", catalog)
    bot_specs = split_bots(bots)
    show = not (quiet or as_json)
    if show:
        _say(f"Revolver, seed {seed}, ruleset {ruleset}: colty ({colty_name}, bot "
             f"{bot_specs[0]}) against mcready ({mcready_name}, bot {bot_specs[1]})")
    narrate = TextNarrator(_say) if show else None
    state, record = play_game([colty_cards, mcready_cards], seed, bot_specs, ruleset, catalog,
                              max_turns=max_turns, narrate=narrate)
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
        for line in render(snapshot(state, legal=False)):
            _say(f"  {line}")
    _say(f"result: {outcome_text(record)}, {len(record.steps)} actions"
         + (f"; recorded to {record_path}" if record_path is not None else ""))


# -- replay -----------------------------------------------------------------------------------
def replay(
    file: Annotated[Path, typer.Argument(help="a record written by `play --record`",
                                         show_default=False)],
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="only check the record; do not print the game")] = False,
) -> None:
    """Step through a recorded game again and check the engine still plays it the same way.

    Exit 1 at the first step the engine now plays differently (or a different outcome), 2 if
    the file is not a readable record.
    """
    guarded(_replay)(file, quiet)


def _replay(path: Path, quiet: bool) -> None:
    from deckbuilder.sim.transcript import (
        TextNarrator,
        outcome_text,
        read_record,
        replay_record,
    )

    record = read_record(path)
    catalog = load_catalog_for_cli()
    if not quiet:
        _say(f"replaying {path}: seed {record.seed}, ruleset {record.ruleset}, bots "
             + ", ".join(f"{who} {bot}" for who, bot in record.bots.items())
             + (f" (recorded with deckbuilder {record.version})" if record.version else ""))
    result = replay_record(record, catalog, None if quiet else TextNarrator(_say))
    if result.mismatch is not None:
        line = "" if result.step is None else f":{result.step + 2}"
        raise fail(f"{path}{line}: the engine no longer reproduces this game: "
                   f"{result.mismatch}", EXIT_FAILED)
    _say(f"replayed {result.steps} actions: the same game ({outcome_text(record)})")


# -- scenario ---------------------------------------------------------------------------------
def scenario(
    file: Annotated[Path, typer.Argument(help="a scenario file (scenario.schema.json)",
                                         show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Set up a scenario's position, play its actions and check what it expects.

    Exit 0 when every expectation holds, 1 when one fails (named with its file:line:col),
    2 when the file cannot be read.
    """
    guarded(_scenario)(file, as_json)


def _scenario(path: Path, as_json: bool) -> None:
    from deckbuilder.engine.position import render, snapshot
    from deckbuilder.scenarios.run import run_scenario

    result = run_scenario(path, load_catalog_for_cli())
    data = snapshot(result.state)
    if as_json:
        print_json({
            "scenario": str(path), "name": result.scenario.name, "rule": result.scenario.rule,
            "passed": result.passed, "failure": result.first_problem(),
            "steps": [{"index": s.index, "player": s.player, "text": s.text}
                      for s in result.steps],
            "checks": [{"name": c.name, "ok": c.ok, "expected": c.expected,
                        "actual": c.actual, "where": c.where} for c in result.checks],
            "position": data,
        })
    else:
        _say(f"scenario: {result.scenario.name}")
        _say(f"rule: {result.scenario.rule.strip()}")
        for step in result.steps:
            _say(f"  {step.index:>3}. {step.player}: {step.text}")
        _say("position:")
        for line in render(data):
            _say(f"  {line}")
        if result.checks:
            _say("expectations:")
        for check in result.checks:
            _say(f"  {check.line()}")
    if not result.passed:
        raise fail(result.first_problem() or "an expectation failed", EXIT_FAILED)


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("scenario")(scenario)

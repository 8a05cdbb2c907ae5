"""`deckbuilder play`, `replay` and `scenario`: watch one game, check a record, ask the rules."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.commands.common import (
    EXIT_FAILED,
    console,
    describe_rules,
    error_console,
    fail,
    guarded,
    load_catalog_for_cli,
    parse_switches,
    print_json,
)


def _say(line: str) -> None:
    console.print(line, markup=False)


# -- play -------------------------------------------------------------------------------------
#: The game `play` sets up when no deck names one.
DEFAULT_GAME = "revolver"


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
                           fix="give PLAYER0_BOT,PLAYER1_BOT (colty's or esteban's first); "
                               f"each one of: {BOT_HELP}")
    return specs[0], specs[1]


def choose_decks(given: Mapping[str, str | None], game: str | None) -> tuple[str, dict[str, str]]:
    """The game to play and each side's deck (a file or a faction name), from the deck
    options given (`{"colty": "x.yaml", "esteban": None, ...}`) and `--game`.

    The decks name the game; with none, `--game` does (Revolver by default). A side without a
    deck plays its base deck. Decks of two games, or a `--game` they contradict, are refused.
    """
    from deckbuilder.errors import DeckError
    from deckbuilder.games import games, get_game

    known = games()
    game_of_side = {side: name for name, entry in known.items() for side in entry.side_names}
    named = {side: text for side, text in given.items() if text is not None}
    played: dict[str, str] = {}  # game -> the first option naming it
    for side in named:
        played.setdefault(game_of_side[side], side)
    if len(played) > 1:
        (first, first_side), (second, second_side) = list(played.items())[:2]
        raise DeckError(
            f"--{first_side} is a deck of {first} and --{second_side} one of {second}: "
            "a game is played with the decks of one game",
            fix="; ".join(f"{name}: " + " ".join(f"--{side}" for side in entry.side_names)
                          for name, entry in known.items()))
    if game is not None:
        get_game(game)
        if played and game not in played:
            (found, side), = played.items()
            raise DeckError(f"--{side} is a deck of {found}, but --game is {game}",
                            fix=f"leave --game out, or give decks of {game}: "
                                + " ".join(f"--{s}" for s in known[game].side_names))
    chosen = next(iter(played), game or DEFAULT_GAME)
    return chosen, {side: named.get(side, side) for side in get_game(chosen).side_names}


def _deck(text: str, faction: str, game: str, catalog: Any) -> tuple[str, dict[str, int]]:
    from deckbuilder.commands.simulate import load_sim_deck, side_error

    deck = load_sim_deck(text, catalog)
    if deck.faction != faction:
        raise side_error(f"--{faction}", faction, game, deck)
    for warning in deck.warnings:
        error_console.print(f"warning: {warning}", markup=False)
    return deck.name, deck.cards


def _deck_option(side: str, whose: str) -> Any:
    return typer.Option(f"--{side}", help=f"{whose} deck: a deck file, or {side} for the base "
                                          "deck (the default)", show_default=False)


def play(
    colty: Annotated[str | None, _deck_option("colty", "Revolver: the Colty gang's")] = None,
    mcready: Annotated[str | None, _deck_option("mcready", "Revolver: Colonel McReady's")] = None,
    esteban: Annotated[str | None, _deck_option(
        "esteban", "Revolver 2: Padre Esteban's (the guardians')")] = None,
    mapache: Annotated[str | None, _deck_option(
        "mapache", "Revolver 2: General Mapache's")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help="revolver or revolver2, when no deck is given (default: revolver)",
        show_default=False)] = None,
    bots: Annotated[str, typer.Option(
        "--bots", help="PLAYER0_BOT,PLAYER1_BOT, colty's or esteban's first (or one bot for "
                       "both): random, greedy, greedy:judge=playout, search, "
                       "search:rollouts=200")] = "greedy,greedy",
    seed: Annotated[int, typer.Option("--seed", help="the game's seed (same seed, same game)")] = 1,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="rule variant id (see `deckbuilder rules`); default: the game's own "
                          "(rulebook-en for revolver, rulebook-es for revolver2)")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch over the ruleset (repeatable)")] = None,
    max_turns: Annotated[int, typer.Option(
        "--max-turns", min=1, help="stop the game (a draw) after this many turns")] = 200,
    record: Annotated[Path | None, typer.Option(
        "--record", help="write the game as JSON lines to this file")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="print only the result, not the turn-by-turn account")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the record as JSON")] = False,
) -> None:
    """Play one seeded game between two bots and print what happened, turn by turn.

    The account shows what was drawn, played and paid, every attack, who died, the
    countdown (the Mexican Border, the Arrival of the Mexican Army) and the final position;
    in Revolver 2 also the poker tournament, recruitment, staying or moving on and the kegs.
    --record keeps the game for `deckbuilder replay`.
    """
    decks = {"colty": colty, "mcready": mcready, "esteban": esteban, "mapache": mapache}
    guarded(_play)(decks, game, bots, seed, ruleset, switch or [], max_turns, record, quiet,
                   as_json)


def _play(given: Mapping[str, str | None], game_name: str | None, bots: str, seed: int,
          ruleset: str | None, switch_texts: list[str], max_turns: int,
          record_path: Path | None, quiet: bool, as_json: bool) -> None:
    from deckbuilder.games import get_game
    from deckbuilder.sim.transcript import outcome_text, play_game
    from deckbuilder.yamlio import atomic_write_text

    catalog = load_catalog_for_cli()
    name, texts = choose_decks(given, game_name)
    game = get_game(name)
    ruleset = ruleset or game.default_ruleset
    switches = parse_switches(switch_texts, catalog, name)
    decks = [_deck(texts[side], side, name, catalog) for side in game.side_names]
    bot_specs = split_bots(bots)
    show = not (quiet or as_json)
    heading = (f"{game.title}, seed {seed}, ruleset {describe_rules(ruleset, switches)}: "
               + " against ".join(f"{side} ({deck_name}, bot {bot})" for side, (deck_name, _),
                                  bot in zip(game.side_names, decks, bot_specs, strict=True)))
    narrate = GameAccount(_say, heading) if show else None
    cards = [deck_cards for _, deck_cards in decks]
    if switches:
        state, record = play_with_switches(cards, seed, bot_specs, ruleset, catalog, name,
                                           max_turns, narrate, switches)
    else:
        state, record = play_game(cards, seed, bot_specs, ruleset, catalog, game=name,
                                  max_turns=max_turns, narrate=narrate)
    if record_path is not None:
        atomic_write_text(record_path, record_text(record, switches))
    if as_json:
        print_json({**record.header(), **({"switches": switches} if switches else {}),
                    "steps": [{"i": s.index, "player": s.player, "action": s.action,
                               "text": s.text} for s in record.steps],
                    "outcome": {"winner": record.winner, "termination": record.termination},
                    "turns": record.turns, "record_file": str(record_path or "") or None})
        return
    if show:
        _say("final position:")
        for line in final_position(state):
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

    The record names its game (Revolver or Revolver 2), decks, seed, ruleset and bots. Exit 1
    at the first step the engine now plays differently (or a different outcome), 2 if the
    file is not a readable record.
    """
    guarded(_replay)(file, quiet)


def _replay(path: Path, quiet: bool) -> None:
    from deckbuilder.games import get_game
    from deckbuilder.sim.transcript import outcome_text, read_record, replay_record

    record = read_record(path)
    switches = recorded_switches(path)
    game = get_game(record.game)
    catalog = load_catalog_for_cli()
    heading = None if quiet else (
        f"replaying {path}: {game.title}, seed {record.seed}, ruleset "
        f"{describe_rules(record.ruleset, switches)}, bots "
        + ", ".join(f"{who} {bot}" for who, bot in record.bots.items())
        + (f" (recorded with deckbuilder {record.version})" if record.version else ""))
    narrate = None if heading is None else GameAccount(_say, heading)
    result = (replay_with_switches(record, catalog, narrate, switches) if switches
              else replay_record(record, catalog, narrate))
    if result.mismatch is not None:
        line = "" if result.step is None else f":{result.step + 2}"
        raise fail(f"{path}{line}: the engine no longer reproduces this game: "
                   f"{result.mismatch}", EXIT_FAILED)
    _say(f"replayed {result.steps} actions: the same game ({outcome_text(record)})")


# -- the account ------------------------------------------------------------------------------
class GameAccount:
    """The readable account in the words of the game played: the heading (once the game is
    set up, so a refused set-up prints nothing), events as logged, the actions that caused
    them, and a status line whenever a new turn opens."""

    def __init__(self, emit: Callable[[str], None], heading: str | None = None) -> None:
        self.emit = emit
        self.heading = heading
        self.turn = -1

    def __call__(self, step: Any, events: list[str], state: Any) -> None:
        if self.heading is not None:
            self.emit(self.heading)
            self.heading = None
        if step is not None:
            self.emit(f"{step.index:>5} {step.player:<8} {step.text}")
        for event in events:
            self.emit(event if event.startswith("--") else f"{'':>6}{event}")
        # Turn 0 is Revolver 2's poker tournament: the row of battlefields is not laid yet.
        if state.turn != self.turn and state.turn > 0 and not state.is_terminal():
            self.turn = state.turn
            self.emit(f"{'':>6}[{status_line(state)}]")


def _has_pile(state: Any) -> bool:
    """Whether characters wait in a pile to be recruited (Revolver 2's guardians)."""
    return any(not character.starting for character in state.spec.bandits)


def _characters(state: Any) -> str:
    word = state.spec.hooks.attack_words[0]  # "gang", "guardians"
    alive = sum(state.alive)
    if not _has_pile(state):
        return f"{word} alive: {alive}/{len(state.alive)}"
    waiting = len(state.pile)
    return f"{word}: {alive} in play, {waiting} in the pile, " \
           f"{len(state.alive) - alive - waiting} dead"


def _symbols_in_hand(state: Any) -> list[str]:
    """Powder kegs and ammunition in hand, for the sides whose decks have any."""
    spec = state.spec
    names = spec.hooks.side_names
    parts = []
    for symbol, label in (("kegs", "powder kegs in hand"), ("ammunition", "ammunition in hand")):
        counts = [f"{names[p]} {sum(getattr(spec.card_def[u], symbol) for u in state.hands[p])}"
                  for p in (0, 1)
                  if any(getattr(spec.card_def[u], symbol) for u in spec.decks[p])]
        if counts:
            parts.append(f"{label}: {', '.join(counts)}")
    return parts


def status_line(state: Any) -> str:
    """Where the game stands: marker, countdown tokens, characters, hands and decks (for
    Revolver the same line as the golden transcripts' `transcript.status_line`)."""
    spec = state.spec
    marker = spec.bfs[state.marker_bf]
    names = spec.hooks.side_names
    parts = [f"marker: {marker.name} space {marker.labels[state.marker_space]}",
             f"{spec.hooks.countdown_name}: {state.countdown}", _characters(state),
             "hands: " + ", ".join(f"{names[p]} {len(state.hands[p])}" for p in (0, 1)),
             "decks: " + ", ".join(f"{names[p]} {len(state.decks[p])}" for p in (0, 1)),
             *_symbols_in_hand(state)]
    return " | ".join(parts)


def final_position(state: Any) -> list[str]:
    """`render(snapshot(...))`, with the countdown named as the game names it and, where
    characters wait in a pile, the pile told apart from the dead (`render` speaks Revolver)."""
    from deckbuilder.engine.position import render, snapshot

    hooks = state.spec.hooks
    lines = [line.replace("; border tokens: ", f"; {hooks.countdown_name} tokens: ", 1)
             if line.startswith("marker: ") else line
             for line in render(snapshot(state, legal=False))]
    if not _has_pile(state):
        return lines
    word = hooks.attack_words[0]
    spec = state.spec
    waiting = [spec.bandits[index].id for index in state.pile]
    dead = [character.id for character in spec.bandits
            if not state.alive[character.idx] and character.idx not in state.pile]
    told: list[str] = []
    for line in lines:
        if line.startswith("bandits alive ("):
            told.append(line.replace("bandits alive", f"{word} in play", 1))
            told.append(f"{word} in the pile ({len(waiting)}, face down)")
        elif line.startswith("bandits dead ("):
            told.append(f"{word} dead ({len(dead)}): {', '.join(dead) or '-'}")
        else:
            told.append(line)
    return told


# -- rule switches in records -----------------------------------------------------------------
# `sim/transcript.py` plays and replays with a ruleset only; until it takes single switches
# (and writes them in the header as "switches": {id: value}), these do it the same way.
def record_text(record: Any, switches: Mapping[str, str]) -> str:
    """The record as JSON lines, its header naming the switches played (if any)."""
    text = record.to_jsonl()
    if not switches:
        return text
    header, rest = text.split("\n", 1)
    return json.dumps({**json.loads(header), "switches": dict(switches)}) + "\n" + rest


def recorded_switches(path: Path) -> dict[str, str]:
    """The "switches" of a record's header (read_record has checked the rest of it)."""
    from deckbuilder.errors import Location
    from deckbuilder.sim.transcript import RecordError

    lines = path.read_text(encoding="utf-8").splitlines()
    number, header = next((n, line) for n, line in enumerate(lines, start=1) if line.strip())
    switches = json.loads(header).get("switches", {})
    if not isinstance(switches, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in switches.items()):
        raise RecordError("'switches' is not switch id -> variant", Location(path, number),
                          "restore the header line")
    return switches


def play_with_switches(decks: Sequence[Mapping[str, int]], seed: int, bots: Sequence[str],
                       ruleset: str, catalog: Any, game: str, max_turns: int,
                       narrate: Any, switches: Mapping[str, str]) -> tuple[Any, Any]:
    """`transcript.play_game` with single rule switches: the same bots, seeds and record."""
    from deckbuilder.bots import make_bot
    from deckbuilder.games import get_game, new_game
    from deckbuilder.sim.seeds import bot_seed
    from deckbuilder.sim.transcript import GameRecord, Step, package_version

    state = new_game(decks, seed, ruleset=ruleset, catalog=catalog, game=game,
                     max_turns=max_turns, verbose=True, switches=switches)
    names = get_game(game).side_names
    players = [make_bot(spec, get_game(game).heuristics) for spec in bots]
    rngs = [random.Random(bot_seed(seed, player)) for player in (0, 1)]
    record = GameRecord({names[p]: dict(sorted(decks[p].items())) for p in (0, 1)}, seed,
                        ruleset, {names[p]: players[p].name for p in (0, 1)}, game, max_turns,
                        package_version())
    if narrate is not None:
        narrate(None, _drain(state), state)
    while not state.is_terminal():
        player = state.current_player()
        state.verbose = False
        action = players[player].choose(state, rngs[player])
        state.verbose = True
        text = state.action_to_string(action)
        state.apply(action)
        step = Step(len(record.steps), names[player], action, text)
        record.steps.append(step)
        events = _drain(state)
        if narrate is not None:
            narrate(step, events, state)
    _set_outcome(state, record)
    return state, record


def replay_with_switches(record: Any, catalog: Any, narrate: Any,
                         switches: Mapping[str, str]) -> Any:
    """`transcript.replay_record` with single rule switches."""
    from deckbuilder.games import get_game, new_game
    from deckbuilder.sim.transcript import GameRecord, ReplayResult, outcome_text

    names = get_game(record.game).side_names
    state = new_game([record.decks[name] for name in names], record.seed,
                     ruleset=record.ruleset, catalog=catalog, game=record.game,
                     max_turns=record.max_turns, verbose=True, switches=switches)
    if narrate is not None:
        narrate(None, _drain(state), state)
    for step in record.steps:
        problem = _step_problem(state, step, names)
        if problem is not None:
            return ReplayResult(state, step.index, problem, step.index)
        state.apply(step.action)
        events = _drain(state)
        if narrate is not None:
            narrate(step, events, state)
    if not state.is_terminal():
        return ReplayResult(state, len(record.steps), "after the last recorded action the game "
                            f"is not over ({names[state.current_player()]} must still decide)",
                            len(record.steps))
    replayed = GameRecord({}, 0, "", {}, record.game)
    _set_outcome(state, replayed)
    if (replayed.winner, replayed.termination, replayed.turns) != \
            (record.winner, record.termination, record.turns):
        return ReplayResult(state, len(record.steps),
                            f"the outcome differs: recorded {outcome_text(record)}, "
                            f"replayed {outcome_text(replayed)}", len(record.steps))
    return ReplayResult(state, len(record.steps))


def _drain(state: Any) -> list[str]:
    lines = list(state.log)
    state.log.clear()
    return lines


def _set_outcome(state: Any, record: Any) -> None:
    outcome = state.outcome()
    names = state.spec.hooks.side_names
    record.winner = None if outcome.winner is None else names[outcome.winner]
    record.termination = outcome.termination.value
    record.turns = state.turn


def _step_problem(state: Any, step: Any, names: Sequence[str]) -> str | None:
    if state.is_terminal():
        return f"step {step.index}: the game is already over, but the record goes on " \
               f"('{step.text}')"
    player = names[state.current_player()]
    if player != step.player:
        return f"step {step.index}: the record has {step.player} '{step.text}', but now " \
               f"{player} must decide"
    legal = state.legal_actions()
    if step.action not in legal:
        return f"step {step.index}: the recorded action '{step.text}' ({step.action}) is not " \
               f"legal now (legal: {'; '.join(map(state.action_to_string, legal))})"
    text = state.action_to_string(step.action)
    if text != step.text:
        return f"step {step.index}: the record says '{step.text}', the engine now reads " \
               f"action {step.action} as '{text}'"
    return None


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

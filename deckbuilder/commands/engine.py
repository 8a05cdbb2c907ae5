"""`deckbuilder play`, `replay` and `scenario`: watch one game, check a record, ask the rules."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from deckbuilder.app.card_details import find_records
from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.data_notes import record_data_note
from deckbuilder.app.endings import outcome_sentence, side_title
from deckbuilder.app.play_decks import load_side_deck, sides_of_decks
from deckbuilder.app.switches import describe_rules, parse_switches, read_modules
from deckbuilder.app.table_words import (
    PlayerWords,
    action_card_id,
    choice_words,
    named_position_lines,
    worded_line,
)
from deckbuilder.bots import BOT_HELP, BotSpecError
from deckbuilder.card_face import face, face_text
from deckbuilder.commands.card_detail import text_width
from deckbuilder.commands.choices import BOTS, GAME, RULESET, SIDE
from deckbuilder.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    console,
    error_console,
    fail,
    guarded,
    print_json,
    safe,
)
from deckbuilder.engine.position import render, snapshot
from deckbuilder.errors import DeckbuilderError, DeckError
from deckbuilder.games import games, get_game
from deckbuilder.scenarios.model import load_scenario
from deckbuilder.scenarios.run import run_scenario
from deckbuilder.sim.sensitivity import data_in_force
from deckbuilder.sim.session import HUMAN, GameSession
from deckbuilder.sim.session_view import view_lines
from deckbuilder.sim.take_back import take_back
from deckbuilder.sim.transcript import (
    TextNarrator,
    play_game,
    read_record,
    replay_record,
)
from deckbuilder.writing import atomic_write_text, refuse_overwrite


def _say(line: str) -> None:
    """One line of an account or report: names and texts in it come from files (escaped)."""
    console.print(safe(line), markup=False)


def _say_worded(line: str) -> None:
    """A line of the game's account, its ending in words (`table_words.worded_line`)."""
    _say(worded_line(line))


# -- play -------------------------------------------------------------------------------------
#: The game `play` sets up when no deck names one.
DEFAULT_GAME = "revolver"


def split_bots(text: str) -> tuple[str, str]:
    """`greedy,search:rollouts=50,horizon=3` -> ("greedy", "search:rollouts=50,horizon=3").

    Commas separate the two bots and also a bot's options; a part that is only `key=value`
    belongs to the bot before it. One bot plays both sides.
    """
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


def choose_decks(given: Mapping[str, str | None], game: str | None,
                 human: str | None = None) -> tuple[str, dict[str, str]]:
    """The game to play and each side's deck (a file or a faction name), from the deck
    options given (`{"colty": "x.yaml", "esteban": None, ...}`), `--game` and `--human`.

    The decks name the game; with none, `--game` does, then the side `--human` takes
    (Revolver by default). A side without a deck plays its base deck. Decks of two games, or
    a `--game` or `--human` they contradict, are refused.
    """
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
    chosen = next(iter(played), game or game_of_side.get(human or "", DEFAULT_GAME))
    if human is not None and human not in get_game(chosen).side_names:
        raise DeckError(f"--human {human} is a side of {game_of_side.get(human, '?')}, but "
                        f"the game is {chosen}",
                        fix="--human " + " or --human ".join(get_game(chosen).side_names))
    return chosen, {side: named.get(side, side) for side in get_game(chosen).side_names}


def _deck(text: str, faction: str, game: str, catalog: Any,
          allow_illegal: bool) -> tuple[str, dict[str, int]]:
    deck = load_side_deck(text, faction, game, f"--{faction}", catalog, allow_illegal)
    for warning in deck.warnings:
        error_console.print(f"warning: {safe(warning)}", markup=False)
    return deck.name, deck.cards


def _deck_option(side: str, whose: str) -> Any:
    return typer.Option(f"--{side}", help=f"{whose} deck: a deck file, or {side} for the base "
                                          "deck (the default)", show_default=False)


def play(
    deck_files: Annotated[list[str] | None, typer.Argument(
        metavar="[DECK]...", show_default=False,
        help="one deck or two, each played by the side its faction names (a deck file, a "
             "faction for its base deck, or a packaged deck): `play my-deck.yaml`")] = None,
    colty: Annotated[str | None, _deck_option("colty", "Revolver: the Colty gang's")] = None,
    mcready: Annotated[str | None, _deck_option("mcready", "Revolver: Colonel McReady's")] = None,
    esteban: Annotated[str | None, _deck_option(
        "esteban", "Revolver 2: Padre Esteban's (the guardians')")] = None,
    mapache: Annotated[str | None, _deck_option(
        "mapache", "Revolver 2: General Mapache's")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help="revolver or revolver2, when no deck is given (default: revolver)",
        show_default=False, **GAME.option())] = None,
    bots: Annotated[str, typer.Option(
        "--bots", **BOTS.option(),
        help="PLAYER0_BOT,PLAYER1_BOT, colty's or esteban's first (or one bot for "
                       "both): random, greedy, greedy:judge=playout, search, "
                       "search:rollouts=200")] = "greedy,greedy",
    seed: Annotated[int, typer.Option("--seed", help="the game's seed (same seed, same game)")] = 1,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", **RULESET.option(),
        help="rule variant id (see `deckbuilder rules`); default: the game's own "
                          "(rulebook-en for revolver, rulebook-es for revolver2)")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch over the ruleset (repeatable)")] = None,
    module: Annotated[list[str] | None, typer.Option(
        "--module", help="a module to play with, by letter, id or name (repeatable; see "
                         "`deckbuilder rules`), e.g. A or saloon-duel")] = None,
    max_turns: Annotated[int, typer.Option(
        "--max-turns", min=1, help="stop the game (a draw) after this many turns")] = 200,
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
    human: Annotated[list[str] | None, typer.Option(
        "--human", **SIDE.option(),
        help="take this side yourself (colty, mcready, esteban or mapache) against the "
             "other side's --bots bot: the position, numbered actions, a prompt. Twice "
             "(--human colty --human mcready): two people at one screen, which asks to pass "
             "the device between their turns")] = None,
) -> None:
    """Play one seeded game between two bots (or you and a bot) and print it turn by turn.

    The account shows what was drawn, played and paid, every attack, who died, the
    countdown (the Mexican Border, the Arrival of the Mexican Army) and the final position;
    in Revolver 2 also the poker tournament, recruitment, staying or moving on and the kegs.
    With --human SIDE you play that side: at each of your decisions the position as you see
    it (not the opponent's hand), the legal actions numbered, and a prompt (a number; ? shows
    the position again; q quits). With --human for both sides two people play at one screen,
    which is cleared between their turns. --record keeps the game for `deckbuilder replay`.
    """
    decks: dict[str, str | None] = {"colty": colty, "mcready": mcready, "esteban": esteban,
                                    "mapache": mapache}
    if deck_files:
        decks = guarded(sides_of_decks)(deck_files, decks, project_catalog())
    if human:
        code = guarded(_play_human)(decks, game, human, bots, seed, ruleset, switch or [],
                                    max_turns, record, quiet, as_json, allow_illegal,
                                    module or [], force)
        raise typer.Exit(code)
    guarded(_play)(decks, game, bots, seed, ruleset, switch or [], max_turns, record, quiet,
                   as_json, allow_illegal, module or [], force)


def _play(given: Mapping[str, str | None], game_name: str | None, bots: str, seed: int,
          ruleset: str | None, switch_texts: list[str], max_turns: int,
          record_path: Path | None, quiet: bool, as_json: bool,
          allow_illegal: bool = False, modules: Sequence[str] = (), force: bool = False) -> None:
    if record_path is not None:
        refuse_overwrite(record_path, force)  # before the game, not after it

    catalog = project_catalog()
    name, texts = choose_decks(given, game_name)
    game = get_game(name)
    ruleset = ruleset or game.default_ruleset
    switches = parse_switches(switch_texts, catalog, name)
    modules = read_modules(modules, catalog, name)
    decks = [_deck(texts[side], side, name, catalog, allow_illegal) for side in game.side_names]
    bot_specs = split_bots(bots)
    show = not (quiet or as_json)
    heading = (f"{game.title}, seed {seed}, ruleset {describe_rules(ruleset, switches)}: "
               + " against ".join(f"{side} ({deck_name}, bot {bot})" for side, (deck_name, _),
                                  bot in zip(game.side_names, decks, bot_specs, strict=True)))
    narrate = TextNarrator(_say_worded, heading=heading) if show else None
    state, record = play_game([deck_cards for _, deck_cards in decks], seed, bot_specs, ruleset,
                              catalog, game=name, max_turns=max_turns, narrate=narrate,
                              switches=switches, modules=modules)
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


#: The exit code of a game left before its end (q, Ctrl-C, the end of the input), as for any
#: interrupted command: no result, and no record (a record is of a whole game).
EXIT_ABANDONED = 130
#: What the prompt line ends with (the pseudo-terminal tests read up to it).
PROMPT_END = "> "


class _Abandoned(Exception):
    """The person left the game: `q`, Ctrl-C or the end of the input."""


def _play_human(given: Mapping[str, str | None], game_name: str | None,
                humans: Sequence[str], bots: str, seed: int, ruleset: str | None,
                switch_texts: list[str], max_turns: int, record_path: Path | None,
                quiet: bool, as_json: bool, allow_illegal: bool, modules: Sequence[str],
                force: bool) -> int:
    """`play --human SIDE`: the person takes SIDE, the other side's --bots bot the other;
    `--human A --human B`: two people at one screen (`_converse` asks to pass the device).

    --json is refused (the game is a conversation, not a document: record it and read the
    record); --quiet leaves out the account of the game (the events), not the position, the
    actions and the prompt. The exit code: 0 at the game's end, EXIT_ABANDONED when left.
    """
    if as_json:
        raise DeckbuilderError("--human plays in the terminal; --json is for games between "
                               "bots", fix="leave out --json (--record FILE keeps the game "
                                           "as JSON lines)")
    if record_path is not None:
        refuse_overwrite(record_path, force)
    if len(set(humans)) != len(humans) or len(humans) > 2:
        raise DeckbuilderError(f"--human {' --human '.join(humans)}: each side is played by "
                               "one person", fix="--human SIDE once, or once for each side")
    catalog = project_catalog()
    name, texts = choose_decks(given, game_name, humans[0])
    game = get_game(name)
    for side in humans[1:]:
        if side not in game.side_names:
            raise DeckError(f"--human {side} is not a side of {name}",
                            fix="--human " + " --human ".join(game.side_names))
    ruleset = ruleset or game.default_ruleset
    switches = parse_switches(switch_texts, catalog, name)
    modules = read_modules(modules, catalog, name)
    decks = [_deck(texts[side], side, name, catalog, allow_illegal) for side in game.side_names]
    people = sorted(game.side_names.index(side) for side in humans)
    seats = [HUMAN if player in people else spec
             for player, spec in enumerate(split_bots(bots))]
    session = GameSession([cards for _, cards in decks], seed, seats, ruleset, catalog,
                          game=name, max_turns=max_turns, switches=switches, modules=modules)
    _say(f"{game.title}, seed {seed}, ruleset {describe_rules(ruleset, switches)}: "
         + " against ".join(f"{side} ({deck_name}, "
                            + (("you" if len(people) == 1 else "a person") if seat == HUMAN
                               else f"bot {seat}") + ")"
                            for side, (deck_name, _), seat
                            in zip(game.side_names, decks, seats, strict=True)))
    who = (f"you play {humans[0]}" if len(people) == 1
           else f"two people: {side_title(game.side_names[0])} and "
                f"{side_title(game.side_names[1])}, the screen cleared between their turns")
    _say(f"{who}: answer with the number of an action; ? shows the position "
         "again, ? N the card of action N, ?NAME a card (?deputy), "
         + ("u takes back your last decision, " if len(people) == 1 else "") + "q quits")
    me = people[0]
    try:
        me = _converse(session, people, quiet, catalog)
    except _Abandoned as left:
        error_console.print(safe(f"{left}: the game is left at turn {session.state.turn}"
                                 + ("; no record written" if record_path else "")),
                            markup=False)
        return EXIT_ABANDONED
    if record_path is not None:
        atomic_write_text(record_path, session.record_jsonl())
    _say("final position:")
    final = (_view_lines(session.view(me), catalog) if len(people) == 1
             else named_position_lines(session.state))  # two people: the game is over
    for line in final:
        _say(f"  {line}")
    played = session.record
    _say(f"result: {outcome_sentence(played.winner, played.termination, played.turns)}, "
         f"{len(played.steps)} actions"
         + (f"; recorded to {record_path}" if record_path is not None else ""))
    return EXIT_OK


def _view_lines(view: dict[str, Any], catalog: Any) -> list[str]:
    """The position as the person sees it, in a player's words (`table_words.PlayerWords`)."""
    return view_lines(view, PlayerWords(catalog))


def _converse(session: Any, people: Sequence[int], quiet: bool, catalog: Any) -> int:
    """Bots move; at each decision of a person the events he has not read (as he may read
    them), the position (in full when his turn starts or the other side moved; just the hand
    for the steps inside one move), the numbered actions, the prompt; until the game ends.
    With two people the screen is cleared and the device passed between them. The person who
    moved last."""
    session.advance()
    read = dict.fromkeys(people, 0)  # how many events each person has been shown
    last: int | None = None
    while True:
        me = session.waiting_for()
        if me is None:  # the end: the last mover reads how it ended
            who = people[0] if last is None else last
            _show_events(session.events(who)[read[who]:], quiet)
            return who
        if last is not None and me != last:
            _pass_device(session, me)
        new = session.events(me)[read[me]:]
        read[me] += len(new)
        _show_events(new, quiet)
        others_moved = any(event.player != session.names[me] for event in new)
        full = others_moved or me != last or session.decision() == "play phase"
        last = me
        answer = _ask(session, me, full, catalog)
        if answer == TAKEN_BACK:  # the game played again without his last decision
            read = {person: len(session.events(person)) for person in people}
            last = None
            continue
        session.act(answer)


def _show_events(events: Sequence[Any], quiet: bool) -> None:
    if quiet:
        return
    for event in events:
        for line in event.text_lines():
            _say_worded(line)


#: Clears a terminal's screen and its scroll-back, and puts the cursor at the top.
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"


def _pass_device(session: Any, to: int) -> None:
    """Between two people's turns: the screen cleared (the last one's hand gone), and a
    prompt for the next one to say he holds the device."""
    if console.is_terminal:
        console.file.write(CLEAR_SCREEN)
    else:
        _say("\n" * 3)
    _say(f"-- pass the device to {side_title(session.names[to])} --")
    answer = _read(f"{session.names[to]}: press Enter when only you can see the screen "
                   f"(q quits){PROMPT_END}")
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise _Abandoned("you quit")


def _ask(session: Any, me: int, full: bool, catalog: Any) -> int:
    """Show the decision and read a number until it is one of the actions (`?` the position
    again, `? N` the card of action N, `?NAME` a card)."""
    choices = session.choices()
    view = session.view(me)
    lines = _view_lines(view, catalog)
    hand_at = next((i for i, line in enumerate(lines) if line.startswith("your hand (")),
                   len(lines) - 1)
    _show_decision(session, lines if full else lines[hand_at:], choices, catalog)
    prompt = f"{session.names[me]} [1-{len(choices)}, ? q]{PROMPT_END}"
    while True:
        answer = _read(prompt).strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise _Abandoned("you quit")
        if answer.lower() in ("?", "h", "help"):
            _show_decision(session, lines, choices, catalog)
            continue
        if answer.startswith("?"):
            _show_card(session, answer[1:].strip(), choices, catalog)
            continue
        if answer.lower() in ("u", "undo"):
            try:
                _say(f"taken back: {take_back(session, catalog)}")
                return TAKEN_BACK
            except DeckbuilderError as error:
                _say(str(error))
                continue
        number = _action_number(answer.lower(), len(choices))
        if number is not None:
            return int(choices[number - 1].action)
        if answer:
            shown = answer if len(answer) <= SHOWN_ANSWER else answer[:SHOWN_ANSWER] + "..."
            _say(f"'{shown}' is not one of the actions: give a number from 1 to "
                 f"{len(choices)} (? shows the position, ? N or ?NAME a card, q quits)")


#: How much of a wrong answer the prompt repeats (a pasted page is not echoed back whole).
SHOWN_ANSWER = 40
#: What `_ask` returns when the person took back his last decision (`u`; sim/take_back.py).
TAKEN_BACK = -1


def _action_number(answer: str, count: int) -> int | None:
    """The answer as an action's number (1 to `count`), or None. Only ASCII digits count:
    `str.isdigit` also says yes to '²' (which `int` refuses), and `int` refuses more than
    4,300 digits; neither may end the game."""
    digits = answer.lstrip("0")
    if not answer.isascii() or not answer.isdigit() or len(digits) > len(str(count)):
        return None
    number = int(digits or "0")
    return number if 1 <= number <= count else None


def _show_decision(session: Any, lines: list[str], choices: Sequence[Any],
                   catalog: Any) -> None:
    _say("")
    for line in lines:
        _say(f"  {line}")
    _say(f"your decision: {session.decision()}")
    width = len(str(len(choices)))
    for number, choice in enumerate(choices, start=1):
        _say(f"  {number:>{width}}. "
             + choice_words(session.state, choice.action, choice.text, catalog))


def _show_card(session: Any, asked: str, choices: Sequence[Any], catalog: Any) -> None:
    """`? N`: the face of the card action N names; `?NAME`: the card NAME names (a unique
    start of a name will do), in the game played. A wrong one says why, and the game goes
    on."""
    number = _action_number(asked, len(choices))
    try:
        if number is not None:
            card_id = action_card_id(session.state, int(choices[number - 1].action))
            if card_id is None or card_id not in catalog.entries:
                _say(f"action {number} ({choices[number - 1].text}) names no card")
                return
            entries = [catalog.entries[card_id]]
        elif asked:
            entries = find_records(catalog, asked, session.game)[:1]
        else:
            return
    except DeckbuilderError as error:
        _say(str(error))
        return
    for entry in entries:
        _say("")
        for line in face_text(face(entry, catalog), max(text_width() - 2, 40)):
            _say(f"  {line}")


def _read(prompt: str) -> str:
    """One line typed by the person (the prompt escaped, as all file text is).

    The line is read as bytes and decoded leniently: bytes that are not text in the
    terminal's encoding are a wrong answer (asked again), not the end of the game.
    """
    console.print(safe(prompt), end="", markup=False)
    console.file.flush()
    try:
        line = _read_line(sys.stdin)
    except KeyboardInterrupt:
        console.print("")
        raise _Abandoned("interrupted") from None
    if not line:
        console.print("")
        raise _Abandoned("end of input")
    return line


def _read_line(stream: Any) -> str:
    """A line of `stream` (sys.stdin), undecodable bytes replaced (U+FFFD)."""
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stream (a test's StringIO): already text
        return str(stream.readline())
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return bytes(binary.readline()).decode(encoding, errors="replace")


# -- replay -----------------------------------------------------------------------------------
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
                        "turn N, v 0/1/a viewer, q quits)")] = False,
) -> None:
    """Step through a recorded game again and check the engine still plays it the same way.

    The record names its game (Revolver or Revolver 2), decks, seed, ruleset and bots. Exit 1
    at the first step the engine now plays differently (or a different outcome), 2 if the
    file is not a readable record (every such error names the file).
    """
    if watch:
        from deckbuilder.commands.replay_watch import watch as watch_game

        raise typer.Exit(guarded(watch_game)(file, as_json))
    guarded(_replay)(file, quiet or as_json, as_json)


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
        print_json({**_replay_summary(path, record, result), "data": record.data,
                    "data_now": data_in_force(catalog), "data_note": data_note})
    elif data_note is not None:
        _say(f"note: {data_note}")
    if result.mismatch is not None:
        line = "" if result.step is None else f":{result.step + 2}"
        raise fail(f"{path}{line}: the engine no longer reproduces this game: "
                   f"{result.mismatch}", EXIT_FAILED)
    if not as_json:
        _say(f"replayed {result.steps} actions: the same game "
             f"({outcome_sentence(record.winner, record.termination, record.turns)})")


def _replay_summary(path: Path, record: Any, result: Any) -> dict[str, Any]:
    """`replay --json`: what the record says, and whether the engine still plays it so."""
    return {
        "record_file": str(path), "game": record.game, "seed": record.seed,
        "ruleset": record.ruleset, "switches": record.switches, "modules": record.modules,
        "max_turns": record.max_turns, "bots": record.bots, "decks": record.decks,
        "recorded_with": record.version or None,
        "outcome": {"winner": record.winner, "termination": record.termination},
        "turns": record.turns, "steps": len(record.steps), "replayed_steps": result.steps,
        "matches": result.mismatch is None, "mismatch": result.mismatch,
        "mismatch_step": result.step if result.mismatch is not None else None,
    }


# -- scenario ---------------------------------------------------------------------------------
def scenario(
    files: Annotated[list[Path], typer.Argument(
        help="scenario files (scenario.schema.json)", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", **RULESET.option(),
        help="play it under this ruleset instead of the file's")] = None,
    switch: Annotated[list[str] | None, typer.Option(
        "--switch", help="ID=VALUE: one rule switch over the file's (repeatable)")] = None,
    module: Annotated[list[str] | None, typer.Option(
        "--module", help="play it with these modules instead of the file's (repeatable)")] = None,
) -> None:
    """Set up each scenario's position, play its actions and check what it expects.

    Exit 0 when every expectation of every file holds, 1 when one fails (named with its
    file:line:col), 2 when a file cannot be read (the worst over the files; each one is
    reported). --ruleset, --switch and --module ask the same question under another reading.
    """
    code = guarded(_scenarios)(files, as_json, ruleset, switch or [], module)
    raise typer.Exit(code)


def _scenarios(paths: Sequence[Path], as_json: bool, ruleset: str | None = None,
               switch_texts: Sequence[str] = (), modules: list[str] | None = None) -> int:
    """Run every file; one file's failure or error does not stop the others."""
    catalog = project_catalog()
    results: list[dict[str, Any]] = []
    exit_code = EXIT_OK
    for index, path in enumerate(paths):
        if index and not as_json:
            _say("")
        try:
            data, passed = _scenario(catalog, path, as_json, ruleset, switch_texts, modules)
        except DeckbuilderError as error:
            error_console.print(f"error: {safe(error)}", markup=False)
            results.append({"scenario": str(path), "passed": None, "error": error.message})
            exit_code = EXIT_BAD_INPUT
            continue
        results.append(data)
        if not passed:
            exit_code = max(exit_code, EXIT_FAILED)
    if as_json:
        print_json(results[0] if len(results) == 1 else results)
    return exit_code


def _scenario(catalog: Any, path: Path, as_json: bool, ruleset: str | None = None,
              switch_texts: Sequence[str] = (),
              modules: list[str] | None = None) -> tuple[dict[str, Any], bool]:
    """One scenario: its JSON object and whether it passed (the text account is printed,
    and a failed expectation as one line on stderr)."""
    switches = None
    if switch_texts:
        game = load_scenario(path)[0].game
        switches = parse_switches(switch_texts, catalog, game)
    result = run_scenario(path, catalog, ruleset=ruleset, switches=switches, modules=modules)
    data = snapshot(result.state)
    if not as_json:
        _say(f"scenario: {result.scenario.name}")
        for number, line in enumerate(result.scenario.rule.strip().splitlines()):
            _say(f"{'rule: ' if number == 0 else '      '}{line}")
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

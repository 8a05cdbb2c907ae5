"""`deckbuilder play --human`: a person (or two at one screen, the screen cleared and the
device passed between their turns) at the table in the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from deckbuilder.app.catalogs import project_catalog
from deckbuilder.app.endings import outcome_sentence, side_title
from deckbuilder.app.switches import describe_rules, parse_switches, read_modules
from deckbuilder.app.table_words import PlayerWords, choice_words
from deckbuilder.catalog import Catalog
from deckbuilder.commands import choice_prompt as asking
from deckbuilder.commands.common import EXIT_OK, console, error_console, safe, typed_line
from deckbuilder.commands.common import say as _say
from deckbuilder.commands.play_setup import choose_decks, split_bots
from deckbuilder.commands.play_setup import side_deck as _deck
from deckbuilder.errors import DeckbuilderError, DeckError
from deckbuilder.games import get_game
from deckbuilder.sim.records.session import HUMAN, Choice, GameSession
from deckbuilder.sim.records.session_view import view_lines
from deckbuilder.sim.records.take_back import take_back
from deckbuilder.writing import atomic_write_text, refuse_overwrite

#: The exit code of a game left before its end (q, Ctrl-C, the end of the input), as for any
#: interrupted command: no result, and no record (a record is of a whole game).
EXIT_ABANDONED = 130


class _Abandoned(Exception):
    """The person left the game: `q`, Ctrl-C or the end of the input."""


def play_human(given: Mapping[str, str | None], game_name: str | None,
                humans: Sequence[str], bots: str, seed: int, ruleset: str | None,
                switch_texts: list[str], max_turns: int, record_path: Path | None,
                quiet: bool, as_json: bool, allow_illegal: bool, modules: Sequence[str],
                force: bool) -> int:
    """`play --human SIDE` against a bot, or `--human A --human B`. --json is refused: the game
    is a conversation, not a document (--record keeps it)."""
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
    # two people: the game is over, everything is open
    for line in view_lines(session.view(me if len(people) == 1 else None), PlayerWords(catalog)):
        _say(f"  {line}")
    played = session.record
    _say(f"result: {outcome_sentence(played.winner, played.termination, played.turns)}, "
         f"{len(played.steps)} actions"
         + (f"; recorded to {record_path}" if record_path is not None else ""))
    return EXIT_OK


def _converse(session: GameSession, people: Sequence[int], quiet: bool, catalog: Catalog) -> int:
    """Bots move; at each decision of a person his unread events, the position and a prompt,
    until the game ends. The person who moved last."""
    session.advance()
    read = dict.fromkeys(people, 0)  # how many events each person has been shown
    last: int | None = None
    while True:
        me = session.waiting_for()
        if me is None:  # the end: the last mover reads how it ended
            who = people[0] if last is None else last
            asking.say_events(session.events(who)[read[who]:] if not quiet else ())
            return who
        if last is not None and me != last:
            _pass_device(session, me)
        new = session.events(me)[read[me]:]
        read[me] += len(new)
        asking.say_events(new if not quiet else ())
        others_moved = any(event.player != session.names[me] for event in new)
        full = others_moved or me != last or session.decision() == "play phase"
        last = me
        answer = _ask(session, me, full, catalog)
        if isinstance(answer, str):  # taken back: the game played again without his last one
            read = {person: len(session.events(person)) for person in people}
            last = None
            continue
        session.act(answer)


#: Clears a terminal's screen and its scroll-back, and puts the cursor at the top.
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"


def _pass_device(session: GameSession, to: int) -> None:
    """Between two people's turns: the screen cleared (the last one's hand gone)."""
    if console.is_terminal:
        console.file.write(CLEAR_SCREEN)
    else:
        _say("\n" * 3)
    _say(f"-- pass the device to {side_title(session.names[to])} --")
    answer = _read(f"{session.names[to]}: press Enter when only you can see the screen "
                   f"(q quits){asking.PROMPT_END}")
    if answer.strip().lower() in asking.LEAVE_WORDS:
        _quit()


def _ask(session: GameSession, me: int, full: bool, catalog: Catalog) -> int | str:
    """Show the decision (just the hand for a step inside one move) and read an answer."""
    choices = session.choices()
    view = session.view(me)
    lines = view_lines(view, PlayerWords(catalog))
    hand_at = next((i for i, line in enumerate(lines) if line.startswith("your hand (")),
                   len(lines) - 1)
    _show_decision(session, lines if full else lines[hand_at:], choices, catalog)

    def undo() -> str | None:
        try:
            _say(f"taken back: {take_back(session, catalog)}")
        except DeckbuilderError as error:
            _say(str(error))
            return None
        return TAKEN_BACK

    return asking.ask_action(
        f"{session.names[me]} [1-{len(choices)}, ? q]{asking.PROMPT_END}", choices, view,
        _read, _say, show=lambda: _show_decision(session, lines, choices, catalog),
        show_card=lambda asked: asking.show_card(asked, choices, catalog, _say, session.game),
        commands={**dict.fromkeys(asking.LEAVE_WORDS, _quit), "u": undo, "undo": undo},
        wrong="? shows the position, ? N or ?NAME a card, w why a card is not offered, q quits",
        declined=lambda: _show_decision(session, [], choices, catalog))


#: What `_ask` returns when the person took back his last decision (`u`; sim/records/take_back.py).
TAKEN_BACK = "taken back"


def _show_decision(session: GameSession, lines: list[str], choices: Sequence[Choice],
                   catalog: Catalog) -> None:
    for line in asking.decision_lines(lines, session.decision(), [(
            choice.group, choice.key, choice_words(session.state, choice.action, choice.text,
                                                   catalog)) for choice in choices]):
        _say(line)


def _quit() -> NoReturn:
    raise _Abandoned("you quit")


def _read(prompt: str) -> str:
    """One line typed; the end of the input or Ctrl-C leaves the game."""
    try:
        line = typed_line(prompt)
    except KeyboardInterrupt:
        console.print("")
        raise _Abandoned("interrupted") from None
    if not line:
        console.print("")
        raise _Abandoned("end of input")
    return line


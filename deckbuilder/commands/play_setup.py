"""What every game command sets up alike: the game and each side's deck from the options, the
bots, and a deck changed by swaps or laid out along another (`aligned_decks`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deckbuilder.app.play_decks import load_side_deck, load_sim_deck
from deckbuilder.app.table_words import worded_line
from deckbuilder.bots import BOT_HELP, BotSpecError
from deckbuilder.catalog import Catalog
from deckbuilder.commands.common import error_console, safe, say
from deckbuilder.declared import DECLARATIONS
from deckbuilder.errors import DeckError
from deckbuilder.games import games, get_game
from deckbuilder.legality import PLAY_TESTING, validate_deck
from deckbuilder.models import Deck
from deckbuilder.sim.optimiser.optimize_candidates import Swap, apply_swaps, resolve_card
from deckbuilder.sim.runs.aligned import SeatOrders, seat_orders


def say_worded(line: str) -> None:
    say(worded_line(line))


#: The game `play` sets up when no deck names one: the first declared.
DEFAULT_GAME = DECLARATIONS[0].id
#: Whose bot `--bots` names first: each game's first side ("colty's or esteban's").
FIRST_SIDES = " or ".join(f"{declaration.side_ids[0]}'s" for declaration in DECLARATIONS)


def either(words: Sequence[str]) -> str:
    """Words as a help text offers them: "a, b or c"."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def split_bots(text: str) -> tuple[str, str]:
    """`greedy,search:rollouts=50,horizon=3` -> ("greedy", "search:rollouts=50,horizon=3"):
    a part that is only `key=value` belongs to the bot before it; one bot plays both sides."""
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
                           fix=f"give PLAYER0_BOT,PLAYER1_BOT ({FIRST_SIDES} first); "
                               f"each one of: {BOT_HELP}")
    return specs[0], specs[1]


def choose_decks(given: Mapping[str, str | None], game: str | None,
                 human: str | None = None) -> tuple[str, dict[str, str]]:
    """The game (named by the decks, else `--game`, else the side `--human` takes) and each
    side's deck (a file or a faction name; a side without one plays its base deck)."""
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


def side_deck(text: str, faction: str, game: str, catalog: Catalog,
          allow_illegal: bool) -> tuple[str, dict[str, int]]:
    deck = load_side_deck(text, faction, game, f"--{faction}", catalog, allow_illegal)
    for warning in deck.warnings:
        error_console.print(f"warning: {safe(warning)}", markup=False)
    return deck.name, deck.cards


def read_swap(text: str, catalog: Catalog, game: str) -> Swap:
    """`--swap OUT=IN[:COUNT]` (ids or names): COUNT copies (1 by default) of OUT for IN."""
    out, equals, rest = text.partition("=")
    into, _, count = rest.partition(":")
    count = count.strip() or "1"
    if not equals or not out.strip() or not into.strip() or not count.isdigit() \
            or not 0 < int(count) < 100:
        raise DeckError(f"--swap '{text}' is not OUT=IN or OUT=IN:COUNT",
                        fix="e.g. --swap texas-ranger=deputy:10 (ten Texas Rangers out, ten "
                            "Deputies in)")
    return Swap(resolve_card(catalog, out.strip(), game), resolve_card(catalog, into.strip(), game),
                int(count))


def aligned_decks(decks: Sequence[tuple[str, dict[str, int]]], game: str, catalog: Catalog,
                  swaps: Sequence[str] = (), aligned_with: str | None = None,
                  allow_illegal: bool = False
                  ) -> tuple[list[tuple[str, dict[str, int]]], SeatOrders]:
    """The decks with `--swap` applied, laid out as `optimize` lays out its paired games, so
    `play --seed S` replays the game with the swap that `optimize` played on seed S."""
    played = [(name, dict(cards)) for name, cards in decks]
    if not swaps and aligned_with is None:
        return played, (None, None)
    sides = get_game(game).side_names
    if aligned_with is not None:
        reference = load_sim_deck(aligned_with, catalog, allow_illegal=True)
        if reference.faction not in sides:
            raise DeckError(f"--aligned-with {aligned_with} is a {reference.faction} deck, "
                            f"no side of this {game} game",
                            fix="give a deck of " + " or ".join(sides))
        side, along = sides.index(reference.faction), reference.cards
    else:
        along = {}
    if swaps:
        changes = [read_swap(text, catalog, game) for text in swaps]
        holders = [i for i, (_, cards) in enumerate(played)
                   if apply_swaps(cards, changes) is not None]
        if not holders:
            raise DeckError(f"no deck of this game holds the cards --swap takes out "
                            f"({', '.join(c.out for c in changes)}, as many as asked)",
                            fix="name cards (ids or names) and counts the deck holds")
        side = holders[0]
        name, cards = played[side]
        changed = apply_swaps(cards, changes)
        assert changed is not None
        if not allow_illegal:
            model = Deck(name=name, game=game, faction=sides[side], cards=changed)
            report = validate_deck(model, catalog, supply=PLAY_TESTING)
            if not report.is_legal:
                raise DeckError(f"with --swap the {sides[side]} deck is illegal: "
                                f"{report.violations[0].message}",
                                fix="swap cards the deck-building rules allow, or add "
                                    "--allow-illegal to play-test it anyway")
        along = along or cards
        played[side] = (f"{name} with " + "; ".join(
            f"{c.count}x {c.out} -> {c.into}" for c in changes), changed)
    return played, seat_orders(played[side][1], along, side)
